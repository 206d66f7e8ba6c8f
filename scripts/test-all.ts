import { spawn } from 'node:child_process';
import readline from 'node:readline';

/**
 * `npm test`: every check, in two lanes: the checks and server suites, then the browser
 * suite. `--parallel` runs the lanes side by side. On a 2-core CI machine that measured no
 * faster: while the server suites ran, the browser suite went about 2.5x slower (its first 39 tests took
 * 38 min instead of about 12) and the server suite took 22 min instead of 9, and the
 * contention turned timing margins into failures (a retried upload spec, a failover test's
 * waits). So the lanes run one after the other unless asked; each stops at its first
 * failure, the run fails when either does, and a summary prints every step's time.
 */
const lanes: Record<string, LaneStep[]> = {
  checks: ['typecheck', 'lint', ['test:unit', 'test:pg'], 'test:crash', 'bench -- --quick', 'bench:chaos -- --quick'],
  browser: ['test:e2e', 'bench:ledger-browser'],
};
/**
 * A group (an inner array) runs its steps side by side. Vitest runs one test file at a time on
 * a 2-core machine (a run of three files that each wait 3 s took 10.6 s), and the server suite
 * spends much of its time waiting (fsync, scrypt, openssl and pdfsig children, PostgreSQL), so
 * the SQLite run and the PostgreSQL run of that suite go side by side: each keeps its own file
 * order, and the two share nothing (their own data folders, ports and databases).
 */
type LaneStep = string | string[];
/**
 * The unit and server suites run on the embedded SQLite database; `test:pg` runs the server
 * suite again on the PostgreSQL of TEST_DATABASE_URL. Without this, CI (which exports that
 * variable for test:pg) ran both on PostgreSQL and never tested the embedded default.
 */
const withoutPostgres = new Set(['test:unit']);
const args = process.argv.slice(2);
const isParallel = args.includes('--parallel');
const only = args.filter((a) => a !== '--parallel');

type Step = { lane: string; script: string; seconds: number; code: number; notable: string[] };

/**
 * CI shows only the end of the output, so a failed step's last failing lines (test names,
 * assertion messages, errors; not the servers' JSON log lines) are kept and printed again after
 * the summary: a red run says what failed without the whole log.
 */
const NOTABLE = /\bFAIL\b|✘|\b(?:Assertion)?Error\b|\bexpected\b|Timeout|timed out/;
const NOTABLE_MAX = 40;
const ansi = /\x1b\[[0-9;]*m/g;

function runStep(lane: string, script: string): Promise<Step> {
  const started = Date.now();
  const [name, ...rest] = script.split(' ');
  return new Promise((resolve) => {
    const env = { ...process.env };
    if (withoutPostgres.has(script)) delete env.TEST_DATABASE_URL;
    const child = spawn('npm', ['run', '--silent', name!, ...rest], { stdio: ['ignore', 'pipe', 'pipe'], env });
    const tag = `[${lane}] `;
    const notable: string[] = [];
    for (const stream of [child.stdout, child.stderr]) {
      readline.createInterface({ input: stream }).on('line', (line) => {
        process.stdout.write(`${tag}${line}\n`);
        const plain = line.replace(ansi, '').trim();
        if (NOTABLE.test(plain) && !plain.startsWith('{')) {
          notable.push(plain.slice(0, 240));
          if (notable.length > NOTABLE_MAX) notable.shift();
        }
      });
    }
    child.on('close', (code) => resolve({ lane, script, seconds: Math.round((Date.now() - started) / 1000), code: code ?? 1, notable }));
  });
}

async function runLane(lane: string, scripts: LaneStep[]): Promise<Step[]> {
  const steps: Step[] = [];
  for (const entry of scripts) {
    const group = [entry].flat();
    const tagOf = (script: string) => (group.length > 1 ? `${lane}:${script.split(' ')[0]}` : lane);
    for (const script of group) process.stdout.write(`\n[${tagOf(script)}] === npm run ${script}\n`);
    const done = await Promise.all(
      group.map(async (script) => {
        const step = { ...(await runStep(tagOf(script), script)), lane };
        process.stdout.write(`[${tagOf(script)}] === ${script}: ${step.code === 0 ? 'passed' : `FAILED (exit ${step.code})`} in ${step.seconds} s\n`);
        return step;
      }),
    );
    steps.push(...done);
    if (done.some((s) => s.code !== 0)) break;
  }
  return steps;
}

const started = Date.now();
const chosen = Object.entries(lanes).filter(([lane]) => only.length === 0 || only.includes(lane));
const results: Step[] = [];
if (isParallel) results.push(...(await Promise.all(chosen.map(([lane, scripts]) => runLane(lane, scripts)))).flat());
else for (const [lane, scripts] of chosen) results.push(...(await runLane(lane, scripts)));
const failed = results.filter((s) => s.code !== 0);
process.stdout.write('\n=== summary\n');
for (const s of results) process.stdout.write(`${s.code === 0 ? 'ok  ' : 'FAIL'} ${s.lane.padEnd(8)} ${s.script.padEnd(22)} ${s.seconds} s\n`);
for (const s of failed) {
  process.stdout.write(`\n=== what ${s.script} printed about its failure (its last ${NOTABLE_MAX} notable lines)\n`);
  for (const line of s.notable) process.stdout.write(`  ${line}\n`);
}
process.stdout.write(`=== ${failed.length === 0 ? 'all passed' : `${failed.length} failed`} in ${Math.round((Date.now() - started) / 60000)} min\n`);
process.exit(failed.length === 0 ? 0 : 1);
