/// <reference lib="webworker" />
import { expose, transfer, wrap, type Remote } from 'comlink';
import type { HashWorkerApi } from './hash.worker.ts';
import { chooseEngine, hasStreamingDigest, streamingDigestHex, type DigestSubtle, type FileEngine } from './streaming-digest.ts';

export type { FileEngine };

/**
 * The reader worker: slices the File and transfers each chunk straight to the hashing
 * worker, keeping a few reads in flight so that reading (a copy on this thread) and
 * hashing (on the other) overlap. The page only sees progress.
 */
let hasher: Remote<HashWorkerApi> | null = null;
const cancelled = new Set<number>();

export type ReadProgress = (bytesDone: number) => void;

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
    await hasher.begin(engine);
    const pending: Promise<unknown>[] = [];
    let hashed = 0;
    try {
      for (let offset = 0; offset < file.size; offset += chunkBytes) {
        if (cancelled.has(jobId)) throw new DOMException('hashing cancelled', 'AbortError');
        const chunk = await file.slice(offset, Math.min(offset + chunkBytes, file.size)).arrayBuffer();
        const size = chunk.byteLength;
        pending.push(
          hasher.update(transfer(chunk, [chunk])).then(() => {
            hashed += size;
            onProgress(hashed);
          }),
        );
        // Bounded memory: at most `inFlight` chunks between the reader and the hasher.
        if (pending.length >= inFlight) await pending.shift();
      }
      await Promise.all(pending);
      if (cancelled.has(jobId)) throw new DOMException('hashing cancelled', 'AbortError');
      return { ...(await hasher.finish()), engine };
    } catch (error) {
      await Promise.allSettled(pending);
      await hasher.abort();
      throw error;
    } finally {
      cancelled.delete(jobId);
    }
  },
};

export type ReaderWorkerApi = typeof api;
expose(api);
