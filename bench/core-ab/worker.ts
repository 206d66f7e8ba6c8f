/// <reference lib="webworker" />
import { expose } from 'comlink';
import { createSHA256 } from 'hash-wasm';
import { instantiateSha256, type WasmFlavour } from '../../wasm/sha256.ts';
import { fileParts, makeChunk } from '../data.ts';

export type CoreAbEngine = { name: string; flavour: WasmFlavour; url: string };
const PIECE = 10 * 1024 * 1024;
let runs: Record<string, () => string> = {};

/** Our cores (through the real bindings) and hash-wasm on the same data in this worker's memory; the runner times each run. */
export const api = {
  /** Prepares the data and the engines and warms every engine up untimed; returns the digests. */
  async setup(engines: CoreAbEngine[], size: number): Promise<Record<string, string>> {
    const data = new Uint8Array(size);
    let at = 0;
    for (const part of fileParts(makeChunk(), size)) {
      data.set(part, at);
      at += part.length;
    }
    runs = {};
    for (const e of engines) {
      const sha = await instantiateSha256(await WebAssembly.compileStreaming(fetch(e.url)), e.flavour);
      const s = sha.stream();
      runs[e.name] = () => {
        s.init();
        for (let o = 0; o < size; o += PIECE) s.update(data.subarray(o, o + PIECE));
        return s.digestHex();
      };
    }
    const hw = await createSHA256();
    runs['hash-wasm'] = () => {
      hw.init();
      for (let o = 0; o < size; o += PIECE) hw.update(data.subarray(o, o + PIECE));
      return hw.digest('hex');
    };
    const digests: Record<string, string> = {};
    for (const name of Object.keys(runs)) for (let i = 0; i < 3; i++) digests[name] = runs[name]!();
    return digests;
  },
  run(name: string): { ms: number; hex: string } {
    const t0 = performance.now();
    const hex = runs[name]!();
    return { ms: performance.now() - t0, hex };
  },
};
export type CoreAbWorkerApi = typeof api;
expose(api);
