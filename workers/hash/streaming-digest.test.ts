import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { chooseEngine, detectStreamingDigest, streamingDigestHex, type DigestSubtle } from './streaming-digest.ts';

/**
 * What a browser with streaming digest would do: read the whole ReadableStream and hash it
 * (node:crypto does the SHA-256), so the detection and the streaming path meet a real digest.
 */
const streamingSubtle: DigestSubtle = {
  async digest(algorithm, data) {
    if (algorithm !== 'SHA-256' || !(data instanceof ReadableStream)) throw new TypeError('not a stream');
    const h = createHash('sha256');
    for await (const chunk of data as ReadableStream<Uint8Array>) h.update(chunk);
    const out = h.digest();
    return out.buffer.slice(out.byteOffset, out.byteOffset + out.byteLength) as ArrayBuffer;
  },
};

describe('streaming WebCrypto detection', () => {
  it('is false for the WebCrypto of Node 24, which (like Chromium) rejects a stream', async () => {
    expect(await detectStreamingDigest(globalThis.crypto.subtle as unknown as DigestSubtle)).toBe(false);
  });

  it('is false without subtle, and when digest throws or answers wrongly', async () => {
    expect(await detectStreamingDigest(undefined)).toBe(false);
    expect(await detectStreamingDigest({ digest: () => Promise.reject(new TypeError('BufferSource expected')) })).toBe(false);
    // An engine that ignores the stream's content (hashes nothing) must not pass.
    expect(await detectStreamingDigest({ digest: () => crypto.subtle.digest('SHA-256', new Uint8Array(0)) })).toBe(false);
    // One that answers something that is not an ArrayBuffer must not pass either.
    expect(await detectStreamingDigest({ digest: () => Promise.resolve('ba78' as unknown as ArrayBuffer) })).toBe(false);
  });

  it('is true where digest takes a ReadableStream and gets SHA-256("abc") right', async () => {
    expect(await detectStreamingDigest(streamingSubtle)).toBe(true);
  });

  it('chooses streaming WebCrypto only when nothing was named and the browser has it', async () => {
    const yes = async () => true;
    const no = async () => false;
    expect(await chooseEngine(undefined, yes)).toBe('webcrypto-stream');
    expect(await chooseEngine(undefined, no)).toBe('provena');
    expect(await chooseEngine('hash-wasm', yes)).toBe('hash-wasm');
    expect(await chooseEngine('provena', yes)).toBe('provena');
  });
});

describe('streamingDigestHex', () => {
  const data = new Uint8Array(3 * 1024 * 1024 + 17).map((_, i) => (i * 31 + 7) & 0xff);

  it('hashes a Blob through the stream, counting every byte for progress', async () => {
    const seen: number[] = [];
    const r = await streamingDigestHex(streamingSubtle, new Blob([data]), (n) => seen.push(n), () => false);
    expect(r.hex).toBe(createHash('sha256').update(data).digest('hex'));
    expect(r.bytes).toBe(data.length);
    expect(seen.at(-1)).toBe(data.length);
    expect(seen.every((n, i) => i === 0 || n > seen[i - 1]!)).toBe(true);
  });

  it('stops with an AbortError once cancelled', async () => {
    let calls = 0;
    await expect(streamingDigestHex(streamingSubtle, new Blob([data]), () => {}, () => ++calls > 1)).rejects.toMatchObject({
      name: 'AbortError',
    });
  });
});
