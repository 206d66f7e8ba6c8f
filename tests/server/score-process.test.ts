import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort } from '../../scripts/local-servers.ts';

/** The score API as a process of its own (§7 "separate host"): boots on its port and answers. */
let child: ChildProcess | undefined;
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'provena-score-process-'));
afterAll(() => {
  child?.kill('SIGTERM');
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe('node server/score/server.ts', () => {
  it('serves the score API alone on SCORE_PORT', async () => {
    const port = await freePort();
    child = spawn(process.execPath, ['server/score/server.ts'], {
      env: { ...process.env, DATA_DIR: dataDir, SCORE_PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn', SCORE_RECOMPUTE_MINUTES: '0', DATABASE_URL: '' },
      stdio: 'pipe',
    });
    let output = '';
    child.stderr?.on('data', (chunk) => (output += chunk));
    const base = `http://127.0.0.1:${port}/score-api/v1`;
    let res: Response | undefined;
    for (let i = 0; i < 100 && !res; i++) {
      res = await fetch(`${base}/enterprise/latest-activate`).catch(() => undefined);
      if (!res) await new Promise((r) => setTimeout(r, 100));
    }
    expect(res, output).toBeDefined();
    expect(await res!.json()).toEqual({ data: { id: 0, updated_at: 0, uuid: null, name: null } });
    expect(await (await fetch(`${base}/metric`)).json()).toEqual({ data: [] });
    const unknown = await fetch(`${base}/score/00000000-0000-4000-8000-000000000000`);
    expect(unknown.status).toBe(400);
    expect(await unknown.json()).toEqual({ message: 'enterprise_not_found', field_name: 'uuid' });
    // Nothing else of the platform is served there.
    expect((await fetch(`http://127.0.0.1:${port}/api/v1/users`)).status).toBe(404);
  });

  it('refuses a bad SCORE_PORT with a clear message', async () => {
    const bad = spawn(process.execPath, ['server/score/server.ts'], { env: { ...process.env, DATA_DIR: dataDir, SCORE_PORT: 'eighty' }, stdio: 'pipe' });
    let output = '';
    bad.stderr?.on('data', (chunk) => (output += chunk));
    const code = await new Promise<number | null>((resolve) => bad.on('exit', resolve));
    expect(code).toBe(2);
    expect(output).toContain('SCORE_PORT must be an integer');
  });
});
