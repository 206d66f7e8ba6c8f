// The 4-lane multi-buffer SHA-256 core: four independent messages hashed at once in
// SIMD lanes (for folders and source trees of many files). SIMD build only.
import { DIGEST4, IV, K, STATE4, W4 } from './sha256';


// @ts-ignore: decorator
@inline function rotr4(x: v128, n: i32): v128 {
  return v128.or(i32x4.shr_u(x, n), i32x4.shl(x, 32 - n));
}

// @ts-ignore: decorator
@inline function word4(p0: usize, p1: usize, p2: usize, p3: usize, offset: usize): v128 {
  let v = i32x4.splat(bswap<u32>(load<u32>(p0 + offset)));
  v = i32x4.replace_lane(v, 1, bswap<u32>(load<u32>(p1 + offset)));
  v = i32x4.replace_lane(v, 2, bswap<u32>(load<u32>(p2 + offset)));
  return i32x4.replace_lane(v, 3, bswap<u32>(load<u32>(p3 + offset)));
}

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
    for (let t = 0; t < 16; t++) v128.store(W4 + (<usize>t << 4), word4(p0, p1, p2, p3, offset + (<usize>t << 2)));
    for (let t = 16; t < 64; t++) {
      const w15 = v128.load(W4 + (<usize>(t - 15) << 4));
      const w2 = v128.load(W4 + (<usize>(t - 2) << 4));
      const s0 = v128.xor(v128.xor(rotr4(w15, 7), rotr4(w15, 18)), i32x4.shr_u(w15, 3));
      const s1 = v128.xor(v128.xor(rotr4(w2, 17), rotr4(w2, 19)), i32x4.shr_u(w2, 10));
      const w = i32x4.add(i32x4.add(v128.load(W4 + (<usize>(t - 16) << 4)), s0), i32x4.add(v128.load(W4 + (<usize>(t - 7) << 4)), s1));
      v128.store(W4 + (<usize>t << 4), w);
    }
    let a = v128.load(STATE4, 0), b = v128.load(STATE4, 16), c = v128.load(STATE4, 32), d = v128.load(STATE4, 48);
    let e = v128.load(STATE4, 64), f = v128.load(STATE4, 80), g = v128.load(STATE4, 96), h = v128.load(STATE4, 112);
    for (let t = 0; t < 64; t++) {
      const s1 = v128.xor(v128.xor(rotr4(e, 6), rotr4(e, 11)), rotr4(e, 25));
      const ch = v128.bitselect(f, g, e);
      const t1 = i32x4.add(i32x4.add(i32x4.add(h, s1), i32x4.add(ch, i32x4.splat(load<u32>(K + (<usize>t << 2))))), v128.load(W4 + (<usize>t << 4)));
      const s0 = v128.xor(v128.xor(rotr4(a, 2), rotr4(a, 13)), rotr4(a, 22));
      const maj = v128.bitselect(a, b, v128.xor(b, c));
      h = g; g = f; f = e; e = i32x4.add(d, t1);
      d = c; c = b; b = a; a = i32x4.add(t1, i32x4.add(s0, maj));
    }
    v128.store(STATE4, i32x4.add(v128.load(STATE4, 0), a), 0);
    v128.store(STATE4, i32x4.add(v128.load(STATE4, 16), b), 16);
    v128.store(STATE4, i32x4.add(v128.load(STATE4, 32), c), 32);
    v128.store(STATE4, i32x4.add(v128.load(STATE4, 48), d), 48);
    v128.store(STATE4, i32x4.add(v128.load(STATE4, 64), e), 64);
    v128.store(STATE4, i32x4.add(v128.load(STATE4, 80), f), 80);
    v128.store(STATE4, i32x4.add(v128.load(STATE4, 96), g), 96);
    v128.store(STATE4, i32x4.add(v128.load(STATE4, 112), h), 112);
  }
}

/** Writes lane `lane`'s big-endian digest and returns its pointer (32 bytes). */
export function digest4(lane: i32): usize {
  const out = DIGEST4 + (<usize>lane << 5);
  for (let i = 0; i < 8; i++) store<u32>(out + (<usize>i << 2), bswap<u32>(load<u32>(STATE4 + (<usize>i << 4) + (<usize>lane << 2))));
  return out;
}
