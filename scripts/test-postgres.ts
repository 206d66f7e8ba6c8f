import { spawnSync } from 'node:child_process';

/**
 * The server integration suite again, on PostgreSQL (TEST_DATABASE_URL, which .ci/run
 * sets up). Without a server to talk to this says so and skips rather than pretending.
 */
if (!process.env.TEST_DATABASE_URL) {
  console.log('test:pg skipped: TEST_DATABASE_URL is not set (.ci/run starts a throwaway PostgreSQL and sets it)');
  process.exit(0);
}
const result = spawnSync(process.execPath, ['node_modules/vitest/vitest.mjs', 'run', 'tests/server'], { stdio: 'inherit' });
process.exit(result.status ?? 1);
