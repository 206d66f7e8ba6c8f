/**
 * npm run bench:repos — source-code projects on the Underscore.js history
 * (../shared/fixtures/repos/underscore.bundle), side by side with native git in the same run:
 *   - native `git fsck` and `git rev-list --all` (the baseline);
 *   - whole-history record computation in Node (core/repos-git.ts, disk);
 *   - the same in headless Chromium from the picked folder (the built app's project page:
 *     worker reading .git over an in-memory fs, then the records registered), with the page's
 *     JS heap before and after;
 *   - server registration of every commit (batches of 1000, one transaction each);
 *   - the incremental CLI push of 1 new commit: the packed CLI that CI runs (the goal's figure),
 *     and bin/provena.ts from the source checkout, cold and with Node's compile cache.
 * Needs the built app (npm run build). JSON: bench/results/repos.json.
 * Goals: browser ≤ 10 s, incremental ≤ 1 s, server ≤ 2 s for 3 000, memory ≤ 64 MiB.
 */
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { registeringMember, registrationFreeConfig } from '../scripts/registering-member.ts';
import { readCommitRecords } from '../core/repos-git.ts';
import { COMMIT_BATCH_MAX } from '../core/repos.ts';

const bundle = [path.resolve('../shared/fixtures/repos/underscore.bundle'), path.resolve('../../shared/fixtures/repos/underscore.bundle')].find((p) => fs.existsSync(p));
if (!bundle) throw new Error('underscore.bundle not found beside the checkout');
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'provena-bench-repos-'));
const port = 18000 + Math.floor(Math.random() * 2000);
const base = `http://127.0.0.1:${port}`;
const child = spawn(process.execPath, ['server/server.ts'], {
  // No sealing during the bench: certificates would be rendered behind the measurements.
  env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, PROVENA_CONFIG: registrationFreeConfig(dataDir), LOG_LEVEL: 'warn', LEDGER_BLOCK_INTERVAL_MS: '3600000', LEDGER_BLOCK_MAX_ENTRIES: '100000', APP_DIR: 'dist/app', PUBLIC_URL: base },
  stdio: 'inherit',
});
const cleanup = () => {
  child.kill('SIGTERM');
};
process.on('exit', cleanup);
for (let i = 0; i < 1200; i++) {
  try {
    if ((await fetch(`${base}/config.json`)).ok) break;
  } catch {
    /* not up yet */
  }
  await new Promise((r) => setTimeout(r, 100));
}

const member = await registeringMember(base, { phone: '13912345678', enterpriseName: '源码基准测试有限公司' });
const call = async (method: string, url: string, body?: unknown) => {
  const res = await fetch(`${base}${url}`, { method, headers: { cookie: member.cookie, ...(body ? { 'content-type': 'application/json' } : {}) }, ...(body ? { body: JSON.stringify(body) } : {}) });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${url}: ${res.status} ${text}`);
  return JSON.parse(text).data;
};
const seconds = (since: number) => Number(((performance.now() - since) / 1000).toFixed(3));

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'provena-bench-underscore-'));
execFileSync('git', ['clone', '-q', bundle, dir]);
const gitEnv = { ...process.env, GIT_CONFIG_GLOBAL: '/dev/null', GIT_AUTHOR_NAME: 'Bench', GIT_AUTHOR_EMAIL: 'bench@example.com', GIT_COMMITTER_NAME: 'Bench', GIT_COMMITTER_EMAIL: 'bench@example.com' };

let t = performance.now();
execFileSync('git', ['fsck'], { cwd: dir, stdio: 'ignore' });
const nativeFsck = seconds(t);
t = performance.now();
const commits = Number(execFileSync('git', ['rev-list', '--all', '--count'], { cwd: dir, encoding: 'utf8' }).trim());
const nativeRevList = seconds(t);

t = performance.now();
const { records } = await readCommitRecords({ fs, gitdir: path.join(dir, '.git') });
const nodeRecords = seconds(t);

// Server registration of the whole history (project A), as the CLI and the browser send it.
const serverProject = await call('POST', '/api/v1/repos', { name: 'underscore-server' });
t = performance.now();
for (let i = 0; i < records.length; i += COMMIT_BATCH_MAX) {
  try {
    await call('POST', `/api/v1/repos/${serverProject.project_id}/commits`, { commits: records.slice(i, i + COMMIT_BATCH_MAX) });
  } catch (error) {
    console.error(`batch at ${i}:`, error);
    throw error;
  }
}
const serverRegistration = seconds(t);

// Incremental CLI push of one new commit: the packed CLI (cli/, what the CI snippets of
// docs/repos.md run: JavaScript, a fresh runner each time), then the source checkout's
// bin/provena.ts cold (Node strips every file's types) and warm (Node's compile cache).
const token = (await call('POST', `/api/v1/repos/${serverProject.project_id}/tokens`)).token as string;
execFileSync(process.execPath, ['scripts/build-cli.ts'], { stdio: 'ignore' });
const compileCache = fs.mkdtempSync(path.join(os.tmpdir(), 'provena-bench-compile-cache-'));
const pushes: Record<string, number> = {};
for (const [label, entry, env] of [
  ['packed', 'cli/dist/provena.mjs', { NODE_DISABLE_COMPILE_CACHE: '1' }],
  ['source_cold', 'bin/provena.ts', { NODE_DISABLE_COMPILE_CACHE: '1' }],
  ['source_warm_fill', 'bin/provena.ts', { NODE_COMPILE_CACHE: compileCache }],
  ['source_warm', 'bin/provena.ts', { NODE_COMPILE_CACHE: compileCache }],
] as const) {
  fs.writeFileSync(path.join(dir, 'bench-note.txt'), `one more commit (${label})\n`);
  execFileSync('git', ['add', '-A'], { cwd: dir, env: gitEnv });
  execFileSync('git', ['commit', '-q', '-m', `bench ${label}`], { cwd: dir, env: gitEnv });
  t = performance.now();
  const pushed = execFileSync(process.execPath, [entry, 'repo', 'push', '--project', String(serverProject.project_id), dir], { encoding: 'utf8', env: { ...process.env, ...env, PROVENA_URL: base, PROVENA_TOKEN: token } });
  pushes[label] = seconds(t);
  if (!pushed.includes('registered 1 new commit(s)')) throw new Error(`incremental push (${label}): ${pushed}`);
}
fs.rmSync(compileCache, { recursive: true, force: true });
const incrementalPush = pushes.packed!;

// The browser: the project page, the folder picked, every commit computed and registered (project B).
const browserProject = await call('POST', '/api/v1/repos', { name: 'underscore-browser' });
const browser = await chromium.launch({ executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-quic'] });
const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
await context.addCookies(member.cookie.split('; ').map((pair) => ({ name: pair.split('=')[0]!, value: pair.slice(pair.indexOf('=') + 1), url: base })));
const page = await context.newPage();
await page.goto(`${base}/dashboard/repos/detail/${browserProject.project_id}`);
await page.getByTestId('repo-pick').waitFor();
const cdp = await context.newCDPSession(page);
await cdp.send('Performance.enable');
const heap = async () => {
  const { metrics } = await cdp.send('Performance.getMetrics');
  return (metrics.find((m) => m.name === 'JSHeapUsedSize')?.value ?? 0) / 2 ** 20;
};
const heapBefore = await heap();
// The worker's own heap (where the history is read), through a CDP session attached to it;
// with --profile-worker FILE its CPU profile too (chrome://inspect's format).
const profileFile = process.argv.includes('--profile-worker') ? process.argv[process.argv.indexOf('--profile-worker') + 1] : undefined;
let workerSession: string | null = null;
let workerHeapPeak = 0;
let nextId = 1;
const pending = new Map<number, (result: unknown) => void>();
const toWorker = (method: string, params: object = {}) =>
  new Promise<any>((resolve) => {
    const id = nextId++;
    pending.set(id, resolve);
    void cdp.send('Target.sendMessageToTarget', { sessionId: workerSession!, message: JSON.stringify({ id, method, params }) }).catch(() => resolve(null));
  });
cdp.on('Target.receivedMessageFromTarget', (e: { message: string }) => {
  const m = JSON.parse(e.message) as { id?: number; result?: unknown };
  if (m.id && pending.has(m.id)) {
    pending.get(m.id)!(m.result ?? null);
    pending.delete(m.id);
  }
});
cdp.on('Target.attachedToTarget', (e: { sessionId: string; targetInfo: { type: string } }) => {
  if (e.targetInfo.type !== 'worker' || workerSession) return;
  workerSession = e.sessionId;
  void (async () => {
    if (profileFile) {
      await toWorker('Profiler.enable');
      await toWorker('Profiler.start');
    }
    await toWorker('Runtime.runIfWaitingForDebugger');
  })();
});
await cdp.send('Target.setAutoAttach', { autoAttach: true, waitForDebuggerOnStart: true, flatten: false });
const heapSampler = setInterval(() => {
  if (workerSession) void toWorker('Runtime.getHeapUsage').then((r: { usedSize?: number } | null) => (workerHeapPeak = Math.max(workerHeapPeak, (r?.usedSize ?? 0) / 2 ** 20)));
}, 100);
// The first batch sent marks the end of the worker's computation: the rest is sending and registering.
let firstPost = 0;
page.on('request', (req) => {
  if (!firstPost && req.method() === 'POST' && req.url().endsWith('/commits')) {
    firstPost = performance.now();
  }
});
t = performance.now();
// The worker is terminated as soon as it answers: its profile is taken after --profile-seconds (default 5).
const profileSeconds = process.argv.includes('--profile-seconds') ? Number(process.argv[process.argv.indexOf('--profile-seconds') + 1]) : 5;
if (profileFile) setTimeout(() => void toWorker('Profiler.stop').then((r: { profile?: unknown } | null) => fs.writeFileSync(profileFile, JSON.stringify(r?.profile ?? null))), profileSeconds * 1000);
await page.getByTestId('repo-folder-input').setInputFiles(dir);
await page.getByTestId('repo-registered').waitFor({ timeout: 600_000 });
const browserCompute = Number(((firstPost - t) / 1000).toFixed(3));
const browserTotal = seconds(t);
clearInterval(heapSampler);
const registeredText = (await page.getByTestId('repo-registered').textContent()) ?? '';
const heapAfter = await heap();
await browser.close();

const result = {
  fixture: 'underscore.bundle',
  commits,
  machine: { cpus: os.cpus().length, load: os.loadavg().map((l) => Number(l.toFixed(2))) },
  native: { git_fsck_s: nativeFsck, git_rev_list_all_s: nativeRevList },
  node_whole_history_records_s: nodeRecords,
  browser: { pick_to_registered_s: browserTotal, pick_to_first_batch_sent_s: browserCompute, page_js_heap_mib_before: Number(heapBefore.toFixed(1)), page_js_heap_mib_after: Number(heapAfter.toFixed(1)), worker_js_heap_mib_peak: Number(workerHeapPeak.toFixed(1)), answer: registeredText, note: 'the worker heap (sampled every 100 ms over CDP) is not in the page metric' },
  server_registration_s: serverRegistration,
  server_registration_commits: records.length,
  incremental_cli_push_1_commit_s: incrementalPush,
  incremental_push_s_by_entry: { packed: pushes.packed, source_cold: pushes.source_cold, source_warm: pushes.source_warm },
  goals: { browser_s: 10, incremental_s: 1, server_s: 2, memory_mib: 64 },
};
fs.mkdirSync('bench/results', { recursive: true });
fs.writeFileSync('bench/results/repos.json', `${JSON.stringify(result, null, 2)}\n`);
console.log(JSON.stringify(result, null, 2));
fs.rmSync(dir, { recursive: true, force: true });
cleanup();
process.exit(0);
