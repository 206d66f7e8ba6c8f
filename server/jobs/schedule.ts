import type { FastifyInstance } from 'fastify';
import type { JobHandler, JobOptions } from './queue.ts';

/**
 * A periodic job: the leader asks for it every `everyMs` (the first time `firstAfterMs` after
 * it starts leading), and whichever worker takes it runs it, with the queue's retries,
 * backoff and visibility (state, attempts, last error in the operator console). Only the
 * leader asks, so two replicas never schedule twice; the queue keeps at most one waiting
 * and one running per name, so a slow run is never stacked up behind itself.
 */
export function scheduleJob(
  app: FastifyInstance,
  name: string,
  schedule: { everyMs: number; firstAfterMs?: number },
  handler: JobHandler,
  options: Partial<JobOptions> = {},
): void {
  app.jobs.define(name, handler, options);
  let timer: NodeJS.Timeout | null = null;
  const ask = () => void app.jobs.send(name).catch((error: unknown) => app.log.warn({ err: error, job: name }, 'could not queue a scheduled job'));
  app.leadership.onGained(async () => {
    timer = setTimeout(function tick() {
      ask();
      timer = setTimeout(tick, schedule.everyMs);
      timer.unref();
    }, schedule.firstAfterMs ?? schedule.everyMs);
    timer.unref();
  });
  app.leadership.onLost(async () => {
    if (timer) clearTimeout(timer);
    timer = null;
  });
}
