import { Worker } from 'node:worker_threads';
import type { HashReply, HashRequest } from './hash-worker.ts';

/**
 * The running SHA-256 of an upload, computed on a thread of its own (hash-worker.ts) instead of
 * on the API thread, which serves every other request meanwhile. With the hash on it, the API
 * thread spent 1.25-1.31 s/GB of uploaded bytes; without, 0.74-0.88 (a plain node:http server
 * that writes the body to a file: 0.77-0.90). On the 2-core VM of bench/README the upload's
 * throughput stayed the same (the hash's CPU moved, it did not go away); where there are cores to
 * spare, one event loop receives about 1.2 GB/s of uploads instead of 0.8.
 *
 * `update` copies the bytes at once into a buffer that moves to the thread (and comes back for
 * reuse), so the caller may refill its own buffer as soon as the call returns. Updates and the
 * digest are answered in the order they were made. A hash whose thread stopped is lost
 * (`isLost`, and `digest` rejects with HashLostError): the caller rebuilds it from the bytes it
 * kept, as after a restart; the next hash starts a new thread.
 */
export class HashLostError extends Error {}

/** Bytes per buffer handed to the thread (one sealed chunk's plaintext); larger updates are split. */
const SLOT_BYTES = 1024 * 1024;
/** Buffers kept for reuse once the thread has hashed them (memory: that many slots). */
const SPARE_SLOTS = 8;

type Waiter = { resolve: (hex: string) => void; reject: (error: Error) => void };
type Thread = { worker: Worker; hashes: Map<number, RunningHash>; nextId: number; pending: number; fail(error: Error): void };

let thread: Thread | null = null;
const spare: ArrayBuffer[] = [];

function hashThread(): Thread {
  if (thread) return thread;
  const worker = new Worker(new URL('./hash-worker.ts', import.meta.url), { name: 'provena-upload-hash' });
  const state: Thread = {
    worker,
    hashes: new Map(),
    nextId: 1,
    pending: 0,
    fail(error) {
      if (thread === state) thread = null;
      for (const hash of state.hashes.values()) hash.lose(new HashLostError(`the upload hash thread stopped: ${error.message}`));
      state.hashes.clear();
      state.pending = 0;
    },
  };
  worker.unref();
  worker.on('message', (reply: HashReply) => {
    if (reply.type === 'updated' && spare.length < SPARE_SLOTS && reply.buffer.byteLength === SLOT_BYTES) spare.push(reply.buffer);
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
  private isClosed = false;

  constructor() {
    this.thread = hashThread();
    this.id = this.thread.nextId++;
    this.thread.hashes.set(this.id, this);
  }

  /** The thread stopped before this hash was digested; its bytes must be hashed again. */
  get isLost(): boolean {
    return this.lostWith !== null;
  }

  /** Hashes `bytes` next (copied now). Resolves once they are hashed, or once the hash is lost: it never rejects. */
  update(bytes: Uint8Array): Promise<void> {
    if (this.isClosed) throw new Error('update after digest or drop');
    let last: Promise<string> = Promise.resolve('');
    for (let from = 0; from < bytes.length && !this.lostWith; from += SLOT_BYTES) {
      const piece = bytes.subarray(from, Math.min(bytes.length, from + SLOT_BYTES));
      const buffer = spare.pop() ?? (Buffer.allocUnsafeSlow(SLOT_BYTES).buffer as ArrayBuffer);
      new Uint8Array(buffer, 0, piece.length).set(piece);
      last = this.send({ type: 'update', id: this.id, buffer, length: piece.length }, [buffer]);
    }
    return last.then(
      () => {},
      () => {},
    );
  }

  /** The hex digest of every byte given; the hash is spent. Rejects with HashLostError if the thread stopped first. */
  async digest(): Promise<string> {
    if (this.isClosed) throw new Error('digest after digest or drop');
    const hex = this.send({ type: 'digest', id: this.id });
    this.isClosed = true;
    try {
      return await hex;
    } finally {
      this.forget();
    }
  }

  /** Lets go of the hash without a digest. */
  drop(): void {
    if (this.isClosed) return;
    this.isClosed = true;
    if (!this.lostWith) this.thread.worker.postMessage({ type: 'drop', id: this.id } satisfies HashRequest);
    this.forget();
  }

  /** The answer to the oldest message not yet answered (hash-thread side). */
  answered(hex: string): void {
    const waiter = this.waiting.shift();
    if (!waiter) return;
    this.thread.pending -= 1;
    if (this.thread.pending === 0) this.thread.worker.unref();
    waiter.resolve(hex);
  }

  /** The thread stopped (hash-thread side). */
  lose(error: HashLostError): void {
    this.lostWith = error;
    for (const waiter of this.waiting.splice(0)) waiter.reject(error);
  }

  private send(message: HashRequest, transfer: ArrayBuffer[] = []): Promise<string> {
    if (this.lostWith) return Promise.reject(this.lostWith);
    return new Promise<string>((resolve, reject) => {
      this.waiting.push({ resolve, reject });
      // The process stays up while the thread owes an answer.
      if (this.thread.pending === 0) this.thread.worker.ref();
      this.thread.pending += 1;
      this.thread.worker.postMessage(message, transfer);
    });
  }

  private forget(): void {
    // Answers still owed (updates before a drop) are not waited for: their waiters are settled
    // here, and so is the thread's count of them.
    if (this.waiting.length > 0 && !this.lostWith) {
      this.thread.pending -= this.waiting.length;
      if (this.thread.pending === 0) this.thread.worker.unref();
      for (const waiter of this.waiting.splice(0)) waiter.resolve('');
    }
    this.thread.hashes.delete(this.id);
  }
}
