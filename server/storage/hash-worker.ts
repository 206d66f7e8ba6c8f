/**
 * The thread that hashes uploads (running-hash.ts): it keeps the running SHA-256 of each
 * unfinished upload it was given bytes for, so that hashing runs beside the API thread, which
 * only receives the bytes and copies them into slots of memory both threads share.
 *
 * Messages, answered in the order received: { type: 'slots', slots, slotBytes } comes first and
 * gives the shared memory; { type: 'update', id, slot, length } hashes the first `length` bytes of
 * `slot` next and answers { type: 'updated', id, slot } (the slot is free again); { type:
 * 'digest', id } answers { type: 'digest', id, hex } and forgets the hash; { type: 'drop', id }
 * forgets it without an answer.
 */
import { createHash, type Hash } from 'node:crypto';
import { parentPort } from 'node:worker_threads';

export type HashRequest =
  | { type: 'slots'; slots: SharedArrayBuffer; slotBytes: number }
  | { type: 'update'; id: number; slot: number; length: number }
  | { type: 'digest'; id: number }
  | { type: 'drop'; id: number };
export type HashReply = { type: 'updated'; id: number; slot: number } | { type: 'digest'; id: number; hex: string };

const hashes = new Map<number, Hash>();
let slots: Uint8Array = new Uint8Array(0);
let slotBytes = 0;

function hashOf(id: number): Hash {
  let hash = hashes.get(id);
  if (!hash) {
    hash = createHash('sha256');
    hashes.set(id, hash);
  }
  return hash;
}

parentPort!.on('message', (message: HashRequest) => {
  switch (message.type) {
    case 'slots':
      slots = new Uint8Array(message.slots);
      slotBytes = message.slotBytes;
      return;
    case 'update': {
      const at = message.slot * slotBytes;
      hashOf(message.id).update(slots.subarray(at, at + message.length));
      parentPort!.postMessage({ type: 'updated', id: message.id, slot: message.slot } satisfies HashReply);
      return;
    }
    case 'digest': {
      const hex = hashOf(message.id).digest('hex');
      hashes.delete(message.id);
      parentPort!.postMessage({ type: 'digest', id: message.id, hex } satisfies HashReply);
      return;
    }
    case 'drop':
      hashes.delete(message.id);
  }
});
