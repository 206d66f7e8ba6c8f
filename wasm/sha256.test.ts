import { createHash, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { loadSha256Node } from './load-node.ts';
import { isSimdSupported } from './sha256.ts';

const enc = (s: string) => new TextEncoder().encode(s);
const nodeHash = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');

/** NIST FIPS 180-4 / CAVP known answers. */
const VECTORS: Array<[string, Uint8Array, string]> = [
  ['empty', new Uint8Array(0), 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855'],
  ['abc', enc('abc'), 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad'],
  ['448 bits', enc('abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq'), '248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1'],
  [
    '896 bits',
    enc('abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu'),
    'cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1',
  ],
  ['one million a', new Uint8Array(1_000_000).fill(0x61), 'cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0'],
];

describe.each(['scalar', 'simd'] as const)('our SHA-256 WebAssembly (%s build)', (flavour) => {
  it('is available', () => {
    if (flavour === 'simd') expect(isSimdSupported()).toBe(true);
  });

  it.each(VECTORS)('known answer: %s', async (_name, input, expected) => {
    const sha = await loadSha256Node(flavour);
    const s = sha.stream();
    s.init();
    s.update(input);
    expect(s.digestHex()).toBe(expected);
  });

  it('gives the same digest in pieces as in one go, at every split of a block boundary region', async () => {
    const sha = await loadSha256Node(flavour);
    const data = randomBytes(64 * 5 + 17);
    const expected = nodeHash(data);
    const s = sha.stream();
    for (let split = 0; split <= data.length; split++) {
      s.init();
      s.update(data.subarray(0, split));
      s.update(data.subarray(split));
      expect(s.digestHex(), `split at ${split}`).toBe(expected);
    }
  });

  it('handles every length around the padding boundaries (0–200 bytes)', async () => {
    const sha = await loadSha256Node(flavour);
    const s = sha.stream();
    for (let n = 0; n <= 200; n++) {
      const data = randomBytes(n);
      s.init();
      s.update(data);
      expect(s.digestHex(), `length ${n}`).toBe(nodeHash(data));
    }
  });

  it('handles chunks larger than its copy slice, and many small chunks', async () => {
    const sha = await loadSha256Node(flavour);
    const data = randomBytes(40 * 1024 * 1024 + 3);
    const s = sha.stream();
    s.init();
    s.update(data);
    expect(s.digestHex()).toBe(nodeHash(data));
    s.init();
    for (let off = 0; off < 1_000_000; off += 4099) s.update(data.subarray(off, Math.min(off + 4099, 1_000_000)));
    expect(s.digestHex()).toBe(nodeHash(data.subarray(0, 1_000_000)));
  });

  it('encodes the length in 64 bits: a message of more than 2^32 bits (513 MiB, streamed) matches node:crypto', async () => {
    const sha = await loadSha256Node(flavour);
    const chunk = new Uint8Array(16 * 1024 * 1024);
    for (let i = 0; i < chunk.length; i += 4096) chunk[i] = i & 0xff;
    const reference = createHash('sha256');
    const s = sha.stream();
    s.init();
    for (let i = 0; i < 32; i++) {
      s.update(chunk);
      reference.update(chunk);
    }
    const tail = chunk.subarray(0, 1024 * 1024 + 5);
    s.update(tail);
    reference.update(tail);
    expect(s.digestHex()).toBe(reference.digest('hex'));
  }, 60_000);
});

/**
 * Independent textbook SHA-256 (FIPS 180-4 §6.2) that can pretend a prefix of `skippedBytes`
 * (a multiple of 64) was already hashed without changing the state: the only effect is the
 * length in the final block. Our core's addLength() does the same, so lengths of 2^32 bytes
 * and more (2^35+ bits) are checked in milliseconds instead of hashing 4 GiB.
 */
function referenceWithSkippedPrefix(skippedBytes: bigint, data: Uint8Array): string {
  const K = [
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5, 0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3,
    0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13,
    0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208,
    0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
  ];
  const H = [0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19];
  const blocks = Math.floor((data.length + 8) / 64) + 1;
  const padded = new Uint8Array(blocks * 64);
  padded.set(data);
  padded[data.length] = 0x80;
  new DataView(padded.buffer).setBigUint64(padded.length - 8, (skippedBytes + BigInt(data.length)) * 8n, false);
  const rotr = (x: number, n: number) => (x >>> n) | (x << (32 - n));
  const view = new DataView(padded.buffer);
  const w = new Array<number>(64);
  for (let block = 0; block < blocks; block++) {
    for (let t = 0; t < 16; t++) w[t] = view.getUint32(block * 64 + t * 4, false);
    for (let t = 16; t < 64; t++) {
      const w15 = w[t - 15]!, w2 = w[t - 2]!;
      w[t] = (w[t - 16]! + (rotr(w15, 7) ^ rotr(w15, 18) ^ (w15 >>> 3)) + w[t - 7]! + (rotr(w2, 17) ^ rotr(w2, 19) ^ (w2 >>> 10))) | 0;
    }
    let [a, b, c, d, e, f, g, h] = H as [number, number, number, number, number, number, number, number];
    for (let t = 0; t < 64; t++) {
      const t1 = (h + (rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)) + ((e & f) ^ (~e & g)) + K[t]! + w[t]!) | 0;
      const t2 = ((rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)) + ((a & b) ^ (a & c) ^ (b & c))) | 0;
      h = g; g = f; f = e; e = (d + t1) | 0; d = c; c = b; b = a; a = (t1 + t2) | 0;
    }
    [a, b, c, d, e, f, g, h].forEach((x, i) => (H[i] = (H[i]! + x) | 0));
  }
  return H.map((x) => (x >>> 0).toString(16).padStart(8, '0')).join('');
}

describe.each(['scalar', 'simd'] as const)('length encoding beyond 4 GiB (%s build)', (flavour) => {
  it('the reference itself matches node:crypto when nothing is skipped', () => {
    for (const n of [0, 3, 55, 56, 64, 1000]) {
      const data = randomBytes(n);
      expect(referenceWithSkippedPrefix(0n, data)).toBe(nodeHash(data));
    }
  });

  it.each([
    ['2^32 bytes (2^35 bits)', 2n ** 32n],
    ['just past 2^32 bytes', 2n ** 32n + 64n],
    ['5 GiB', 5n * 2n ** 30n],
    ['2^32 - 64 bytes, crossing 2^32 during the stream', 2n ** 32n - 64n],
    ['2^61 - 64 bytes (largest bit length SHA-256 allows)', 2n ** 61n - 64n],
  ])('%s', async (_name, skipped) => {
    const sha = await loadSha256Node(flavour);
    const s = sha.stream();
    for (const n of [0, 1, 55, 56, 63, 64, 65, 200]) {
      const data = randomBytes(n);
      s.init();
      s.addLength(skipped);
      s.update(data.subarray(0, n >> 1));
      s.update(data.subarray(n >> 1));
      expect(s.digestHex(), `tail of ${n} bytes`).toBe(referenceWithSkippedPrefix(skipped, data));
    }
  });
});

describe('4-lane multi-buffer core', () => {
  it('matches node:crypto for many messages of mixed sizes, including ones that bypass the lanes', async () => {
    const sha = await loadSha256Node('simd');
    const sizes = [0, 1, 55, 56, 63, 64, 65, 119, 120, 1000, 4096, 65_536, 7, 300_000, 3, 12_345, 64 * 1024 - 9];
    const messages = [...sizes, ...Array.from({ length: 200 }, (_, i) => (i * 7919) % 70_000)].map((n) => randomBytes(n));
    expect(sha.hashMany(messages)).toEqual(messages.map(nodeHash));
  });

  it('handles every length around the padding boundaries in lanes (0–300 bytes), lanes finishing at every step', async () => {
    const sha = await loadSha256Node('simd');
    // Lengths in an order that makes the four lanes finish at different blocks, so each
    // message is compressed in several compress4 calls of different sizes (pieces vs one go).
    const messages = Array.from({ length: 301 }, (_, n) => randomBytes((n * 97) % 301));
    expect(sha.hashMany(messages)).toEqual(messages.map(nodeHash));
  });

  it('falls back to one at a time in the scalar build with the same answers', async () => {
    const sha = await loadSha256Node('scalar');
    const messages = [enc(''), enc('abc'), randomBytes(5000)];
    expect(sha.hashMany(messages)).toEqual(messages.map(nodeHash));
  });
});
