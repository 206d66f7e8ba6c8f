import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import { instantiateLayoutCore, type LayoutCore } from './layout.ts';

let module: WebAssembly.Module | null = null;

/** Our force-layout WebAssembly in Node, from wasm/build (a fresh instance per call). */
export function loadLayoutCoreNode(): LayoutCore {
  module ??= new WebAssembly.Module(fs.readFileSync(fileURLToPath(new URL('./build/layout.wasm', import.meta.url))));
  return instantiateLayoutCore(module);
}
