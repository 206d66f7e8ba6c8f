import fs from 'node:fs';
import readline from 'node:readline';
import { spawn } from 'node:child_process';
import { buildIfStale } from './build-if-stale.ts';

/**
 * The browser suite as two Playwright runs side by side, each with its own e2e server and
 * database (so no test sees another's data), for CI. One run of the suite keeps a 2-core
 * machine about half idle: a test mostly waits on one process at a time (the browser
 * rendering, or the server answering). Lane A takes the heaviest spec files, lane B every
 * other one, so a new spec file lands in B without anyone listing it.
 *
 * Ports: lane A uses E2E_PORT (default 8181), lane B E2E_PORT + 500; the specs that start
 * servers of their own use offsets 1, 1000, 1100 and 1200 from their lane's port, which
 * never meet. Playwright's output (traces of failures) goes to test-results/lane-a|b.
 * `npm run test:e2e` runs the whole suite as one run, and is what `npm test` runs: on the
 * 2-core CI machine the lanes were no faster. Each test took 1.2-1.5x as long as in a run beside
 * vitest (Chromium's GPU and renderer processes, rasterizing in software, already keep both
 * cores busy), and the 1 GiB disclosure upload ran past its time limit twice.
 */
const HEAVY = ['a11y', 'disclosure', 'front', 'credits', 'enterprise-keys'];
const all = fs
  .readdirSync('tests/e2e')
  .filter((f) => f.endsWith('.spec.ts'))
  .map((f) => f.replace(/\.spec\.ts$/, ''));
const missing = HEAVY.filter((h) => !all.includes(h));
if (missing.length) {
  console.error(`e2e-lanes: no spec file for ${missing.join(', ')}: update HEAVY in scripts/e2e-lanes.ts`);
  process.exit(2);
}
const lanes = [
  { name: 'A', files: HEAVY, offset: 0 },
  { name: 'B', files: all.filter((f) => !HEAVY.includes(f)), offset: 500 },
];

// One build for both lanes, before either server starts (each would otherwise build).
buildIfStale();
const base = Number(process.env.E2E_PORT ?? 8181);
const extra = process.argv.slice(2);
const started = Date.now();
const results = await Promise.all(
  lanes.map(
    (lane) =>
      new Promise<{ name: string; code: number; seconds: number }>((resolve) => {
        const child = spawn(process.execPath, ['node_modules/@playwright/test/cli.js', 'test', ...lane.files.map((f) => `tests/e2e/${f}.spec.ts`), ...extra], {
          stdio: ['ignore', 'pipe', 'pipe'],
          env: { ...process.env, E2E_PORT: String(base + lane.offset), E2E_NO_BUILD: '1', E2E_OUTPUT_DIR: `test-results/lane-${lane.name.toLowerCase()}` },
        });
        for (const stream of [child.stdout, child.stderr]) readline.createInterface({ input: stream }).on('line', (line) => process.stdout.write(`[e2e ${lane.name}] ${line}\n`));
        child.on('close', (code) => resolve({ name: lane.name, code: code ?? 1, seconds: Math.round((Date.now() - started) / 1000) }));
      }),
  ),
);
for (const r of results) console.log(`e2e lane ${r.name}: ${r.code === 0 ? 'passed' : `FAILED (exit ${r.code})`} in ${r.seconds} s`);
process.exit(results.every((r) => r.code === 0) ? 0 : 1);
