/** The `.env` file: loaded with Node's own loader once no value of the app's in it is quoted. */
import { existsSync, readFileSync } from 'node:fs';
import { isQuoted } from './crossCheck.js';
import { ConfigError, type ConfigProblem, fixFor } from './problems.js';
import { EnvSchema } from './schema.js';

/**
 * Loads `.env` from the working directory if there is one (Node's own loader). Node's loader
 * strips quotes around a value and `docker run --env-file` keeps them, so one file would mean
 * two things: a quoted value of the app's is refused here, with the same words as the check
 * on the environment, and the file means the same to both.
 */
export function loadDotEnv(path = '.env'): boolean {
  if (!existsSync(path)) return false;
  const known = new Set(Object.keys(EnvSchema.shape));
  const problems: ConfigProblem[] = [];
  for (const line of readFileSync(path, 'utf8').split(/\r?\n/)) {
    const match = /^\s*(?:export\s+)?([A-Za-z_][A-Za-z0-9_]*)\s*=\s*(.*?)\s*$/.exec(line);
    if (match?.[1] && known.has(match[1]) && isQuoted(match[2] ?? '')) {
      problems.push({
        variable: match[1],
        problem: `is wrapped in quotes in ${path}`,
        fix: fixFor('quotes'),
      });
    }
  }
  if (problems.length > 0) throw new ConfigError(problems);
  process.loadEnvFile(path);
  return true;
}
