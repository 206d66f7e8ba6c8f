import { createCipheriv, createDecipheriv, hkdfSync, randomBytes, webcrypto } from 'node:crypto';
import type { FileHandle } from 'node:fs/promises';
import { Readable, Transform, type TransformCallback, type Writable } from 'node:stream';
import { Worker } from 'node:worker_threads';
import type { OpenReply, OpenRequest } from './open-worker.ts';

/**
 * Encryption at rest for stored files ("sealed" objects).
 *
 * Layout: a 32-byte header, then the plaintext cut into chunks of `chunkBytes`, each
 * sealed with AES-256-GCM and followed by its 16-byte tag.
 *
 *   header = "PVSL" | version 1 (u8) | reserved (3 bytes) | chunkBytes (u32 BE) | salt (16 bytes) | reserved (4 bytes)
 *   object key = HKDF-SHA256(master key, salt, "provena sealed object v1"), 32 bytes
 *   nonce(i)   = 4 zero bytes | i (u64 BE)
 *   aad(i)     = 1 when chunk i is the last one, else 0
 *
 * Each object has its own key (fresh salt), so nonces never repeat under one key. The
 * final-chunk flag makes truncation at a chunk boundary detectable; reordering fails
 * because the index is the nonce. Both directions stream: memory is one chunk.
 */
export const SEALED_HEADER_BYTES = 32;
export const SEALED_TAG_BYTES = 16;
export const DEFAULT_CHUNK_BYTES = 1024 * 1024;
const MAGIC = Buffer.from('PVSL');

export class SealedFormatError extends Error {}

export type SealedHeader = { chunkBytes: number; salt: Buffer };

export function newHeader(chunkBytes = DEFAULT_CHUNK_BYTES): SealedHeader {
  return { chunkBytes, salt: randomBytes(16) };
}

export function encodeHeader(h: SealedHeader): Buffer {
  const out = Buffer.alloc(SEALED_HEADER_BYTES);
  MAGIC.copy(out, 0);
  out[4] = 1;
  out.writeUInt32BE(h.chunkBytes, 8);
  h.salt.copy(out, 12);
  return out;
}

export function decodeHeader(bytes: Buffer): SealedHeader {
  if (bytes.length < SEALED_HEADER_BYTES || !bytes.subarray(0, 4).equals(MAGIC) || bytes[4] !== 1) throw new SealedFormatError('not a sealed object');
  const chunkBytes = bytes.readUInt32BE(8);
  if (chunkBytes < 1024 || chunkBytes > 64 * 1024 * 1024) throw new SealedFormatError('bad chunk size');
  return { chunkBytes, salt: Buffer.from(bytes.subarray(12, 28)) };
}

export function objectKey(master: Buffer, salt: Buffer): Buffer {
  return Buffer.from(hkdfSync('sha256', master, salt, 'provena sealed object v1', 32));
}

function nonce(index: number): Buffer {
  const n = Buffer.alloc(12);
  n.writeBigUInt64BE(BigInt(index), 4);
  return n;
}

/** Seals chunk `index`: its ciphertext and tag, to be written one after the other. */
export function sealChunkParts(key: Buffer, index: number, plain: Uint8Array, isLast: boolean): [Buffer, Buffer] {
  const cipher = createCipheriv('aes-256-gcm', key, nonce(index));
  cipher.setAAD(Buffer.from([isLast ? 1 : 0]));
  const body = cipher.update(plain);
  cipher.final();
  return [body, cipher.getAuthTag()];
}

/** An object key for the WebCrypto chunk functions (sealChunkAsync, openChunkAsync). */
export function gcmKey(key: Buffer): Promise<webcrypto.CryptoKey> {
  return webcrypto.subtle.importKey('raw', key, 'AES-GCM', false, ['encrypt', 'decrypt']);
}

/**
 * sealChunk on libuv's thread pool (WebCrypto), so that sealing runs beside the event loop (which
 * receives and hashes the next bytes): the same bytes as sealChunk. `plain` is copied when called,
 * so its buffer may be refilled at once.
 */
export async function sealChunkAsync(key: webcrypto.CryptoKey, index: number, plain: Uint8Array, isLast: boolean): Promise<Buffer> {
  return Buffer.from(await webcrypto.subtle.encrypt({ name: 'AES-GCM', iv: nonce(index), additionalData: Buffer.from([isLast ? 1 : 0]), tagLength: 128 }, key, plain));
}

/** openChunk on the thread pool (WebCrypto); a chunk that fails authentication throws SealedFormatError. */
export async function openChunkAsync(key: webcrypto.CryptoKey, index: number, sealed: Uint8Array, isLast: boolean): Promise<Buffer> {
  if (sealed.length < SEALED_TAG_BYTES) throw new SealedFormatError('truncated chunk');
  try {
    return Buffer.from(await webcrypto.subtle.decrypt({ name: 'AES-GCM', iv: nonce(index), additionalData: Buffer.from([isLast ? 1 : 0]), tagLength: 128 }, key, sealed));
  } catch {
    throw new SealedFormatError(`chunk ${index} failed authentication`);
  }
}

/** Seals chunk `index` (ciphertext followed by its tag). */
export function sealChunk(key: Buffer, index: number, plain: Uint8Array, isLast: boolean): Buffer {
  return Buffer.concat(sealChunkParts(key, index, plain, isLast));
}

export function openChunk(key: Buffer, index: number, sealed: Buffer, isLast: boolean): Buffer {
  if (sealed.length < SEALED_TAG_BYTES) throw new SealedFormatError('truncated chunk');
  const decipher = createDecipheriv('aes-256-gcm', key, nonce(index));
  decipher.setAAD(Buffer.from([isLast ? 1 : 0]));
  decipher.setAuthTag(sealed.subarray(sealed.length - SEALED_TAG_BYTES));
  const body = decipher.update(sealed.subarray(0, sealed.length - SEALED_TAG_BYTES));
  try {
    decipher.final();
  } catch {
    throw new SealedFormatError(`chunk ${index} failed authentication`);
  }
  return body;
}

/**
 * Frees a buffer's memory now rather than at the next full garbage collection, when nothing
 * will read it again. Buffers are freed only in a collection of the whole API heap, which V8
 * starts every ~64 MB of them: an upload's request pieces and sealed chunks are garbage as soon
 * as they are hashed, copied or written, and left to the collector they cost dozens of
 * collections per GB (each walking every module the API loaded) while the RSS grows by what
 * waits. Only a buffer that owns its whole ArrayBuffer (a body piece from Node's HTTP parser,
 * WebCrypto's output) is detached (ArrayBuffer.prototype.transfer(0)); a view into a larger
 * or shared one is left alone.
 */
export function releaseBuffer(piece: Uint8Array): void {
  const buffer = piece.buffer as ArrayBuffer & { transfer?: (length: number) => ArrayBuffer };
  if (buffer instanceof ArrayBuffer && typeof buffer.transfer === 'function' && piece.byteOffset === 0 && piece.byteLength === buffer.byteLength) buffer.transfer(0);
}

/** Size of the sealed object for a plaintext of `plainBytes`. */
export function sealedSize(plainBytes: number, chunkBytes = DEFAULT_CHUNK_BYTES): number {
  const chunks = Math.max(1, Math.ceil(plainBytes / chunkBytes));
  return SEALED_HEADER_BYTES + plainBytes + chunks * SEALED_TAG_BYTES;
}

/** Plaintext → sealed object, streaming (header first, then one sealed chunk per `chunkBytes`). */
export function sealStream(master: Buffer, chunkBytes = DEFAULT_CHUNK_BYTES): Transform {
  const header = newHeader(chunkBytes);
  const key = objectKey(master, header.salt);
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  let index = 0;
  let isHeaderSent = false;
  return new Transform({
    transform(chunk: Buffer, _enc, done: TransformCallback) {
      if (!isHeaderSent) {
        this.push(encodeHeader(header));
        isHeaderSent = true;
      }
      pending.push(chunk);
      pendingBytes += chunk.length;
      // Keep at least one byte back: the last chunk must be sealed as last.
      while (pendingBytes > chunkBytes) {
        const all = Buffer.concat(pending);
        this.push(sealChunk(key, index++, all.subarray(0, chunkBytes), false));
        pending = [all.subarray(chunkBytes)];
        pendingBytes = all.length - chunkBytes;
      }
      done();
    },
    flush(done: TransformCallback) {
      if (!isHeaderSent) this.push(encodeHeader(header));
      this.push(sealChunk(key, index, Buffer.concat(pending), true));
      done();
    },
  });
}

/** Chunks being opened on the thread pool at once while a download reads on (memory: that many chunks). */
const OPENS_IN_FLIGHT = 2;

/**
 * Sealed object → plaintext, streaming; fails on any altered, reordered or missing chunk. Full
 * chunks are opened on the thread pool (WebCrypto), up to OPENS_IN_FLIGHT at once while the next
 * ones are read, and given out in order; the last one is opened when the source ends.
 */
export function openStream(master: Buffer): Transform {
  const header = Buffer.alloc(SEALED_HEADER_BYTES);
  let headerFill = 0;
  let key: Buffer | null = null;
  let gcm: Promise<webcrypto.CryptoKey> | null = null;
  // One reused buffer for the sealed chunk being gathered (WebCrypto copies it when called).
  let sealed = Buffer.alloc(0);
  let fill = 0;
  let index = 0;
  const opening: Array<Promise<Buffer>> = [];
  return new Transform({
    async transform(chunk: Buffer, _enc, done: TransformCallback) {
      try {
        let at = 0;
        if (!key) {
          const n = Math.min(SEALED_HEADER_BYTES - headerFill, chunk.length);
          chunk.copy(header, headerFill, 0, n);
          headerFill += n;
          at = n;
          if (headerFill < SEALED_HEADER_BYTES) return done();
          const h = decodeHeader(header);
          key = objectKey(master, h.salt);
          gcm = gcmKey(key);
          sealed = Buffer.allocUnsafe(h.chunkBytes + SEALED_TAG_BYTES);
        }
        while (at < chunk.length) {
          // A full chunk is the last one only if nothing follows it: open it once more arrives.
          if (fill === sealed.length) {
            const opened = openChunkAsync(await gcm!, index++, sealed, false);
            // Settled here if an earlier chunk fails first; the error is the earlier one's.
            opened.catch(() => {});
            opening.push(opened);
            fill = 0;
            if (opening.length >= OPENS_IN_FLIGHT) this.push(await opening.shift()!);
          }
          const n = Math.min(sealed.length - fill, chunk.length - at);
          chunk.copy(sealed, fill, at, at + n);
          fill += n;
          at += n;
        }
        done();
      } catch (error) {
        done(error as Error);
      }
    },
    async flush(done: TransformCallback) {
      try {
        if (!key) throw new SealedFormatError('not a sealed object');
        while (opening.length > 0) this.push(await opening.shift()!);
        this.push(openChunk(key, index, sealed.subarray(0, fill), true));
        done();
      } catch (error) {
        done(error as Error);
      }
    },
  });
}

/**
 * A sealed object in a local file → plaintext, like openStream but read in place: each sealed
 * chunk is read into one reused buffer (WebCrypto copies it when called) instead of a new buffer
 * per read, which halves what a download allocates (V8 runs a full collection every ~64 MB of
 * buffers). Chunks are opened on the thread pool, OPENS_IN_FLIGHT at once, and given out in
 * order; the last one is flagged by the file's size, so a dropped or truncated end fails
 * authentication as in openStream. The handle is closed when the stream ends or is destroyed.
 */
export function openSealedFile(handle: FileHandle, master: Buffer): Readable {
  async function* chunks(): AsyncGenerator<Buffer> {
    try {
      const size = (await handle.stat()).size;
      const header = Buffer.alloc(SEALED_HEADER_BYTES);
      if ((await handle.read(header, 0, SEALED_HEADER_BYTES, 0)).bytesRead < SEALED_HEADER_BYTES) throw new SealedFormatError('not a sealed object');
      const h = decodeHeader(header);
      const gcm = await gcmKey(objectKey(master, h.salt));
      const sealedChunk = h.chunkBytes + SEALED_TAG_BYTES;
      const count = Math.max(1, Math.ceil((size - SEALED_HEADER_BYTES) / sealedChunk));
      const buffer = Buffer.allocUnsafe(sealedChunk);
      const opening: Array<Promise<Buffer>> = [];
      for (let index = 0; index < count; index++) {
        const position = SEALED_HEADER_BYTES + index * sealedChunk;
        const length = Math.max(0, Math.min(sealedChunk, size - position));
        let fill = 0;
        while (fill < length) {
          const { bytesRead } = await handle.read(buffer, fill, length - fill, position + fill);
          if (bytesRead === 0) throw new SealedFormatError('truncated chunk');
          fill += bytesRead;
        }
        const opened = openChunkAsync(gcm, index, buffer.subarray(0, length), index === count - 1);
        // Settled here if an earlier chunk fails first; the error is the earlier one's.
        opened.catch(() => {});
        opening.push(opened);
        if (opening.length >= OPENS_IN_FLIGHT) yield await opening.shift()!;
      }
      while (opening.length > 0) yield await opening.shift()!;
    } finally {
      await handle.close();
    }
  }
  return Readable.from(chunks(), { objectMode: false });
}

/** Chunks of a download being opened or written at once by sendSealedFile (its memory: that many chunks). */
const SEND_SLOTS = 4;

/** The thread that opens downloads' chunks (open-worker.ts), started at the first download; it keeps no process open. */
let opener: { worker: Worker; replies: Map<number, (reply: OpenReply) => void>; nextId: number } | null = null;

function openerThread() {
  if (opener) return opener;
  const worker = new Worker(new URL('./open-worker.ts', import.meta.url), { name: 'provena-download-open' });
  const state = { worker, replies: new Map<number, (reply: OpenReply) => void>(), nextId: 1 };
  worker.unref();
  worker.on('message', (reply: OpenReply) => state.replies.get(reply.id)?.(reply));
  const fail = (error: Error) => {
    // Every download waiting on it fails; the next one starts a new thread.
    if (opener === state) opener = null;
    for (const [id, deliver] of state.replies) deliver({ id, index: -1, error: `the download thread stopped: ${error.message}`, isFormat: false });
  };
  worker.on('error', fail);
  worker.on('exit', (code) => fail(new Error(`exit code ${code}`)));
  opener = state;
  return state;
}

/**
 * A sealed object in a local file → its plaintext written to `out` (a response), like
 * openSealedFile but without a buffer per chunk on this thread: the chunks are read,
 * authenticated and decrypted by the download thread (open-worker.ts) into SEND_SLOTS reused
 * slots of shared memory, and each slot is written to `out` as it is and asked for again once
 * `out` has taken it (its write callback). A full download allocates nothing here per chunk, so
 * it no longer drives this thread's garbage collections. Fails (and stops writing) on any
 * chunk that fails authentication, as openStream does; resolves when `out` has taken the last
 * byte. `out` is not ended. The handle is closed when it settles.
 */
export async function sendSealedFile(handle: FileHandle, master: Buffer, out: Writable): Promise<void> {
  let thread: ReturnType<typeof openerThread> | null = null;
  let id = 0;
  let asked = 0;
  let answered = 0;
  let settleAnswers: (() => void) | null = null;
  try {
    const size = (await handle.stat()).size;
    const header = Buffer.alloc(SEALED_HEADER_BYTES);
    if ((await handle.read(header, 0, SEALED_HEADER_BYTES, 0)).bytesRead < SEALED_HEADER_BYTES) throw new SealedFormatError('not a sealed object');
    const h = decodeHeader(header);
    const key = objectKey(master, h.salt);
    const count = Math.max(1, Math.ceil((size - SEALED_HEADER_BYTES) / (h.chunkBytes + SEALED_TAG_BYTES)));
    const slotCount = Math.min(SEND_SLOTS, count);
    const slots = new SharedArrayBuffer(slotCount * h.chunkBytes);
    const views = Array.from({ length: slotCount }, (_, slot) => Buffer.from(slots, slot * h.chunkBytes, h.chunkBytes));
    thread = openerThread();
    id = thread.nextId++;
    await new Promise<void>((resolve, reject) => {
      let next = 0;
      let written = 0;
      let isDone = false;
      const finish = (error?: Error) => {
        if (isDone) return;
        isDone = true;
        out.off('close', onClose);
        if (error) reject(error);
        else resolve();
      };
      const onClose = () => finish(new Error('the receiver closed the connection'));
      out.once('close', onClose);
      const ask = (slot: number) => {
        if (next >= count || isDone) return;
        asked += 1;
        thread!.worker.postMessage({ type: 'read', id, index: next++, slot } satisfies OpenRequest);
      };
      // Answers come in the order asked: chunk i is in slot i % slotCount.
      thread!.replies.set(id, (reply) => {
        // index -1: the thread stopped, no other answer will come.
        answered = reply.index === -1 ? asked : answered + 1;
        if (answered === asked) settleAnswers?.();
        if (isDone) return;
        if ('error' in reply) return finish(reply.isFormat ? new SealedFormatError(reply.error) : new Error(reply.error));
        const slot = reply.index % slotCount;
        out.write(views[slot]!.subarray(0, reply.length), (error) => {
          if (error) return finish(error);
          written += 1;
          if (written === count) finish();
          else ask(slot);
        });
      });
      thread!.worker.ref();
      thread!.worker.postMessage({ type: 'open', id, fd: handle.fd, key, chunkBytes: h.chunkBytes, size, count, slots } satisfies OpenRequest);
      for (let slot = 0; slot < slotCount; slot++) ask(slot);
    });
  } finally {
    if (thread) {
      // The thread reads this file descriptor until its last answer: the handle is closed after it.
      if (answered < asked) await new Promise<void>((resolve) => (settleAnswers = resolve));
      thread.replies.delete(id);
      thread.worker.postMessage({ type: 'close', id } satisfies OpenRequest);
      if (thread.replies.size === 0) thread.worker.unref();
    }
    await handle.close();
  }
}
