/**
 * `npm run build` and `prepare` (run by `npm ci`): compiles src/ to dist/ with source maps.
 *
 * `npm ci --omit=dev` (a container's runtime stage) runs `prepare` too, without typescript:
 * there dist/ comes from the build stage, so a missing compiler is fine when dist/main.js is
 * already there, and an error only when there is nothing to run.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const dist = fileURLToPath(new URL('../dist', import.meta.url));
const require = createRequire(import.meta.url);

let tsc;
try {
  tsc = require.resolve('typescript/bin/tsc');
} catch {
  if (existsSync(`${dist}/main.js`)) {
    process.stdout.write(
      'build: typescript is not installed (--omit=dev); using the dist/ already built\n',
    );
    process.exit(0);
  }
  process.stderr.write(
    'build: typescript is not installed and dist/ is missing: run `npm ci` (with dev dependencies) to build\n',
  );
  process.exit(1);
}

// A clean build: a source file deleted or renamed must not leave its old output behind.
rmSync(dist, { recursive: true, force: true });
const result = spawnSync(process.execPath, [tsc, '-p', 'tsconfig.build.json'], {
  cwd: root,
  stdio: 'inherit',
});
process.exit(result.status ?? 1);
