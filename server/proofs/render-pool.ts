/**
 * Certificate pages are rendered in worker threads, never on the API's event loop: a burst
 * of proof PDFs used to delay unrelated requests by up to 178 ms. Each worker renders one
 * page at a time and keeps its parsed fonts, prepared font subsets (prepared-font.ts) and
 * memoized measures warm; the pool starts workers on demand (up to `size`) and they hold the
 * process open only while busy. The page comes back prepared for signing (server/proofs/pdf.ts
 * renderPreparedCertificate): the keys (a sealed key or an HSM) never leave this thread, where
 * signing costs a few ms of CPU (two ECDSA signatures, the CMS and the time-stamp token).
 *
 * `size` 0 renders in this thread (what PROOF_RENDER_WORKERS=0 asks for).
 */
import os from 'node:os';
import { Worker } from 'node:worker_threads';
import type { PageInput } from './pdf.ts';
import type { RenderReply, RenderRequest } from './render-worker.ts';

type Pending = { resolve(pdf: Uint8Array): void; reject(error: Error): void };
type Slot = { worker: Worker; busy: Pending & { id: number } | null };
type Task = { page: PageInput; certificates: Uint8Array[] | null } & Pending;

/** PROOF_RENDER_WORKERS, or one worker per spare core (at least one, at most four). */
export function renderWorkersFromEnv(env: NodeJS.ProcessEnv = process.env): number {
  const raw = env.PROOF_RENDER_WORKERS;
  if (raw !== undefined && raw !== '') {
    const n = Number(raw);
    if (!Number.isInteger(n) || n < 0 || n > 64) throw new Error(`PROOF_RENDER_WORKERS must be an integer from 0 to 64, not ${raw}`);
    return n;
  }
  return Math.min(4, Math.max(1, os.availableParallelism() - 1));
}

export class RenderPool {
  readonly size: number;
  private readonly slots: Slot[] = [];
  private readonly queue: Task[] = [];
  private nextId = 1;
  private isClosed = false;

  constructor(size: number) {
    this.size = size;
  }

  /** The page of a certificate, prepared for signing when `certificates` are given (or unsigned). */
  render(page: PageInput, certificates: Uint8Array[] | null): Promise<Uint8Array> {
    // pdf.ts (pdf-lib, fontkit) is loaded here only when this thread renders, not with the server.
    if (this.size === 0) return import('./pdf.ts').then(({ renderPreparedCertificate }) => renderPreparedCertificate(page, certificates));
    if (this.isClosed) return Promise.reject(new Error('the certificate render pool is closed'));
    return new Promise<Uint8Array>((resolve, reject) => {
      this.queue.push({ page, certificates, resolve, reject });
      this.dispatch();
    });
  }

  /** Stops every worker; pages still queued are refused. */
  async close(): Promise<void> {
    this.isClosed = true;
    for (const task of this.queue.splice(0)) task.reject(new Error('the certificate render pool is closed'));
    await Promise.all(this.slots.splice(0).map((slot) => slot.worker.terminate()));
  }

  private dispatch(): void {
    while (this.queue.length > 0) {
      let slot = this.slots.find((s) => !s.busy);
      if (!slot && this.slots.length < this.size) slot = this.spawn();
      if (!slot) return;
      const task = this.queue.shift()!;
      const id = this.nextId++;
      slot.busy = { id, resolve: task.resolve, reject: task.reject };
      slot.worker.ref();
      slot.worker.postMessage({ id, page: task.page, certificates: task.certificates } satisfies RenderRequest);
    }
  }

  private spawn(): Slot {
    const worker = new Worker(new URL('./render-worker.ts', import.meta.url), { name: 'provena-certificate-render' });
    const slot: Slot = { worker, busy: null };
    worker.unref();
    worker.on('message', (reply: RenderReply) => {
      const busy = slot.busy;
      if (!busy || busy.id !== reply.id) return;
      slot.busy = null;
      worker.unref();
      if ('error' in reply) busy.reject(new Error(reply.error));
      else busy.resolve(reply.pdf);
      this.dispatch();
    });
    // A worker that dies (an exception outside a render, out of memory) fails its page and is replaced on demand.
    const drop = (error: Error) => {
      const at = this.slots.indexOf(slot);
      if (at !== -1) this.slots.splice(at, 1);
      slot.busy?.reject(error);
      slot.busy = null;
      if (!this.isClosed) this.dispatch();
    };
    worker.on('error', drop);
    worker.on('exit', (code) => drop(new Error(`a certificate render worker exited (${code})`)));
    this.slots.push(slot);
    return slot;
  }
}
