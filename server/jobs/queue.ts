import type { PgBoss } from 'pg-boss';

/**
 * Background jobs: certificate rendering, the score recompute, and what comes
 * after them. One interface, two backends: pg-boss on PostgreSQL (any number of `provena
 * work` processes take jobs; `provena serve` only sends and lists), and an in-process
 * runner for the embedded default (SQLite, one process). Every job is idempotent (its
 * handler re-reads the database and does only what is still to do), retried with
 * exponential backoff, and visible: state, attempts and last error (operator API).
 */
export type JobHandler = (data: Record<string, unknown>) => Promise<void>;

export type JobOptions = {
  /** Retries after the first attempt. */
  retryLimit: number;
  /** The first retry's wait; each next one doubles it (at most 5 minutes). */
  retryDelaySeconds: number;
};

export type JobState = 'queued' | 'active' | 'retry' | 'completed' | 'failed' | 'cancelled';

export type JobView = { id: string; name: string; state: JobState; attempts: number; last_error: string | null; created_at: number; updated_at: number };

export interface JobQueue {
  readonly backend: 'pg-boss' | 'in-process';
  /** Declares a job and its handler (before start). */
  define(name: string, handler: JobHandler, options?: Partial<JobOptions>): void;
  /** Starts the queue; `isWorking` false (an API replica) sends and lists but takes no job. */
  start(options: { isWorking: boolean }): Promise<void>;
  /** Asks for a run. One waits at most per name: a second request while one waits is the same job. */
  send(name: string, data?: Record<string, unknown>): Promise<void>;
  /** The newest jobs first. */
  list(limit?: number): Promise<JobView[]>;
  /** Waits for jobs in progress (this process's) and stops taking new ones. */
  stop(): Promise<void>;
}

const DEFAULTS: JobOptions = { retryLimit: 5, retryDelaySeconds: 2 };
const HEARTBEAT_SECONDS = 10;
const MAX_DELAY_SECONDS = 300;

function messageOf(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).slice(0, 2000);
}

type Logger = { warn(obj: object, msg?: string): void; error(obj: object, msg?: string): void };

/** The embedded runner: jobs run on this process, one at a time per name, retried with backoff; the last 200 are kept for the operator. */
export class InProcessQueue implements JobQueue {
  readonly backend = 'in-process' as const;
  private readonly handlers = new Map<string, { handler: JobHandler; options: JobOptions }>();
  private readonly jobs: (JobView & { data: Record<string, unknown> })[] = [];
  private readonly running = new Map<string, Promise<void>>();
  private readonly timers = new Set<NodeJS.Timeout>();
  private isWorking = false;
  private isStopped = false;
  private nextId = 1;
  private readonly log: Logger;
  /** Scales retry waits (tests run with 0.01). */
  private readonly delayScale: number;

  constructor(log: Logger, delayScale = 1) {
    this.log = log;
    this.delayScale = delayScale;
  }

  define(name: string, handler: JobHandler, options: Partial<JobOptions> = {}): void {
    this.handlers.set(name, { handler, options: { ...DEFAULTS, ...options } });
  }

  async start(options: { isWorking: boolean }): Promise<void> {
    this.isWorking = options.isWorking;
    this.isStopped = false;
    for (const job of this.jobs) if (job.state === 'queued') this.pump(job.name);
  }

  async send(name: string, data: Record<string, unknown> = {}): Promise<void> {
    if (!this.handlers.has(name)) throw new Error(`no job named ${name}`);
    if (this.jobs.some((j) => j.name === name && (j.state === 'queued' || j.state === 'retry'))) return;
    const now = Date.now();
    this.jobs.push({ id: String(this.nextId++), name, state: 'queued', attempts: 0, last_error: null, created_at: now, updated_at: now, data });
    if (this.jobs.length > 200) {
      const done = this.jobs.findIndex((j) => j.state === 'completed' || j.state === 'failed');
      if (done >= 0) this.jobs.splice(done, 1);
    }
    this.pump(name);
  }

  async list(limit = 100): Promise<JobView[]> {
    return this.jobs
      .slice(-limit)
      .reverse()
      .map(({ data: _data, ...view }) => ({ ...view }));
  }

  async stop(): Promise<void> {
    this.isStopped = true;
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
    await Promise.all(this.running.values());
  }

  /** Waits until no job of this process is queued or running (tests). */
  async idle(): Promise<void> {
    while (this.running.size > 0) await Promise.all(this.running.values());
  }

  private pump(name: string): void {
    if (!this.isWorking || this.isStopped || this.running.has(name)) return;
    const job = this.jobs.find((j) => j.name === name && j.state === 'queued');
    if (!job) return;
    const definition = this.handlers.get(name)!;
    const run = (async () => {
      job.state = 'active';
      job.attempts += 1;
      job.updated_at = Date.now();
      try {
        await definition.handler(job.data);
        job.state = 'completed';
        job.last_error = null;
      } catch (error) {
        job.last_error = messageOf(error);
        if (job.attempts > definition.options.retryLimit) {
          job.state = 'failed';
          this.log.error({ err: error, job: name, attempts: job.attempts }, 'job failed for good');
        } else {
          job.state = 'retry';
          const seconds = Math.min(MAX_DELAY_SECONDS, definition.options.retryDelaySeconds * 2 ** (job.attempts - 1));
          this.log.warn({ err: error, job: name, attempts: job.attempts, retryInSeconds: seconds }, 'job failed; retrying');
          const timer = setTimeout(() => {
            this.timers.delete(timer);
            job.state = 'queued';
            this.pump(name);
          }, seconds * 1000 * this.delayScale);
          timer.unref();
          this.timers.add(timer);
        }
      }
      job.updated_at = Date.now();
    })().finally(() => {
      this.running.delete(name);
      this.pump(name);
    });
    this.running.set(name, run);
  }
}

/** The pg-boss schema of a DATABASE_URL: beside the schema its search_path names, else `pgboss`. */
export function jobsSchemaOf(databaseUrl: string): string {
  const options = new URL(databaseUrl).searchParams.get('options') ?? '';
  const schema = /search_path=([A-Za-z_][A-Za-z0-9_]*)/.exec(options)?.[1];
  return schema ? `${schema}_jobs` : 'pgboss';
}

const STATE_OF: Record<string, JobState> = { created: 'queued', retry: 'retry', active: 'active', completed: 'completed', cancelled: 'cancelled', failed: 'failed' };

/**
 * pg-boss on the deployment's PostgreSQL: the jobs live in their own schema, workers compete for them.
 * `Boss` is pg-boss's class (pgBossQueue loads it): pg-boss and what it pulls in (~6 MB of heap)
 * are loaded only by a process that uses it, not by the embedded default on SQLite.
 */
export async function pgBossQueue(databaseUrl: string, log: Logger, options: { isWorking: boolean }): Promise<PgBossQueue> {
  const { PgBoss } = await import('pg-boss');
  return new PgBossQueue(databaseUrl, log, options, PgBoss);
}

export class PgBossQueue implements JobQueue {
  readonly backend = 'pg-boss' as const;
  private readonly boss: PgBoss;
  private readonly schema: string;
  private readonly handlers = new Map<string, { handler: JobHandler; options: JobOptions }>();
  private readonly log: Logger;
  private isStarted = false;

  constructor(databaseUrl: string, log: Logger, options: { isWorking: boolean }, Boss: typeof PgBoss) {
    this.schema = jobsSchemaOf(databaseUrl);
    this.log = log;
    // An API replica neither supervises (maintenance) nor schedules: it sends and lists.
    this.boss = new Boss({ connectionString: databaseUrl, schema: this.schema, max: 4, supervise: options.isWorking, schedule: false, application_name: 'provena-jobs', superviseIntervalSeconds: 5, monitorIntervalSeconds: 5 });
    this.boss.on('error', (error: unknown) => this.log.warn({ err: error }, 'job queue error'));
  }

  define(name: string, handler: JobHandler, options: Partial<JobOptions> = {}): void {
    this.handlers.set(name, { handler, options: { ...DEFAULTS, ...options } });
  }

  async start(options: { isWorking: boolean }): Promise<void> {
    await this.boss.start();
    this.isStarted = true;
    for (const [name, { handler, options: o }] of this.handlers) {
      const existing = await this.boss.getQueue(name);
      // stately: at most one waiting and one running per name, across every worker.
      // A worker killed mid-job (SIGKILL, a lost machine) stops its heartbeats (work() refreshes
      // them every HEARTBEAT_SECONDS / 2): the supervisor fails and retries the job within
      // seconds. Without them the job stays active until it expires (30 min), and the stately
      // policy lets no other job of that name run meanwhile: no certificate after a failover.
      // createQueue sets the options only when it creates the queue: a database made by an
      // older release keeps the old ones (no heartbeats, say) unless they are written again.
      const queueOptions = { retryLimit: o.retryLimit, retryDelay: o.retryDelaySeconds, retryBackoff: true, retryDelayMax: MAX_DELAY_SECONDS, expireInSeconds: 30 * 60, heartbeatSeconds: HEARTBEAT_SECONDS };
      if (!existing) await this.boss.createQueue(name, { policy: 'stately', ...queueOptions });
      else await this.boss.updateQueue(name, queueOptions);
      if (options.isWorking) {
        await this.boss.work<Record<string, unknown>>(name, { pollingIntervalSeconds: 1, batchSize: 1 }, async (jobs) => {
          for (const job of jobs) await handler(job.data ?? {});
        });
      }
    }
  }

  async send(name: string, data: Record<string, unknown> = {}): Promise<void> {
    if (!this.isStarted) return;
    await this.boss.send(name, data);
  }

  async list(limit = 100): Promise<JobView[]> {
    if (!this.isStarted) return [];
    const { rows } = await this.boss
      .getDb()
      .executeSql(
        `select id, name, state, retry_count, output, created_on, coalesce(completed_on, started_on, created_on) as updated_on from ${this.schema}.job where name = any($1) order by created_on desc limit $2`,
        [[...this.handlers.keys()], limit],
      );
    return rows.map((r: { id: string; name: string; state: string; retry_count: number; output: unknown; created_on: Date; updated_on: Date }) => {
      const output = r.output as { message?: string } | null;
      const isFailure = r.state === 'failed' || r.state === 'retry';
      return {
        id: r.id,
        name: r.name,
        state: STATE_OF[r.state] ?? 'queued',
        attempts: Number(r.retry_count) + (r.state === 'created' ? 0 : 1),
        last_error: isFailure && output?.message ? String(output.message) : null,
        created_at: new Date(r.created_on).getTime(),
        updated_at: new Date(r.updated_on).getTime(),
      };
    });
  }

  async stop(): Promise<void> {
    if (!this.isStarted) return;
    this.isStarted = false;
    await this.boss.stop({ graceful: true, timeout: 8000 });
  }
}
