import { createHash } from 'node:crypto';
import { sql } from 'kysely';
import fc from 'fast-check';
import type { RouteOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from './harness.ts';
import { ownerWithEnterprise } from './enterprise-helpers.ts';
import { loadOrCreateEnterpriseCa } from '../../server/services/enterprise-keys.ts';

/**
 * The edge of the API under bad input: every route of the route table is driven with
 * generated bad paths, queries, bodies and headers (from the routes' JSON schemas where
 * they have one, plus hostile generic values), anonymous and signed in. No answer may be a
 * 500 and the data may not change.
 */

let h: Harness;
let member: string;
beforeAll(async () => {
  // The score service's background run would change its tables while the data is compared.
  process.env.SCORE_RECOMPUTE_MINUTES = '0';
  h = await startHarness();
  ({ cookie: member } = await ownerWithEnterprise(h, '边界测试有限公司'));
  // The enterprise CA is made on first use (a key route): made here, it is not counted as a change.
  await loadOrCreateEnterpriseCa(h.app.db);
});
afterAll(async () => {
  await h?.close();
});

/** Generated requests per route and method, each mode (seeded: the same requests every run). */
const RUNS_PER_ROUTE = Number(process.env.FUZZ_RUNS ?? 40);

type Schema = { type?: string | string[]; properties?: Record<string, Schema>; maxLength?: number; maximum?: number; minimum?: number; required?: string[] };
type Call = { method: string; url: string; headers: Record<string, string>; payload?: string | Buffer };

const HOSTILE_STRINGS = [
  '',
  ' ',
  '0',
  '-1',
  '1e20',
  '1e400',
  '-1e400',
  'NaN',
  'Infinity',
  '9007199254740993',
  '0x10',
  'null',
  'true',
  '[]',
  '{}',
  '{"$gt":""}',
  "' or 1=1 --",
  '"; drop table users; --',
  '../../../../etc/passwd',
  '%00',
  '\u0000',
  '\u202egnp.exe',
  '<script>alert(1)</script>',
  '0x' + 'f'.repeat(64) + '.png',
  'x'.repeat(5000),
  '😀'.repeat(300),
];
const hostileString = fc.oneof(fc.constantFrom(...HOSTILE_STRINGS), fc.string({ maxLength: 40 }), fc.string({ unit: 'binary', maxLength: 40 }));

/** A value the schema refuses even with Ajv's type coercion (numbers become strings, scalars become arrays). */
function badValue(schema: Schema | undefined): fc.Arbitrary<unknown> {
  const type = Array.isArray(schema?.type) ? schema?.type[0] : schema?.type;
  const objectish = fc.oneof(fc.constant({ $ne: null }), fc.array(fc.object({ maxDepth: 1 }), { minLength: 1, maxLength: 2 }));
  switch (type) {
    case 'string':
      return schema?.maxLength !== undefined ? fc.oneof(objectish, fc.constant('x'.repeat(schema.maxLength + 1))) : objectish;
    case 'integer':
    case 'number': {
      const outside: unknown[] = ['abc', 1.5, '1e400', 'NaN', { n: 1 }];
      if (schema?.maximum !== undefined) outside.push(schema.maximum + 1, 1e20);
      if (schema?.minimum !== undefined) outside.push(schema.minimum - 1, -1e20);
      return fc.constantFrom(...outside);
    }
    case 'boolean':
      return fc.constantFrom('maybe', { b: true }, 2);
    case 'array':
      return fc.constantFrom({ a: 1 }, 'x'.repeat(70));
    case 'object':
      return fc.constantFrom('str', 42, true);
    default:
      return fc.oneof(objectish, hostileString);
  }
}

/** A query-string value the parameter's schema does not accept (or, for free text, a hostile one). */
function badQueryValue(schema: Schema | undefined): fc.Arbitrary<string> {
  const type = Array.isArray(schema?.type) ? schema?.type[0] : schema?.type;
  if (type === 'integer' || type === 'number') {
    const outside = ['abc', '1.5', '1e20', '1e400', '-1e400', 'NaN', '', '0x1g'];
    if (schema?.maximum !== undefined) outside.push(String(schema.maximum + 1));
    if (schema?.minimum !== undefined) outside.push(String(schema.minimum - 1));
    return fc.constantFrom(...outside);
  }
  if (type === 'boolean') return fc.constantFrom('maybe', '2', '');
  if (type === 'string' && schema?.maxLength !== undefined) return fc.oneof(fc.constant('x'.repeat(schema.maxLength + 1)), hostileString);
  return hostileString;
}

const GARBAGE_BODIES: Array<{ type: string; body: string | Buffer }> = [
  { type: 'application/json', body: '{"a":' },
  { type: 'application/json', body: '[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[' },
  { type: 'application/json', body: '{"__proto__":{"isAdmin":true},"constructor":{"prototype":{"x":1}}}' },
  { type: 'application/json', body: 'null' },
  { type: 'application/json', body: '"string"' },
  { type: 'application/json', body: '12345678901234567890123456789' },
  { type: 'multipart/form-data; boundary=xyz', body: '--xyz\r\ngarbage without headers\r\n--x' },
  { type: 'multipart/form-data', body: 'no boundary at all' },
  { type: 'multipart/form-data; boundary=b', body: '--b\r\nContent-Disposition: form-data; name="file"; filename="\u202egnp.exe"\r\n\r\nabc' },
  { type: 'text/plain', body: 'hello' },
  { type: 'application/x-www-form-urlencoded', body: 'a=1&b=2' },
  { type: 'application/offset+octet-stream', body: Buffer.alloc(64, 7) },
  { type: 'application/xml', body: '<?xml version="1.0"?><!DOCTYPE a [<!ENTITY x SYSTEM "file:///etc/passwd">]><a>&x;</a>' },
];

const hostileHeaders = fc.record(
  {
    'upload-length': fc.constantFrom('1e400', '-1', 'abc', '99999999999999999999999', '0'),
    'upload-offset': fc.constantFrom('1e400', '-1', 'abc', '0'),
    'upload-metadata': fc.constantFrom('identity', 'identity !!!!,filename', `identity ${Buffer.from('0x00.png').toString('base64')}`, ','),
    'tus-resumable': fc.constantFrom('1.0.0', '0.2', ''),
    range: fc.constantFrom('bytes=abc', 'bytes=-1', 'bytes=99999999999999999999-', 'bytes=0-0,0-0,0-0'),
    'if-none-match': fc.constantFrom('*', '"x"'),
    'accept-language': fc.constantFrom('xx', '*;q=abc', 'zh'.repeat(500)),
    'x-forwarded-for': fc.constantFrom('not-an-ip', '::1, 127.0.0.1'),
    'x-http-method-override': fc.constantFrom('DELETE', 'PUT'),
  },
  { requiredKeys: [] },
);

function schemaOf(route: RouteOptions, part: 'body' | 'querystring' | 'params'): Schema | undefined {
  return (route.schema as Record<string, Schema> | undefined)?.[part];
}

/** One generated bad request for the route. */
function callFor(route: RouteOptions, method: string): fc.Arbitrary<Call> {
  const params = schemaOf(route, 'params');
  const names = [...route.url.matchAll(/:([A-Za-z_]+)/g)].map((m) => m[1]!);
  const pathValues = fc.tuple(...names.map((n) => fc.oneof(badQueryValue(params?.properties?.[n]), hostileString)));
  const query = schemaOf(route, 'querystring');
  const queryEntries = Object.entries(query?.properties ?? {});
  const queryArb = fc.tuple(
    ...queryEntries.map(([k, s]) => fc.option(badQueryValue(s).map((v) => [k, v] as const), { nil: undefined })),
    fc.array(fc.tuple(hostileString, hostileString), { maxLength: 2 }),
  );
  const bodySchema = schemaOf(route, 'body');
  const props = Object.entries(bodySchema?.properties ?? {});
  const schemaBody =
    props.length > 0
      ? fc.tuple(...props.map(([, s]) => badValue(s))).map((values) => ({ type: 'application/json', body: JSON.stringify(Object.fromEntries(props.map(([k], i) => [k, values[i]]))) }))
      : fc.constant({ type: 'application/json', body: '{"unexpected":{"$ne":null}}' });
  const bodyArb = method === 'GET' || method === 'HEAD' ? fc.constant(undefined) : fc.oneof(schemaBody, fc.constantFrom(...GARBAGE_BODIES));
  return fc.tuple(pathValues, queryArb, bodyArb, hostileHeaders).map(([pv, q, b, hh]) => {
    let url = route.url;
    names.forEach((n, i) => (url = url.replace(`:${n}`, encodeURIComponent(pv[i] as string) || 'x')));
    url = url.replace('*', 'x/%2e%2e/%2e%2e/etc/passwd');
    const extra = q[q.length - 1] as Array<[string, string]>;
    const pairs = [...(q.slice(0, -1) as Array<readonly [string, string] | undefined>).filter((x): x is readonly [string, string] => Boolean(x)), ...extra];
    const search = pairs.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join('&');
    const headers: Record<string, string> = { ...hh };
    if (b) headers['content-type'] = b.type;
    return { method, url: search ? `${url}?${search}` : url, headers, ...(b ? { payload: b.body } : {}) };
  });
}

/** Row count and a digest of every table whose rows a bad request could not legitimately change. */
async function snapshot(): Promise<Record<string, string>> {
  // Sessions, counters and code outboxes move with any request (a sign-out, a refused login, a rate limit).
  const volatile = new Set(['sessions', 'operator_sessions', 'rate_limits', 'sms_codes', 'sms_outbox', 'kysely_migration', 'kysely_migration_lock']);
  const out: Record<string, string> = {};
  // On PostgreSQL each test file has its own schema (search_path): only this one's tables count.
  const schema = h.dialect === 'postgres' ? (await sql<{ s: string }>`select current_schema() as s`.execute(h.app.db)).rows[0]!.s : undefined;
  for (const table of await h.app.db.introspection.getTables()) {
    if (volatile.has(table.name) || (schema !== undefined && table.schema !== schema)) continue;
    const rows = await sql<Record<string, unknown>>`select * from ${sql.table(table.name)}`.execute(h.app.db);
    const lines = rows.rows.map((r) => JSON.stringify(r, (_k, v) => (typeof v === 'bigint' ? String(v) : Buffer.isBuffer(v) ? v.toString('hex') : v))).sort();
    out[table.name] = `${lines.length}:${createHash('sha256').update(lines.join('\n')).digest('hex')}`;
    if (process.env.FUZZ_DEBUG && table.name === process.env.FUZZ_DEBUG) console.log(lines.join('\n'));
  }
  return out;
}

/**
 * Routes that read nothing from the request: any call is a well-formed one and does what
 * it says (sign out, regenerate the invitation code). They are driven after the data is
 * compared, for their answers alone.
 */
const TAKES_NO_INPUT = new Set(['DELETE /api/v1/users/tokens', 'DELETE /api/v1/operator/tokens', 'PUT /api/v1/enterprises/invitation-code', 'POST /api/v1/gpt/conversations']);

function plan(phase: 'input' | 'no-input'): Array<{ route: RouteOptions; method: string }> {
  const out: Array<{ route: RouteOptions; method: string }> = [];
  for (const route of h.routes) {
    for (const method of [route.method].flat()) {
      if (method === 'HEAD' && !route.url.startsWith('/api/v1/storage/uploads')) continue;
      if (TAKES_NO_INPUT.has(`${method} ${route.url}`) === (phase === 'input')) continue;
      out.push({ route, method });
    }
  }
  return out;
}

async function fuzz(cookie: string | undefined, seed: number, phase: 'input' | 'no-input'): Promise<string[]> {
  const failures: string[] = [];
  for (const { route, method } of plan(phase)) {
    await fc.assert(
      fc.asyncProperty(callFor(route, method), async (call) => {
        const res = await h.app.inject({ method: call.method as 'GET', url: call.url, headers: { ...call.headers, ...(cookie ? { cookie } : {}) }, ...(call.payload !== undefined ? { payload: call.payload } : {}) });
        if (res.statusCode >= 500) failures.push(`${res.statusCode} ${call.method} ${call.url.slice(0, 200)} ${JSON.stringify(call.headers).slice(0, 200)} ${String(call.payload ?? '').slice(0, 200)} -> ${res.body.slice(0, 200)}`);
      }),
      { seed, numRuns: RUNS_PER_ROUTE, endOnFailure: true },
    );
  }
  return failures;
}

describe('paging has a ceiling', () => {
  it('answers page=1e20 and page=1e400 with 400 on every list route', async () => {
    const lists = h.routes.filter((r) => [r.method].flat().includes('GET') && Object.keys(schemaOf(r, 'querystring')?.properties ?? {}).some((k) => k === 'page' || k === 'page_id'));
    expect(lists.length).toBeGreaterThanOrEqual(14);
    const wrong: string[] = [];
    for (const route of lists) {
      const key = schemaOf(route, 'querystring')!.properties!.page ? 'page' : 'page_id';
      const path = route.url.replace(/:[A-Za-z_]+/g, '1');
      for (const value of ['1e20', '1e400']) {
        const res = await h.request({ method: 'GET', url: `${path}?${key}=${value}`, cookie: member });
        if (res.statusCode !== 400) wrong.push(`${path} ${key}=${value}: ${res.statusCode} ${res.body.slice(0, 100)}`);
      }
    }
    expect(wrong).toEqual([]);
  });
});

describe('the upload endpoint', () => {
  it('answers a garbage multipart body with 400 on the file field', async () => {
    for (const payload of ['--xyz\r\ngarbage\r\n--x', 'no boundary here']) {
      const res = await h.app.inject({ method: 'POST', url: '/api/v1/files', payload, headers: { cookie: member, 'content-type': 'multipart/form-data; boundary=xyz' } });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ message: 'invalid_param', field_name: 'file' });
    }
  });
});

describe('the session is checked before the schema', () => {
  it('answers an anonymous caller of a signed-in route token_invalid, whatever the parameters', async () => {
    const guarded = h.routes.filter((r) => r.config?.auth === 'session' && [r.method].flat()[0] !== 'HEAD');
    expect(guarded.length).toBeGreaterThan(40);
    const leaked: string[] = [];
    for (const route of guarded) {
      const method = [route.method].flat()[0]!;
      const path = route.url.replace(/:[A-Za-z_]+/g, 'not-a-number');
      const res = await h.app.inject({ method: method as 'GET', url: `${path}?page=abc&page_size=1e400&type=zz`, ...(method === 'GET' ? {} : { payload: { bogus: { $ne: 1 } } }) });
      if (res.statusCode !== 400 || res.body !== '{"message":"token_invalid"}') leaked.push(`${method} ${route.url}: ${res.body}`);
    }
    expect(leaked).toEqual([]);
  });

  it('tells an anonymous caller nothing about a vault list parameter', async () => {
    const res = await h.request({ method: 'GET', url: '/api/v1/vault/projects?page=abc' });
    expect(res.json()).toEqual({ message: 'token_invalid' });
  });
});

describe('every route under generated bad input', () => {
  it('collects the route table', () => {
    expect(h.routes.length).toBeGreaterThan(100);
  });

  it('answers no bad request with a 5xx and changes no data, anonymous and signed in', { timeout: 120_000 }, async () => {
    const before = await snapshot();
    const anonymous = await fuzz(undefined, 1501, 'input');
    const signedIn = await fuzz(member, 1502, 'input');
    expect([...anonymous, ...signedIn]).toEqual([]);
    expect(await snapshot()).toEqual(before);
    expect([...(await fuzz(undefined, 1503, 'no-input')), ...(await fuzz(member, 1504, 'no-input'))]).toEqual([]);
  });
});
