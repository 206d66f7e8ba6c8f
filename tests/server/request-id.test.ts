import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildServer } from '../../server/build-app.ts';
import { readEnv } from '../../server/env.ts';
import { DEFAULT_CONFIG } from '../../core/config.ts';

/** Every log line written while a request is served names the request, also lines from the application's logger. */
describe('request ids in the logs', () => {
  const lines: Record<string, unknown>[] = [];
  const raw: string[] = [];
  let app: FastifyInstance;
  let base: string;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'provena-reqid-'));

  beforeAll(async () => {
    const env = { ...readEnv({ DATA_DIR: dataDir, LOG_LEVEL: 'info', APP_DIR: path.join(dataDir, 'no-app') }), databaseUrl: undefined };
    app = await buildServer(env, {
      config: DEFAULT_CONFIG,
      logStream: {
        write(line: string) {
          raw.push(line);
          lines.push(JSON.parse(line) as Record<string, unknown>);
        },
      },
    });
    // What a service does: it logs through the application's logger, after awaiting something.
    app.get('/test/service-log', async () => {
      await new Promise((r) => setTimeout(r, 5));
      await app.db.selectFrom('users').select('id').limit(1).execute();
      app.log.info({ marker: 'service' }, 'a service line');
      app.log.child({ module: 'ledger' }).info({ marker: 'module' }, 'a module line');
      return { ok: true };
    });
    await app.listen({ port: 0, host: '127.0.0.1' });
    const address = app.server.address();
    base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  });
  afterAll(async () => {
    await app.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it("a line a service logs during a request carries that request's id, which the response names", async () => {
    const res = await fetch(`${base}/test/service-log`);
    const id = res.headers.get('x-request-id');
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    const service = lines.find((l) => l.marker === 'service');
    const module = lines.find((l) => l.marker === 'module');
    expect(service?.reqId).toBe(id);
    expect(module?.reqId).toBe(id);
    // Fastify's own request lines carry it once, not twice.
    const completed = raw.filter((l) => l.includes('request completed') && l.includes(id!));
    expect(completed).toHaveLength(1);
    expect(completed[0]!.match(/"reqId"/g)).toHaveLength(1);
  });

  it("keeps a proxy's id of a safe shape and replaces one that is not", async () => {
    const sent = 'lb-7f3a9c01-42';
    const kept = await fetch(`${base}/test/service-log`, { headers: { 'x-request-id': sent } });
    expect(kept.headers.get('x-request-id')).toBe(sent);
    expect(lines.filter((l) => l.marker === 'service').at(-1)?.reqId).toBe(sent);
    const forged = await fetch(`${base}/test/service-log`, { headers: { 'x-request-id': 'forged", "level": 60, "msg": "root login' } });
    expect(forged.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('lines logged outside any request name none', async () => {
    await fetch(`${base}/test/service-log`);
    app.log.info({ marker: 'outside' }, 'not in a request');
    expect(lines.find((l) => l.marker === 'outside')).not.toHaveProperty('reqId');
  });
});
