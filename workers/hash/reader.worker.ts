/// <reference lib="webworker" />
import { expose, transfer, wrap, type Remote } from 'comlink';
import type { HashWorkerApi } from './hash.worker.ts';
import { chooseEngine, hasStreamingDigest, streamingDigestHex, type DigestSubtle, type FileEngine } from './streaming-digest.ts';

export type { FileEngine };

/**
 * The reader worker: reads the File in chunks and transfers each straight to the hashing
 * worker, keeping a few chunks in flight so that reading (a copy on this thread) and hashing
 * (on the other) overlap. The page only sees progress. Two ways to read (`readsAhead`):
 *
 * - 0 (the default): the File's byte stream read into our own buffers (a BYOB reader), each buffer reused when
 *   the hasher hands it back: no new 10 MiB ArrayBuffer per chunk, and Chromium's stream path
 *   costs less CPU than a read per slice (7.2 against 9.5–10.1 ms of Chromium CPU per MB, all
 *   processes, reading a 256 MiB File alone on the shared machine). Where the stream is not a
 *   byte stream, slices are read instead.
 * - n ≥ 1: `file.slice(…).arrayBuffer()`, n reads at once (two at once read 105–108 against
 *   67 MB/s for one at a time there: while one read waits for the browser process, another
 *   progresses).
 *
 * Chunks alive at once (being read, with the hasher, or waiting for reuse): at most inFlight + 1
 * (stream), inFlight + n - 1 (slices); §9's 10 MiB × 4 = 40 MiB by default.
 */
let hasher: Remote<HashWorkerApi> | null = null;
const cancelled = new Set<number>();

export type ReadProgress = (bytesDone: number) => void;

/** A chunk to hash: the first `length` bytes of `buffer`. */
type Chunk = { buffer: ArrayBuffer; length: number };
type ChunkSource = {
  /** The next chunk in file order; null at the end. */
  next(): Promise<Chunk | null>;
  /** The hasher is done with a chunk: its buffer comes back for reuse, and there is room for another. */
  release(buffer: ArrayBuffer): void;
  /** Stops reading; settles reads still going. */
  stop(): Promise<void>;
};

/** Reads the File's byte stream into reused buffers; null where Blob.stream() is no byte stream. */
function byobSource(file: Blob, chunkBytes: number): ChunkSource | null {
  let reader: ReadableStreamBYOBReader;
  try {
    reader = file.stream().getReader({ mode: 'byob' });
  } catch {
    return null;
  }
  const free: ArrayBuffer[] = [];
  let isDone = false;
  return {
    async next() {
      if (isDone) return null;
      let buffer = free.pop() ?? new ArrayBuffer(chunkBytes);
      let length = 0;
      while (length < chunkBytes) {
        const { done, value } = await reader.read(new Uint8Array(buffer, length, chunkBytes - length));
        if (done) {
          isDone = true;
          // A read that ends the stream hands the buffer back in `value` (empty), or not at all.
          if (value) buffer = value.buffer;
          break;
        }
        buffer = value.buffer;
        length += value.byteLength;
      }
      return length > 0 ? { buffer, length } : null;
    },
    release(buffer) {
      if (buffer.byteLength === chunkBytes && free.length < 2) free.push(buffer);
    },
    async stop() {
      isDone = true;
      await reader.cancel().catch(() => undefined);
    },
  };
}

/** Reads `file.slice(…).arrayBuffer()`, up to `ahead` at once, at most `limit` chunks alive with those the hasher holds. */
function sliceSource(file: Blob, chunkBytes: number, ahead: number, limit: number): ChunkSource {
  const reads: Promise<ArrayBuffer>[] = [];
  let next = 0;
  let withHasher = 0;
  let isStopped = false;
  const readMore = () => {
    while (!isStopped && next < file.size && reads.length < ahead && reads.length + withHasher < limit) {
      reads.push(file.slice(next, Math.min(next + chunkBytes, file.size)).arrayBuffer());
      next += chunkBytes;
    }
  };
  return {
    async next() {
      readMore();
      const read = reads.shift();
      if (!read) return null;
      const buffer = await read;
      withHasher += 1;
      readMore();
      return { buffer, length: buffer.byteLength };
    },
    release() {
      withHasher -= 1;
      readMore();
    },
    async stop() {
      isStopped = true;
      await Promise.allSettled(reads);
    },
  };
}

export const api = {
  connect(port: MessagePort): void {
    hasher = wrap<HashWorkerApi>(port);
  },
  cancel(jobId: number): void {
    cancelled.add(jobId);
  },
  async hashFile(
    jobId: number,
    file: Blob,
    chunkBytes: number,
    inFlight: number,
    onProgress: ReadProgress,
    requested?: FileEngine,
    readsAhead = 0,
  ): Promise<{ hex: string; bytes: number; engine: FileEngine }> {
    const engine = await chooseEngine(requested, hasStreamingDigest);
    if (engine === 'webcrypto-stream') {
      try {
        const subtle = crypto.subtle as unknown as DigestSubtle;
        return { ...(await streamingDigestHex(subtle, file, onProgress, () => cancelled.has(jobId))), engine };
      } finally {
        cancelled.delete(jobId);
      }
    }
    if (!hasher) throw new Error('reader worker: connect() first');
    const remote = hasher;
    await remote.begin(engine);
    const ahead = Math.max(1, readsAhead);
    const source = (readsAhead === 0 ? byobSource(file, chunkBytes) : null) ?? sliceSource(file, chunkBytes, ahead, inFlight + ahead - 1);
    // Chunks with the hasher, until it has hashed them.
    const pending = new Set<Promise<unknown>>();
    let hashed = 0;
    try {
      for (;;) {
        if (cancelled.has(jobId)) throw new DOMException('hashing cancelled', 'AbortError');
        const chunk = await source.next();
        if (!chunk) break;
        const update: Promise<unknown> = remote.update(transfer(chunk.buffer, [chunk.buffer]), chunk.length).then((back) => {
          pending.delete(update);
          hashed += chunk.length;
          onProgress(hashed);
          source.release(back);
        });
        pending.add(update);
        if (pending.size >= inFlight) await Promise.race(pending);
      }
      await Promise.all(pending);
      if (cancelled.has(jobId)) throw new DOMException('hashing cancelled', 'AbortError');
      return { ...(await remote.finish()), engine };
    } catch (error) {
      await source.stop();
      await Promise.allSettled(pending);
      await remote.abort();
      throw error;
    } finally {
      cancelled.delete(jobId);
    }
  },
};

export type ReaderWorkerApi = typeof api;
expose(api);
