/**
 * Builds our WebAssembly from wasm/assembly with AssemblyScript (reproducible: pinned
 * compiler from package-lock, fixed flags). Outputs, committed so that a checkout works
 * without building:
 *   wasm/build/sha256-scalar.wasm  baseline build, no SIMD (single-stream core)
 *   wasm/build/sha256-simd.wasm    SIMD build (single-stream + 4-lane multi-buffer core)
 *   wasm/build/layout.wasm         force layout (Barnes-Hut octree, springs, integration), SIMD
 *   wasm/build/layout-scalar.wasm  the same without SIMD (for engines that lack it)
 * Run: npm run build:wasm
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const asc = path.join(here, '..', 'node_modules', 'assemblyscript', 'bin', 'asc.js');
// Our fixed scratch regions live below 4096; the compiler's static data goes above them.
const common = ['--runtime', 'stub', '-O3', '--noAssert', '--converge', '--initialMemory', '1', '--memoryBase', '4096'];

const builds = [
  { entry: 'assembly/scalar.ts', out: 'build/sha256-scalar.wasm', flags: ['--disable', 'simd'] },
  { entry: 'assembly/simd.ts', out: 'build/sha256-simd.wasm', flags: ['--enable', 'simd'] },
  // The layout lays out its own memory from __heap_base, so it takes no memory base.
  { entry: 'assembly/layout.ts', out: 'build/layout.wasm', flags: ['--enable', 'simd'], isLayout: true },
  { entry: 'assembly/layout.ts', out: 'build/layout-scalar.wasm', flags: ['--disable', 'simd'], isLayout: true },
];

await import('./gen-compress.ts');
fs.mkdirSync(path.join(here, 'build'), { recursive: true });
for (const build of builds) {
  const flags = 'isLayout' in build ? common.filter((f, i, all) => f !== '--memoryBase' && all[i - 1] !== '--memoryBase') : common;
  const result = spawnSync(process.execPath, [asc, build.entry, '-o', build.out, ...flags, ...build.flags], { cwd: here, stdio: 'inherit' });
  if (result.status !== 0) process.exit(result.status ?? 1);
  console.log(`built wasm/${build.out} (${fs.statSync(path.join(here, build.out)).size} bytes)`);
}
