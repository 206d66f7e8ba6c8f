/**
 * Typed bindings of our SHA-256 WebAssembly (wasm/assembly, built by wasm/build.ts).
 * Runtime-agnostic: the caller supplies the compiled module (fetched in the browser,
 * read from disk in Node), so the same code serves workers, the CLI and tests.
 */

type Exports = {
  memory: WebAssembly.Memory;
  INPUT_PTR: WebAssembly.Global;
  reserve(bytes: number): number;
  init(): void;
  update(length: number): void;
  final(): number;
  addLength(bytes: bigint): void;
  reset4?(lane: number): void;
  compress4?(p0: number, p1: number, p2: number, p3: number, blocks: number): void;
  digest4?(lane: number): number;
};

/** A tiny module with one SIMD instruction: validates only where WebAssembly SIMD is supported. */
const SIMD_PROBE = new Uint8Array([
  0, 97, 115, 109, 1, 0, 0, 0, 1, 5, 1, 96, 0, 1, 123, 3, 2, 1, 0, 10, 10, 1, 8, 0, 65, 0, 253, 15, 253, 98, 11,
]);

export function isSimdSupported(): boolean {
  try {
    return WebAssembly.validate(SIMD_PROBE);
  } catch {
    return false;
  }
}

export type WasmFlavour = 'simd' | 'scalar';

function toHex(bytes: Uint8Array): string {
  let out = '';
  for (let i = 0; i < bytes.length; i++) out += (bytes[i] as number).toString(16).padStart(2, '0');
  return out;
}

/**
 * Largest slice copied into WebAssembly memory per call. Small on purpose: V8 swaps a
 * function's optimised (TurboFan) code in only between calls, so one call over a whole
 * 10 MiB chunk that starts in baseline (Liftoff) code stays there, about 10x slower, to its
 * end; in slices of 256 KiB the switch happens within one slice. A slice also stays in L2
 * between the copy and the hash. Steady-state speed is the same from 64 KiB to 16 MiB.
 */
const MAX_SLICE = 256 * 1024;

export type Sha256Stream = {
  init(): void;
  update(data: Uint8Array): void;
  /** Hex digest; the stream must be init()ed again before reuse. */
  digestHex(): string;
  digest(): Uint8Array;
  /** Test hook: count `bytes` as already hashed (length encoding beyond 2^32 bits). */
  addLength(bytes: bigint): void;
};

export type Sha256Wasm = {
  flavour: WasmFlavour;
  stream(): Sha256Stream;
  /** Hashes many independent messages; four at a time in SIMD lanes when the build has them. */
  hashMany(messages: readonly Uint8Array[]): string[];
};

export async function instantiateSha256(module: WebAssembly.Module, flavour: WasmFlavour): Promise<Sha256Wasm> {
  const instance = await WebAssembly.instantiate(module, {
    env: {
      abort(_message: number, _file: number, line: number, column: number) {
        throw new Error(`sha256 wasm aborted at ${line}:${column}`);
      },
    },
  });
  const x = instance.exports as unknown as Exports;
  const inputPtr = Number(x.INPUT_PTR.value);
  // Layout above INPUT_PTR: the single-stream slice, then four lane slots and a scratch slot.
  if (!x.reserve(MAX_SLICE + 5 * SLOT)) throw new Error('cannot reserve WebAssembly memory for hashing');

  // One instance has one single-stream state: streams are used one at a time (a worker hashes one file at a time).
  const stream = (): Sha256Stream => ({
    init: () => x.init(),
    update(data) {
      for (let offset = 0; offset < data.length; offset += MAX_SLICE) {
        const slice = data.subarray(offset, Math.min(offset + MAX_SLICE, data.length));
        new Uint8Array(x.memory.buffer, inputPtr, slice.length).set(slice);
        x.update(slice.length);
      }
    },
    digest() {
      const ptr = x.final();
      return new Uint8Array(x.memory.buffer, ptr, 32).slice();
    },
    digestHex() {
      return toHex(this.digest());
    },
    addLength: (bytes) => x.addLength(bytes),
  });

  const single = stream();
  const hashOne = (m: Uint8Array) => {
    single.init();
    single.update(m);
    return single.digestHex();
  };

  const hashMany = (messages: readonly Uint8Array[]): string[] => {
    if (!x.compress4 || !x.reset4 || !x.digest4) return messages.map(hashOne);
    return hashManyInLanes(x, inputPtr + MAX_SLICE, messages, hashOne);
  };

  return { flavour, stream, hashMany };
}

/** Lane slot size: messages up to this padded size go through the lanes; larger ones stream. */
const SLOT = 256 * 1024;

function padInto(target: Uint8Array, message: Uint8Array): number {
  const blocks = Math.floor((message.length + 8) / 64) + 1;
  const padded = blocks * 64;
  target.set(message, 0);
  target.fill(0, message.length, padded);
  target[message.length] = 0x80;
  const view = new DataView(target.buffer, target.byteOffset, padded);
  const bits = BigInt(message.length) * 8n;
  view.setBigUint64(padded - 8, bits, false);
  return blocks;
}

/**
 * Keeps four lanes busy: each lane holds one padded message; every call compresses as
 * many blocks as the shortest active lane still has, then finished lanes take the next
 * message. Idle lanes point at a scratch block whose result is ignored.
 */
function hashManyInLanes(x: Exports, laneBase: number, messages: readonly Uint8Array[], hashOne: (m: Uint8Array) => string): string[] {
  const results = new Array<string>(messages.length);
  const scratch = laneBase + 4 * SLOT;
  const lanes = [0, 1, 2, 3].map((j) => ({ ptr: laneBase + j * SLOT, index: -1, left: 0, done: 0 }));
  let next = 0;
  const load = (j: number): boolean => {
    const lane = lanes[j]!;
    while (next < messages.length) {
      const index = next++;
      const message = messages[index]!;
      if (message.length + 72 > SLOT) {
        results[index] = hashOne(message);
        continue;
      }
      const blocks = padInto(new Uint8Array(x.memory.buffer, lane.ptr, SLOT), message);
      x.reset4!(j);
      lane.index = index;
      lane.left = blocks;
      lane.done = 0;
      return true;
    }
    lane.index = -1;
    return false;
  };
  for (let j = 0; j < 4; j++) load(j);
  for (;;) {
    const active = lanes.filter((l) => l.index >= 0);
    if (active.length === 0) break;
    const step = Math.min(...active.map((l) => l.left));
    const ptrs = lanes.map((l) => (l.index >= 0 ? l.ptr + l.done * 64 : scratch));
    // Idle lanes read `step` blocks from the scratch area: make sure it is inside memory.
    x.compress4!(ptrs[0]!, ptrs[1]!, ptrs[2]!, ptrs[3]!, step);
    for (let j = 0; j < 4; j++) {
      const lane = lanes[j]!;
      if (lane.index < 0) continue;
      lane.left -= step;
      lane.done += step;
      if (lane.left === 0) {
        const ptr = x.digest4!(j);
        results[lane.index] = toHex(new Uint8Array(x.memory.buffer, ptr, 32));
        load(j);
      }
    }
  }
  return results;
}
