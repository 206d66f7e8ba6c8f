/// <reference lib="webworker" />
import { expose } from 'comlink';
import { createSHA256 } from 'hash-wasm';
import { instantiateSha256, type WasmFlavour } from '../../wasm/sha256.ts';
import { fileParts, makeChunk } from '../data.ts';

export type CoreAbEngine = { name: string; flavour: WasmFlavour; url: string };
const PIECE = 10 * 1024 * 1024;

/** Our cores (through the real bindings) and hash-wasm on the same data in this worker's memory, rounds interleaved in rotated order. */
export const api = {
  async run(engines: CoreAbEngine[], size: number, rounds: number): Promise<{ times: Record<string, number[]>; digests: Record<string, string> }> {
    const data = new Uint8Array(size);
    let at = 0;
    for (const part of fileParts(makeChunk(), size)) {
      data.set(part, at);
      at += part.length;
    }
    const runs: Record<string, () => string> = {};
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
    const names = Object.keys(runs);
    const digests: Record<string, string> = {};
    // Untimed warm-up: every engine runs optimised code when the clock starts.
    for (const name of names) for (let i = 0; i < 3; i++) digests[name] = runs[name]!();
    const times: Record<string, number[]> = Object.fromEntries(names.map((n) => [n, []]));
    for (let r = 0; r < rounds; r++) {
      for (const name of [...names.slice(r % names.length), ...names.slice(0, r % names.length)]) {
        const t0 = performance.now();
        const hex = runs[name]!();
        times[name]!.push(size / 1e6 / ((performance.now() - t0) / 1000));
        if (hex !== digests[name]) digests[name] = `changed: ${hex}`;
      }
    }
    return { times, digests };
  },
};
export type CoreAbWorkerApi = typeof api;
expose(api);
