import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { isDeepStrictEqual } from 'node:util';
import pg from 'pg';
import type { FastifyInstance, LightMyRequestResponse, RouteOptions } from 'fastify';
import { buildServer } from '../../server/build-app.ts';
import { readEnv, type Env } from '../../server/env.ts';
import { DEFAULT_CONFIG, type DeploymentConfig } from '../../core/config.ts';

/**
 * A real server on a real database for integration tests: a fresh SQLite file by
 * default, or a fresh schema on the PostgreSQL server in TEST_DATABASE_URL.
 */
export type Harness = {
  app: FastifyInstance;
  close(): Promise<void>;
  request(opts: { method: string; url: string; body?: unknown; cookie?: string; headers?: Record<string, string> }): Promise<LightMyRequestResponse>;
  latestCode(phone: string): Promise<string>;
  register(phone: string, password?: string): Promise<string>;
  dialect: 'sqlite' | 'postgres';
  /** Every route the app declared, with its schema and config (collected by an onRoute hook). */
  routes: RouteOptions[];
};

export async function startHarness(config: Partial<DeploymentConfig> = {}, envOverrides: Partial<Env> = {}, hooks: { onRoute?: (route: RouteOptions) => void } = {}): Promise<Harness> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'provena-test-'));
  let databaseUrl: string | undefined;
  let dropSchema: (() => Promise<void>) | undefined;
  const pgUrl = process.env.TEST_DATABASE_URL;
  if (pgUrl) {
    const schema = `t_${randomBytes(6).toString('hex')}`;
    const admin = new pg.Client({ connectionString: pgUrl });
    await admin.connect();
    await admin.query(`create schema ${schema}`);
    await admin.end();
    const url = new URL(pgUrl);
    url.searchParams.set('options', `-c search_path=${schema}`);
    databaseUrl = url.toString();
    dropSchema = async () => {
      const c = new pg.Client({ connectionString: pgUrl });
      await c.connect();
      await c.query(`drop schema ${schema} cascade`);
      await c.end();
    };
  }
  const env = { ...readEnv({ DATA_DIR: dataDir, LOG_LEVEL: 'silent', APP_DIR: path.join(dataDir, 'no-app') }), databaseUrl, ...envOverrides };
  const routes: RouteOptions[] = [];
  const app = await buildServer(env, {
    config: { ...DEFAULT_CONFIG, ...config },
    logger: false,
    onRoute: (route) => {
      routes.push(route);
      if (process.env.SCHEMA_FIDELITY !== '0') checkSchemaFidelity(route);
      hooks.onRoute?.(route);
    },
  });
  await app.ready();

  const harness: Harness = {
    app,
    routes,
    dialect: pgUrl ? 'postgres' : 'sqlite',
    async close() {
      await app.close();
      await dropSchema?.();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
    request({ method, url, body, cookie, headers }) {
      return app.inject({
        method: method as 'GET',
        url,
        ...(body !== undefined ? { payload: body as object } : {}),
        headers: { ...(cookie ? { cookie } : {}), ...headers },
      });
    },
    async latestCode(phone) {
      const res = await app.inject({ method: 'GET', url: `/api/dev/sms-outbox?phone=${phone}` });
      const code = res.json().data[0]?.code;
      if (!code) throw new Error(`no SMS for ${phone}`);
      return code;
    },
    async register(phone, password = 'Passw0rdA') {
      await clearRateLimits(app);
      const sent = await harness.request({ method: 'GET', url: `/api/v1/validation/public-code?phonenumber=${phone}&type=1` });
      if (sent.statusCode !== 200) throw new Error(`send failed: ${sent.body}`);
      const res = await harness.request({
        method: 'POST',
        url: '/api/v1/users/tokens',
        body: { phonenumber: phone, password, validation_code: await harness.latestCode(phone), name: '测试用户' },
      });
      if (res.statusCode !== 200) throw new Error(`register failed: ${res.body}`);
      return sessionCookie(res);
    },
  };
  return harness;
}

/**
 * Every JSON answer of a route with a response schema is compared with what its handler
 * returned (JSON.stringify of the payload). A schema that drops a field, turns null into ""
 * or a string into a number changes the API silently; here it fails the request with a 500
 * that names the route and the difference. On in every harness test (SCHEMA_FIDELITY=0 turns
 * it off): the whole server suite passed with it on SQLite and on PostgreSQL.
 */
function checkSchemaFidelity(route: RouteOptions): void {
  if (!(route.schema as { response?: unknown } | undefined)?.response) return;
  const raw = new WeakMap<object, string>();
  const pre = async (request: object, _reply: unknown, payload: unknown) => {
    raw.set(request, JSON.stringify(payload));
    return payload;
  };
  const send = async (request: object, reply: { statusCode: number }, payload: unknown) => {
    const before = raw.get(request);
    raw.delete(request);
    if (before === undefined || typeof payload !== 'string') return payload;
    const a = JSON.stringify(JSON.parse(before));
    const b = JSON.stringify(JSON.parse(payload));
    if (!isDeepStrictEqual(JSON.parse(before), JSON.parse(payload))) {
      const message = `response schema of ${String(route.method)} ${route.url} (${reply.statusCode}) changes the answer:\nhandler: ${a.slice(0, 2000)}\nsent:    ${b.slice(0, 2000)}`;
      console.error(message);
      throw new Error(message);
    }
    return payload;
  };
  route.preSerialization = [...[route.preSerialization ?? []].flat(), pre] as RouteOptions['preSerialization'];
  route.onSend = [...[route.onSend ?? []].flat(), send] as RouteOptions['onSend'];
}

/** The session cookie a response sets, as a Cookie header value. */
export function sessionCookie(res: LightMyRequestResponse): string {
  const c = res.cookies.find((x) => x.name === 'provena_session');
  if (!c) throw new Error('no session cookie set');
  return `provena_session=${c.value}`;
}

/** Tests that send many codes from one address reset the per-minute counters between steps. */
export async function clearRateLimits(app: FastifyInstance): Promise<void> {
  await app.db.deleteFrom('rate_limits').execute();
}
