import { proxy, wrap, type Remote } from 'comlink';
import type { RecordProgress } from '../../core/repos-git.ts';
import type { ComputeResult, PickedFile, RepoWorkerApi } from './repo.worker.ts';

export type { ComputeResult, PickedFile };

/**
 * Computes commit records off the main thread. Each call runs in a fresh worker; aborting
 * terminates it at once (a half-read history is simply dropped: nothing was sent).
 */
export async function computeCommitRecords(files: PickedFile[], known: string[], onProgress: (p: RecordProgress) => void, signal: AbortSignal): Promise<ComputeResult | null> {
  const worker = new Worker(new URL('./repo.worker.ts', import.meta.url), { type: 'module', name: 'provena-repo' });
  const remote: Remote<RepoWorkerApi> = wrap<RepoWorkerApi>(worker);
  const aborted = new Promise<null>((resolve) => signal.addEventListener('abort', () => resolve(null), { once: true }));
  try {
    if (signal.aborted) return null;
    return await Promise.race([remote.compute(files, known, proxy(onProgress)), aborted]);
  } finally {
    worker.terminate();
  }
}
