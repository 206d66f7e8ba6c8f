import fp from 'fastify-plugin';
import { scheduleJob } from '../jobs/schedule.ts';
import type { Db } from '../db/database.ts';
import { scoreService, type ScoreService } from './service.ts';
import scoreRoutes from './routes.ts';

declare module 'fastify' {
  interface FastifyInstance {
    score: ScoreService;
  }
}

export type ScorePluginOptions = {
  db: Db;
  databaseUrl: string | undefined;
  /** Path prefix of the API: the deployment's api.scoreBase when it is a path, else /score-api. */
  base: string;
  /** Minutes between background recomputations; 0 turns them off (tests drive recompute() themselves). */
  recomputeMinutes: number;
};

/** Reads SCORE_RECOMPUTE_MINUTES (default 60; 0 = off), failing clearly on a bad value. */
export function recomputeMinutesFromEnv(source: NodeJS.ProcessEnv = process.env): number {
  const text = source.SCORE_RECOMPUTE_MINUTES ?? '60';
  const value = Number(text);
  if (!Number.isFinite(value) || value < 0) throw new Error(`SCORE_RECOMPUTE_MINUTES must be a number ≥ 0, got "${text}"`);
  return value;
}

/** The score path prefix from the deployment configuration's api.scoreBase. */
export function scoreBasePath(scoreBase: string): string {
  return scoreBase.startsWith('/') ? scoreBase.replace(/\/+$/, '') || '/score-api' : '/score-api';
}

/**
 * Decorates the app with the score service, serves the §7 score API under
 * `<base>/v1`, and keeps every enterprise's weekly series current in the background
 * (first run shortly after start, then every `recomputeMinutes`; each run only
 * computes the weeks that are new since the last one).
 */
export default fp<ScorePluginOptions>(async function scorePlugin(app, opts) {
  const score = scoreService(opts.db, opts.databaseUrl ? 'postgres' : 'sqlite', app.log);
  app.decorate('score', score);
  await app.register(scoreRoutes, { prefix: `${opts.base}/v1`, score });

  if (opts.recomputeMinutes > 0 && app.hasDecorator('jobs') && app.hasDecorator('leadership')) {
    // In the platform: the recompute is a job a worker runs, never an API replica's
    // event loop; the leader asks for it shortly after it starts leading, then every recomputeMinutes.
    scheduleJob(app, 'score.recompute', { everyMs: opts.recomputeMinutes * 60_000, firstAfterMs: 3_000 }, async () => void (await score.recompute()), { retryLimit: 3, retryDelaySeconds: 30 });
  } else if (opts.recomputeMinutes > 0) {
    let timer: NodeJS.Timeout | null = null;
    let isClosing = false;
    let current: Promise<unknown> | null = null;
    const run = () => {
      if (isClosing) return;
      current = score.recompute().catch((error) => app.log.warn({ err: error }, 'score recompute failed'));
    };
    app.addHook('onReady', async () => {
      timer = setTimeout(function tick() {
        run();
        timer = setTimeout(tick, opts.recomputeMinutes * 60_000);
        timer.unref();
      }, 3_000);
      timer.unref();
    });
    app.addHook('onClose', async () => {
      isClosing = true;
      if (timer) clearTimeout(timer);
      await current;
    });
  }
});
