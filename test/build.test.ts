/**
 * The compiled start: `npm start` runs dist/ with source maps, tsx stays a development tool,
 * and `prepare` (run by `npm ci`) copes with an install without dev dependencies.
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { compiledPath, npmStart } from './helpers/entry.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
  scripts: Record<string, string>;
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
};

describe('package scripts', () => {
  it('starts the compiled main.js with node and source maps, built in prepare', () => {
    const start = npmStart();
    expect(start.runner).toBe('node');
    expect(start.entry).toBe(compiledPath('src/main.ts'));
    expect(start.flags).toContain('--enable-source-maps');
    // `npm ci` runs prepare: a fresh install has a dist/ to start.
    expect(pkg.scripts.prepare).toBe(pkg.scripts.build);
    const build = JSON.parse(readFileSync(join(root, 'tsconfig.build.json'), 'utf8')) as {
      compilerOptions: Record<string, unknown>;
    };
    expect(build.compilerOptions).toMatchObject({ outDir: 'dist', sourceMap: true, noEmit: false });
  });

  it('keeps tsx out of what runs in production', () => {
    expect(pkg.dependencies).not.toHaveProperty('tsx');
    expect(pkg.devDependencies).toHaveProperty('tsx');
  });
});

describe('prepare without typescript (npm ci --omit=dev)', () => {
  let dir: string | undefined;
  afterEach(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  // A copy of the build script where no typescript can be resolved.
  const isolatedBuild = () => {
    dir = mkdtempSync(join(tmpdir(), 'build-test-'));
    mkdirSync(join(dir, 'scripts'));
    copyFileSync(join(root, 'scripts/build.mjs'), join(dir, 'scripts/build.mjs'));
    return dir;
  };
  const run = (cwd: string) =>
    spawnSync(process.execPath, ['scripts/build.mjs'], { cwd, encoding: 'utf8' });

  it('keeps the dist/ built earlier', () => {
    const cwd = isolatedBuild();
    mkdirSync(join(cwd, 'dist'));
    writeFileSync(join(cwd, 'dist/main.js'), '');
    const result = run(cwd);
    expect(result.status).toBe(0);
    expect(result.stdout).toContain('using the dist/ already built');
  });

  it('fails with a clear message when there is nothing to run', () => {
    const result = run(isolatedBuild());
    expect(result.status).toBe(1);
    expect(result.stderr).toContain('dist/ is missing');
  });
});
