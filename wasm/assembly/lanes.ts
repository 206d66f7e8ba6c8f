// The 4-lane multi-buffer SHA-256 core: four independent messages hashed at once in
// SIMD lanes (for folders and source trees of many files). SIMD build only.
import { DIGEST4, IV, K, K4, STATE4 } from './sha256';
import { compressBlock4 } from './lanes-compress.generated';

function setup4(): void {
  for (let t = 0; t < 64; t++) v128.store(K4 + (<usize>t << 4), i32x4.splat(load<u32>(K + (<usize>t << 2))));
}
setup4();

/** Starts lane `lane` (0–3) on a new message. */
export function reset4(lane: i32): void {
  for (let i = 0; i < 8; i++) store<u32>(STATE4 + (<usize>i << 4) + (<usize>lane << 2), unchecked(IV[i]));
}

/**
 * Compresses `blocks` consecutive 64-byte blocks of four messages at once, lane j reading
 * from pointer pj. Messages must already be padded (FIPS 180-4 §5.1.1) by the caller.
 */
export function compress4(p0: usize, p1: usize, p2: usize, p3: usize, blocks: i32): void {
  for (let n = 0; n < blocks; n++) {
    const offset = <usize>n << 6;
    compressBlock4(p0 + offset, p1 + offset, p2 + offset, p3 + offset);
  }
}

/** Writes lane `lane`'s big-endian digest and returns its pointer (32 bytes). */
export function digest4(lane: i32): usize {
  const out = DIGEST4 + (<usize>lane << 5);
  for (let i = 0; i < 8; i++) store<u32>(out + (<usize>i << 2), bswap<u32>(load<u32>(STATE4 + (<usize>i << 4) + (<usize>lane << 2))));
  return out;
}
