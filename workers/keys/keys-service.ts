import { wrap, type Remote } from 'comlink';
import type { KeysWorkerApi } from './keys.worker.ts';

let worker: Worker | null = null;
let remote: Remote<KeysWorkerApi> | null = null;
let idleTimer: ReturnType<typeof setTimeout> | null = null;

/** The keys worker, started on first use and closed after a minute idle. */
export function keysWorker(): Remote<KeysWorkerApi> {
  if (idleTimer) clearTimeout(idleTimer);
  idleTimer = setTimeout(() => {
    worker?.terminate();
    worker = null;
    remote = null;
  }, 60_000);
  if (!remote) {
    worker = new Worker(new URL('./keys.worker.ts', import.meta.url), { type: 'module', name: 'provena-keys' });
    remote = wrap<KeysWorkerApi>(worker);
  }
  return remote;
}
