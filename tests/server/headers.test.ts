import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from './harness.ts';

/** Security headers on the app and the API: CSP, framing, referrer, sniffing, HSTS. */

const appDir = fs.mkdtempSync(path.join(os.tmpdir(), 'provena-app-'));
fs.writeFileSync(path.join(appDir, 'index.html'), '<!doctype html><div id="root"></div><script type="module" src="/assets/main.js"></script>');

let plain: Harness;
let secure: Harness;
beforeAll(async () => {
  plain = await startHarness({}, { appDir });
  secure = await startHarness({}, { appDir, cookieSecure: true, bigscreenFrameAncestors: ['https://screen.example.com'] });
});
afterAll(async () => {
  await plain?.close();
  await secure?.close();
  fs.rmSync(appDir, { recursive: true, force: true });
});

function directives(header: string | undefined): Map<string, string[]> {
  return new Map((header ?? '').split(';').map((d) => d.trim().split(/\s+/)).filter((d) => d[0]).map(([k, ...v]) => [k!, v]));
}

describe('security headers', () => {
  it('the app page runs under a strict CSP: scripts from our origin only (WASM allowed, no inline, no eval), never framed', async () => {
    const res = await plain.request({ method: 'GET', url: '/' });
    expect(res.statusCode).toBe(200);
    const csp = directives(res.headers['content-security-policy'] as string);
    expect(csp.get('script-src')).toEqual(["'self'", "'wasm-unsafe-eval'"]);
    expect(csp.get('default-src')).toEqual(["'self'"]);
    expect(csp.get('object-src')).toEqual(["'none'"]);
    expect(csp.get('frame-ancestors')).toEqual(["'none'"]);
    expect(csp.get('base-uri')).toEqual(["'self'"]);
    expect(res.headers['x-frame-options']).toBe('DENY');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['referrer-policy']).toBe('same-origin');
    expect(res.headers['strict-transport-security']).toBeUndefined();
  });

  it('API answers carry the same headers', async () => {
    const res = await plain.request({ method: 'GET', url: '/api/v1/users' });
    expect(res.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(res.headers['x-content-type-options']).toBe('nosniff');
  });

  it('sends HSTS only when cookies are Secure (served over HTTPS)', async () => {
    const res = await secure.request({ method: 'GET', url: '/config.json' });
    expect(res.headers['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
  });

  it('/bigscreen may be framed by the configured origins only; other pages by none', async () => {
    const big = await secure.request({ method: 'GET', url: '/bigscreen' });
    expect(big.statusCode).toBe(200);
    expect(directives(big.headers['content-security-policy'] as string).get('frame-ancestors')).toEqual(['https://screen.example.com']);
    expect(directives(big.headers['content-security-policy'] as string).get('script-src')).toEqual(["'self'", "'wasm-unsafe-eval'"]);
    expect(big.headers['x-frame-options']).toBeUndefined();
    const other = await secure.request({ method: 'GET', url: '/dashboard' });
    expect(directives(other.headers['content-security-policy'] as string).get('frame-ancestors')).toEqual(["'none'"]);
    // Without configured origins, /bigscreen is as unframeable as the rest.
    const unconfigured = await plain.request({ method: 'GET', url: '/bigscreen' });
    expect(directives(unconfigured.headers['content-security-policy'] as string).get('frame-ancestors')).toEqual(["'none'"]);
  });
});
