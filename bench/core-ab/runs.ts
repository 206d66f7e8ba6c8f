import { createSHA256 } from 'hash-wasm';
import { instantiateSha256, type WasmFlavour } from '../../wasm/sha256.ts';

/** Updates of this size, as the app's hashing worker gets its chunks. */
const PIECE = 10 * 1024 * 1024;

/**
 * One run per engine over `data` (our cores through the real bindings, and hash-wasm), each
 * hashing it in 10 MiB updates and answering the hex digest. Used alike by the Node side of
 * bench:core and by its Chromium worker, so that both time the same work.
 */
export async function coreRuns(cores: Array<{ name: string; flavour: WasmFlavour; module: WebAssembly.Module }>, data: Uint8Array): Promise<Record<string, () => string>> {
  const runs: Record<string, () => string> = {};
  for (const core of cores) {
    const s = (await instantiateSha256(core.module, core.flavour)).stream();
    runs[core.name] = () => {
      s.init();
      for (let o = 0; o < data.length; o += PIECE) s.update(data.subarray(o, o + PIECE));
      return s.digestHex();
    };
  }
  const hw = await createSHA256();
  runs['hash-wasm'] = () => {
    hw.init();
    for (let o = 0; o < data.length; o += PIECE) hw.update(data.subarray(o, o + PIECE));
    return hw.digest('hex');
  };
  return runs;
}
