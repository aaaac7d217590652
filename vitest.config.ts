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
];

export default defineConfig({
  test: {
    setupFiles: ['test/helpers/setup.ts'],
    // Captures every log line and message of the run and scans them for leaks at the end.
    globalSetup: ['test/helpers/leakScan.ts'],
    testTimeout: 20_000,
    hookTimeout: 20_000,
    // Redis tests share one server; files run in parallel, in child processes.
    pool: 'forks',
    projects: [
      {
        extends: true,
        test: {
          name: 'shared',
          include: ['test/**/*.test.ts'],
          exclude: ISOLATED,
          isolate: false,
        },
      },
      { extends: true, test: { name: 'isolated', include: ISOLATED } },
    ],
  },
});
