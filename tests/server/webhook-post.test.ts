import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startHarness, type Harness } from './harness.ts';
import { ownerWithEnterprise } from './enterprise-helpers.ts';
import { createApplication, signed } from './application-helpers.ts';
import { isNonPublicAddress, readWebhookAllowPrivate, webhookPoster, WebhookAddressError } from '../../server/services/webhook-post.ts';

vi.setConfig({ testTimeout: 60_000 });
process.env.APPLICATION_MONITOR_TICK_MS = '60000';
delete process.env.APPLICATION_WEBHOOK_ALLOW_PRIVATE;

// What an attacker inside an enterprise aims a webhook at: the operations port, the
// database, the cloud metadata service. The receiver stands in for any of them.
let receiver: http.Server;
let hits = 0;
let base = '';
beforeAll(async () => {
  receiver = http.createServer((req, res) => {
    hits++;
    req.resume();
    res.writeHead(204).end();
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  base = `127.0.0.1:${(receiver.address() as AddressInfo).port}`;
});
afterAll(() => receiver.close());

describe('alarm webhooks reach public addresses only', () => {
  it('classifies addresses: loopback, private, link-local, CGNAT, mapped, multicast and reserved are not public', () => {
    for (const a of ['127.0.0.1', '10.1.2.3', '172.16.0.1', '192.168.1.1', '100.64.0.1', '169.254.169.254', '0.0.0.0', '224.0.0.1', '255.255.255.255', '::1', '::', 'fe80::1', 'fd00::1', '::ffff:127.0.0.1', '::ffff:10.0.0.1', 'not an address']) {
      expect(isNonPublicAddress(a), a).toBe(true);
    }
    for (const a of ['8.8.8.8', '1.1.1.1', '2001:4860:4860::8888', '::ffff:8.8.8.8']) expect(isNonPublicAddress(a), a).toBe(false);
  });

  it('refuses a literal private address, a name that resolves to one, and a mapped IPv6 form, before any byte is sent', async () => {
    const post = webhookPoster({ allowPrivate: false });
    const port = base.split(':')[1];
    for (const url of [`http://${base}/x`, `http://localhost:${port}/x`, `http://[::ffff:127.0.0.1]:${port}/x`, `http://[::1]:${port}/x`, 'http://169.254.169.254/latest/meta-data/']) {
      await expect(post(url, { body: '{}', headers: {} }), url).rejects.toBeInstanceOf(WebhookAddressError);
    }
    expect(hits).toBe(0);
  });

  it('delivers to a private address when the deployment allows it (an intranet)', async () => {
    const post = webhookPoster({ allowPrivate: true });
    expect(await post(`http://${base}/x`, { body: '{}', headers: { 'content-type': 'application/json' } })).toEqual({ status: 204 });
    expect(hits).toBe(1);
    hits = 0;
  });

  it('reads APPLICATION_WEBHOOK_ALLOW_PRIVATE strictly', () => {
    expect(readWebhookAllowPrivate({})).toBe(false);
    expect(readWebhookAllowPrivate({ APPLICATION_WEBHOOK_ALLOW_PRIVATE: '1' })).toBe(true);
    expect(() => readWebhookAllowPrivate({ APPLICATION_WEBHOOK_ALLOW_PRIVATE: 'yes' })).toThrow(/0 or 1/);
  });
});

describe('through the platform', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({});
    await h.app.ledger.stop();
  });
  afterAll(async () => {
    await h?.close();
  });

  it('an administrator aiming an alarm webhook at the platform’s own network gets a refused delivery in the log, and the target gets nothing', async () => {
    const owner = await ownerWithEnterprise(h, `内网回调企业${process.pid}`);
    const a = await createApplication(h, owner.cookie, { interval_seconds: 5, grace_seconds: 5, webhook_urls: [`http://${base}/internal`] });
    const monitor = h.app.applicationMonitor;
    const t0 = Date.now();
    expect((await signed(h, a, 'POST', '/open-api/v1/heartbeat', {})).statusCode).toBe(200);
    await monitor.tick(t0);
    await monitor.tick(t0 + 20_000);
    const alarms = (await h.request({ method: 'GET', url: `/api/v1/applications/${a.application_id}/alarms`, cookie: owner.cookie })).json().data;
    expect(alarms).toHaveLength(1);
    expect(alarms[0].deliveries).toEqual([expect.objectContaining({ channel: 'webhook', status: 'pending', attempts: 1, last_error: expect.stringMatching(/^refused: .*non-public address/) })]);
    expect(hits).toBe(0);
  });
});
