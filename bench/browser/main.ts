import { wrap } from 'comlink';
import { hashFile, hashFiles, closeWorkers } from '../../workers/hash/hash-service.ts';
import { keysWorker } from '../../workers/keys/keys-service.ts';
import { detectStreamingDigest, type DigestSubtle } from '../../workers/hash/streaming-digest.ts';
import { CHUNK, fileParts, makeChunk, smallFileSizes, smallFileSlices } from '../data.ts';
import type { NaiveWorkerApi } from './naive.worker.ts';
import type { InMemoryWorkerApi } from './in-memory.worker.ts';

const chunk = makeChunk();
const naive = wrap<NaiveWorkerApi>(new Worker(new URL('./naive.worker.ts', import.meta.url), { type: 'module' }));
const inMemory = wrap<InMemoryWorkerApi>(new Worker(new URL('./in-memory.worker.ts', import.meta.url), { type: 'module' }));
const toHex = (b: ArrayBuffer) => Array.from(new Uint8Array(b), (x) => x.toString(16).padStart(2, '0')).join('');

/**
 * One File per size, reused by every engine: Chromium keeps blob data in a bounded store, and
 * fresh multi-hundred-MiB blobs per run exhaust it (NotReadableError) before old ones are collected.
 */
let cached: File | null = null;
function makeFile(size: number): File {
  // A disk file the runner put into the page's file input (as a user would) is used when it has this size.
  const picked = (document.getElementById('file') as HTMLInputElement | null)?.files?.[0];
  if (picked?.size === size) return picked;
  if (cached?.size !== size) {
    cached = null;
    cached = new File([...fileParts(chunk, size)] as BlobPart[], `bench-${size}.bin`);
  }
  return cached;
}

/**
 * One set of small files, reused by both engines and every repeat: fresh sets per run pile up
 * in Chromium's blob store (3 × 2 × 650 MB for 20 000 files) until it pages them to disk, and
 * the later runs then measure that.
 */
let cachedSmall: File[] = [];
function smallFiles(count: number): File[] {
  if (cachedSmall.length !== count) {
    cachedSmall = [];
    cachedSmall = smallFileSlices(chunk, smallFileSizes(count)).map((b, i) => new File([b as BlobPart], `f${i}.txt`));
  }
  return cachedSmall;
}

type Timed = { hex: string; ms: number };
async function timed(run: () => Promise<string>): Promise<Timed> {
  const t0 = performance.now();
  const hex = await run();
  return { hex, ms: performance.now() - t0 };
}

/** Long tasks on this (the page's) thread while `run` works. */
async function withLongTasks<T>(run: () => Promise<T>): Promise<{ result: T; longTasks: number[] }> {
  const longTasks: number[] = [];
  const observer = new PerformanceObserver((list) => list.getEntries().forEach((e) => longTasks.push(e.duration)));
  observer.observe({ type: 'longtask', buffered: false });
  const result = await run();
  await new Promise((r) => setTimeout(r, 50));
  observer.disconnect();
  return { result, longTasks };
}

const bench = {
  chunkSize: CHUNK,
  /** Whether this Chromium digests a ReadableStream (then `ours` would take streaming WebCrypto). */
  async streamingDigest() {
    return detectStreamingDigest(crypto.subtle as unknown as DigestSubtle);
  },
  async ours(size: number) {
    const file = makeFile(size);
    const { result, longTasks } = await withLongTasks(() => timed(async () => (await hashFile(file)).hash.slice(2)));
    return { ...result, longTasks };
  },
  async oursTuned(size: number, chunkMiB: number, inFlight: number, readsAhead: number) {
    const file = makeFile(size);
    return timed(async () => (await hashFile(file, { engine: 'provena', chunkBytes: chunkMiB * 1024 * 1024, inFlight, readsAhead })).hash.slice(2));
  },
  async hashWasmPipeline(size: number) {
    const file = makeFile(size);
    return timed(async () => (await hashFile(file, { engine: 'hash-wasm' })).hash.slice(2));
  },
  async hashWasmNaive(size: number) {
    const file = makeFile(size);
    return timed(() => naive.hashFile(file, 10 * 1024 * 1024));
  },
  async webCryptoOneShot(size: number) {
    const file = makeFile(size);
    return timed(async () => toHex(await crypto.subtle.digest('SHA-256', await file.arrayBuffer())));
  },
  async manyOurs(count: number) {
    const files = smallFiles(count);
    const t0 = performance.now();
    const results = await hashFiles(files);
    return { ms: performance.now() - t0, hexes: results.map((r) => r.hash.slice(2)) };
  },
  async manyHashWasmSequential(count: number) {
    const files = smallFiles(count);
    const t0 = performance.now();
    const hexes = await naive.hashSequential(files);
    return { ms: performance.now() - t0, hexes };
  },
  async inMemoryOurs(size: number) {
    return inMemory.run('provena', size);
  },
  async inMemoryHashWasm(size: number) {
    return inMemory.run('hash-wasm', size);
  },
  async pbkdf2(iterations: number) {
    return keysWorker().timePbkdf2(iterations);
  },
  async keys() {
    const t0 = performance.now();
    const generated = await keysWorker().generate('bench passphrase', { commonName: 'Bench Co.' });
    const generateMs = performance.now() - t0;
    const t1 = performance.now();
    const data = new TextEncoder().encode('bench');
    const sig = await keysWorker().sign(generated.encryptedPrivateKeyPem, 'bench passphrase', data);
    const unwrapSignMs = performance.now() - t1;
    const isValid = await keysWorker().verify(generated.publicKeyPem, data, sig);
    return { generateWrapCsrMs: generateMs, unwrapSignMs, isValid };
  },
  /**
   * Both readers (byte stream into reused buffers: readsAhead 0; Blob slices: 1 and 2 at once)
   * at every chunk boundary: sizes just under, at and over whole chunks, above the
   * whole-file threshold so that they stream. Returns one digest per (size, reader).
   */
  async checkReaders(chunkBytes: number, ...sizes: number[]) {
    const out: Array<{ size: number; readsAhead: number; hex: string }> = [];
    for (const size of sizes) {
      const file = new File([...fileParts(chunk, size)] as BlobPart[], `edge-${size}.bin`);
      for (const readsAhead of [0, 1, 2]) {
        const r = await hashFile(file, { engine: 'provena', chunkBytes, inFlight: 2, readsAhead });
        out.push({ size, readsAhead, hex: r.hash.slice(2) });
      }
    }
    return out;
  },
  /** Behaviour checks run by the quick bench: progress cadence and cancellation. */
  async checkProgressAndCancel(size: number) {
    const file = makeFile(size);
    const stamps: Array<{ t: number; bytes: number; mbPerSecond: number; secondsLeft: number | null }> = [];
    const result = await hashFile(file, { onProgress: (p) => stamps.push({ t: performance.now(), bytes: p.bytes, mbPerSecond: p.mbPerSecond, secondsLeft: p.secondsLeft }) });
    const gaps = stamps.slice(1).map((s, i) => s.t - stamps[i]!.t);
    const controller = new AbortController();
    const cancelled = hashFile(makeFile(size), { signal: controller.signal });
    setTimeout(() => controller.abort(), 150);
    let cancelError = '';
    const t0 = performance.now();
    try {
      await cancelled;
    } catch (error) {
      cancelError = (error as Error).name;
    }
    const cancelMs = performance.now() - t0;
    // After a cancel the next hash starts fresh workers and is still right.
    const after = await hashFile(new File([chunk.subarray(0, 1024 * 1024) as BlobPart], 'after.bin'));
    return { hex: result.hash.slice(2), updates: stamps.length, maxGapMs: Math.max(...gaps), last: stamps.at(-1), cancelError, cancelMs, afterCancelHex: after.hash.slice(2) };
  },
  closeWorkers,
};

(window as unknown as { provenaBench: typeof bench }).provenaBench = bench;
document.body.dataset.ready = 'true';
