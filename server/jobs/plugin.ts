import fp from 'fastify-plugin';
import { InProcessQueue, pgBossQueue, type JobQueue } from './queue.ts';
import { Leadership } from './leader.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** Background jobs: pg-boss for `provena serve`/`provena work`, in-process in the embedded default. */
    jobs: JobQueue;
    /**
     * Who leads: the one process that seals, anchors and runs the schedules (a PostgreSQL
     * advisory lock; always this process on SQLite). Never held by `provena serve`.
     */
    leadership: Leadership;
  }
}

/**
 * The process's role (PROVENA_ROLE), first half: the queue and the leadership,
 * decorated before the plugins that define jobs and leader duties. `rolesStart` (registered
 * last) starts them once every plugin has said what it needs.
 */
export const jobsPlugin = fp(async function jobsPlugin(app) {
  const role = app.env.role;
  const isWorking = role !== 'serve';
  const jobs: JobQueue = app.env.databaseUrl && role !== 'all' ? await pgBossQueue(app.env.databaseUrl, app.log, { isWorking }) : new InProcessQueue(app.log);
  app.decorate('jobs', jobs);
  app.decorate('leadership', new Leadership(app.env.databaseUrl, app.log));
});

/** Second half: starts the queue (workers take jobs) and, except on an API replica, runs for leader. */
export const rolesStart = fp(async function rolesStart(app) {
  const role = app.env.role;
  app.addHook('onReady', async () => {
    await app.jobs.start({ isWorking: role !== 'serve' });
    if (role !== 'serve') await app.leadership.start();
    app.log.info({ role, jobs: app.jobs.backend, isLeader: app.leadership.isLeader }, 'process role');
  });
  app.addHook('onClose', async () => {
    await app.leadership.stop();
    await app.jobs.stop();
  });
});
