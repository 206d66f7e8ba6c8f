import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import { instantiateLayoutCore, type LayoutCore } from './layout.ts';

const modules = new Map<string, WebAssembly.Module>();

/** Our force-layout WebAssembly in Node, from wasm/build (a fresh instance per call): the SIMD build, or the scalar one. */
export function loadLayoutCoreNode(flavour: 'simd' | 'scalar' = 'simd'): LayoutCore {
  const file = flavour === 'simd' ? './build/layout.wasm' : './build/layout-scalar.wasm';
  let module = modules.get(file);
  if (!module) {
    module = new WebAssembly.Module(fs.readFileSync(fileURLToPath(new URL(file, import.meta.url))));
    modules.set(file, module);
  }
  return instantiateLayoutCore(module);
}
