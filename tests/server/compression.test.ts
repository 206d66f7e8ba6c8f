import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from './harness.ts';

/**
 * What goes over the wire: the built app precompressed at build time (scripts/compress-assets.ts,
 * served as is), API answers compressed per request, source maps not served unless asked for,
 * and nothing compressed that should stream as it is (stored files, event streams).
 */
let appDir: string;
let h: Harness;
const bundle = `export const words = ${JSON.stringify(Array.from({ length: 3000 }, (_, i) => `word${i % 97}`))};\n//# debugId=none\n`;

beforeAll(async () => {
  appDir = fs.mkdtempSync(path.join(os.tmpdir(), 'provena-app-'));
  fs.mkdirSync(path.join(appDir, 'assets'));
  fs.writeFileSync(path.join(appDir, 'index.html'), '<!doctype html><title>Provena</title><div id="root"></div>');
  fs.writeFileSync(path.join(appDir, 'assets', 'main-abc123.js'), bundle);
  fs.writeFileSync(path.join(appDir, 'assets', 'main-abc123.js.map'), '{"version":3,"sources":["secret-source.ts"],"mappings":""}');
  execFileSync(process.execPath, ['scripts/compress-assets.ts', appDir], { stdio: 'ignore' });
  h = await startHarness({}, { appDir });
});
afterAll(async () => {
  await h?.close();
  fs.rmSync(appDir, { recursive: true, force: true });
});

describe('compression and source maps', () => {
  it('writes .br and .gz beside each text asset at build time, and serves them as they are, immutable', async () => {
    const br = fs.readFileSync(path.join(appDir, 'assets', 'main-abc123.js.br'));
    expect(zlib.brotliDecompressSync(br).toString()).toBe(bundle);
    expect(br.length).toBeLessThan(bundle.length / 5);
    const r = await h.app.inject({ method: 'GET', url: '/assets/main-abc123.js', headers: { 'accept-encoding': 'gzip, deflate, br' } });
    expect(r.statusCode).toBe(200);
    expect(r.headers['content-encoding']).toBe('br');
    expect(r.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(r.rawPayload.equals(br)).toBe(true);
    const gz = await h.app.inject({ method: 'GET', url: '/assets/main-abc123.js', headers: { 'accept-encoding': 'gzip' } });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(zlib.gunzipSync(gz.rawPayload).toString()).toBe(bundle);
    const plain = await h.app.inject({ method: 'GET', url: '/assets/main-abc123.js' });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(bundle);
  });

  it('compresses API answers for a client that accepts it', async () => {
    const r = await h.app.inject({ method: 'GET', url: '/config.json', headers: { 'accept-encoding': 'br' } });
    expect(r.statusCode).toBe(200);
    expect(r.headers['content-encoding']).toBe('br');
    expect(JSON.parse(zlib.brotliDecompressSync(r.rawPayload).toString())).toHaveProperty('menu');
  });

  it('does not serve source maps unless the deployment asks (SERVE_SOURCE_MAPS)', async () => {
    const r = await h.app.inject({ method: 'GET', url: '/assets/main-abc123.js.map' });
    expect(r.body).not.toContain('secret-source.ts');
    expect(r.headers['content-type']).toMatch(/text\/html/);
    const debug = await startHarness({}, { appDir, serveSourceMaps: true });
    try {
      const m = await debug.app.inject({ method: 'GET', url: '/assets/main-abc123.js.map' });
      expect(m.statusCode).toBe(200);
      expect(m.body).toContain('secret-source.ts');
    } finally {
      await debug.close();
    }
  });
});
