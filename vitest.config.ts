import { defineConfig } from 'vitest/config';

/**
 * Files that start child processes or change process-wide state (the logger's secret
 * registry) get a fresh module graph each. Every other file runs in process and shares
 * module instances within a worker (`isolate: false`), which saves importing Bolt, the zod
 * schemas and the sandbox data again for every file: most of the suite's time.
 */
const ISOLATED = [
  'test/main.test.ts',
  'test/console/mainProcess.test.ts',
  'test/harness/shutdown.test.ts',
  'test/log/**/*.test.ts',
  // V8's coverage counts calls in every module of the process: only this file's app may run.
  'test/architecture/requestPath.test.ts',
];

/**
 * Tests that spawn no process and open no socket (pure code, fakes, fake timers):
 * `npm run test:unit` runs only these, in seconds. A test that starts a server, Redis or the
 * app belongs elsewhere; `npm test` runs every project.
 */
const UNIT = [
  'test/views/**/*.test.ts',
  'test/rules/{plan,build}.test.ts',
  'test/ids/**/*.test.ts',
  'test/slack/!(answers|answerFirst|answerFirstSurfaces|appHome|contactPerson|searchModalShare|tryAgain).test.ts',
  'test/privacy/**/*.test.ts',
  'test/catalogue/store.test.ts',
  'test/config/envExample.test.ts',
  'test/console/{board,builderLink,render}.test.ts',
  'test/erp/{gate,responses,schemas,url}.test.ts',
  'test/harness/{payloads,signing}.test.ts',
  'test/lookup/{cache,failures,fairQueue,fairness,paging}.test.ts',
  'test/manifest/manifest.test.ts',
  'test/ops/{erpOutcomes,readiness}.test.ts',
  'test/bench/boltMirror.test.ts',
];

/**
 * Pure, but slow: sweeps over the whole sandbox data set, property runs over every view or
 * handler, and the largest messages the views can build. They take seconds each, so they run
 * with the full suite (`npm test`, project `sweeps`), not in the unit tier.
 */
const SLOW_PURE = [
  'test/views/sandboxSweep.*.test.ts',
  'test/views/worstCase.test.ts',
  'test/views/hostile.test.ts',
  'test/slack/handlers.property.test.ts',
  'test/privacy/leakScan.test.ts',
  'test/sandbox/data.test.ts',
];

export default defineConfig({
  test: {
    setupFiles: ['test/helpers/setup.ts'],
    // Captures every log line and message of the run and scans them for leaks at the end;
    // holds the apps' data directories of the run and removes them.
    globalSetup: ['test/helpers/leakScan.ts', 'test/helpers/dataRoot.ts'],
    testTimeout: 20_000,
    hookTimeout: 20_000,
    // Redis tests share one server; files run in parallel, in child processes.
    pool: 'forks',
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: UNIT,
          exclude: SLOW_PURE,
          isolate: false,
          setupFiles: ['test/helpers/setup.ts', 'test/helpers/unitOnly.ts'],
        },
      },
      {
        extends: true,
        test: {
          name: 'shared',
          include: ['test/**/*.test.ts'],
          exclude: [...ISOLATED, ...UNIT, ...SLOW_PURE],
          isolate: false,
        },
      },
      { extends: true, test: { name: 'sweeps', include: SLOW_PURE, isolate: false } },
      { extends: true, test: { name: 'isolated', include: ISOLATED } },
    ],
  },
});
