import { wrap } from 'comlink';
import type { CoreAbEngine, CoreAbWorkerApi } from './worker.ts';

/** Driven by bench/core-ab.ts through Playwright: window.coreAb.setup(…), then window.coreAb.run(name) per timed run. */
const worker = wrap<CoreAbWorkerApi>(new Worker(new URL('./worker.ts', import.meta.url), { type: 'module' }));
(window as unknown as { coreAb: unknown }).coreAb = {
  setup: (engines: CoreAbEngine[], size: number) => worker.setup(engines, size),
  run: (name: string) => worker.run(name),
};
