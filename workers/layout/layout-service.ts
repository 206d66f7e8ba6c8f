import { proxy, wrap, type Remote } from 'comlink';
import type { LayoutGraph, LayoutProgress } from '../../wasm/layout.ts';
import type { LayoutFrame, LayoutRunOptions, LayoutWorkerApi } from './layout.worker.ts';

export type { LayoutFrame, LayoutRunOptions };

/**
 * The page's handle on a layout worker: one worker per view (the map and the score
 * page's graph each own one), closed with the view. Aborting the signal stops the run.
 */
export type LayoutSession = {
  run(graph: LayoutGraph, options: LayoutRunOptions, onFrame: (frame: LayoutFrame) => void, signal?: AbortSignal): Promise<LayoutProgress | null>;
  close(): void;
};

export function openLayoutSession(): LayoutSession {
  const worker = new Worker(new URL('./layout.worker.ts', import.meta.url), { type: 'module', name: 'provena-layout' });
  const remote: Remote<LayoutWorkerApi> = wrap<LayoutWorkerApi>(worker);
  return {
    run(graph, options, onFrame, signal) {
      const onAbort = () => void remote.stop();
      signal?.addEventListener('abort', onAbort, { once: true });
      // Copies go to the worker: the caller keeps its graph.
      return remote
        .start({ count: graph.count, links: graph.links.slice() }, options, proxy(onFrame))
        .finally(() => signal?.removeEventListener('abort', onAbort));
    },
    close() {
      worker.terminate();
    },
  };
}
