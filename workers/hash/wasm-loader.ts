import { instantiateSha256, isSimdSupported, type Sha256Wasm } from '../../wasm/sha256.ts';
import simdUrl from '../../wasm/build/sha256-simd.wasm?url';
import scalarUrl from '../../wasm/build/sha256-scalar.wasm?url';

let saved: Promise<Sha256Wasm> | null = null;

/** Our SHA-256 WebAssembly, compiled once per worker behind a saved promise; SIMD build where supported. */
export function loadSha256(): Promise<Sha256Wasm> {
  if (!saved) {
    const isSimd = isSimdSupported();
    saved = WebAssembly.compileStreaming(fetch(isSimd ? simdUrl : scalarUrl))
      .then((module) => instantiateSha256(module, isSimd ? 'simd' : 'scalar'))
      .then((sha) => {
        // Run the compression function hot so V8 starts compiling its optimised code before the
        // first real file: 1 MiB in 64 KiB calls (V8 switches code between calls; in Node its
        // optimised code arrives after about 700 KiB, 25 ms of baseline code at ~40 MB/s).
        const warm = sha.stream();
        const zeros = new Uint8Array(64 * 1024);
        warm.init();
        for (let i = 0; i < 16; i++) warm.update(zeros);
        warm.digestHex();
        return sha;
      });
  }
  return saved;
}
