import http from 'node:http';
import fp from 'fastify-plugin';
import { sql } from 'kysely';
import type { FastifyInstance } from 'fastify';
import { Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import { PROOF_STATUS } from '../proofs/jobs.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** This app's Prometheus registry (one per app, so that tests can run several). */
    metrics: Registry;
  }
}

/**
 * Operations: request latency histograms and the ledger's own figures in a Prometheus registry,
 * served with /healthz and /readyz by startOpsServer on OPS_PORT, a listener of its own, so
 * that nothing operational answers on the public port.
 */
export default fp(async function operationsPlugin(app: FastifyInstance) {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: 'provena_node_' });
  const latency = new Histogram({
    name: 'provena_http_request_duration_seconds',
    help: 'HTTP request latency by route (the route pattern, not the URL), method and status',
    labelNames: ['route', 'method', 'status'],
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  app.addHook('onResponse', async (request, reply) => {
    latency.observe({ route: request.routeOptions.url ?? 'unmatched', method: request.method, status: String(reply.statusCode) }, reply.elapsedTime / 1000);
  });
  // app.db is decorated by a plugin registered after this one (this one must see every route): read it at scrape time.
  new Gauge({
    name: 'provena_ledger_entries',
    help: 'Registrations in the ledger (sealed or waiting)',
    registers: [registry],
    async collect() {
      const r = await app.db.selectFrom('ledger_entries').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
      this.set(Number(r.n));
    },
  });
  new Gauge({
    name: 'provena_ledger_height',
    help: 'Height of the newest sealed block',
    registers: [registry],
    async collect() {
      const r = await app.db.selectFrom('ledger_blocks').select((eb) => eb.fn.max('height').as('h')).executeTakeFirst();
      this.set(Number(r?.h ?? 0));
    },
  });
  new Gauge({
    name: 'provena_sealer_lag_seconds',
    help: 'Age of the oldest registration not yet sealed into a block (0 when none waits)',
    registers: [registry],
    async collect() {
      const r = await app.db.selectFrom('ledger_entries').select((eb) => eb.fn.min('registered_at').as('t')).where('leaf_index', 'is', null).executeTakeFirst();
      this.set(r?.t === null || r?.t === undefined ? 0 : Math.max(0, (Date.now() - Number(r.t)) / 1000));
    },
  });
  new Gauge({
    name: 'provena_proof_queue_depth',
    help: 'Certificates waiting to be rendered',
    registers: [registry],
    async collect() {
      // Entries waiting for their block have no proofs row yet (it comes with the block), or a
      // status-1 row when registered before migration 0043: counted once, as waiting entries.
      const r = await app.db.selectFrom('proofs').select((eb) => eb.fn.countAll<number>().as('n')).where('status', '>', PROOF_STATUS.registered).where('status', '<', PROOF_STATUS.generated).executeTakeFirstOrThrow();
      const waiting = await app.db.selectFrom('ledger_entries').select((eb) => eb.fn.countAll<number>().as('n')).where('leaf_index', 'is', null).executeTakeFirstOrThrow();
      this.set(Number(r.n) + Number(waiting.n));
    },
  });
  new Gauge({
    name: 'provena_anchor_lag_seconds',
    help: 'Time since the newest checkpoint anchor reached the chain (absent when the platform does not anchor)',
    registers: [registry],
    async collect() {
      const r = await app.db.selectFrom('ledger_checkpoint_anchors').select((eb) => eb.fn.max('anchored_at').as('t')).executeTakeFirst();
      if (r?.t !== null && r?.t !== undefined) this.set(Math.max(0, (Date.now() - Number(r.t)) / 1000));
    },
  });
  new Gauge({
    name: 'provena_is_leader',
    help: 'Whether this process holds the leader lock (sealer, anchoring, schedules): 1 or 0; API replicas never do',
    registers: [registry],
    collect() {
      this.set(app.hasDecorator('leadership') && app.leadership.isLeader ? 1 : 0);
    },
  });
  app.decorate('metrics', registry);
});

type Probe = { name: string; run: () => Promise<unknown> };

async function within<T>(ms: number, work: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([work, new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms)))]);
  } finally {
    clearTimeout(timer);
  }
}

/** What /readyz asks: the database answers, the object store answers. */
export async function readiness(app: FastifyInstance): Promise<{ isReady: boolean; checks: Record<string, string> }> {
  const probes: Probe[] = [
    { name: 'database', run: () => sql`select 1 as one`.execute(app.db) },
    { name: 'object_store', run: () => app.fileStore.driver.size('readyz/probe') },
  ];
  const checks: Record<string, string> = {};
  await Promise.all(
    probes.map(async (p) => {
      try {
        await within(2000, p.run());
        checks[p.name] = 'ok';
      } catch (error) {
        checks[p.name] = error instanceof Error ? error.message : String(error);
      }
    }),
  );
  return { isReady: Object.values(checks).every((c) => c === 'ok'), checks };
}

/**
 * The operations listener: GET /healthz (the process answers), GET /readyz (200 when the
 * database and the object store answer, 503 naming what does not), GET /metrics (Prometheus
 * text). A plain node:http server on its own port; the caller closes it before the app.
 */
export async function startOpsServer(app: FastifyInstance, where: { port: number; host: string }): Promise<http.Server> {
  const server = http.createServer((req, res) => {
    const send = (status: number, type: string, body: string) => res.writeHead(status, { 'content-type': type, 'cache-control': 'no-store' }).end(body);
    const url = new URL(req.url ?? '/', 'http://ops');
    if (req.method !== 'GET') return send(405, 'text/plain', 'method not allowed\n');
    if (url.pathname === '/healthz') return send(200, 'application/json', '{"status":"ok"}\n');
    if (url.pathname === '/readyz') {
      void readiness(app).then((r) => send(r.isReady ? 200 : 503, 'application/json', `${JSON.stringify({ status: r.isReady ? 'ready' : 'not_ready', checks: r.checks })}\n`));
      return;
    }
    if (url.pathname === '/metrics') {
      void app.metrics.metrics().then(
        (text) => send(200, app.metrics.contentType, text),
        (error: unknown) => send(500, 'text/plain', `metrics failed: ${error instanceof Error ? error.message : String(error)}\n`),
      );
      return;
    }
    send(404, 'text/plain', 'not found\n');
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(where.port, where.host, () => resolve());
  });
  return server;
}
