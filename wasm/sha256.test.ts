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

describe('4-lane multi-buffer core', () => {
  it('matches node:crypto for many messages of mixed sizes, including ones that bypass the lanes', async () => {
    const sha = await loadSha256Node('simd');
    const sizes = [0, 1, 55, 56, 63, 64, 65, 119, 120, 1000, 4096, 65_536, 7, 300_000, 3, 12_345, 64 * 1024 - 9];
    const messages = [...sizes, ...Array.from({ length: 200 }, (_, i) => (i * 7919) % 70_000)].map((n) => randomBytes(n));
    expect(sha.hashMany(messages)).toEqual(messages.map(nodeHash));
  });

  it('falls back to one at a time in the scalar build with the same answers', async () => {
    const sha = await loadSha256Node('scalar');
    const messages = [enc(''), enc('abc'), randomBytes(5000)];
    expect(sha.hashMany(messages)).toEqual(messages.map(nodeHash));
  });
});
