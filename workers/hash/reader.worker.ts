/// <reference lib="webworker" />
import { expose, transfer, wrap, type Remote } from 'comlink';
import type { HashEngine, HashWorkerApi } from './hash.worker.ts';

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
    engine: HashEngine = 'provena',
  ): Promise<{ hex: string; bytes: number }> {
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
      return await hasher.finish();
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
