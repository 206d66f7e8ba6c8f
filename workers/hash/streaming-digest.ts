import { toHex } from '../../core/ledger/bytes.ts';
import type { HashEngine } from './hash.worker.ts';

/**
 * Streaming WebCrypto: `crypto.subtle.digest('SHA-256', stream)` with a ReadableStream is
 * proposed (w3c/webcrypto "streaming digest") but no shipping engine we test takes it yet;
 * Chromium 156 and Node 24 reject a stream as "not a BufferSource". Where a browser does
 * take it, native SHA-256 over the File's own stream beats any WebAssembly and holds no
 * chunk buffers of ours, so the engine choice detects it by behaviour, not by user agent:
 * it digests "abc" given as a two-chunk stream and accepts only the known answer.
 */
export type DigestSubtle = { digest(algorithm: string, data: unknown): Promise<ArrayBuffer> };

/** SHA-256("abc"), FIPS 180-4 example. */
const ABC_SHA256 = 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad';


/** True only when `subtle` digests a ReadableStream and gets SHA-256("abc") right. */
export async function detectStreamingDigest(subtle: DigestSubtle | undefined): Promise<boolean> {
  if (!subtle || typeof subtle.digest !== 'function' || typeof ReadableStream === 'undefined') return false;
  const chunks = [new Uint8Array([0x61]), new Uint8Array([0x62, 0x63])];
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      const next = chunks.shift();
      if (next) controller.enqueue(next);
      else controller.close();
    },
  });
  try {
    const result = await subtle.digest('SHA-256', stream);
    return result instanceof ArrayBuffer && toHex(new Uint8Array(result)) === ABC_SHA256;
  } catch {
    return false;
  }
}

let cached: Promise<boolean> | null = null;

/** The detection for this global scope, run once. */
export function hasStreamingDigest(): Promise<boolean> {
  cached ??= detectStreamingDigest(globalThis.crypto?.subtle as DigestSubtle | undefined);
  return cached;
}

/**
 * Hashes a Blob by streaming it into WebCrypto, counting bytes for progress and stopping
 * (AbortError) when `isCancelled` turns true. Only call after `hasStreamingDigest()`.
 */
export async function streamingDigestHex(
  subtle: DigestSubtle,
  blob: Blob,
  onBytes: (bytesDone: number) => void,
  isCancelled: () => boolean,
): Promise<{ hex: string; bytes: number }> {
  let bytes = 0;
  const counted = blob.stream().pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        if (isCancelled()) {
          controller.error(new DOMException('hashing cancelled', 'AbortError'));
          return;
        }
        bytes += chunk.byteLength;
        onBytes(bytes);
        controller.enqueue(chunk);
      },
    }),
  );
  const hex = toHex(new Uint8Array(await subtle.digest('SHA-256', counted)));
  if (isCancelled()) throw new DOMException('hashing cancelled', 'AbortError');
  if (bytes !== blob.size) throw new Error(`hash: streamed ${bytes} bytes of a ${blob.size}-byte file`);
  return { hex, bytes };
}

/**
 * Which engine hashes one file. Not named (the app): streaming WebCrypto where this browser
 * digests a ReadableStream (detected once, see streaming-digest.ts; no Chromium does yet),
 * else our WebAssembly. Named: that engine, so benchmarks compare like with like.
 */
export type FileEngine = HashEngine | 'webcrypto-stream';

export async function chooseEngine(requested: FileEngine | undefined, streaming: () => Promise<boolean>): Promise<FileEngine> {
  if (requested) return requested;
  return (await streaming()) ? 'webcrypto-stream' : 'provena';
}
