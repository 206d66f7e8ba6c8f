/**
 * npm run bench [-- --quick]
 * Hashing and key benchmarks against named baselines, side by side in one run, in Node
 * and in headless Chromium. Every timed run checks its digest. Results: a table on stdout
 * and JSON under bench/results/. Quick mode (CI) fails only on a wrong digest or when our
 * browser pipeline falls below hash-wasm's best use in the same run.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createSHA256 } from 'hash-wasm';
import { sha256 as nobleSha256 } from '@noble/hashes/sha2.js';
import { chromium } from 'playwright-core';
import { build } from 'vite';
import { spawnSync } from 'node:child_process';
import { loadSha256Node } from '../wasm/load-node.ts';
import { sha256File } from '../bin/commands/sha256-file.ts';
import { fileParts, makeChunk, smallFileSizes, smallFileSlices } from './data.ts';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const isQuick = process.argv.includes('--quick');
const MiB = 1024 * 1024;
const FILE_SIZES = isQuick ? [1 * MiB, 64 * MiB, 256 * MiB] : [1 * MiB, 64 * MiB, 512 * MiB, 2048 * MiB];
const NODE_SIZES = isQuick ? [1 * MiB, 64 * MiB] : [1 * MiB, 64 * MiB, 512 * MiB];
/** PROVENA_BENCH_SMALL_FILES overrides the count (e.g. 20000 in a quick run). */
const SMALL_FILES = Number(process.env.PROVENA_BENCH_SMALL_FILES) || (isQuick ? 2000 : 20000);
const REPEATS = 3;

type Row = { suite: string; case: string; engine: string; baseline: boolean; bytes: number; ms: number; mbPerSecond: number; isDigestOk: boolean };
const rows: Row[] = [];
const failures: string[] = [];
const chunk = makeChunk();

function expectedDigest(size: number): string {
  const h = createHash('sha256');
  for (const part of fileParts(chunk, size)) h.update(part);
  return h.digest('hex');
}

function record(row: Omit<Row, 'mbPerSecond'>) {
  const full = { ...row, mbPerSecond: row.bytes / 1e6 / (row.ms / 1000) };
  rows.push(full);
  if (!row.isDigestOk) failures.push(`wrong digest: ${row.suite} ${row.case} ${row.engine}`);
  console.log(`${row.suite.padEnd(8)} ${row.case.padEnd(22)} ${row.engine.padEnd(34)} ${full.mbPerSecond.toFixed(1).padStart(8)} MB/s ${row.ms.toFixed(0).padStart(7)} ms${row.isDigestOk ? '' : '  WRONG DIGEST'}`);
}

/** Best of `REPEATS` runs. */
async function best<T extends { ms: number }>(run: () => Promise<T>): Promise<T> {
  let top: T | null = null;
  for (let i = 0; i < REPEATS; i++) {
    const r = await run();
    if (!top || r.ms < top.ms) top = r;
  }
  return top!;
}

async function nodeSuite() {
  const ours = await loadSha256Node();
  const hw = await createSHA256();
  for (const size of NODE_SIZES) {
    const expected = expectedDigest(size);
    const engines: Array<[string, boolean, () => string]> = [
      [`provena-wasm-${ours.flavour}`, false, () => { const s = ours.stream(); s.init(); for (const p of fileParts(chunk, size)) s.update(p); return s.digestHex(); }],
      ['hash-wasm', true, () => { hw.init(); for (const p of fileParts(chunk, size)) hw.update(p); return hw.digest('hex'); }],
      ['@noble/hashes', true, () => { const h = nobleSha256.create(); for (const p of fileParts(chunk, size)) h.update(p); return Buffer.from(h.digest()).toString('hex'); }],
      ['node:crypto (OpenSSL, native)', true, () => { const h = createHash('sha256'); for (const p of fileParts(chunk, size)) h.update(p); return h.digest('hex'); }],
    ];
    for (const [engine, baseline, run] of engines) {
      if (engine === '@noble/hashes' && size > 64 * MiB) continue;
      const r = await best(async () => { const t0 = performance.now(); const hex = run(); return { hex, ms: performance.now() - t0 }; });
      record({ suite: 'node', case: `one file ${size / MiB} MiB`, engine, baseline, bytes: size, ms: r.ms, isDigestOk: r.hex === expected });
    }
  }
  const sizes = smallFileSizes(SMALL_FILES);
  const files = smallFileSlices(chunk, sizes);
  const total = sizes.reduce((a, b) => a + b, 0);
  const expected = files.map((f) => createHash('sha256').update(f).digest('hex'));
  const label = `${SMALL_FILES} files 1–64 KiB`;
  const many: Array<[string, boolean, () => string[]]> = [
    [`provena-wasm-${ours.flavour} 4 lanes`, false, () => ours.hashMany(files)],
    ['hash-wasm one by one', true, () => files.map((f) => { hw.init(); hw.update(f); return hw.digest('hex'); })],
    ['node:crypto one by one', true, () => files.map((f) => createHash('sha256').update(f).digest('hex'))],
  ];
  for (const [engine, baseline, run] of many) {
    const r = await best(async () => { const t0 = performance.now(); const hexes = run(); return { hexes, ms: performance.now() - t0 }; });
    record({ suite: 'node', case: label, engine, baseline, bytes: total, ms: r.ms, isDigestOk: r.hexes.every((h, i) => h === expected[i]) });
  }
}

/**
 * The agent and `provena hash` read a file from disk and hash it; the yardstick the
 * external-applications issue names is `sha256sum` on the same file. Same file, page cache
 * warm for all (one untimed read first), interleaved, best of REPEATS.
 */
async function fileSuite() {
  const size = isQuick ? 64 * MiB : 1024 * MiB;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'provena-bench-file-'));
  const file = path.join(dir, 'data.bin');
  try {
    const fd = fs.openSync(file, 'w');
    for (const part of fileParts(chunk, size)) fs.writeSync(fd, part);
    fs.closeSync(fd);
    const expected = expectedDigest(size);
    const hasSha256sum = spawnSync('sha256sum', ['--version']).status === 0;
    const engines: Array<[string, boolean, () => Promise<string>]> = [
      ['agent / provena hash (node:crypto)', false, () => sha256File(file, 'node')],
      ['agent / provena hash --engine wasm', false, () => sha256File(file, 'wasm')],
      ...(hasSha256sum ? [['sha256sum (coreutils)', true, async () => spawnSync('sha256sum', [file], { encoding: 'utf8' }).stdout.split(' ')[0] ?? ''] as [string, boolean, () => Promise<string>]] : []),
    ];
    await sha256File(file, 'node');
    const bestMs = new Map<string, { ms: number; hex: string }>();
    for (let i = 0; i < REPEATS; i++) {
      for (const [engine, , run] of engines) {
        const t0 = performance.now();
        const hex = await run();
        const ms = performance.now() - t0;
        if (!bestMs.has(engine) || ms < bestMs.get(engine)!.ms) bestMs.set(engine, { ms, hex });
      }
    }
    for (const [engine, baseline] of engines) {
      const r = bestMs.get(engine)!;
      record({ suite: 'file', case: `from disk ${size / MiB} MiB`, engine, baseline, bytes: size, ms: r.ms, isDigestOk: r.hex === expected });
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

async function serve(dir: string): Promise<{ url: string; close(): void }> {
  const types: Record<string, string> = { '.html': 'text/html', '.js': 'text/javascript', '.wasm': 'application/wasm', '.css': 'text/css' };
  const server = http.createServer((req, res) => {
    const file = path.join(dir, decodeURIComponent((req.url ?? '/').split('?')[0]!.replace(/^\/$/, '/index.html')));
    if (!file.startsWith(dir) || !fs.existsSync(file)) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { 'content-type': types[path.extname(file)] ?? 'application/octet-stream' });
    fs.createReadStream(file).pipe(res);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const address = server.address() as { port: number };
  return { url: `http://127.0.0.1:${address.port}/`, close: () => server.close() };
}

type BrowserBench = Record<string, (...args: number[]) => Promise<never>>;

async function browserSuite(): Promise<Record<string, unknown>> {
  const outDir = path.join(root, 'dist', 'bench');
  await build({ root: path.join(root, 'bench', 'browser'), configFile: false, logLevel: 'warn', build: { outDir, emptyOutDir: true, target: 'es2023' }, worker: { format: 'es' } });
  const server = await serve(outDir);
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-quic'],
  });
  const extra: Record<string, unknown> = {};
  try {
    const page = await browser.newPage();
    await page.goto(server.url);
    await page.waitForFunction(() => document.body.dataset.ready === 'true');
    const call = <T>(name: string, ...args: number[]) =>
      page.evaluate(([n, a]) => ((window as unknown as { provenaBench: BrowserBench }).provenaBench[n as string]!)(...(a as number[])), [name, args] as const) as Promise<T>;
    const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'provena-bench-'));
    for (const size of FILE_SIZES) {
      const expected = expectedDigest(size);
      // Files past 64 MiB come from disk through the file input, as a user picks them: Chromium's
      // in-memory blob store cannot hold a generated multi-GiB File here.
      const onDisk = size > 64 * MiB;
      if (onDisk) {
        const file = path.join(tmp, `bench-${size}.bin`);
        const fd = fs.openSync(file, 'w');
        for (const part of fileParts(chunk, size)) fs.writeSync(fd, part);
        fs.closeSync(fd);
        await page.setInputFiles('#file', file);
      }
      const engines: Array<[string, string, boolean]> = [
        ['ours', 'provena pipeline (reader → wasm worker)', false],
        ['hashWasmPipeline', 'hash-wasm, same pipeline (best use)', true],
        ['hashWasmNaive', 'hash-wasm, one worker reads+hashes', true],
        ['webCryptoOneShot', 'WebCrypto one-shot (whole file)', true],
        // BENCH_PIPELINE_VARIANTS=1: our pipeline with other chunk sizes (MiB), in-flight counts and Blob reads at once, side by side.
        ...(process.env.BENCH_PIPELINE_VARIANTS
          ? ([[10, 3, 2], [10, 3, 1], [10, 3, 3], [4, 3, 0], [16, 3, 0], [10, 2, 0], [10, 4, 0], [4, 3, 2]] as const).map(
              ([mib, n, reads]) => [`oursTuned:${mib}:${n}:${reads}`, `provena pipeline ${mib} MiB × ${n}, ${reads === 0 ? 'byte-stream reader' : `${reads} read${reads > 1 ? 's' : ''}`}`, true] as [string, string, boolean],
            )
          : []),
      ];
      // Interleaved: each repeat runs every engine once, in a rotated order, and the best run of each counts,
      // so that no engine always meets a cold (or warm) file.
      const bestOf = new Map<string, { hex: string; ms: number; longTasks?: number[] }>();
      const skipped = new Set<string>();
      for (let repeat = 0; repeat < REPEATS; repeat++) {
        for (let k = 0; k < engines.length; k++) {
          const [fn, engine, baseline] = engines[(k + repeat) % engines.length]!;
          if (fn === 'webCryptoOneShot' && size > 64 * MiB) continue;
          if (skipped.has(fn)) continue;
          try {
            const [name, ...tuning] = fn.split(':');
            const r = await call<{ hex: string; ms: number; longTasks?: number[] }>(name!, size, ...tuning.map(Number));
            const prev = bestOf.get(fn);
            if (!prev || r.ms < prev.ms) bestOf.set(fn, r);
          } catch (error) {
            if (!baseline) throw error;
            skipped.add(fn);
            console.log(`chromium ${`one file ${size / MiB} MiB`.padEnd(22)} ${engine.padEnd(34)} skipped: ${(error as Error).message.split('\n')[0]}`);
          }
        }
      }
      for (const [fn, engine, baseline] of engines) {
        const r = bestOf.get(fn);
        if (!r) continue;
        record({ suite: 'chromium', case: `one file ${size / MiB} MiB`, engine, baseline, bytes: size, ms: r.ms, isDigestOk: r.hex === expected });
        if (fn === 'ours') extra[`longTasksDuringHash_${size / MiB}MiB`] = r.longTasks;
      }
    }
    {
      const size = 128 * MiB;
      const data = new Uint8Array(size);
      for (let i = 0; i < size; i += 4096) data[i] = i & 0xff;
      const expected = createHash('sha256').update(data).digest('hex');
      const engines = [
        ['inMemoryOurs', 'provena wasm (data in worker memory)', false],
        ['inMemoryHashWasm', 'hash-wasm (data in worker memory)', true],
      ] as const;
      // Interleaved repeats, best of each.
      const bestOf = new Map<string, { hex: string; ms: number }>();
      for (let repeat = 0; repeat < REPEATS; repeat++) {
        for (const [fn] of repeat % 2 ? [...engines].reverse() : engines) {
          const r = await call<{ hex: string; ms: number }>(fn, size);
          if (!bestOf.has(fn) || r.ms < bestOf.get(fn)!.ms) bestOf.set(fn, r);
        }
      }
      for (const [fn, engine, baseline] of engines) {
        const r = bestOf.get(fn)!;
        record({ suite: 'chromium', case: 'in memory 128 MiB', engine, baseline, bytes: size, ms: r.ms, isDigestOk: r.hex === expected });
      }
    }
    const sizes = smallFileSizes(SMALL_FILES);
    const files = smallFileSlices(chunk, sizes);
    const expected = files.map((f) => createHash('sha256').update(f).digest('hex'));
    const total = sizes.reduce((a, b) => a + b, 0);
    for (const [fn, engine, baseline] of [
      ['manyOurs', 'provena hashFiles (pool, 4 lanes)', false],
      ['manyHashWasmSequential', 'hash-wasm one by one', true],
    ] as const) {
      const r = await best(() => call<{ ms: number; hexes: string[] }>(fn, SMALL_FILES));
      record({ suite: 'chromium', case: `${SMALL_FILES} files 1–64 KiB`, engine, baseline, bytes: total, ms: r.ms, isDigestOk: r.hexes.every((h, i) => h === expected[i]) });
    }
    {
      const size = FILE_SIZES.find((n) => n > 64 * MiB)!;
      await page.setInputFiles('#file', path.join(tmp, `bench-${size}.bin`));
      const check = await call<{ hex: string; updates: number; maxGapMs: number; last: { bytes: number }; cancelError: string; cancelMs: number; afterCancelHex: string }>('checkProgressAndCancel', size);
      extra.progressAndCancel = check;
      console.log(`chromium progress: ${check.updates} updates, largest gap ${check.maxGapMs.toFixed(0)} ms; cancel: ${check.cancelError} after ${check.cancelMs.toFixed(0)} ms`);
      if (check.hex !== expectedDigest(size) || check.afterCancelHex !== expectedDigest(1024 * 1024)) failures.push('wrong digest around the progress/cancel check');
      if (check.last.bytes !== size) failures.push(`last progress update reports ${check.last.bytes} of ${size} bytes`);
      // 250 ms cadence from a timer; allow for a busy 2-core machine.
      if (check.maxGapMs > 400) failures.push(`progress updates ${check.maxGapMs.toFixed(0)} ms apart (must be about every 250 ms)`);
      if (check.cancelError !== 'AbortError') failures.push(`cancel did not end the work with AbortError (${check.cancelError || 'it finished'})`);
    }
    {
      // Every reader at chunk boundaries (1 MiB chunks, files over the 4 MiB whole-file threshold).
      const edge = [5 * MiB - 1, 5 * MiB, 5 * MiB + 1, 7 * MiB + 12_345];
      const checks = await call<Array<{ size: number; readsAhead: number; hex: string }>>('checkReaders', MiB, ...edge);
      const wrong = checks.filter((c) => c.hex !== expectedDigest(c.size));
      extra.readerBoundaryChecks = checks.length;
      console.log(`chromium readers at chunk boundaries: ${checks.length - wrong.length}/${checks.length} digests right`);
      for (const c of wrong) failures.push(`wrong digest: ${c.size} bytes, readsAhead ${c.readsAhead}`);
    }
    extra.pbkdf2_100000_ms = await best(async () => ({ ms: await call<number>('pbkdf2', 100_000) })).then((r) => r.ms);
    extra.keys = await call('keys');
    console.log(`chromium PBKDF2-HMAC-SHA256 100000 (WebCrypto, keys worker): ${(extra.pbkdf2_100000_ms as number).toFixed(1)} ms`);
    if ((extra.pbkdf2_100000_ms as number) >= 150) failures.push(`PBKDF2 100000 took ${(extra.pbkdf2_100000_ms as number).toFixed(0)} ms (target < 150 ms)`);
    if (!(extra.keys as { isValid: boolean }).isValid) failures.push('keys worker: signature did not verify');
    console.log(`chromium keys: ${JSON.stringify(extra.keys)}`);
    extra.streamingWebCryptoDigest = await call<boolean>('streamingDigest');
    console.log(`chromium streaming crypto.subtle.digest(ReadableStream): ${extra.streamingWebCryptoDigest ? 'yes (the app hashes one file with it)' : 'no (the app uses our WebAssembly)'}`);
    extra.chromium = browser.version();
    fs.rmSync(tmp, { recursive: true, force: true });
  } finally {
    await browser.close();
    server.close();
  }
  return extra;
}

const started = new Date();
console.log(`Provena bench (${isQuick ? 'quick' : 'full'}) on ${os.cpus()[0]?.model ?? 'unknown CPU'} × ${os.cpus().length}, Node ${process.version}`);
await nodeSuite();
await fileSuite();
const browserExtra = await browserSuite();

// Ratios the issue sets targets for, measured in this run.
const rate = (suite: string, c: string, engine: string) => rows.find((r) => r.suite === suite && r.case === c && r.engine === engine)?.mbPerSecond ?? NaN;
const largest = `one file ${FILE_SIZES.at(-1)! / MiB} MiB`;
const ratios = {
  largestFile: largest,
  oursMBps: rate('chromium', largest, 'provena pipeline (reader → wasm worker)'),
  vsHashWasmBest: rate('chromium', largest, 'provena pipeline (reader → wasm worker)') / rate('chromium', largest, 'hash-wasm, same pipeline (best use)'),
  vsHashWasmNaive: rate('chromium', largest, 'provena pipeline (reader → wasm worker)') / rate('chromium', largest, 'hash-wasm, one worker reads+hashes'),
  inMemoryVsHashWasm: rate('chromium', 'in memory 128 MiB', 'provena wasm (data in worker memory)') / rate('chromium', 'in memory 128 MiB', 'hash-wasm (data in worker memory)'),
  agentVsSha256sum: rows.find((r) => r.suite === 'file' && r.engine.startsWith('agent / provena hash (node'))!.mbPerSecond / (rows.find((r) => r.suite === 'file' && r.engine.startsWith('sha256sum'))?.mbPerSecond ?? NaN),
  manyFilesVsHashWasmSequential:
    rate('chromium', `${SMALL_FILES} files 1–64 KiB`, 'provena hashFiles (pool, 4 lanes)') / rate('chromium', `${SMALL_FILES} files 1–64 KiB`, 'hash-wasm one by one'),
};
console.log(`ratios: ${JSON.stringify(ratios)}`);
const longTasks = Object.values(browserExtra).filter(Array.isArray).flat() as number[];
console.log(`page long tasks (>50 ms) during our hashing: ${longTasks.length ? longTasks.map((d) => d.toFixed(0)).join(', ') : 'none'}`);

// Fails only on wrong digests or on falling below hash-wasm's best use in this run. Our engine
// must keep up with hash-wasm on the same data in worker memory (5 % for timer noise; it measures
// 15–18 % faster here). End to end from a File, both pipelines share the same reads on a 2-core
// machine where single runs swing by ±15 %; ours measures 1.08–1.18x, so the gate sits at 0.85:
// it catches a broken or serialised pipeline without failing CI on scheduling noise.
if (ratios.inMemoryVsHashWasm < 0.95) failures.push(`our WebAssembly is slower than hash-wasm in worker memory: ratio ${ratios.inMemoryVsHashWasm.toFixed(3)}`);
if (ratios.vsHashWasmBest < 0.85) failures.push(`our pipeline (${ratios.oursMBps.toFixed(1)} MB/s) fell below hash-wasm's best use: ratio ${ratios.vsHashWasmBest.toFixed(3)}`);

fs.mkdirSync(path.join(root, 'bench', 'results'), { recursive: true });
const out = path.join(root, 'bench', 'results', `hash-${isQuick ? 'quick' : 'full'}-${started.toISOString().replace(/[:.]/g, '-')}.json`);
fs.writeFileSync(out, JSON.stringify({ mode: isQuick ? 'quick' : 'full', started: started.toISOString(), cpu: os.cpus()[0]?.model, cores: os.cpus().length, node: process.version, rows, ratios, ...browserExtra }, null, 2));
console.log(`results: ${path.relative(root, out)}`);
if (failures.length) {
  console.error(`bench FAILED:\n  - ${failures.join('\n  - ')}`);
  process.exit(1);
}
