import { defineConfig } from 'vitest/config';

/**
 * Folders whose tests are in-process only (no child processes, no process-wide state they
 * change): they share module instances within a worker (`isolate: false`), which saves
 * importing Bolt, zod schemas and the sandbox data again for every file, most of the suite's
 * time. Everything else (end-to-end runs, child processes, the logger's secret registry)
 * keeps a fresh module graph per file.
 */
const SHARED = [
  'test/views/**/*.test.ts',
  'test/slack/**/*.test.ts',
  'test/lookup/**/*.test.ts',
  'test/erp/**/*.test.ts',
  'test/sandbox/**/*.test.ts',
  'test/privacy/**/*.test.ts',
  'test/config/**/*.test.ts',
  'test/manifest/**/*.test.ts',
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
      { extends: true, test: { name: 'shared', include: SHARED, isolate: false } },
      {
        extends: true,
        test: { name: 'isolated', include: ['test/**/*.test.ts'], exclude: SHARED },
      },
    ],
  },
});
