import http from 'node:http';
import path from 'node:path';
import { spawn } from 'node:child_process';
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { readEnv, type SmsEnv } from '../../server/env.ts';
import { startHarness, type Harness } from './harness.ts';
import { newPhone } from './enterprise-helpers.ts';

/**
 * SMS delivery. The carriers cannot be reached from here, so each provider talks to a
 * local HTTP server that checks the request the way the carrier (or a gateway) does:
 * a wrong signature is refused exactly as the real API would refuse it.
 */

type Received = { headers: http.IncomingHttpHeaders; body: string };
type Gateway = { url: string; received: Received[]; answer: (r: Received) => { status: number; body: string }; close(): Promise<void> };

async function gateway(answer: Gateway['answer']): Promise<Gateway> {
  const received: Received[] = [];
  const g: Gateway = { url: '', received, answer, close: async () => {} };
  const server = http.createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      const r = { headers: req.headers, body };
      received.push(r);
      const out = g.answer(r);
      res.writeHead(out.status, { 'content-type': 'application/json' }).end(out.body);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  g.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  g.close = () => new Promise((r) => server.close(() => r()));
  return g;
}

const sms = (over: Partial<SmsEnv>): SmsEnv => ({ provider: 'outbox', templates: {}, retryDelaysMs: [], ...over });

async function sendCode(h: Harness, phone: string, type = 1) {
  return h.request({ method: 'GET', url: `/api/v1/validation/public-code?phonenumber=${phone}&type=${type}` });
}

/** Alibaba Cloud's check of an RPC v1 request: recompute HMAC-SHA1 over the sorted, RFC 3986-encoded parameters. */
function aliyunVerifies(body: string, secret: string): { ok: boolean; params: Record<string, string> } {
  const params = Object.fromEntries(new URLSearchParams(body));
  const { Signature: given, ...rest } = params;
  const enc = (s: string) => encodeURIComponent(s).replace(/\+/g, '%20').replace(/\*/g, '%2A').replace(/%7E/g, '~').replace(/[!'()]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  const canonical = Object.keys(rest)
    .sort()
    .map((k) => `${enc(k)}=${enc(rest[k]!)}`)
    .join('&');
  const expected = createHmac('sha1', `${secret}&`).update(`POST&%2F&${enc(canonical)}`).digest('base64');
  const fresh = Math.abs(Date.parse(rest.Timestamp ?? '') - Date.now()) < 15 * 60 * 1000;
  const ok = !!given && given === expected && fresh && rest.SignatureMethod === 'HMAC-SHA1' && rest.SignatureVersion === '1.0' && !!rest.SignatureNonce;
  return { ok, params: rest };
}

/** Tencent Cloud's check of a TC3-HMAC-SHA256 request, from the headers as they arrived. */
function tencentVerifies(r: Received, secretId: string, secretKey: string): boolean {
  const auth = String(r.headers.authorization ?? '');
  const m = /^TC3-HMAC-SHA256 Credential=([^/]+)\/(\d{4}-\d{2}-\d{2})\/sms\/tc3_request, SignedHeaders=([a-z;-]+), Signature=([0-9a-f]{64})$/.exec(auth);
  if (!m || m[1] !== secretId) return false;
  const [, , date, signedHeaders, signature] = m as unknown as [string, string, string, string, string];
  const timestamp = Number(r.headers['x-tc-timestamp']);
  if (Math.abs(timestamp - Date.now() / 1000) > 300 || new Date(timestamp * 1000).toISOString().slice(0, 10) !== date) return false;
  const names = signedHeaders.split(';');
  const canonicalHeaders = names.map((n) => `${n}:${String(r.headers[n]).trim().toLowerCase()}\n`).join('');
  const hex = (s: string) => createHash('sha256').update(s).digest('hex');
  const canonicalRequest = ['POST', '/', '', canonicalHeaders, signedHeaders, hex(r.body)].join('\n');
  const toSign = ['TC3-HMAC-SHA256', String(timestamp), `${date}/sms/tc3_request`, hex(canonicalRequest)].join('\n');
  const h = (k: string | Buffer, s: string) => createHmac('sha256', k).update(s).digest();
  const key = h(h(h(`TC3${secretKey}`, date), 'sms'), 'tc3_request');
  return createHmac('sha256', key).update(toSign).digest('hex') === signature && r.headers['x-tc-action'] === 'SendSms';
}

describe('SMS providers', () => {
  const open: Array<{ close(): Promise<void> }> = [];
  afterEach(async () => {
    while (open.length) await open.pop()!.close();
  });

  it('the outbox answers only a direct loopback client: another address, or a request a proxy forwarded, gets 404', async () => {
    const h = await startHarness();
    open.push(h);
    const phone = newPhone();
    expect((await sendCode(h, phone)).statusCode).toBe(200);
    const url = `/api/dev/sms-outbox?phone=${phone}`;
    const local = await h.app.inject({ method: 'GET', url, remoteAddress: '127.0.0.1' });
    expect(local.json().data[0].code).toMatch(/^\d{6}$/);
    const mapped = await h.app.inject({ method: 'GET', url, remoteAddress: '::ffff:127.0.0.1' });
    expect(mapped.statusCode).toBe(200);
    for (const remoteAddress of ['203.0.113.7', '10.0.0.2', '::ffff:192.168.1.4', '2001:db8::1']) {
      const away = await h.app.inject({ method: 'GET', url, remoteAddress });
      expect(away.statusCode, remoteAddress).toBe(404);
      expect(away.body).not.toMatch(/\d{6}/);
    }
    // A proxy on the same machine makes every client look local: a forwarded outside address closes the route.
    for (const forwarded of ['203.0.113.7', '127.0.0.1, 203.0.113.7']) {
      const proxied = await h.app.inject({ method: 'GET', url, remoteAddress: '127.0.0.1', headers: { 'x-forwarded-for': forwarded } });
      expect(proxied.statusCode, forwarded).toBe(404);
    }
    expect((await h.app.inject({ method: 'GET', url, remoteAddress: '127.0.0.1', headers: { forwarded: 'for=203.0.113.7' } })).statusCode).toBe(404);
    // The developer's own browser through the local dev proxy (Vite adds X-Forwarded-For) still reads it.
    expect((await h.app.inject({ method: 'GET', url, remoteAddress: '127.0.0.1', headers: { 'x-forwarded-for': '127.0.0.1' } })).statusCode).toBe(200);
  });

  it('the outbox is refused even behind TRUST_PROXY when a forwarded header claims loopback', async () => {
    const h = await startHarness({}, { trustProxy: true });
    open.push(h);
    const res = await h.app.inject({ method: 'GET', url: `/api/dev/sms-outbox?phone=${newPhone()}`, remoteAddress: '203.0.113.7', headers: { 'x-forwarded-for': '127.0.0.1' } });
    expect(res.statusCode).toBe(404);
  });

  it('webhook: signed JSON reaches the gateway, the code in it works, and /api/dev/* does not exist', async () => {
    const secret = 'a-webhook-secret-of-some-length';
    const g = await gateway(() => ({ status: 202, body: '{}' }));
    open.push(g);
    const h = await startHarness({}, { sms: sms({ provider: 'webhook', webhookUrl: g.url, webhookSecret: secret }) });
    open.push(h);
    const phone = newPhone();
    expect((await sendCode(h, phone)).statusCode).toBe(200);
    expect(g.received).toHaveLength(1);
    const r = g.received[0]!;
    const expected = `sha256=${createHmac('sha256', secret).update(r.body).digest('hex')}`;
    expect(timingSafeEqual(Buffer.from(String(r.headers['x-provena-signature'])), Buffer.from(expected))).toBe(true);
    expect(Math.abs(Number(r.headers['x-provena-timestamp']) - Date.now() / 1000)).toBeLessThan(60);
    const payload = JSON.parse(r.body);
    expect(Object.keys(payload).sort()).toEqual(['id', 'params', 'phone', 'template', 'text']);
    expect(payload).toMatchObject({ phone, template: 'code', params: { code: expect.stringMatching(/^\d{6}$/) } });
    expect(payload.text).toContain(payload.params.code);
    const reg = await h.request({ method: 'POST', url: '/api/v1/users/tokens', body: { phonenumber: phone, password: 'Passw0rdA', validation_code: payload.params.code, name: '网关用户' } });
    expect(reg.statusCode).toBe(200);
    // Nothing is kept in an outbox, and the developer routes are gone.
    expect(await h.app.db.selectFrom('sms_outbox').selectAll().execute()).toEqual([]);
    expect((await h.request({ method: 'GET', url: `/api/dev/sms-outbox?phone=${phone}` })).statusCode).toBe(404);
  });

  it('a failed delivery is retried, then reported as sms_send_failed without using up the one-a-minute rule', async () => {
    let failures = 3;
    const g = await gateway(() => (failures-- > 0 ? { status: 503, body: '{}' } : { status: 200, body: '{}' }));
    open.push(g);
    const h = await startHarness({}, { sms: sms({ provider: 'webhook', webhookUrl: g.url, webhookSecret: 'x'.repeat(20), retryDelaysMs: [10, 20] }) });
    open.push(h);
    const phone = newPhone();
    const failed = await sendCode(h, phone);
    expect(failed.statusCode).toBe(400);
    expect(failed.json()).toEqual({ message: 'sms_send_failed', field_name: 'validation_code' });
    expect(g.received).toHaveLength(3);
    // The gateway is back: asking again at once is allowed (not validation_code_filled).
    const again = await sendCode(h, phone);
    expect(again.statusCode).toBe(200);
    expect(g.received).toHaveLength(4);
    const third = await sendCode(h, phone);
    expect(third.json()).toEqual({ message: 'validation_code_filled', field_name: 'validation_code' });
  });

  it('every provider is limited per phone and per address', async () => {
    const g = await gateway(() => ({ status: 200, body: '{}' }));
    open.push(g);
    const h = await startHarness({}, { sms: sms({ provider: 'webhook', webhookUrl: g.url, webhookSecret: 'x'.repeat(20) }) });
    open.push(h);
    const phone = newPhone();
    let last = 0;
    for (let i = 0; i < 12; i += 1) {
      await h.app.db.deleteFrom('rate_limits').where('key', 'like', 'sms:%').execute();
      await h.app.db.deleteFrom('rate_limits').where('key', 'like', 'sms-ip:%').execute();
      last = (await sendCode(h, phone)).statusCode;
      if (last !== 200) break;
    }
    expect(last).toBe(400);
    expect(g.received.length).toBe(10);
    await h.app.db.deleteFrom('rate_limits').execute();
    let addressRefused = false;
    for (let i = 0; i < 25 && !addressRefused; i += 1) {
      const res = await h.app.inject({ method: 'GET', url: `/api/v1/validation/public-code?phonenumber=${newPhone()}&type=1`, remoteAddress: '198.51.100.9' });
      addressRefused = res.json().message === 'too_frequent_operation';
    }
    expect(addressRefused).toBe(true);
  });

  it('aliyun: SendSms with an RPC v1 signature the carrier accepts; a refused signature is a failed send', async () => {
    const secret = 'aliyun-access-key-secret';
    const g = await gateway((r) => {
      const { ok } = aliyunVerifies(r.body, secret);
      return ok ? { status: 200, body: JSON.stringify({ Code: 'OK', Message: 'OK', BizId: '1', RequestId: 'r' }) } : { status: 400, body: JSON.stringify({ Code: 'SignatureDoesNotMatch' }) };
    });
    open.push(g);
    const env = sms({ provider: 'aliyun', endpoint: g.url, keyId: 'LTAIexample', keySecret: secret, signName: '存证平台', templates: { code: 'SMS_100', disclosure: 'SMS_200' } });
    const h = await startHarness({}, { sms: env });
    open.push(h);
    const phone = newPhone();
    expect((await sendCode(h, phone)).statusCode).toBe(200);
    const { ok, params } = aliyunVerifies(g.received[0]!.body, secret);
    expect(ok).toBe(true);
    expect(params).toMatchObject({ Action: 'SendSms', Version: '2017-05-25', PhoneNumbers: phone, SignName: '存证平台', TemplateCode: 'SMS_100', AccessKeyId: 'LTAIexample' });
    expect(JSON.parse(params.TemplateParam!).code).toMatch(/^\d{6}$/);
    await h.close();
    open.pop();
    // The wrong secret: the carrier refuses, the user is told to retry.
    const bad = await startHarness({}, { sms: { ...env, keySecret: 'not-the-secret' } });
    open.push(bad);
    expect((await sendCode(bad, newPhone())).json()).toEqual({ message: 'sms_send_failed', field_name: 'validation_code' });
  });

  it('tencent: SendSms with a TC3-HMAC-SHA256 signature the carrier accepts; a refused signature is a failed send', async () => {
    const g = await gateway((r) =>
      tencentVerifies(r, 'AKIDexample', 'tencent-secret-key')
        ? { status: 200, body: JSON.stringify({ Response: { SendStatusSet: [{ Code: 'Ok', PhoneNumber: JSON.parse(r.body).PhoneNumberSet[0] }], RequestId: 'r' } }) }
        : { status: 200, body: JSON.stringify({ Response: { Error: { Code: 'AuthFailure.SignatureFailure', Message: 'bad' }, RequestId: 'r' } }) },
    );
    open.push(g);
    const env = sms({ provider: 'tencent', endpoint: g.url, keyId: 'AKIDexample', keySecret: 'tencent-secret-key', sdkAppId: '1400000000', signName: '存证平台', region: 'ap-guangzhou', templates: { code: '100', disclosure: '200' } });
    const h = await startHarness({}, { sms: env });
    open.push(h);
    const phone = newPhone();
    expect((await sendCode(h, phone)).statusCode).toBe(200);
    const r = g.received[0]!;
    expect(tencentVerifies(r, 'AKIDexample', 'tencent-secret-key')).toBe(true);
    expect(r.headers['x-tc-version']).toBe('2021-01-11');
    const body = JSON.parse(r.body);
    expect(body).toMatchObject({ PhoneNumberSet: [`+86${phone}`], SmsSdkAppId: '1400000000', SignName: '存证平台', TemplateId: '100' });
    expect(body.TemplateParamSet[0]).toMatch(/^\d{6}$/);
    await h.close();
    open.pop();
    const bad = await startHarness({}, { sms: { ...env, keySecret: 'not-the-key' } });
    open.push(bad);
    expect((await sendCode(bad, newPhone())).json()).toEqual({ message: 'sms_send_failed', field_name: 'validation_code' });
  });
});

describe('SMS configuration', () => {
  it('production refuses to boot with the outbox, and a carrier needs its settings', async () => {
    expect(() => readEnv({ NODE_ENV: 'production' })).toThrow(/NODE_ENV=production needs a real SMS_PROVIDER/);
    expect(() => readEnv({ NODE_ENV: 'production', SMS_PROVIDER: 'outbox' })).toThrow(/outbox/);
    expect(() => readEnv({ SMS_PROVIDER: 'webhook' })).toThrow(/SMS_WEBHOOK_URL is required[\s\S]*SMS_WEBHOOK_SECRET is required/);
    expect(() => readEnv({ SMS_PROVIDER: 'aliyun' })).toThrow(/SMS_ACCESS_KEY_ID is required/);
    expect(() => readEnv({ SMS_PROVIDER: 'tencent', SMS_ACCESS_KEY_ID: 'a', SMS_ACCESS_KEY_SECRET: 'b', SMS_SIGN_NAME: 'c', SMS_TEMPLATE_CODE: '1', SMS_TEMPLATE_DISCLOSURE: '2' })).toThrow(/SMS_SDK_APP_ID/);
    const ok = readEnv({ NODE_ENV: 'production', SMS_PROVIDER: 'webhook', SMS_WEBHOOK_URL: 'https://gw.example/sms', SMS_WEBHOOK_SECRET: 's'.repeat(32) });
    expect(ok.sms.provider).toBe('webhook');
    expect(readEnv({}).sms.provider).toBe('outbox');
    const child = spawn(process.execPath, ['server/server.ts'], { env: { ...process.env, NODE_ENV: 'production', SMS_PROVIDER: '', PORT: '0', DATA_DIR: path.join('/tmp', 'provena-never') }, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    const code = await new Promise((r) => child.on('exit', r));
    expect(code).toBe(2);
    expect(output).toContain('NODE_ENV=production needs a real SMS_PROVIDER');
  });
});

