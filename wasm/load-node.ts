import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import { instantiateSha256, isSimdSupported, type Sha256Wasm, type WasmFlavour } from './sha256.ts';

const modules = new Map<WasmFlavour, Promise<WebAssembly.Module>>();

/** Loads our SHA-256 WebAssembly in Node from wasm/build (SIMD build when the runtime has SIMD). */
export function loadSha256Node(flavour: WasmFlavour = isSimdSupported() ? 'simd' : 'scalar'): Promise<Sha256Wasm> {
  let module = modules.get(flavour);
  if (!module) {
    const file = fileURLToPath(new URL(`./build/sha256-${flavour}.wasm`, import.meta.url));
    module = WebAssembly.compile(fs.readFileSync(file));
    modules.set(flavour, module);
  }
  return module.then((m) => instantiateSha256(m, flavour));
}
