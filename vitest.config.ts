import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['core/**/*.test.ts', 'server/**/*.test.ts', 'workers/**/*.test.ts', 'wasm/**/*.test.ts', 'bin/**/*.test.ts', 'src/**/*.test.ts', 'tests/server/**/*.test.ts'],
    environment: 'node',
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // On CI (2 cores, the SQLite and PostgreSQL runs side by side, each test's servers and
    // children competing) a test that fails once is run again, as Playwright's are: a run of
    // stop 27 failed test:pg once where the same commit passed all 390 here. A test
    // that fails twice still fails the run; the list output marks the retried ones.
    retry: process.env.CI ? 1 : 0,
  },
});
