import fp from 'fastify-plugin';
import { scheduleJob } from '../jobs/schedule.ts';

const HOUR_MS = 60 * 60 * 1000;
const DAY_MS = 24 * HOUR_MS;

/**
 * Housekeeping as a job the leader asks for hourly (and shortly after it starts leading):
 * expired sessions, spent login codes and stale rate-limit counters. A job, not a timer in
 * every process: one worker sweeps, failures are retried and visible to operators, and an
 * API replica (`provena serve`) spends nothing on it.
 */
export default fp(async function cleanupPlugin(app) {
  scheduleJob(
    app,
    'cleanup.sessions',
    { everyMs: HOUR_MS, firstAfterMs: 5_000 },
    async () => {
      const now = Date.now();
      await app.sessions.purgeExpired();
      await app.db.deleteFrom('sms_codes').where('expires_at', '<', now - DAY_MS).execute();
      await app.db.deleteFrom('rate_limits').where('window_start', '<', now - DAY_MS).execute();
    },
    { retryLimit: 3, retryDelaySeconds: 60 },
  );
});
