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
        // Run the compression function hot once so V8 tiers it up before the first real file.
        const warm = sha.stream();
        warm.init();
        warm.update(new Uint8Array(2 * 1024 * 1024));
        warm.digestHex();
        return sha;
      });
  }
  return saved;
}
