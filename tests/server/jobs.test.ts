import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PgBoss } from 'pg-boss';
import { InProcessQueue, PgBossQueue, jobsSchemaOf } from '../../server/jobs/queue.ts';
import { Leadership } from '../../server/jobs/leader.ts';
import { startHarness, type Harness } from './harness.ts';
import { operatorCookie } from './credit-helpers.ts';
import { ownerWithEnterprise } from './enterprise-helpers.ts';
import { creditsForAssets, registerAsset } from './credit-helpers.ts';
import { randomBytes } from 'node:crypto';

const quiet = { info() {}, warn() {}, error() {} };
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('the in-process job runner (embedded default)', () => {
  it('retries a failing job with growing waits, keeps state, attempts and the last error, and gives up after the limit', async () => {
    const waits: number[] = [];
    const q = new InProcessQueue({ ...quiet, warn: (obj: object) => void waits.push((obj as { retryInSeconds: number }).retryInSeconds) }, 0.01);
    const attempts: number[] = [];
    q.define(
      'flaky',
      async () => {
        attempts.push(Date.now());
        if (attempts.length < 3) throw new Error(`attempt ${attempts.length} failed`);
      },
      { retryLimit: 5, retryDelaySeconds: 2 },
    );
    q.define('broken', async () => Promise.reject(new Error('always broken')), { retryLimit: 1, retryDelaySeconds: 1 });
    await q.start({ isWorking: true });
    await q.send('flaky');
    await q.send('broken');
    for (let i = 0; i < 100 && (await q.list()).some((j) => j.state !== 'completed' && j.state !== 'failed'); i++) await sleep(20);
    const jobs = await q.list();
    const flaky = jobs.find((j) => j.name === 'flaky')!;
    expect(flaky).toMatchObject({ state: 'completed', attempts: 3, last_error: null });
    // Exponential backoff: 2 s, then 4 s (run here at a hundredth of that); the broken job waits 1 s once.
    expect(waits.sort((a, b) => a - b)).toEqual([1, 2, 4]);
    expect(jobs.find((j) => j.name === 'broken')).toMatchObject({ state: 'failed', attempts: 2, last_error: 'always broken' });
    await q.stop();
  });

  it('coalesces requests: one job waits at most per name while one runs', async () => {
    const q = new InProcessQueue(quiet);
    let runs = 0;
    let release!: () => void;
    q.define('slow', async () => {
      runs += 1;
      await new Promise<void>((r) => (release = r));
    });
    await q.start({ isWorking: true });
    await q.send('slow');
    await sleep(10);
    for (let i = 0; i < 5; i++) await q.send('slow');
    expect((await q.list()).map((j) => j.state).sort()).toEqual(['active', 'queued']);
    release();
    await sleep(20);
    release();
    await q.idle();
    expect(runs).toBe(2);
    await q.stop();
  });

  it('a replica that does not work keeps jobs waiting', async () => {
    const q = new InProcessQueue(quiet);
    let runs = 0;
    q.define('x', async () => void (runs += 1));
    await q.start({ isWorking: false });
    await q.send('x');
    await sleep(20);
    expect(runs).toBe(0);
    expect((await q.list())[0]!.state).toBe('queued');
  });

  it('names the pg-boss schema after the search_path schema', () => {
    expect(jobsSchemaOf('postgres://u@h/db?options=-c%20search_path%3Dt_abc')).toBe('t_abc_jobs');
    expect(jobsSchemaOf('postgres://u@h/db')).toBe('pgboss');
  });

  it('leads at once without PostgreSQL (one process)', async () => {
    const l = new Leadership(undefined, quiet);
    const events: string[] = [];
    l.onGained(async () => void events.push('gained'));
    l.onLost(async () => void events.push('lost'));
    await l.start();
    expect(l.isLeader).toBe(true);
    await l.stop();
    expect(events).toEqual(['gained', 'lost']);
  });
});

const pgUrl = process.env.TEST_DATABASE_URL;

describe.skipIf(!pgUrl)('pg-boss queues (PostgreSQL)', () => {
  it('a queue created by an older release gets the current options (heartbeats, backoff) on start', { timeout: 60_000 }, async () => {
    const schema = `t_${randomBytes(4).toString('hex')}`;
    const url = `${pgUrl}${pgUrl!.includes('?') ? '&' : '?'}options=${encodeURIComponent(`-c search_path=${schema}`)}`;
    // What an older release left behind: the queue without heartbeats or backoff.
    const old = new PgBoss({ connectionString: url, schema: jobsSchemaOf(url), supervise: false, schedule: false });
    await old.start();
    await old.createQueue('proofs.render', { policy: 'stately', retryLimit: 1 });
    expect((await old.getQueue('proofs.render'))?.heartbeatSeconds ?? null).toBeNull();
    const q = new PgBossQueue(url, quiet, { isWorking: false }, PgBoss);
    q.define('proofs.render', async () => {});
    await q.start({ isWorking: false });
    const now = await old.getQueue('proofs.render');
    expect(now).toMatchObject({ policy: 'stately', heartbeatSeconds: 10, retryLimit: 5, retryBackoff: true });
    await q.stop();
    await old.stop({ graceful: false });
  });
});

describe('jobs in the platform', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(async () => h?.close());

  it('certificates are a job: after a registration is sealed the job renders it; the operator sees the job, outsiders do not', { timeout: 60_000 }, async () => {
    expect(h.app.leadership.isLeader).toBe(true);
    const owner = await ownerWithEnterprise(h, '作业可见有限公司');
    await creditsForAssets(h, owner, owner, 1);
    const a = await registerAsset(h, owner, `0x${randomBytes(32).toString('hex')}.txt`);
    await h.app.ledger.sealNow();
    // The sealed block asked for the certificate job; it renders without anyone calling drain().
    for (let i = 0; i < 300; i++) {
      const proof = await h.app.db.selectFrom('proofs').select('status').where('dna', '=', a.asset_dna).executeTakeFirstOrThrow();
      if (proof.status >= 5) break;
      await sleep(100);
    }
    expect((await h.app.db.selectFrom('proofs').select('status').where('dna', '=', a.asset_dna).executeTakeFirstOrThrow()).status).toBeGreaterThanOrEqual(5);

    expect((await h.request({ method: 'GET', url: '/api/v1/operator/jobs' })).statusCode).toBe(403);
    expect((await h.request({ method: 'GET', url: '/api/v1/operator/jobs', cookie: owner.cookie })).statusCode).toBe(403);
    const cookie = await operatorCookie(h);
    const res = await h.request({ method: 'GET', url: '/api/v1/operator/jobs', cookie });
    expect(res.statusCode, res.body).toBe(200);
    const data = res.json().data as { backend: string; items: { name: string; state: string; attempts: number }[] };
    expect(data.backend).toBe('in-process');
    expect(data.items.some((j) => j.name === 'proofs.render' && j.state === 'completed' && j.attempts === 1)).toBe(true);
    // Each job whole (the response schema keeps every field): the last error is null until one fails.
    expect(data.items.find((j) => j.state === 'completed')).toEqual({ id: expect.any(String), name: expect.any(String), state: 'completed', attempts: expect.any(Number), last_error: null, created_at: expect.any(Number), updated_at: expect.any(Number) });
    expect((await h.request({ method: 'GET', url: '/api/v1/operator/jobs?limit=0', cookie })).statusCode).toBe(400);
  });

  it('housekeeping is a scheduled job: the leader asks for it after it starts leading, and it sweeps expired sessions and spent codes', { timeout: 60_000 }, async () => {
    // Asked for by the leader's schedule, about 5 s after it started leading.
    let scheduled = false;
    for (let i = 0; i < 200 && !scheduled; i++) {
      scheduled = (await h.app.jobs.list()).some((j) => j.name === 'cleanup.sessions' && j.state === 'completed');
      if (!scheduled) await sleep(100);
    }
    expect(scheduled).toBe(true);
    const cookie = await h.register('13700009911');
    const token = decodeURIComponent(/=([^;]+)/.exec(cookie)![1]!);
    const long = Date.now() - 2 * 24 * 60 * 60 * 1000;
    await h.app.db.updateTable('sessions').set({ expires_at: Date.now() - 1000 }).execute();
    await h.app.db.updateTable('sms_codes').set({ expires_at: long }).execute();
    const before = Number((await h.app.db.selectFrom('sessions').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
    expect(before).toBeGreaterThan(0);
    expect(await h.app.sessions.find(token)).toBeNull(); // expired: refused already, kept until swept
    const runs = (await h.app.jobs.list()).filter((j) => j.name === 'cleanup.sessions').length;
    await h.app.jobs.send('cleanup.sessions');
    for (let i = 0; i < 100 && (await h.app.jobs.list()).filter((j) => j.name === 'cleanup.sessions' && j.state === 'completed').length <= runs; i++) await sleep(50);
    expect(Number((await h.app.db.selectFrom('sessions').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n)).toBe(0);
    expect(Number((await h.app.db.selectFrom('sms_codes').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n)).toBe(0);
  });
});
