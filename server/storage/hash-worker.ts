/**
 * The thread that hashes uploads (running-hash.ts): it keeps the running SHA-256 of each
 * unfinished upload it was given bytes for, so that hashing runs beside the API thread, which
 * only receives the bytes and copies them into a buffer it hands over.
 *
 * Messages, answered in the order received: { type: 'update', id, buffer, length } hashes the
 * first `length` bytes of `buffer` next and sends the buffer back ({ type: 'updated', id, buffer })
 * for reuse; { type: 'digest', id } answers { type: 'digest', id, hex } and forgets the hash;
 * { type: 'drop', id } forgets it without an answer.
 */
import { createHash, type Hash } from 'node:crypto';
import { parentPort } from 'node:worker_threads';

export type HashRequest =
  | { type: 'update'; id: number; buffer: ArrayBuffer; length: number }
  | { type: 'digest'; id: number }
  | { type: 'drop'; id: number };
export type HashReply = { type: 'updated'; id: number; buffer: ArrayBuffer } | { type: 'digest'; id: number; hex: string };

const hashes = new Map<number, Hash>();

function hashOf(id: number): Hash {
  let hash = hashes.get(id);
  if (!hash) {
    hash = createHash('sha256');
    hashes.set(id, hash);
  }
  return hash;
}

parentPort!.on('message', (message: HashRequest) => {
  if (message.type === 'update') {
    hashOf(message.id).update(new Uint8Array(message.buffer, 0, message.length));
    parentPort!.postMessage({ type: 'updated', id: message.id, buffer: message.buffer } satisfies HashReply, [message.buffer]);
    return;
  }
  if (message.type === 'digest') {
    const hex = hashOf(message.id).digest('hex');
    hashes.delete(message.id);
    parentPort!.postMessage({ type: 'digest', id: message.id, hex } satisfies HashReply);
    return;
  }
  hashes.delete(message.id);
});
