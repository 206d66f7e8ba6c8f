import { proxy, transfer, wrap, type Remote } from 'comlink';
import { HASH_CHUNK_BYTES } from '../../core/constants.ts';
import { fileIdentity } from '../../core/file-identity.ts';
import type { HashWorkerApi } from './hash.worker.ts';
import type { FileEngine, ReaderWorkerApi } from './reader.worker.ts';

/**
 * The page's hashing service. One file: a reader worker slices the File and transfers
 * chunks (§9: 10 MiB) straight to a hashing worker running our WebAssembly, a few in
 * flight, so the page thread only receives progress. Many files: small ones are read and
 * hashed in a pool of hashing workers, four at a time in SIMD lanes; large ones stream.
 */
export type HashProgress = {
  bytes: number;
  totalBytes: number;
  /** Megabytes (10^6 bytes) per second since the start. */
  mbPerSecond: number;
  /** null until a speed is known. */
  secondsLeft: number | null;
  filesDone?: number;
  totalFiles?: number;
};

export type HashOptions = {
  signal?: AbortSignal;
  onProgress?: (progress: HashProgress) => void;
  /**
   * For benchmarks: run hash-wasm in the same pipeline instead of our WebAssembly, or force
   * streaming WebCrypto. Left out, the reader picks streaming WebCrypto where the browser
   * digests a ReadableStream (none of the Chromium versions we test) and our WebAssembly otherwise.
   */
  engine?: FileEngine;
  /** For benchmarks: chunk size, chunks in flight and Blob reads at once (defaults: §9's 10 MiB, 3, 2). */
  chunkBytes?: number;
  inFlight?: number;
  readsAhead?: number;
};

/** hashFiles only: each file's own progress and result as soon as it is known (a batch screen shows a row per file). */
export type FilesHashOptions = HashOptions & {
  /** Bytes of file `index` hashed so far (large files stream; small ones go from 0 to done at once). */
  onFileProgress?: (index: number, bytes: number) => void;
  onFileHashed?: (index: number, result: HashResult) => void;
};
export type HashResult = { hash: string; identity: string; bytes: number; ms: number; engine?: FileEngine };

/** Chunks in flight between reader and hasher: enough to overlap reading and hashing, bounded memory. */
const IN_FLIGHT = 3;
/** 0: the reader worker reads the File's byte stream into reused buffers; n: n Blob slice reads at once (see reader.worker.ts). */
const READS_AHEAD = 0;
/** Files up to this size are read whole, in a hashing worker; larger ones stream. */
const SMALL_FILE_BYTES = 4 * 1024 * 1024;
/** Progress is reported at least this often while work runs. */
const PROGRESS_MS = 250;
/** Idle workers are closed after this long. */
const IDLE_MS = 30_000;

type Pipeline = { reader: Worker; hasher: Worker; api: Remote<ReaderWorkerApi>; hashApi: Remote<HashWorkerApi> };

let pipeline: Pipeline | null = null;
let pool: Array<{ worker: Worker; api: Remote<HashWorkerApi> }> = [];
let idleTimer: ReturnType<typeof setTimeout> | null = null;
let nextJob = 1;
let activeJobs = 0;

function newHasher(): Worker {
  return new Worker(new URL('./hash.worker.ts', import.meta.url), { type: 'module', name: 'provena-hash' });
}

function getPipeline(): Pipeline {
  if (pipeline) return pipeline;
  const hasher = newHasher();
  const reader = new Worker(new URL('./reader.worker.ts', import.meta.url), { type: 'module', name: 'provena-read' });
  const api = wrap<ReaderWorkerApi>(reader);
  const hashApi = wrap<HashWorkerApi>(hasher);
  const channel = new MessageChannel();
  void hashApi.connect(proxyTransfer(channel.port1));
  void api.connect(proxyTransfer(channel.port2));
  pipeline = { reader, hasher, api, hashApi };
  return pipeline;
}

/** Comlink moves a MessagePort only when it is marked as a transferable. */
function proxyTransfer(port: MessagePort): MessagePort {
  return transfer(port, [port]);
}

function getPool(size: number) {
  while (pool.length < size) {
    const worker = newHasher();
    pool.push({ worker, api: wrap<HashWorkerApi>(worker) });
  }
  return pool.slice(0, size);
}

/** Ends every worker now: used on cancel (frees their memory at once) and when idle. */
export function closeWorkers(): void {
  if (pipeline) {
    pipeline.reader.terminate();
    pipeline.hasher.terminate();
    pipeline = null;
  }
  for (const p of pool) p.worker.terminate();
  pool = [];
}

function startJob(): void {
  activeJobs += 1;
  if (idleTimer) clearTimeout(idleTimer);
  idleTimer = null;
}

function endJob(): void {
  activeJobs -= 1;
  if (activeJobs === 0) idleTimer = setTimeout(closeWorkers, IDLE_MS);
}

function abortError(): DOMException {
  return new DOMException('hashing cancelled', 'AbortError');
}

/** Reports progress at least every PROGRESS_MS from a timer, and on demand. */
function progressReporter(totalBytes: number, onProgress: HashOptions['onProgress'], totalFiles?: number) {
  const started = performance.now();
  let bytes = 0;
  let filesDone = 0;
  const emit = () => {
    if (!onProgress) return;
    const seconds = (performance.now() - started) / 1000;
    const bytesPerSecond = seconds > 0 ? bytes / seconds : 0;
    onProgress({
      bytes,
      totalBytes,
      mbPerSecond: bytesPerSecond / 1e6,
      secondsLeft: bytesPerSecond > 0 ? (totalBytes - bytes) / bytesPerSecond : null,
      ...(totalFiles !== undefined ? { filesDone, totalFiles } : {}),
    });
  };
  const timer = onProgress ? setInterval(emit, PROGRESS_MS) : null;
  return {
    started,
    set(value: number, files?: number) {
      bytes = value;
      if (files !== undefined) filesDone = files;
    },
    stop() {
      if (timer) clearInterval(timer);
      emit();
    },
  };
}

export async function hashFile(file: File, options: HashOptions = {}): Promise<HashResult> {
  const { signal, onProgress } = options;
  if (signal?.aborted) throw abortError();
  startJob();
  const jobId = nextJob++;
  const progress = progressReporter(file.size, onProgress);
  const { api } = getPipeline();
  const onAbort = () => {
    void api.cancel(jobId);
    // Terminating frees the chunks in flight at once; the next call starts fresh workers.
    closeWorkers();
  };
  signal?.addEventListener('abort', onAbort, { once: true });
  try {
    const result = await Promise.race([
      api.hashFile(jobId, file, options.chunkBytes ?? HASH_CHUNK_BYTES, options.inFlight ?? IN_FLIGHT, proxy((done: number) => progress.set(done)), options.engine, options.readsAhead ?? READS_AHEAD),
      new Promise<never>((_, reject) => signal?.addEventListener('abort', () => reject(abortError()), { once: true })),
    ]);
    progress.set(result.bytes);
    const ms = performance.now() - progress.started;
    return { hash: `0x${result.hex}`, identity: fileIdentity(result.hex, file.name), bytes: result.bytes, ms, engine: result.engine };
  } finally {
    signal?.removeEventListener('abort', onAbort);
    progress.stop();
    endJob();
  }
}

/**
 * Pool size: one worker per core beyond the page's, at least two (while one waits on Blob
 * reads the other hashes), at most four (plenty for disk and memory bandwidth).
 */
function poolSize(): number {
  const cores = typeof navigator !== 'undefined' ? navigator.hardwareConcurrency || 2 : 2;
  return Math.max(2, Math.min(4, cores - 1));
}

/** Hashes many files (a folder, a source tree), results in the same order as `files`. */
export async function hashFiles(files: readonly File[], options: FilesHashOptions = {}): Promise<HashResult[]> {
  const { signal, onProgress } = options;
  if (signal?.aborted) throw abortError();
  const totalBytes = files.reduce((n, f) => n + f.size, 0);
  const progress = progressReporter(totalBytes, onProgress, files.length);
  const results = new Array<HashResult>(files.length);
  let bytesDone = 0;
  let filesDone = 0;
  startJob();
  try {
    const small: number[] = [];
    const large: number[] = [];
    files.forEach((f, i) => (f.size <= SMALL_FILE_BYTES ? small : large).push(i));
    // Batches of about 8 MiB keep every worker busy without holding much memory.
    const batches: number[][] = [];
    let batch: number[] = [];
    let batchBytes = 0;
    for (const i of small) {
      batch.push(i);
      batchBytes += files[i]!.size;
      if (batchBytes >= 8 * 1024 * 1024 || batch.length >= 512) {
        batches.push(batch);
        batch = [];
        batchBytes = 0;
      }
    }
    if (batch.length) batches.push(batch);
    const workers = getPool(Math.min(poolSize(), Math.max(1, batches.length)));
    let nextBatch = 0;
    const started = performance.now();
    await Promise.all(
      workers.map(async ({ api }) => {
        while (nextBatch < batches.length) {
          if (signal?.aborted) throw abortError();
          const indexes = batches[nextBatch++]!;
          const hexes = await api.hashBlobs(indexes.map((i) => files[i]!));
          const ms = performance.now() - started;
          indexes.forEach((fileIndex, k) => {
            const f = files[fileIndex]!;
            results[fileIndex] = { hash: `0x${hexes[k]}`, identity: fileIdentity(hexes[k]!, f.name), bytes: f.size, ms };
            options.onFileHashed?.(fileIndex, results[fileIndex]);
            bytesDone += f.size;
          });
          filesDone += indexes.length;
          progress.set(bytesDone, filesDone);
        }
      }),
    );
    for (const i of large) {
      const before = bytesDone;
      results[i] = await hashFile(files[i]!, {
        signal,
        onProgress: (p) => {
          progress.set(before + p.bytes, filesDone);
          options.onFileProgress?.(i, p.bytes);
        },
      });
      options.onFileHashed?.(i, results[i]);
      bytesDone += files[i]!.size;
      filesDone += 1;
      progress.set(bytesDone, filesDone);
    }
    return results;
  } catch (error) {
    if (signal?.aborted) closeWorkers();
    throw signal?.aborted ? abortError() : error;
  } finally {
    progress.stop();
    endJob();
  }
}
