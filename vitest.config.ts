import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    setupFiles: ['test/helpers/setup.ts'],
    // Captures every log line and message of the run and scans them for leaks at the end.
    globalSetup: ['test/helpers/leakScan.ts'],
    testTimeout: 20_000,
    hookTimeout: 20_000,
    // Redis tests share one server; keep files isolated but let them run in parallel.
    pool: 'forks',
  },
});
