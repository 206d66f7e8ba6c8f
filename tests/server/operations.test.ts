import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AddressInfo } from 'node:net';
import type http from 'node:http';
import { createHash } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { readEnv } from '../../server/env.ts';
import { readiness, startOpsServer } from '../../server/plugins/operations.ts';
import { startHarness, type Harness } from './harness.ts';

/**
 * Operations live on a port of their own (OPS_PORT): liveness, readiness (database and object
 * store) and Prometheus metrics there, nothing of it on the public port.
 */
let h: Harness;
let ops: http.Server;
let base: string;

beforeAll(async () => {
  h = await startHarness();
  await h.app.ledger.stop();
  ops = await startOpsServer(h.app, { port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(ops.address() as AddressInfo).port}`;
});
afterAll(async () => {
  ops?.close();
  await h?.close();
});

describe('the operations listener', () => {
  it('answers /healthz and /readyz with the database and the object store checked', async () => {
    expect(await (await fetch(`${base}/healthz`)).json()).toEqual({ status: 'ok' });
    const ready = await fetch(`${base}/readyz`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({ status: 'ready', checks: { database: 'ok', object_store: 'ok' } });
    expect((await fetch(`${base}/anything`)).status).toBe(404);
    expect((await fetch(`${base}/metrics`, { method: 'POST' })).status).toBe(405);
  });

  it('is not ready, naming what fails, when the object store does not answer', async () => {
    const stuck = { db: h.app.db, fileStore: { driver: { size: () => new Promise(() => {}) } } } as unknown as FastifyInstance;
    const r = await readiness(stuck);
    expect(r.isReady).toBe(false);
    expect(r.checks).toEqual({ database: 'ok', object_store: 'no answer within 2000 ms' });
  });

  it('exports request latency by route pattern and the ledger figures (entries, height, sealer lag, proof queue)', async () => {
    await h.app.inject({ method: 'GET', url: '/api/health' });
    await h.app.inject({ method: 'GET', url: '/api/v1/explorer/blocks/999999' });
    const sha = createHash('sha256').update(`ops ${Date.now()}`).digest('hex');
    await h.app.registerEntry({ fileHash: `0x${sha}.txt`, enterpriseName: '西安测试科技有限公司', registrantUserId: null, kind: 'file' });
    const before = await (await fetch(`${base}/metrics`)).text();
    expect(before).toMatch(/provena_http_request_duration_seconds_count\{route="\/api\/health",method="GET",status="200"\} 1/);
    // The route pattern, never the URL: no label per block height.
    expect(before).toMatch(/route="\/api\/v1\/explorer\/blocks\/:/);
    expect(before).not.toMatch(/route="[^"]*999999/);
    expect(before).toMatch(/^provena_ledger_entries 1$/m);
    expect(Number(/^provena_sealer_lag_seconds (\S+)$/m.exec(before)![1])).toBeGreaterThanOrEqual(0);
    expect(before).toMatch(/^provena_node_process_cpu_seconds_total /m);
    await h.app.ledger.sealNow();
    const after = await (await fetch(`${base}/metrics`)).text();
    expect(after).toMatch(/^provena_ledger_height 1$/m);
    expect(after).toMatch(/^provena_sealer_lag_seconds 0$/m);
    expect(after).toMatch(/^provena_proof_queue_depth 1$/m);
    // The embedded process leads (sealer, anchoring, schedules).
    expect(after).toMatch(/^provena_is_leader 1$/m);
  });

  it('is not on the public port', async () => {
    for (const url of ['/healthz', '/readyz', '/metrics']) {
      const r = await h.app.inject({ method: 'GET', url });
      expect(r.statusCode, url).not.toBe(200);
      expect(r.body).not.toContain('provena_http_request_duration_seconds');
    }
  });

  it('OPS_PORT is validated and must differ from PORT; unset means off', () => {
    expect(readEnv({ PORT: '8080' }).ops).toBeNull();
    expect(readEnv({ PORT: '8080', OPS_PORT: '9464' }).ops).toEqual({ port: 9464, host: '127.0.0.1' });
    expect(readEnv({ PORT: '8080', OPS_PORT: '9464', OPS_HOST: '0.0.0.0' }).ops).toEqual({ port: 9464, host: '0.0.0.0' });
    expect(() => readEnv({ PORT: '8080', OPS_PORT: '8080' })).toThrow(/OPS_PORT must differ from PORT/);
    expect(() => readEnv({ PORT: '8080', OPS_PORT: 'x' })).toThrow(/OPS_PORT must be an integer/);
  });
});
