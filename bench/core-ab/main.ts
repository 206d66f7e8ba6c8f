import { wrap } from 'comlink';
import type { CoreAbWorkerApi, CoreAbEngine } from './worker.ts';

const worker = wrap<CoreAbWorkerApi>(new Worker(new URL('./worker.ts', import.meta.url), { type: 'module' }));

/** Called by bench/core-ab.ts through Playwright: runs the A/B in one worker. */
(window as unknown as { coreAb: CoreAbWorkerApi['run'] }).coreAb = (engines: CoreAbEngine[], size: number, rounds: number) => worker.run(engines, size, rounds);
