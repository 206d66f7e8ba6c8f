import pg from 'pg';

type Logger = { info(obj: object, msg?: string): void; warn(obj: object, msg?: string): void; error(obj: object, msg?: string): void };

/**
 * Exactly one sealer: the process that holds a PostgreSQL session advisory lock
 * on a dedicated connection is the leader. The lock dies with the connection, so a leader
 * killed with SIGKILL frees it as soon as PostgreSQL notices the closed socket (at once on a
 * local or TCP reset; keepalives otherwise); standbys try every `pollMs` and one of them takes
 * over. The key is per schema, so deployments (and test schemas) sharing a server do not
 * block each other. A leader that loses its connection stops sealing before anything else;
 * even a leader that has not noticed yet cannot fork the log (the block insert is fenced by
 * the height primary key and the unique parent, migration 0030).
 * Without PostgreSQL (the embedded SQLite default: one process) this process leads at once.
 */
export class Leadership {
  private client: pg.Client | null = null;
  private timer: NodeJS.Timeout | undefined;
  private isLeaderNow = false;
  private isStopped = false;
  private transition: Promise<void> = Promise.resolve();
  private readonly gained: (() => Promise<void>)[] = [];
  private readonly lost: (() => Promise<void>)[] = [];
  private readonly databaseUrl: string | undefined;
  private readonly log: Logger;
  private readonly pollMs: number;

  constructor(databaseUrl: string | undefined, log: Logger, pollMs = 1000) {
    this.databaseUrl = databaseUrl;
    this.log = log;
    this.pollMs = pollMs;
  }

  get isLeader(): boolean {
    return this.isLeaderNow;
  }

  /** Called (in order, awaited) when this process becomes the leader. */
  onGained(listener: () => Promise<void>): void {
    this.gained.push(listener);
  }

  /** Called when it stops being the leader (lost connection, shutdown). */
  onLost(listener: () => Promise<void>): void {
    this.lost.push(listener);
  }

  /** Tries once now (so a lone process leads from boot), then keeps trying while it is a standby. */
  async start(): Promise<void> {
    this.isStopped = false;
    await this.tryLead();
    this.timer = setInterval(() => void this.tryLead(), this.pollMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    this.isStopped = true;
    clearInterval(this.timer);
    await this.transition;
    await this.demote('shutting down');
    const client = this.client;
    this.client = null;
    await client?.end().catch(() => undefined);
  }

  private tryLead(): Promise<void> {
    const next = this.transition.then(async () => {
      if (this.isStopped) return;
      if (!this.databaseUrl) {
        if (!this.isLeaderNow) await this.promote();
        return;
      }
      try {
        if (!this.client) {
          const client = new pg.Client({ connectionString: this.databaseUrl, keepAlive: true, keepAliveInitialDelayMillis: 1000, application_name: 'provena-leader' });
          client.on('error', (error) => {
            this.log.warn({ err: error }, 'leader lock connection failed');
            if (this.client === client) this.client = null;
            void this.transition.then(() => this.demote('lock connection lost'));
          });
          await client.connect();
          this.client = client;
        }
        if (this.isLeaderNow) {
          // Still holding the lock? A broken connection throws here and demotes below.
          await this.client.query('select 1');
          return;
        }
        const { rows } = await this.client.query<{ ok: boolean }>("select pg_try_advisory_lock(1347571286, hashtext('provena-sealer:' || current_schema())) as ok");
        if (rows[0]?.ok) await this.promote();
      } catch (error) {
        this.log.warn({ err: error }, 'leader election round failed');
        const client = this.client;
        this.client = null;
        await client?.end().catch(() => undefined);
        await this.demote('lock connection lost');
      }
    });
    this.transition = next.catch(() => undefined);
    return this.transition;
  }

  private async promote(): Promise<void> {
    this.isLeaderNow = true;
    this.log.info({ pid: process.pid }, 'this process is the leader: sealing, anchoring and schedules run here');
    for (const listener of this.gained) {
      try {
        await listener();
      } catch (error) {
        this.log.error({ err: error }, 'starting the leader duties failed');
      }
    }
  }

  private async demote(reason: string): Promise<void> {
    if (!this.isLeaderNow) return;
    this.isLeaderNow = false;
    this.log.warn({ pid: process.pid, reason }, 'this process is no longer the leader');
    for (const listener of this.lost) await listener().catch(() => undefined);
  }
}
