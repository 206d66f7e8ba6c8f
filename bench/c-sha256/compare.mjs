// Node, 64 MiB in memory, 7 interleaved runs: our AssemblyScript SHA-256 (wasm/build) against the C builds of build.sh.
// Run: sh bench/c-sha256/build.sh && node bench/c-sha256/compare.mjs
import fs from 'node:fs';
import { createHash } from 'node:crypto';
const { loadSha256Node } = await import('../../wasm/load-node.ts');
const MiB = 1 << 20, SIZE = 64 * MiB, L = SIZE - 9;
const buf = new Uint8Array(SIZE); for (let i = 0; i < L; i++) buf[i] = (i * 131 + 7) & 255;
const msg = buf.subarray(0, L);
const expected = createHash('sha256').update(msg).digest('hex');
buf[L] = 0x80; new DataView(buf.buffer).setBigUint64(SIZE - 8, BigInt(L) * 8n, false);
const dir = process.argv[2] ?? '/tmp/provena-c-sha256';
async function cEngine(name) {
  const file = `${dir}/${name}`;
  const { instance } = await WebAssembly.instantiate(fs.readFileSync(file), {});
  const x = instance.exports;
  return () => {
    x.init();
    const inp = x.input_ptr();
    for (let o = 0; o < SIZE; o += 16 * MiB) { new Uint8Array(x.memory.buffer, inp, 16 * MiB).set(buf.subarray(o, o + 16 * MiB)); x.blocks(16 * MiB / 64); }
    const st = new Uint32Array(x.memory.buffer, x.state_ptr(), 8);
    return Array.from(st, (w) => w.toString(16).padStart(8, '0')).join('');
  };
}
const ours = await loadSha256Node();
const engines = { ours: () => { const s = ours.stream(); s.init(); s.update(msg); return s.digestHex(); }, 'c loop scalar': await cEngine('c-loop-scalar.wasm'), 'c loop simd128': await cEngine('c-loop-simd.wasm'), 'c window scalar': await cEngine('c-window-scalar.wasm'), 'c window simd128': await cEngine('c-window-simd.wasm') };
const times = {}; for (const k in engines) times[k] = [];
for (let r = 0; r < 7; r++) for (const k of Object.keys(engines)) { const t = performance.now(); const h = engines[k](); const ms = performance.now() - t; if (h !== expected) throw new Error(k + ' wrong ' + h); times[k].push(SIZE / 1e6 / (ms / 1000)); }
for (const k in times) { const s = times[k].sort((a, b) => a - b); console.log(k.padEnd(18), 'median', s[3].toFixed(1), 'best', s[6].toFixed(1), 'MB/s'); }
