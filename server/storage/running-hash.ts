import { Worker } from 'node:worker_threads';
import type { HashReply, HashRequest } from './hash-worker.ts';

/**
 * The running SHA-256 of an upload, computed on a thread of its own (hash-worker.ts) instead of
 * on the API thread, which serves every other request meanwhile. With the hash on it, the API
 * thread spent 1.24-1.34 s/GB of uploaded bytes; without, 0.75-0.87 (a plain node:http server
 * that writes the body to a file: 0.77-0.90). On the 2-core VM of bench/README the upload's
 * throughput stayed the same (the hash's CPU moved, it did not go away); where there are cores to
 * spare, one event loop receives about 1.2 GB/s of uploads instead of 0.8.
 *
 * Bytes reach the thread through SLOTS slots of shared memory, allocated once with the thread:
 * `update` copies the bytes into free slots and tells the thread which; a slot is free again once
 * the thread has hashed it. Nothing is allocated per update, and the bytes waiting to be hashed,
 * for every upload of the process together, are at most the slots. Updates and the digest are
 * answered in the order they were made. A hash whose thread stopped is lost (`isLost`, and
 * `digest` rejects with HashLostError): the caller rebuilds it from the bytes it kept, as after a
 * restart; the next hash starts a new thread.
 */
export class HashLostError extends Error {}

/** Bytes per slot (one sealed chunk's plaintext); larger updates take several. */
const SLOT_BYTES = 1024 * 1024;
/** Slots of shared memory between the API thread and the hash thread (memory: SLOTS * SLOT_BYTES). */
const SLOTS = 8;

type Waiter = { resolve: (hex: string) => void; reject: (error: Error) => void };
/** The waiter of an update: its answer only frees the slot (the reply handler does that). */
const UPDATE_WAITER: Waiter = { resolve: () => {}, reject: () => {} };
type Thread = {
  worker: Worker;
  hashes: Map<number, RunningHash>;
  nextId: number;
  /** Answers the thread owes: while there are any, it keeps the process up. */
  pending: number;
  slots: Buffer;
  free: number[];
  /** Updates waiting for a free slot, in order; given undefined when the thread stopped. */
  slotWaiters: Array<(slot: number | undefined) => void>;
  fail(error: Error): void;
};

let thread: Thread | null = null;

function hashThread(): Thread {
  if (thread) return thread;
  const worker = new Worker(new URL('./hash-worker.ts', import.meta.url), { name: 'provena-upload-hash' });
  const shared = new SharedArrayBuffer(SLOTS * SLOT_BYTES);
  const state: Thread = {
    worker,
    hashes: new Map(),
    nextId: 1,
    pending: 0,
    slots: Buffer.from(shared),
    free: Array.from({ length: SLOTS }, (_, slot) => slot),
    slotWaiters: [],
    fail(error) {
      if (thread === state) thread = null;
      for (const hash of state.hashes.values()) hash.lose(new HashLostError(`the upload hash thread stopped: ${error.message}`));
      state.hashes.clear();
      for (const waiter of state.slotWaiters.splice(0)) waiter(undefined);
      state.pending = 0;
    },
  };
  worker.unref();
  worker.postMessage({ type: 'slots', slots: shared, slotBytes: SLOT_BYTES } satisfies HashRequest);
  worker.on('message', (reply: HashReply) => {
    if (reply.type === 'updated') {
      const next = state.slotWaiters.shift();
      if (next) next(reply.slot);
      else state.free.push(reply.slot);
    }
    state.hashes.get(reply.id)?.answered(reply.type === 'digest' ? reply.hex : '');
  });
  worker.on('error', (error) => state.fail(error));
  worker.on('exit', (code) => state.fail(new Error(`exit code ${code}`)));
  thread = state;
  return state;
}

/**
 * Ends the hash thread, as a crash of it would: every hash on it is lost and the next hash starts
 * a new thread. Tests use it to check that a lost hash is rebuilt from the bytes kept.
 */
export async function stopHashThread(): Promise<void> {
  const state = thread;
  if (!state) return;
  state.fail(new Error('stopped'));
  await state.worker.terminate();
}

export class RunningHash {
  private readonly thread: Thread;
  private readonly id: number;
  /** One per message sent and not answered yet, in the order sent. */
  private readonly waiting: Waiter[] = [];
  private lostWith: HashLostError | null = null;
  /** digest or drop was called: no more updates. */
  private isClosed = false;
  private isDropped = false;
  /** Updates waiting for free slots, in order; `from` is how far the first has been copied. */
  private readonly backlog: Array<{ bytes: Uint8Array; from: number; resolve: () => void }> = [];

  constructor() {
    this.thread = hashThread();
    this.id = this.thread.nextId++;
    this.thread.hashes.set(this.id, this);
  }

  /** The thread stopped before this hash was digested; its bytes must be hashed again. */
  get isLost(): boolean {
    return this.lostWith !== null;
  }

  /**
   * Hashes `bytes` next, after the updates before it. Resolves once they are copied into slots:
   * within this call when no earlier update waits for slots and enough are free; otherwise the
   * caller must not change them before. Resolves too once the hash is lost or dropped; rejects
   * only when called after digest or drop.
   */
  update(bytes: Uint8Array): Promise<void> {
    if (this.isClosed) return Promise.reject(new Error('update after digest or drop'));
    if (this.backlog.length === 0) {
      const from = this.copyNow(bytes, 0);
      if (from >= bytes.length) return Promise.resolve();
      return new Promise((resolve) => {
        this.backlog.push({ bytes, from, resolve });
        this.waitForSlot();
      });
    }
    return new Promise((resolve) => this.backlog.push({ bytes, from: 0, resolve }));
  }

  /** Copies bytes[from...] into the free slots there are and sends them; how far it got (all, once lost). */
  private copyNow(bytes: Uint8Array, from: number): number {
    while (from < bytes.length && !this.lostWith) {
      const slot = this.thread.free.pop();
      if (slot === undefined) return from;
      const piece = bytes.subarray(from, Math.min(bytes.length, from + SLOT_BYTES));
      this.thread.slots.set(piece, slot * SLOT_BYTES);
      this.send({ type: 'update', id: this.id, slot, length: piece.length }, UPDATE_WAITER);
      from += piece.length;
    }
    return bytes.length;
  }

  private waitForSlot(): void {
    this.thread.slotWaiters.push((slot) => {
      if (slot === undefined || this.lostWith || this.isDropped) {
        // The slot goes to the next one waiting; what waited here is settled (the hash is spent).
        if (slot !== undefined) {
          const next = this.thread.slotWaiters.shift();
          if (next) next(slot);
          else this.thread.free.push(slot);
        }
        this.settleBacklog();
        return;
      }
      this.thread.free.push(slot);
      while (this.backlog.length > 0) {
        const head = this.backlog[0]!;
        head.from = this.copyNow(head.bytes, head.from);
        if (head.from < head.bytes.length) return this.waitForSlot();
        this.backlog.shift();
        head.resolve();
      }
    });
  }

  private settleBacklog(): void {
    for (const waiting of this.backlog.splice(0)) waiting.resolve();
  }

  /** The hex digest of every byte given; the hash is spent. Rejects with HashLostError if the thread stopped first. */
  async digest(): Promise<string> {
    if (this.isClosed) throw new Error('digest after digest or drop');
    this.isClosed = true;
    try {
      // After every update still waiting for slots.
      if (this.backlog.length > 0) await new Promise<void>((resolve) => this.backlog.push({ bytes: new Uint8Array(0), from: 0, resolve }));
      if (this.lostWith) throw this.lostWith;
      return await new Promise<string>((resolve, reject) => this.send({ type: 'digest', id: this.id }, { resolve, reject }));
    } finally {
      this.forget();
    }
  }

  /** Lets go of the hash without a digest; updates still waiting for slots are not hashed. */
  drop(): void {
    if (this.isClosed) return;
    this.isClosed = true;
    this.isDropped = true;
    this.settleBacklog();
    if (!this.lostWith) this.thread.worker.postMessage({ type: 'drop', id: this.id } satisfies HashRequest);
    this.forget();
  }

  /** The answer to the oldest message not yet answered (hash-thread side). */
  answered(hex: string): void {
    const waiter = this.waiting.shift();
    if (!waiter) return;
    this.settleOne();
    waiter.resolve(hex);
  }

  /** The thread stopped (hash-thread side). */
  lose(error: HashLostError): void {
    this.lostWith = error;
    for (const waiter of this.waiting.splice(0)) waiter.reject(error);
    this.settleBacklog();
  }

  private send(message: HashRequest, waiter: Waiter): void {
    this.waiting.push(waiter);
    // The process stays up while the thread owes an answer.
    if (this.thread.pending === 0) this.thread.worker.ref();
    this.thread.pending += 1;
    this.thread.worker.postMessage(message);
  }

  private settleOne(): void {
    this.thread.pending -= 1;
    if (this.thread.pending === 0) this.thread.worker.unref();
  }

  private forget(): void {
    // Answers still owed for updates before a drop free their slots when they come (the reply
    // handler does that for any id); the thread's count of them is settled here.
    if (!this.lostWith) {
      for (const waiter of this.waiting.splice(0)) {
        this.settleOne();
        waiter.resolve('');
      }
    }
    this.thread.hashes.delete(this.id);
  }
}

/**
 * Running hashes of unfinished uploads kept between requests, each with the offset it reached:
 * both staging stores keep theirs here. A request takes its upload's hash (it owns it until it
 * keeps it again with the offset it reached); one kept at another offset, or lost with its
 * thread, is dropped and rebuilt by the store from the bytes it staged.
 */
export class KeptHashes {
  private readonly kept = new Map<string, { hash: RunningHash; offset: number }>();

  /** The hash of upload `id` at `offset`, taken out; null when there is none to use. */
  take(id: string, offset: number): RunningHash | null {
    const kept = this.kept.get(id);
    this.kept.delete(id);
    if (kept && kept.offset === offset && !kept.hash.isLost) return kept.hash;
    kept?.hash.drop();
    return null;
  }

  keep(id: string, hash: RunningHash, offset: number): void {
    this.kept.get(id)?.hash.drop();
    this.kept.set(id, { hash, offset });
  }

  drop(id: string): void {
    this.kept.get(id)?.hash.drop();
    this.kept.delete(id);
  }
}

/** A new running hash of `parts`, in order (a rebuild from staged bytes); dropped if reading them fails. */
export async function hashParts(parts: AsyncIterable<Uint8Array>): Promise<RunningHash> {
  const hash = new RunningHash();
  try {
    for await (const part of parts) await hash.update(part);
  } catch (error) {
    hash.drop();
    throw error;
  }
  return hash;
}

/** The digest of the hash `hasher` gives; a hash lost with its thread is asked for once more (rebuilt). */
export async function digestOnce(hasher: () => Promise<RunningHash>): Promise<string> {
  try {
    return await (await hasher()).digest();
  } catch (error) {
    if (!(error instanceof HashLostError)) throw error;
    return (await hasher()).digest();
  }
}

/**
 * Hands the bytes of a reused chunk buffer to `hash` as the chunk fills: `upTo(fill)` hashes
 * chunk[hashed, fill) and resolves once they are copied out (the chunk may then be refilled),
 * `restart()` after the chunk was emptied. `hashed` is what the hash holds already (a resumed tail).
 */
export function chunkFeeder(hash: RunningHash, chunk: Uint8Array, hashed: number) {
  return {
    async upTo(fill: number): Promise<void> {
      if (fill > hashed) await hash.update(chunk.subarray(hashed, fill));
      hashed = fill;
    },
    restart(): void {
      hashed = 0;
    },
  };
}
