/**
 * npm run bench:core [-- --base <git rev>] [--rounds N] [--mib N] [--no-node] [--no-chromium] [extra.wasm …]
 *
 * A/B of SHA-256 cores on data in memory, side by side in one process: our builds in
 * wasm/build (SIMD and without SIMD), optionally the same builds at another git revision
 * (--base, read with `git show`, nothing checked out), any extra .wasm files built from
 * wasm/assembly, and hash-wasm; in Node and in a headless Chromium worker. Every engine goes
 * through the real bindings (wasm/sha256.ts) and every timed run checks its digest.
 *
 * On this shared 2-core machine wall-clock times swing with other people's work, so the rounds
 * run interleaved in rotated order and medians are reported; each run is also timed by CPU
 * time (in Node process.cpuUsage()), which ignores time spent descheduled and is the
 * figure to compare under load; in Chromium the CPU time of the renderer's threads is read
 * from /proc around each run (Linux). The load average is printed before and after. JSON in
 * bench/results/core-ab-<time>.json.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { build } from 'vite';
import type { WasmFlavour } from '../wasm/sha256.ts';
import { coreRuns } from './core-ab/runs.ts';
import { fileParts, makeChunk } from './data.ts';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const MiB = 1024 * 1024;

function flag(name: string): string | undefined {
  const at = process.argv.indexOf(`--${name}`);
  return at >= 0 ? process.argv[at + 1] : undefined;
}
const rounds = Number(flag('rounds') ?? 9);
const size = Number(flag('mib') ?? 64) * MiB;
const base = flag('base');
const isChromium = !process.argv.includes('--no-chromium');
const isNode = !process.argv.includes('--no-node');
const extra = process.argv.slice(2).filter((a) => a.endsWith('.wasm'));

type Engine = { name: string; flavour: WasmFlavour; bytes: Uint8Array<ArrayBuffer> };
const engines: Engine[] = [];
for (const flavour of ['simd', 'scalar'] as const) {
  const file = `wasm/build/sha256-${flavour}.wasm`;
  if (base) {
    const rev = execFileSync('git', ['rev-parse', '--short', base], { cwd: root, encoding: 'utf8' }).trim();
    engines.push({ name: `${rev} ${flavour}`, flavour, bytes: new Uint8Array(execFileSync('git', ['show', `${base}:${file}`], { cwd: root, maxBuffer: 64 * MiB })) });
  }
  engines.push({ name: `working tree ${flavour}`, flavour, bytes: new Uint8Array(fs.readFileSync(path.join(root, file))) });
}
for (const file of extra) engines.push({ name: path.basename(file), flavour: /scalar/.test(file) ? 'scalar' : 'simd', bytes: new Uint8Array(fs.readFileSync(file)) });

// The bench's deterministic data, fed in 10 MiB pieces as the hashing worker gets its chunks.
const chunk = makeChunk();
const data = new Uint8Array(size);
let at = 0;
for (const part of fileParts(chunk, size)) {
  data.set(part, at);
  at += part.length;
}
const expected = createHash('sha256').update(data).digest('hex');

type Stats = { engine: string; medianMBps: number; bestMBps: number; vsHashWasm: number; runs: number[] };
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;
function summarise(times: Record<string, number[]>): Stats[] {
  const hw = median(times['hash-wasm']!);
  return Object.entries(times).map(([engine, runs]) => ({ engine, medianMBps: median(runs), bestMBps: Math.max(...runs), vsHashWasm: median(runs) / hw, runs }));
}
function print(title: string, stats: Stats[]) {
  console.log(title);
  for (const s of stats) console.log(`  ${s.engine.padEnd(30)} median ${s.medianMBps.toFixed(1).padStart(6)} MB/s  best ${s.bestMBps.toFixed(1).padStart(6)}  ${s.vsHashWasm.toFixed(3)}x hash-wasm`);
}

async function nodeAb() {
  const runs = await coreRuns(await Promise.all(engines.map(async (e) => ({ name: e.name, flavour: e.flavour, module: await WebAssembly.compile(e.bytes) }))), data);
  const names = Object.keys(runs);
  // Untimed warm-up: V8 tiers every engine up to optimised code first.
  for (const name of names) for (let i = 0; i < 3; i++) if (runs[name]!() !== expected) throw new Error(`wrong digest: ${name}`);
  const cpu: Record<string, number[]> = Object.fromEntries(names.map((n) => [n, []]));
  const wall: Record<string, number[]> = Object.fromEntries(names.map((n) => [n, []]));
  for (let r = 0; r < rounds; r++) {
    for (const name of [...names.slice(r % names.length), ...names.slice(0, r % names.length)]) {
      const c0 = process.cpuUsage();
      const t0 = performance.now();
      const hex = runs[name]!();
      const ms = performance.now() - t0;
      const c = process.cpuUsage(c0);
      if (hex !== expected) throw new Error(`wrong digest: ${name}`);
      wall[name]!.push(size / 1e6 / (ms / 1000));
      cpu[name]!.push(size / 1e6 / ((c.user + c.system) / 1e6));
    }
  }
  return { cpu: summarise(cpu), wall: summarise(wall) };
}

/**
 * CPU time of the Chromium renderer processes below process `ancestor` (ours: not other people's
 * browsers), every thread, in ns, from /proc/<pid>/task/<tid>/schedstat:
 * the worker thread hashes while the page waits, so the difference over one run is that run's
 * CPU time, as process.cpuUsage() gives in Node. Null where /proc has no schedstat.
 */
function rendererCpuNs(ancestor: number): number | null {
  if (!fs.existsSync(`/proc/${ancestor}/task`)) return null;
  const children = new Map<number, number[]>();
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      children.set(ppid, [...(children.get(ppid) ?? []), Number(entry)]);
    } catch {
      // The process ended while we looked.
    }
  }
  let total = 0;
  const visit = (pid: number) => {
    for (const child of children.get(pid) ?? []) {
      try {
        if (fs.readFileSync(`/proc/${child}/cmdline`, 'utf8').includes('--type=renderer')) {
          for (const tid of fs.readdirSync(`/proc/${child}/task`)) total += Number(fs.readFileSync(`/proc/${child}/task/${tid}/schedstat`, 'utf8').split(' ')[0]);
        }
      } catch {
        // The process or thread ended while we looked.
      }
      visit(child);
    }
  };
  visit(ancestor);
  return total;
}

async function chromiumAb() {
  const outDir = path.join(root, 'dist', 'bench-core');
  await build({ root: path.join(root, 'bench', 'core-ab'), configFile: false, logLevel: 'warn', build: { outDir, emptyOutDir: true, target: 'es2023' }, worker: { format: 'es' } });
  engines.forEach((e, i) => fs.writeFileSync(path.join(outDir, `engine-${i}.wasm`), e.bytes));
  const types: Record<string, string> = { '.html': 'text/html', '.js': 'text/javascript', '.wasm': 'application/wasm' };
  const server = http.createServer((req, res) => {
    const file = path.join(outDir, decodeURIComponent((req.url ?? '/').split('?')[0]!.replace(/^\/$/, '/index.html')));
    if (!file.startsWith(outDir) || !fs.existsSync(file)) return void res.writeHead(404).end();
    res.writeHead(200, { 'content-type': types[path.extname(file)] ?? 'application/octet-stream' });
    fs.createReadStream(file).pipe(res);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu'] });
  type CoreAbPage = { coreAb: { setup(e: unknown, s: number): Promise<Record<string, string>>; run(n: string): Promise<{ ms: number; hex: string }> } };
  try {
    const page = await browser.newPage();
    await page.goto(`http://127.0.0.1:${(server.address() as { port: number }).port}/`);
    const list = engines.map((e, i) => ({ name: e.name, flavour: e.flavour, url: `/engine-${i}.wasm` }));
    const digests = await page.evaluate(([l, s]) => (window as unknown as CoreAbPage).coreAb.setup(l, s), [list, size] as const);
    for (const [name, hex] of Object.entries(digests)) if (hex !== expected) throw new Error(`wrong digest in Chromium: ${name}`);
    const names = Object.keys(digests);
    const cpu: Record<string, number[]> = Object.fromEntries(names.map((n) => [n, []]));
    const wall: Record<string, number[]> = Object.fromEntries(names.map((n) => [n, []]));
    for (let r = 0; r < rounds; r++) {
      for (const name of [...names.slice(r % names.length), ...names.slice(0, r % names.length)]) {
        const c0 = rendererCpuNs(process.pid);
        const { ms, hex } = await page.evaluate((n) => (window as unknown as CoreAbPage).coreAb.run(n), name);
        const c1 = rendererCpuNs(process.pid);
        if (hex !== expected) throw new Error(`wrong digest in Chromium: ${name}`);
        wall[name]!.push(size / 1e6 / (ms / 1000));
        if (c0 !== null && c1 !== null) cpu[name]!.push(size / 1e6 / ((c1 - c0) / 1e9));
      }
    }
    return { version: browser.version(), wall: summarise(wall), cpu: cpu[names[0]!]!.length ? summarise(cpu) : null };
  } finally {
    await browser.close();
    server.close();
  }
}

const loadBefore = os.loadavg();
console.log(`SHA-256 cores A/B, ${size / MiB} MiB in memory, ${rounds} interleaved rounds; ${os.cpus()[0]?.model ?? 'CPU'} × ${os.cpus().length}, Node ${process.version}; load ${loadBefore.map((l) => l.toFixed(2)).join(' ')}`);
const node = isNode ? await nodeAb() : null;
if (node) print('Node, CPU time:', node.cpu);
if (node) print('Node, wall clock:', node.wall);
const browserResult = isChromium ? await chromiumAb() : null;
if (browserResult?.cpu) print(`Chromium ${browserResult.version} worker, renderer CPU time:`, browserResult.cpu);
if (browserResult) print(`Chromium ${browserResult.version} worker, wall clock:`, browserResult.wall);
const loadAfter = os.loadavg();
console.log(`load after: ${loadAfter.map((l) => l.toFixed(2)).join(' ')}`);

fs.mkdirSync(path.join(root, 'bench', 'results'), { recursive: true });
const out = path.join(root, 'bench', 'results', `core-ab-${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
fs.writeFileSync(out, JSON.stringify({ size, rounds, base: base ?? null, cpu: os.cpus()[0]?.model, node: process.version, loadBefore, loadAfter, nodeCpu: node?.cpu ?? null, nodeWall: node?.wall ?? null, chromium: browserResult }, null, 2));
console.log(`results: ${path.relative(root, out)}`);
