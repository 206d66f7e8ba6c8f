/// <reference lib="webworker" />
import { expose } from 'comlink';
import type { WasmFlavour } from '../../wasm/sha256.ts';
import { coreRuns } from './runs.ts';
import { fileParts, makeChunk } from '../data.ts';

export type CoreAbEngine = { name: string; flavour: WasmFlavour; url: string };
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
    runs = await coreRuns(await Promise.all(engines.map(async (e) => ({ name: e.name, flavour: e.flavour, module: await WebAssembly.compileStreaming(fetch(e.url)) }))), data);
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
