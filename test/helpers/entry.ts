/**
 * The app's entry point as `npm start` names it, so the container test and the start-up
 * smoke test run what operators run. Works whether `start` runs TypeScript through tsx
 * (`tsx src/main.ts`) or the compiled file (`node --enable-source-maps dist/main.js`).
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';

export const repoRoot = fileURLToPath(new URL('../..', import.meta.url));

const PackageJson = z.object({ scripts: z.object({ start: z.string().min(1) }) });

export interface StartCommand {
  /** Variables the command sets before the runner (`MALLOC_ARENA_MAX=2 node …`). */
  env: Record<string, string>;
  /** `node` or `tsx`. */
  runner: string;
  /** Options before the entry file, e.g. `--enable-source-maps`. */
  flags: string[];
  /** Relative to the repository, e.g. `dist/main.js`. */
  entry: string;
}

/**
 * Splits a command like `MALLOC_ARENA_MAX=2 node --enable-source-maps dist/main.js` (no shell
 * syntax beyond leading variable assignments).
 */
export function parseStartCommand(words: readonly string[]): StartCommand {
  const env: Record<string, string> = {};
  let first = 0;
  for (; first < words.length; first += 1) {
    const assignment = /^([A-Z_][A-Z0-9_]*)=(.*)$/.exec(words[first] ?? '');
    if (!assignment?.[1]) break;
    env[assignment[1]] = assignment[2] ?? '';
  }
  const [runner, ...rest] = words.slice(first);
  const at = rest.findIndex((word) => !word.startsWith('-'));
  const entry = rest[at];
  if (!runner || entry === undefined) throw new Error(`no entry file in: ${words.join(' ')}`);
  return { env, runner, flags: rest.slice(0, at), entry };
}

export function npmStart(): StartCommand {
  const pkg = PackageJson.parse(
    JSON.parse(readFileSync(`${repoRoot}/package.json`, 'utf8')) as unknown,
  );
  return parseStartCommand(pkg.scripts.start.trim().split(/\s+/));
}

/** Where a source file's compiled output lands (`src/main.ts` → `dist/main.js`). */
export function compiledPath(entry: string): string {
  return entry.replace(/^src\//, 'dist/').replace(/\.ts$/, '.js');
}

/** `npm start` as arguments for the current Node binary (tsx through `--import tsx`). */
export function nodeArgsForStart(start: StartCommand = npmStart()): string[] {
  if (!existsSync(`${repoRoot}/${start.entry}`)) {
    throw new Error(`npm start runs ${start.entry}, which is missing: run \`npm run build\` first`);
  }
  if (start.runner === 'tsx') return ['--import', 'tsx', ...start.flags, start.entry];
  if (start.runner === 'node') return [...start.flags, start.entry];
  throw new Error(`npm start runs ${start.runner}, neither node nor tsx`);
}

/** The latest change to any file under src/. */
function newestSourceChange(dir = join(repoRoot, 'src')): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    const changed = entry.isDirectory() ? newestSourceChange(path) : statSync(path).mtimeMs;
    newest = Math.max(newest, changed);
  }
  return newest;
}

/**
 * Node arguments that run one of the app's source files (`src/main.ts`) in a test's child
 * process: its compiled output when dist/ was built after the last change to src/ (it starts
 * in about half the time, and it is what `npm start` runs), else the source through tsx, so
 * that a stale dist/ is never what a test checks.
 */
export function nodeArgsForSource(source: string, flags: readonly string[] = []): string[] {
  const compiled = join(repoRoot, compiledPath(source));
  if (existsSync(compiled) && statSync(compiled).mtimeMs >= newestSourceChange()) {
    return [...flags, compiledPath(source)];
  }
  return ['--import', 'tsx', ...flags, source];
}

/** This machine's settings for the app: Slack, ERP, Redis, the watches' database, tuning. */
const MACHINE_SETTING =
  /^(SLACK_|ERP_|REDIS_(URL|PASSWORD)$|DATABASE_(URL|PASSWORD)$|DATA_DIR$|WATCH_|PORT$|LOG_LEVEL$|CONTACT_|STOCK_|AUDIT_|QUEUE_|CATALOGUE_)/;

let dataDir: string | undefined;

/**
 * A data directory of this test process's own: the app's default (`./data`) is the
 * repository, where a watch one run makes stays for every later run's apps to load and check.
 */
export function testDataDir(): string {
  // Inside the run's folder (dataRoot.ts removes it); outside `npm test`, the system's.
  dataDir ??= mkdtempSync(join(process.env.TEST_DATA_ROOT ?? tmpdir(), 'data-'));
  return dataDir;
}

/**
 * The environment of a fresh shell for a spawned app: none of this machine's settings, and a
 * data directory of this test process's own. The suite's DATABASE_URL is one database that
 * every run and every spawned app would share (a watch the console sets there stays for the
 * next run's apps to check); without it the app keeps watches under DATA_DIR, by default in
 * the repository itself.
 */
export function freshShellEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const kept = Object.entries(process.env).filter(([name]) => !MACHINE_SETTING.test(name));
  return { ...Object.fromEntries(kept), DATA_DIR: testDataDir(), ...extra };
}
