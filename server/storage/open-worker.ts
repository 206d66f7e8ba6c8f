/**
 * The thread that opens sealed chunks for downloads (sealed.ts sendSealedFile): it reads each
 * sealed chunk of a local file, authenticates and decrypts it (openChunk, the same checks as
 * everywhere else) and copies the plaintext into a slot of the download's SharedArrayBuffer,
 * which the API thread writes to the socket as it is. The plaintext buffers that decryption
 * allocates are this thread's: the API thread, whose heap is much larger, allocates nothing per
 * chunk and so runs no garbage collection for them.
 *
 * Messages: { type: 'open', id, fd, key, chunkBytes, size, count, slots } starts a download;
 * { type: 'read', id, index, slot } asks for chunk `index` in `slot`, answered in the order asked
 * with { id, index, length } or { id, index, error }; { type: 'close', id } ends it (the file
 * descriptor stays the API thread's, which closes it).
 */
import fs from 'node:fs';
import { parentPort } from 'node:worker_threads';
import { SEALED_HEADER_BYTES, SEALED_TAG_BYTES, SealedFormatError, openChunk } from './sealed.ts';

export type OpenRequest =
  | { type: 'open'; id: number; fd: number; key: Uint8Array; chunkBytes: number; size: number; count: number; slots: SharedArrayBuffer }
  | { type: 'read'; id: number; index: number; slot: number }
  | { type: 'close'; id: number };
export type OpenReply = { id: number; index: number; length: number } | { id: number; index: number; error: string; isFormat: boolean };

type Download = { fd: number; key: Buffer; chunkBytes: number; size: number; count: number; slots: Buffer };

const downloads = new Map<number, Download>();
/** One reused buffer for the sealed chunk being read. */
let sealed = Buffer.alloc(0);

function read(d: Download, index: number, slot: number): number {
  const sealedChunk = d.chunkBytes + SEALED_TAG_BYTES;
  const position = SEALED_HEADER_BYTES + index * sealedChunk;
  const length = Math.max(0, Math.min(sealedChunk, d.size - position));
  if (sealed.length < length) sealed = Buffer.allocUnsafe(sealedChunk);
  let fill = 0;
  while (fill < length) {
    const n = fs.readSync(d.fd, sealed, fill, length - fill, position + fill);
    if (n === 0) throw new SealedFormatError('truncated chunk');
    fill += n;
  }
  // The last chunk is flagged by the file's size, so a dropped or truncated end fails authentication.
  const plain = openChunk(d.key, index, sealed.subarray(0, length), index === d.count - 1);
  if (plain.length > d.chunkBytes) throw new SealedFormatError(`chunk ${index} is too long`);
  plain.copy(d.slots, slot * d.chunkBytes);
  return plain.length;
}

parentPort!.on('message', (message: OpenRequest) => {
  if (message.type === 'open') {
    const { id, fd, key, chunkBytes, size, count, slots } = message;
    downloads.set(id, { fd, key: Buffer.from(key), chunkBytes, size, count, slots: Buffer.from(slots) });
    return;
  }
  if (message.type === 'close') {
    downloads.delete(message.id);
    return;
  }
  const d = downloads.get(message.id);
  if (!d) return;
  let reply: OpenReply;
  try {
    reply = { id: message.id, index: message.index, length: read(d, message.index, message.slot) };
  } catch (error) {
    reply = { id: message.id, index: message.index, error: error instanceof Error ? error.message : String(error), isFormat: error instanceof SealedFormatError };
  }
  parentPort!.postMessage(reply);
});
