/**
 * Deterministic benchmark data, generated the same way in Node and in the browser so that
 * every timed run can be checked against a digest computed independently (node:crypto).
 */
export const CHUNK = 16 * 1024 * 1024;

/** 16 MiB of xorshift32 bytes from a fixed seed. */
export function makeChunk(seed = 0x9e3779b9): Uint8Array {
  const out = new Uint8Array(CHUNK);
  const words = new Uint32Array(out.buffer);
  let x = seed >>> 0;
  for (let i = 0; i < words.length; i++) {
    x ^= x << 13;
    x >>>= 0;
    x ^= x >>> 17;
    x ^= x << 5;
    x >>>= 0;
    words[i] = x;
  }
  return out;
}

/** The file of `size` bytes: the chunk repeated, the last copy cut short. */
export function* fileParts(chunk: Uint8Array, size: number): Generator<Uint8Array> {
  for (let offset = 0; offset < size; offset += chunk.length) yield chunk.subarray(0, Math.min(chunk.length, size - offset));
}

/** Many small files: sizes 1–64 KiB from a fixed sequence, contents cut from the chunk. */
export function smallFileSizes(count: number): number[] {
  const sizes: number[] = [];
  let x = 12345;
  for (let i = 0; i < count; i++) {
    x = (x * 1103515245 + 12345) >>> 0;
    sizes.push(1024 + (x % (63 * 1024)));
  }
  return sizes;
}

export function smallFileSlices(chunk: Uint8Array, sizes: number[]): Uint8Array[] {
  let offset = 0;
  return sizes.map((n) => {
    if (offset + n > chunk.length) offset = 0;
    const s = chunk.subarray(offset, offset + n);
    offset += 4099;
    return s;
  });
}
