import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawn } from 'node:child_process';
import { afterAll, describe, expect, it } from 'vitest';
import { readEnv } from '../../server/env.ts';
import { loadDeploymentConfig } from '../../server/deployment-config.ts';
import { buildServer } from '../../server/build-app.ts';

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'provena-boot-'));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

function runServer(env: Record<string, string>): { done: Promise<{ code: number | null; output: string }>; kill(signal: NodeJS.Signals): void; output(): string } {
  const child = spawn(process.execPath, ['server/server.ts'], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (d) => (output += d));
  child.stderr.on('data', (d) => (output += d));
  return {
    done: new Promise((resolve) => child.on('exit', (code) => resolve({ code, output }))),
    kill: (signal) => child.kill(signal),
    output: () => output,
  };
}

describe('boot', () => {
  it('refuses a bad environment with a clear message', async () => {
    expect(() => readEnv({ PORT: 'eighty' })).toThrow(/PORT must be an integer/);
    expect(() => readEnv({ DATABASE_URL: 'mysql://x' })).toThrow(/DATABASE_URL must start with postgres/);
    expect(() => readEnv({ SMS_PROVIDER: 'carrier-x' })).toThrow(/SMS_PROVIDER/);
    expect(() => readEnv({ ADDRESS_LIMIT_FACTOR: '0' })).toThrow(/ADDRESS_LIMIT_FACTOR/);
    expect(readEnv({ ADDRESS_LIMIT_FACTOR: '50' }).addressLimitFactor).toBe(50);
    const run = runServer({ PORT: '-1', DATA_DIR: path.join(tmp, 'bad') });
    const { code, output } = await run.done;
    expect(code).toBe(2);
    expect(output).toContain('PORT must be an integer');
  });

  it('refuses a deployment configuration file with unknown or mistyped settings', () => {
    const file = path.join(tmp, 'config.json');
    fs.writeFileSync(file, JSON.stringify({ allowRegister: 'yes', nope: 1 }));
    expect(() => loadDeploymentConfig(file)).toThrow(/allowRegister: must be a boolean[\s\S]*nope: unknown setting/);
    fs.writeFileSync(file, JSON.stringify({ allowUserNameLogin: true }));
    expect(loadDeploymentConfig(file).allowUserNameLogin).toBe(true);
  });

  it('logs structured JSON, serves, and shuts down gracefully on SIGTERM', async () => {
    const run = runServer({ PORT: '0', HOST: '127.0.0.1', DATA_DIR: path.join(tmp, 'ok'), APP_DIR: path.join(tmp, 'none') });
    const started = Date.now();
    while (!run.output().includes('Provena is running at') && Date.now() - started < 20_000) await new Promise((r) => setTimeout(r, 100));
    const line = run.output().split('\n').find((l) => l.includes('Provena is running at'))!;
    expect(JSON.parse(line)).toMatchObject({ level: 30 });
    const url = /http:\/\/[^"]+/.exec(line)![0];
    const health = await fetch(`${url}/api/health`);
    expect(await health.json()).toEqual({ data: { status: 'ok' } });
    expect(fs.existsSync(path.join(tmp, 'ok', 'provena.sqlite'))).toBe(true);
    run.kill('SIGTERM');
    const { code, output } = await run.done;
    expect(code).toBe(0);
    expect(output).toContain('SIGTERM received, closing');
  });
});

describe('static app with history fallback', () => {
  it('serves index.html for deep links and files as files, but 404 JSON for API paths', async () => {
    const appDir = path.join(tmp, 'app');
    fs.mkdirSync(path.join(appDir, 'assets'), { recursive: true });
    fs.writeFileSync(path.join(appDir, 'index.html'), '<!doctype html><div id=root></div>');
    fs.writeFileSync(path.join(appDir, 'assets', 'a.js'), 'console.log(1)');
    const app = await buildServer({ ...readEnv({ DATA_DIR: path.join(tmp, 'static'), APP_DIR: appDir, LOG_LEVEL: 'silent' }) }, { logger: false });
    try {
      const root = await app.inject({ method: 'GET', url: '/' });
      expect(root.statusCode).toBe(200);
      expect(root.body).toContain('<div id=root>');
      const deep = await app.inject({ method: 'GET', url: '/dashboard/setting/pass' });
      expect(deep.statusCode).toBe(200);
      expect(deep.headers['content-type']).toContain('text/html');
      expect(deep.body).toContain('<div id=root>');
      const asset = await app.inject({ method: 'GET', url: '/assets/a.js' });
      expect(asset.body).toBe('console.log(1)');
      expect(asset.headers['cache-control']).toContain('immutable');
      const api = await app.inject({ method: 'GET', url: '/api/v1/missing' });
      expect(api.statusCode).toBe(404);
      expect(api.json()).toEqual({ message: 'not_found' });
    } finally {
      await app.close();
    }
  });
});
