/// <reference lib="webworker" />
import { expose, transfer } from 'comlink';
import { loadSha256 } from './wasm-loader.ts';

/** Which SHA-256 runs: ours (default) or hash-wasm, kept selectable so the benchmark compares them in the same pipeline. */
export type HashEngine = 'provena' | 'hash-wasm';
type Stream = { update(data: Uint8Array): void; digestHex(): string };

async function openStream(engine: HashEngine): Promise<Stream> {
  if (engine === 'hash-wasm') {
    // Loaded only when the benchmark asks for it: users never download it.
    const { createSHA256 } = await import('hash-wasm');
    const h = await createSHA256();
    h.init();
    return { update: (d) => void h.update(d), digestHex: () => h.digest('hex') };
  }
  const s = (await loadSha256()).stream();
  s.init();
  return s;
}

/**
 * The hashing worker: one streaming SHA-256 at a time over chunks that the reader worker
 * transfers in, plus a batch call for many small files (4 SIMD lanes).
 */
let stream: Stream | null = null;
let bytes = 0;

export const api = {
  async begin(engine: HashEngine = 'provena'): Promise<void> {
    stream = await openStream(engine);
    bytes = 0;
  },
  /** Takes ownership of the chunk (transferred), hashes its first `length` bytes and returns the buffer for reuse. */
  update(chunk: ArrayBuffer, length = chunk.byteLength): ArrayBuffer {
    if (!stream) throw new Error('hash worker: begin() first');
    stream.update(new Uint8Array(chunk, 0, length));
    bytes += length;
    return transfer(chunk, [chunk]);
  },
  finish(): { hex: string; bytes: number } {
    if (!stream) throw new Error('hash worker: begin() first');
    const hex = stream.digestHex();
    stream = null;
    return { hex, bytes };
  },
  abort(): void {
    stream = null;
    bytes = 0;
  },
  async hashMany(buffers: ArrayBuffer[]): Promise<string[]> {
    const sha = await loadSha256();
    return sha.hashMany(buffers.map((b) => new Uint8Array(b)));
  },
  /**
   * Reads small files here (not on the page) and hashes them four at a time. The batch is
   * read as one Blob made of the files (Chromium joins blobs by reference, without copying):
   * one read instead of one per file, whose fixed cost dominates for files of a few KiB.
   */
  async hashBlobs(blobs: Blob[]): Promise<string[]> {
    const sha = await loadSha256();
    const all = new Uint8Array(await new Blob(blobs).arrayBuffer());
    const messages: Uint8Array[] = [];
    let offset = 0;
    for (const blob of blobs) {
      messages.push(all.subarray(offset, offset + blob.size));
      offset += blob.size;
    }
    if (offset !== all.length) throw new Error(`hash worker: read ${all.length} bytes for files of ${offset} bytes in all`);
    return sha.hashMany(messages);
  },
  async engine(): Promise<string> {
    return `provena-wasm-${(await loadSha256()).flavour}`;
  },
  /** Hands a MessagePort to the reader worker so chunks flow worker to worker, not through the page. */
  connect(port: MessagePort): void {
    expose(api, port);
  },
};

export type HashWorkerApi = typeof api;
expose(api);
