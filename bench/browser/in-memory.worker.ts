/// <reference lib="webworker" />
import { expose } from 'comlink';
import { createSHA256 } from 'hash-wasm';
import { loadSha256 } from '../../workers/hash/wasm-loader.ts';

/** Hashing speed on data already in the worker's memory: the engines alone, without File reads. */
export const api = {
  async run(engine: 'provena' | 'hash-wasm', bytes: number): Promise<{ ms: number; hex: string }> {
    const data = new Uint8Array(bytes);
    for (let i = 0; i < bytes; i += 4096) data[i] = i & 0xff;
    const slice = 4 * 1024 * 1024;
    if (engine === 'provena') {
      const s = (await loadSha256()).stream();
      // Untimed warm-up, as for hash-wasm below, so both run optimised code when the clock starts.
      s.init();
      s.update(data.subarray(0, 16 * 1024 * 1024));
      s.digestHex();
      s.init();
      const t0 = performance.now();
      for (let o = 0; o < bytes; o += slice) s.update(data.subarray(o, o + slice));
      const hex = s.digestHex();
      return { ms: performance.now() - t0, hex };
    }
    const h = await createSHA256();
    h.init();
    h.update(data.subarray(0, 16 * 1024 * 1024)); // untimed warm-up
    h.init();
    const t0 = performance.now();
    for (let o = 0; o < bytes; o += slice) h.update(data.subarray(o, o + slice));
    const hex = h.digest('hex');
    return { ms: performance.now() - t0, hex };
  },
};
export type InMemoryWorkerApi = typeof api;
expose(api);
