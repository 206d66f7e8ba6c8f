import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from './harness.ts';

/** Absolute URLs come from PUBLIC_URL; request headers name no origin the server trusts. */
describe('links and forwarded headers', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({}, { publicUrl: 'https://proofs.example.com' });
  });
  afterAll(async () => h?.close());

  it('certificates and explorer links use the configured PUBLIC_URL', () => {
    expect(h.app.ledger.config.publicUrl).toBe('https://proofs.example.com');
  });

  it('X-Forwarded-Host cannot make a foreign Origin look same-site', async () => {
    const body = { login_id: '13800000000', password: 'x' };
    const spoofed = await h.request({ method: 'POST', url: '/api/v1/users', body, headers: { origin: 'https://evil.example', host: 'proofs.example.com', 'x-forwarded-host': 'evil.example' } });
    expect(spoofed.statusCode).toBe(403);
    // The published origin and the Host the browser connected to are same-site.
    const published = await h.request({ method: 'POST', url: '/api/v1/users', body, headers: { origin: 'https://proofs.example.com', host: '127.0.0.1:8080' } });
    expect(published.statusCode).toBe(400);
    const direct = await h.request({ method: 'POST', url: '/api/v1/users', body, headers: { origin: 'http://10.0.0.5:8080', host: '10.0.0.5:8080' } });
    expect(direct.statusCode).toBe(400);
  });

  it('PUBLIC_URL must be an http(s) address', async () => {
    const { readEnv } = await import('../../server/env.ts');
    expect(() => readEnv({ PUBLIC_URL: 'javascript:alert(1)' })).toThrow(/PUBLIC_URL/);
    expect(() => readEnv({ PUBLIC_URL: 'https://a.example/?x=1' })).toThrow(/PUBLIC_URL/);
    expect(readEnv({ PUBLIC_URL: 'https://a.example/provena/' }).publicUrl).toBe('https://a.example/provena');
  });
});
