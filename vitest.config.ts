import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    setupFiles: ['test/helpers/setup.ts'],
    testTimeout: 20_000,
    hookTimeout: 20_000,
    // Redis tests share one server; keep files isolated but let them run in parallel.
    pool: 'forks',
  },
});
