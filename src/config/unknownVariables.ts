/**
 * Typo warnings: an unknown variable with one of the app's prefixes, naming the nearest known
 * variable. The edit distance is written here (twenty lines) because no dependency offers one.
 */
import type { ConfigProblem, ConfigWarning } from './problems.js';
import { EnvSchema } from './schema.js';

/**
 * Prefixes of the app's own variables. An unknown variable with one of them is most likely a
 * misspelling (ERP_TENNANT_ID), which would otherwise be ignored in silence.
 */
const APP_PREFIXES = [
  'SLACK_',
  'ERP_',
  'REDIS_',
  'CACHE_',
  'CONTACT_',
  'STOCK_',
  'CATALOGUE_',
  'WATCH_',
  'SHARE_',
  'QUEUE_',
  'FAIR_',
  'AUDIT_',
];

/** Variables with those prefixes the app does not read but other tools do. */
const NOT_OURS = new Set(['SLACK_CLIENT_ID', 'SLACK_CLIENT_SECRET']);

/** A warning for each unknown variable that looks like the app's, naming the nearest known one. */
export function unknownVariableWarnings(source: NodeJS.ProcessEnv): ConfigWarning[] {
  const known = Object.keys(EnvSchema.shape);
  const warnings: ConfigWarning[] = [];
  for (const name of Object.keys(source).sort()) {
    if (known.includes(name) || NOT_OURS.has(name)) continue;
    if (!APP_PREFIXES.some((prefix) => name.startsWith(prefix))) continue;
    const nearest = nearestName(name, known);
    warnings.push({
      variable: name,
      message: nearest
        ? `is not a variable this app reads: did you mean ${nearest}?`
        : 'is not a variable this app reads (see .env.example for the list)',
    });
  }
  return warnings;
}

/**
 * A problem with a variable that is missing, while one set differs from it only by
 * underscores or case (ERP_TENANTID for ERP_TENANT_ID): the fix names what was set. Start-up
 * stops on the problem, so the typo warning alone would never be read.
 */
export function withSpellingHint(problem: ConfigProblem, source: NodeJS.ProcessEnv): ConfigProblem {
  const { variable } = problem;
  if (source[variable] !== undefined) return problem;
  const squeezed = squeeze(variable);
  const set = Object.keys(source).find((name) => name !== variable && squeeze(name) === squeezed);
  return set === undefined
    ? problem
    : { ...problem, fix: `${set} is set: did you mean ${variable}? ${problem.fix}` };
}

const squeeze = (name: string) => name.replace(/_/g, '').toUpperCase();

function nearestName(name: string, known: readonly string[]): string | undefined {
  let best: { name: string; distance: number } | undefined;
  for (const candidate of known) {
    const distance = editDistance(name, candidate);
    if (!best || distance < best.distance) best = { name: candidate, distance };
  }
  // Further than a third of the name is no longer a misspelling.
  return best && best.distance <= Math.max(2, Math.floor(name.length / 3)) ? best.name : undefined;
}

/** Levenshtein distance, on two rows. */
function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i += 1) {
    const current = [i];
    for (let j = 1; j <= b.length; j += 1) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      current[j] = Math.min(
        (previous[j] ?? 0) + 1,
        (current[j - 1] ?? 0) + 1,
        (previous[j - 1] ?? 0) + cost,
      );
    }
    previous = current;
  }
  return previous[b.length] ?? 0;
}
