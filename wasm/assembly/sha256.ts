// SHA-256 (FIPS 180-4) for WebAssembly, in AssemblyScript.
//
// Two cores share this module:
// - a single-stream core (init/update/final) for one large file, fed in chunks that the
//   caller copies to INPUT_PTR; lengths are counted in 64 bits, so files past 4 GiB are fine.
//   The SIMD build computes its message schedule in v128 (compress-simd.generated.ts), the
//   build without SIMD in scalar locals (compress.generated.ts);
// - a 4-lane multi-buffer core (compress4) that hashes four independent messages at once in
//   SIMD lanes, for folders and source trees of many small files. It is compiled only into
//   the SIMD build (see build.ts), and the caller pads each message itself.

// ---- memory layout (bytes); static data starts at 4096 (--memoryBase in build.ts) ----------
const STATE: usize = 0; //       8 × u32: the single-stream chaining value
const DIGEST: usize = 32; //     32 bytes: big-endian digest written by final()
const PARTIAL: usize = 64; //    64 bytes: bytes of an incomplete block carried between updates
const W: usize = 128; //         64 × u32: W + K of the block being compressed (SIMD build)
export const K: usize = 384; //         64 × u32: round constants
export const STATE4: usize = 640; //    8 × v128: the four lanes' chaining values, lane j in bits 32j..32j+31
export const K4: usize = 768; //        64 × v128: round constants splatted to four lanes (SIMD build)
export const DIGEST4: usize = 1792; //  4 × 32 bytes: lane digests written by digest4()
/** Where callers copy input: chunks for update(), or four padded messages for compress4(). */
export const INPUT_PTR: usize = 16384;

import { compressBlock } from './compress.generated';
import { compressBlockSimd } from './compress-simd.generated';

const ROUND_CONSTANTS: u32[] = [
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
  0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
  0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
  0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
  0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
  0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
  0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
  0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
];
export const IV: u32[] = [0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19];

let partialLength: i32 = 0;
let totalLength: u64 = 0;

function setup(): void {
  for (let t = 0; t < 64; t++) store<u32>(K + (<usize>t << 2), unchecked(ROUND_CONSTANTS[t]));
}
setup();

/** Grows memory so that `bytes` of input fit at INPUT_PTR. Returns false when it cannot. */
export function reserve(bytes: i32): bool {
  const needed = (<i64>INPUT_PTR + <i64>bytes + 0xffff) >> 16;
  const have = <i64>memory.size();
  if (needed <= have) return true;
  return memory.grow(<i32>(needed - have)) >= 0;
}

// ---- single stream ---------------------------------------------------------------------

// @ts-ignore: decorator
@inline function compress(block: usize): void {
  // A compile-time constant: each build compiles only its own branch.
  if (ASC_FEATURE_SIMD) compressBlockSimd(STATE, block);
  else compressBlock(STATE, block);
}

export function init(): void {
  for (let i = 0; i < 8; i++) store<u32>(STATE + (<usize>i << 2), unchecked(IV[i]));
  partialLength = 0;
  totalLength = 0;
}

/** Hashes `length` bytes at INPUT_PTR (after reserve(length)). */
export function update(length: i32): void {
  let p = INPUT_PTR;
  let left = length;
  totalLength += <u64>length;
  if (partialLength > 0) {
    const take = min(64 - partialLength, left);
    memory.copy(PARTIAL + <usize>partialLength, p, <usize>take);
    partialLength += take;
    p += <usize>take;
    left -= take;
    if (partialLength < 64) return;
    compress(PARTIAL);
    partialLength = 0;
  }
  while (left >= 64) {
    compress(p);
    p += 64;
    left -= 64;
  }
  if (left > 0) {
    memory.copy(PARTIAL, p, <usize>left);
    partialLength = left;
  }
}

/** Pads, finishes and writes the big-endian digest at the returned pointer (32 bytes). */
export function final(): usize {
  const bits = totalLength << 3;
  store<u8>(PARTIAL + <usize>partialLength, 0x80);
  partialLength += 1;
  if (partialLength > 56) {
    memory.fill(PARTIAL + <usize>partialLength, 0, <usize>(64 - partialLength));
    compress(PARTIAL);
    partialLength = 0;
  }
  memory.fill(PARTIAL + <usize>partialLength, 0, <usize>(56 - partialLength));
  store<u64>(PARTIAL + 56, bswap<u64>(bits));
  compress(PARTIAL);
  for (let i = 0; i < 8; i++) store<u32>(DIGEST + (<usize>i << 2), bswap<u32>(load<u32>(STATE + (<usize>i << 2))));
  partialLength = 0;
  return DIGEST;
}

/** Test hook: pretend `bytes` were already hashed, to check length encoding past 2^32 bits cheaply. */
export function addLength(bytes: u64): void {
  totalLength += bytes;
}

