import { instantiateSha256, isSimdSupported, type Sha256Wasm } from '../../wasm/sha256.ts';
import simdUrl from '../../wasm/build/sha256-simd.wasm?url';
import scalarUrl from '../../wasm/build/sha256-scalar.wasm?url';

let saved: Promise<Sha256Wasm> | null = null;

/** Our SHA-256 WebAssembly, compiled once per worker behind a saved promise; SIMD build where supported. */
export function loadSha256(): Promise<Sha256Wasm> {
  if (!saved) {
    const isSimd = isSimdSupported();
    saved = WebAssembly.compileStreaming(fetch(isSimd ? simdUrl : scalarUrl)).then((module) => instantiateSha256(module, isSimd ? 'simd' : 'scalar'));
  }
  return saved;
}
