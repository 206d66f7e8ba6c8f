import { proxy, transfer, wrap, type Remote } from 'comlink';
import type { Verdict } from '../../core/ledger/package.ts';
import type { Trust, VerifyWorkerApi } from './verify.worker.ts';

const IDLE_MS = 30_000;
let worker: Worker | null = null;
let remote: Remote<VerifyWorkerApi> | null = null;
let idle: ReturnType<typeof setTimeout> | null = null;

function getWorker(): Remote<VerifyWorkerApi> {
  if (idle) clearTimeout(idle);
  if (!remote) {
    worker = new Worker(new URL('./verify.worker.ts', import.meta.url), { type: 'module', name: 'provena-verify' });
    remote = wrap<VerifyWorkerApi>(worker);
  }
  return remote;
}

export function closeVerifyWorker(): void {
  worker?.terminate();
  worker = null;
  remote = null;
}

let isHeld = false;

/**
 * Starts the worker (and pdf.js inside it) ahead of use and keeps it while the page is
 * open, so verifying works offline later. Returns the release function.
 */
export function holdVerifyWorker(): () => void {
  isHeld = true;
  void getWorker().ping();
  return () => {
    isHeld = false;
    closeVerifyWorker();
  };
}

/** SHA-256 of a file in the (already running) verify worker: the offline path. */
export async function sha256InVerifyWorker(file: File, onProgress?: (bytes: number) => void): Promise<string> {
  return getWorker().sha256File(file, onProgress ? proxy(onProgress) : undefined);
}

/**
 * Checks a certificate PDF against the original's SHA-256, off the main thread. Aborting
 * terminates the worker; the next call starts a fresh one.
 */
export async function verifyProofPdf(pdf: File, fileSha256: string, options: { trust?: Trust; signal?: AbortSignal } = {}): Promise<Verdict & { ms: number }> {
  const api = getWorker();
  const bytes = await pdf.arrayBuffer();
  const onAbort = () => closeVerifyWorker();
  options.signal?.addEventListener('abort', onAbort, { once: true });
  try {
    return await api.verify(transfer(bytes, [bytes]), fileSha256, Date.now(), options.trust ?? {});
  } finally {
    options.signal?.removeEventListener('abort', onAbort);
    if (!isHeld) idle = setTimeout(closeVerifyWorker, IDLE_MS);
  }
}
