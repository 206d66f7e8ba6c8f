/**
 * Application monitoring: one scheduler for every application (not a timer per
 * application) computes each one's §4 state from what arrived, records every transition with
 * its reason, raises one alarm per transition to abnormal or interrupted and one on recovery
 * (reminders only at the configured cadence while unacknowledged), and delivers alarms by
 * SMS through the platform's SMS provider and by signed webhooks with retries and backoff,
 * each attempt in the delivery log.
 *
 * A transition is written with a conditional update (`where state = <old>`), so two server
 * processes ticking at once record it, and alarm it, once.
 */
import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import { sql } from 'kysely';
import type { Db } from '../db/database.ts';
import type { Keyring } from '../keys/keyring.ts';
import type { SmsProvider } from './sms-providers.ts';
import { openKeySecret, purgeNonces } from './applications.ts';
import { signedHeaders, type ApplicationState } from '../../core/applications.ts';
import { webhookPoster, type WebhookPost } from './webhook-post.ts';

export type MonitorSettings = {
  tickMs: number;
  /** The window over which the error rate is measured. */
  errorWindowSeconds: number;
  /** Abnormal when at least `errorMin` requests failed and failures are at least this share of the window's requests. */
  errorRate: number;
  errorMin: number;
  /** Reminder cadence while an alarm stays unacknowledged and the state unchanged; 0: no reminders. */
  reminderMinutes: number;
  /** Waits between webhook (and SMS) delivery attempts; after the last the delivery is failed. */
  retrySeconds: number[];
};

// Detection of an interruption is due within interval + grace + 5 s: a tick of 3 s leaves the
// pass two seconds (10 000 applications falling silent at once took 0.96 s on PostgreSQL and
// 0.23 s on SQLite: bench:applications' monitoring figure); a pass with no change takes 15 ms.
const DEFAULTS: MonitorSettings = { tickMs: 3000, errorWindowSeconds: 600, errorRate: 0.5, errorMin: 3, reminderMinutes: 60, retrySeconds: [10, 60, 300, 1800, 7200] };

/** APPLICATION_MONITOR_TICK_MS, APPLICATION_ERROR_WINDOW_SECONDS, APPLICATION_ERROR_RATE, APPLICATION_ERROR_MIN, APPLICATION_ALARM_REMINDER_MINUTES, APPLICATION_ALARM_RETRY_SECONDS. */
export function readMonitorSettings(source: NodeJS.ProcessEnv = process.env): MonitorSettings {
  const problems: string[] = [];
  const num = (name: string, fallback: number, min: number, max: number, isInteger = true) => {
    const text = source[name];
    if (text === undefined || text === '') return fallback;
    const n = Number(text);
    if (!Number.isFinite(n) || n < min || n > max || (isInteger && !Number.isInteger(n))) problems.push(`${name} must be a ${isInteger ? 'whole ' : ''}number from ${min} to ${max}, got "${text}"`);
    return n;
  };
  const settings: MonitorSettings = {
    tickMs: num('APPLICATION_MONITOR_TICK_MS', DEFAULTS.tickMs, 100, 60_000),
    errorWindowSeconds: num('APPLICATION_ERROR_WINDOW_SECONDS', DEFAULTS.errorWindowSeconds, 60, 86_400),
    errorRate: num('APPLICATION_ERROR_RATE', DEFAULTS.errorRate, 0.01, 1, false),
    errorMin: num('APPLICATION_ERROR_MIN', DEFAULTS.errorMin, 1, 10_000),
    reminderMinutes: num('APPLICATION_ALARM_REMINDER_MINUTES', DEFAULTS.reminderMinutes, 0, 7 * 24 * 60),
    retrySeconds: DEFAULTS.retrySeconds,
  };
  const retry = source.APPLICATION_ALARM_RETRY_SECONDS;
  if (retry) {
    const parts = retry.split(',').map((p) => Number(p.trim()));
    if (parts.length > 10 || !parts.every((p) => Number.isInteger(p) && p >= 0 && p <= 86_400)) problems.push(`APPLICATION_ALARM_RETRY_SECONDS must be up to 10 comma-separated waits in seconds, got "${retry}"`);
    else settings.retrySeconds = parts;
  }
  if (problems.length) throw new Error(problems.join('; '));
  return settings;
}

export type StateInput = { lastSeenAt: number | null; intervalSeconds: number; graceSeconds: number; errors: number; requests: number };

/**
 * The §4 state from what arrived. Interrupted when nothing signed arrived within interval +
 * grace (checked first: a silent application is not "normal" because its last minutes were
 * clean); abnormal when the window's failures (bad signatures, replays, refused
 * registrations) reach `errorMin` and `errorRate` of its requests; normal otherwise.
 */
export function computeState(input: StateInput, now: number, settings: Pick<MonitorSettings, 'errorRate' | 'errorMin'>): { state: ApplicationState; reason: string } {
  const total = input.errors + input.requests;
  const isErrorRateHigh = input.errors >= settings.errorMin && total > 0 && input.errors / total >= settings.errorRate;
  if (input.lastSeenAt === null) return isErrorRateHigh ? { state: 'abnormal', reason: `errors:${input.errors}/${total}` } : { state: 'not_connected', reason: 'never_seen' };
  const silentSeconds = Math.floor((now - input.lastSeenAt) / 1000);
  if (now - input.lastSeenAt > (input.intervalSeconds + input.graceSeconds) * 1000) return { state: 'interrupted', reason: `silence:${silentSeconds}` };
  if (isErrorRateHigh) return { state: 'abnormal', reason: `errors:${input.errors}/${total}` };
  return { state: 'normal', reason: 'receiving' };
}

type AlarmKind = 'abnormal' | 'interrupted' | 'recovered' | 'reminder';

export function alarmKindFor(from: ApplicationState, to: ApplicationState): AlarmKind | null {
  if (to === 'abnormal' || to === 'interrupted') return to;
  if (to === 'normal' && (from === 'abnormal' || from === 'interrupted')) return 'recovered';
  return null;
}

const TRANSITIONS_PER_TRANSACTION = 500;
const DELIVERY_CONCURRENCY = 8;

type DueDelivery = { id: number; channel: string; target: string; attempts: number; alarm_id: number; kind: string; state: string; reason: string; alarm_at: number; application_id: number; name: string };

const STATE_TEXT: Record<ApplicationState, string> = { not_connected: '未连接', normal: '正常', abnormal: '异常', interrupted: '数据中断' };

export class ApplicationMonitor {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> = Promise.resolve();
  readonly settings: MonitorSettings;
  private readonly db: Db;
  private readonly keyring: Keyring;
  private readonly sms: SmsProvider;
  private readonly log: FastifyBaseLogger;
  /** Where webhooks go: to public addresses only, unless the deployment allows private ones (webhook-post.ts). */
  private readonly post: WebhookPost;

  constructor(opts: { db: Db; keyring: Keyring; sms: SmsProvider; log: FastifyBaseLogger; settings: MonitorSettings; post?: WebhookPost; allowPrivateWebhooks?: boolean }) {
    this.db = opts.db;
    this.keyring = opts.keyring;
    this.sms = opts.sms;
    this.log = opts.log;
    this.settings = opts.settings;
    this.post = opts.post ?? webhookPoster({ allowPrivate: opts.allowPrivateWebhooks ?? false });
  }

  start(): void {
    if (this.timer) return;
    this.timer = setInterval(() => void this.tick(), this.settings.tickMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.running.catch(() => undefined);
    await this.delivering?.catch(() => undefined);
  }

  /**
   * One pass: states and reminders, then the due deliveries. Passes are serialised; deliveries
   * run beside them, one run at a time, so a webhook receiver that takes its full timeout to
   * answer never holds the next pass (detection is due within interval + grace + 5 s). The
   * promise settles when both are done; `now` is injectable for tests with a fake clock.
   */
  tick(now = Date.now()): Promise<void> {
    const pass = this.running.catch(() => undefined).then(() => this.pass(now));
    this.running = pass.catch((error: unknown) => this.log.warn({ err: error }, 'application monitor pass failed'));
    const delivery = this.running.then(() => this.deliverOnce(now));
    return Promise.all([pass, delivery]).then(() => undefined);
  }

  private async pass(now: number): Promise<void> {
    await this.evaluate(now);
    await this.remind(now);
    if (Math.floor(now / this.settings.tickMs) % 60 === 0) await purgeNonces(this.db, now);
  }

  private delivering: Promise<void> | null = null;

  /** The due deliveries, unless a run is still going (its successor picks up what is left). */
  private deliverOnce(now: number): Promise<void> {
    if (this.delivering) return this.delivering;
    const run = this.deliver(now)
      .catch((error: unknown) => this.log.warn({ err: error }, 'application alarm deliveries failed'))
      .finally(() => {
        this.delivering = null;
      });
    this.delivering = run;
    return run;
  }

  async evaluate(now: number): Promise<number> {
    const apps = await this.db
      .selectFrom('applications')
      .select(['id', 'state', 'last_seen_at', 'interval_seconds', 'grace_seconds'])
      .where('deleted_at', 'is', null)
      .where('is_paused', '=', 0)
      .execute();
    if (!apps.length) return 0;
    const since = Math.floor((now - this.settings.errorWindowSeconds * 1000) / 60_000) * 60_000;
    const stats = await this.db
      .selectFrom('application_stats')
      .select([
        'application_id',
        (eb) => eb.fn.sum<number>(eb('refusals', '+', eb.ref('signature_failures'))).as('errors'),
        (eb) => eb.fn.sum<number>(eb('registrations', '+', eb.ref('heartbeats'))).as('requests'),
      ])
      .where('minute', '>=', since)
      .groupBy('application_id')
      .execute();
    const statsOf = new Map(stats.map((s) => [Number(s.application_id), { errors: Number(s.errors ?? 0), requests: Number(s.requests ?? 0) }]));
    const changes: Array<{ id: number; from: ApplicationState; to: ApplicationState; reason: string }> = [];
    for (const a of apps) {
      const s = statsOf.get(Number(a.id)) ?? { errors: 0, requests: 0 };
      const next = computeState({ lastSeenAt: a.last_seen_at === null ? null : Number(a.last_seen_at), intervalSeconds: Number(a.interval_seconds), graceSeconds: Number(a.grace_seconds), ...s }, now, this.settings);
      if (next.state !== a.state) changes.push({ id: Number(a.id), from: a.state as ApplicationState, to: next.state, reason: next.reason });
    }
    // Many applications can change in one pass (a network outage silences them all): five
    // set-based statements per chunk of 500, not five round trips per application (10 000
    // transitions took 7.6 s on PostgreSQL that way), and the event loop gets a turn between
    // transactions (SQLite runs on it).
    let transitions = 0;
    for (let i = 0; i < changes.length; i += TRANSITIONS_PER_TRANSACTION) {
      if (i > 0) await new Promise((resolve) => setImmediate(resolve));
      const chunk = changes.slice(i, i + TRANSITIONS_PER_TRANSACTION);
      transitions += await this.db.transaction().execute((trx) => this.transitions(trx, chunk, now));
    }
    return transitions;
  }

  /**
   * A chunk of transitions in the pass's transaction. Each application's row is updated only
   * where its state is still the one the pass read (`where state = <old>`): one that another
   * process moved first is left out of everything that follows, so it is recorded and alarmed once.
   */
  private async transitions(trx: Db, chunk: ReadonlyArray<{ id: number; from: ApplicationState; to: ApplicationState; reason: string }>, now: number): Promise<number> {
    const byFrom = new Map<ApplicationState, typeof chunk[number][]>();
    for (const c of chunk) {
      const group = byFrom.get(c.from);
      if (group) group.push(c);
      else byFrom.set(c.from, [c]);
    }
    const moved = new Set<number>();
    for (const [from, rows] of byFrom) {
      const caseOf = (pick: (c: typeof chunk[number]) => string) => sql<string>`case ${sql.ref('id')} ${sql.join(rows.map((c) => sql`when ${c.id} then ${pick(c)}`), sql` `)} end`;
      const updated = await trx
        .updateTable('applications')
        .set({ state: caseOf((c) => c.to), state_reason: caseOf((c) => c.reason), state_since: now })
        .where('state', '=', from)
        .where('id', 'in', rows.map((c) => c.id))
        .returning('id')
        .execute();
      for (const u of updated) moved.add(Number(u.id));
    }
    const done = chunk.filter((c) => moved.has(c.id));
    if (!done.length) return 0;
    const recorded = await trx
      .insertInto('application_transitions')
      .values(done.map((c) => ({ application_id: c.id, from_state: c.from, to_state: c.to, reason: c.reason, at: now })))
      .returning(['id', 'application_id'])
      .execute();
    const transitionOf = new Map(recorded.map((t) => [Number(t.application_id), Number(t.id)]));
    const alarmed = done.flatMap((c) => {
      const kind = alarmKindFor(c.from, c.to);
      return kind ? [{ applicationId: c.id, transitionId: transitionOf.get(c.id) ?? null, kind, state: c.to, reason: c.reason }] : [];
    });
    await this.raiseMany(trx, alarmed, now);
    return done.length;
  }

  private raise(trx: Db, applicationId: number, transitionId: number | null, kind: AlarmKind, state: ApplicationState, reason: string, now: number): Promise<void> {
    return this.raiseMany(trx, [{ applicationId, transitionId, kind, state, reason }], now);
  }

  /** Alarms (at most one per application per call) and a pending delivery for each of their applications' phones and webhooks. */
  private async raiseMany(trx: Db, alarms: ReadonlyArray<{ applicationId: number; transitionId: number | null; kind: AlarmKind; state: ApplicationState; reason: string }>, now: number): Promise<void> {
    if (!alarms.length) return;
    const apps = await trx.selectFrom('applications').select(['id', 'alarm_phones', 'webhook_urls']).where('id', 'in', alarms.map((a) => a.applicationId)).execute();
    const targetsOf = new Map(apps.map((app) => [Number(app.id), [...(JSON.parse(app.alarm_phones) as string[]).map((t) => ({ channel: 'sms', target: t })), ...(JSON.parse(app.webhook_urls) as string[]).map((t) => ({ channel: 'webhook', target: t }))]]));
    const inserted = await trx
      .insertInto('application_alarms')
      .values(alarms.map((a) => ({ application_id: a.applicationId, transition_id: a.transitionId, kind: a.kind, state: a.state, reason: a.reason, created_at: now, acknowledged_at: null, acknowledged_by: null })))
      .returning(['id', 'application_id'])
      .execute();
    const deliveries = inserted.flatMap((alarm) => (targetsOf.get(Number(alarm.application_id)) ?? []).map((t) => ({ alarm_id: Number(alarm.id), channel: t.channel, target: t.target, status: 'pending', next_attempt_at: now, response_status: null, delivered_at: null, created_at: now })));
    for (let i = 0; i < deliveries.length; i += 1000) await trx.insertInto('application_deliveries').values(deliveries.slice(i, i + 1000)).execute();
  }

  /** A reminder when the state is still abnormal or interrupted, its last alarm unacknowledged and older than the cadence. */
  private async remind(now: number): Promise<void> {
    if (this.settings.reminderMinutes <= 0) return;
    const cadence = this.settings.reminderMinutes * 60_000;
    const apps = await this.db.selectFrom('applications').select(['id', 'state', 'state_reason']).where('deleted_at', 'is', null).where('is_paused', '=', 0).where('state', 'in', ['abnormal', 'interrupted']).execute();
    for (const a of apps) {
      const last = await this.db.selectFrom('application_alarms').select(['created_at', 'acknowledged_at', 'state']).where('application_id', '=', a.id).orderBy('id', 'desc').limit(1).executeTakeFirst();
      if (!last || last.acknowledged_at !== null || last.state !== a.state || now - Number(last.created_at) < cadence) continue;
      await this.db.transaction().execute((trx) => this.raise(trx, Number(a.id), null, 'reminder', a.state as ApplicationState, a.state_reason, now));
    }
  }

  async deliver(now: number): Promise<void> {
    const due: DueDelivery[] = await this.db
      .selectFrom('application_deliveries as d')
      .innerJoin('application_alarms as al', 'al.id', 'd.alarm_id')
      .innerJoin('applications as a', 'a.id', 'al.application_id')
      .select(['d.id', 'd.channel', 'd.target', 'd.attempts', 'al.id as alarm_id', 'al.kind', 'al.state', 'al.reason', 'al.created_at as alarm_at', 'a.id as application_id', 'a.name'])
      .where('d.status', '=', 'pending')
      .where('d.next_attempt_at', '<=', now)
      .orderBy('d.id')
      .limit(200)
      .execute();
    // A few at a time: one slow receiver does not hold the others.
    const queue = [...due];
    await Promise.all(
      Array.from({ length: Math.min(DELIVERY_CONCURRENCY, queue.length) }, async () => {
        for (let d = queue.shift(); d; d = queue.shift()) await this.deliverOne(d, now);
      }),
    );
  }

  private async deliverOne(d: DueDelivery, now: number): Promise<void> {
    let error = '';
    let status: number | null = null;
    try {
      if (d.channel === 'sms') {
        await this.sms.send({
          id: randomUUID(),
          phone: d.target,
          type: 20,
          template: 'alarm',
          params: { application: d.name, state: d.state },
          text: d.kind === 'recovered' ? `【Provena】应用「${d.name}」已恢复正常。` : `【Provena】应用「${d.name}」状态${STATE_TEXT[d.state as ApplicationState] ?? d.state}，请及时处理。`,
        });
      } else {
        const body = JSON.stringify({ id: `alarm_${d.alarm_id}`, type: `application.${d.kind}`, application_id: Number(d.application_id), application_name: d.name, state: d.state, reason: d.reason, at: Number(d.alarm_at) });
        const url = new URL(d.target);
        const headers = await this.signatureHeaders(Number(d.application_id), url.pathname + url.search, body, now);
        status = (await this.post(d.target, { body, headers: { 'content-type': 'application/json', 'webhook-id': `alarm_${d.alarm_id}`, ...headers } })).status;
        if (status < 200 || status >= 300) error = `HTTP ${status}`;
      }
    } catch (e) {
      error = (e as Error).message.slice(0, 300) || 'failed';
    }
    const attempts = Number(d.attempts) + 1;
    if (!error) {
      await this.db.updateTable('application_deliveries').set({ status: 'delivered', attempts, delivered_at: now, response_status: status, last_error: '' }).where('id', '=', d.id).execute();
      return;
    }
    const wait = this.settings.retrySeconds[attempts - 1];
    await this.db
      .updateTable('application_deliveries')
      .set({ attempts, last_error: error, response_status: status, ...(wait === undefined ? { status: 'failed' } : { next_attempt_at: now + wait * 1000 }) })
      .where('id', '=', d.id)
      .execute();
    this.log.warn({ delivery: Number(d.id), channel: d.channel, attempts, error }, 'application alarm delivery failed');
  }

  /** The open API's signature headers, by the application's newest active key (a receiver checks them with the same code). */
  private async signatureHeaders(applicationId: number, path: string, body: string, now: number): Promise<Record<string, string>> {
    const key = await this.db.selectFrom('application_keys').select(['key_id', 'sealed_secret']).where('application_id', '=', applicationId).where('revoked_at', 'is', null).orderBy('created_at', 'desc').executeTakeFirst();
    if (!key) return {};
    const secret = await openKeySecret(this.keyring, key.key_id, key.sealed_secret);
    return signedHeaders(key.key_id, secret, { method: 'POST', path, body, now });
  }
}
