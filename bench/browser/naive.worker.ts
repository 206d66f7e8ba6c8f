/// <reference lib="webworker" />
import { expose } from 'comlink';
import { createSHA256 } from 'hash-wasm';

/** Baseline "hash-wasm used naively": one worker both reads the File and hashes it, chunk by chunk. */
export const api = {
  async hashFile(file: Blob, chunkBytes: number): Promise<string> {
    const h = await createSHA256();
    h.init();
    for (let offset = 0; offset < file.size; offset += chunkBytes) {
      h.update(new Uint8Array(await file.slice(offset, offset + chunkBytes).arrayBuffer()));
    }
    return h.digest('hex');
  },
  /** Baseline for many files: hash-wasm, one file after another, in one worker. */
  async hashSequential(files: Blob[]): Promise<string[]> {
    const h = await createSHA256();
    const out: string[] = [];
    for (const f of files) {
      h.init();
      h.update(new Uint8Array(await f.arrayBuffer()));
      out.push(h.digest('hex'));
    }
    return out;
  },
};
export type NaiveWorkerApi = typeof api;
expose(api);
