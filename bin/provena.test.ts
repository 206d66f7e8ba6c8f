import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const run = (...args: string[]) => spawnSync(process.execPath, ['bin/provena.ts', ...args], { encoding: 'utf8' });

describe('provena hash', () => {
  it('prints each file identity with the same digest as node:crypto', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'provena-cli-'));
    const a = path.join(dir, 'Report.PDF');
    const b = path.join(dir, 'Makefile');
    fs.writeFileSync(a, Buffer.alloc(20 * 1024 * 1024 + 7, 1));
    fs.writeFileSync(b, 'all:\n');
    const res = run('hash', a, b);
    expect(res.status).toBe(0);
    const sha = (f: string) => createHash('sha256').update(fs.readFileSync(f)).digest('hex');
    expect(res.stdout).toBe(`0x${sha(a)}.pdf  ${a}\n0x${sha(b)}  ${b}\n`);
    fs.rmSync(dir, { recursive: true });
  });

  it('exits non-zero naming a missing or unreadable file, and still hashes the rest', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'provena-cli-'));
    const ok = path.join(dir, 'ok.txt');
    fs.writeFileSync(ok, 'x');
    const res = run('hash', path.join(dir, 'missing.bin'), dir, ok);
    expect(res.status).toBe(1);
    expect(res.stderr).toContain(`cannot read ${path.join(dir, 'missing.bin')}: no such file`);
    expect(res.stderr).toContain('is a directory');
    expect(res.stdout).toContain('ok.txt');
    fs.rmSync(dir, { recursive: true });
  });

  it('explains its usage', () => {
    expect(run().status).toBe(2);
    expect(run('nope').stderr).toContain('unknown command "nope"');
    expect(run('--help').stdout).toContain('provena hash');
  });
});

describe('the CLI entry and its compile cache', () => {
  const withHome = (home: string, extra: Record<string, string> = {}) => {
    const env: Record<string, string | undefined> = { ...process.env, HOME: home, ...extra };
    delete env.XDG_CACHE_HOME;
    delete env.NODE_COMPILE_CACHE;
    delete env.NODE_DISABLE_COMPILE_CACHE;
    return spawnSync(process.execPath, ['bin/provena.ts', '--help'], { encoding: 'utf8', env, timeout: 60_000 });
  };

  it('keeps the cache in the user cache folder, made 0700, and runs where there is none (a HOME under /proc made recursive mkdir spin)', () => {
    const home = fs.mkdtempSync(path.join(os.tmpdir(), 'provena-home-'));
    fs.mkdirSync(path.join(home, '.cache'));
    const first = withHome(home);
    expect(first.status, first.stderr).toBe(0);
    const dir = path.join(home, '.cache', 'provena', 'node-compile-cache');
    expect(fs.statSync(dir).mode & 0o777).toBe(0o700);
    expect(fs.statSync(path.dirname(dir)).mode & 0o777).toBe(0o700);
    expect(fs.readdirSync(dir).length).toBeGreaterThan(0);
    // No cache folder, an impossible one, one under /proc: the CLI answers all the same, nothing made.
    const bare = fs.mkdtempSync(path.join(os.tmpdir(), 'provena-home-'));
    for (const h of [bare, '/etc/passwd', '/proc/provena-no-home']) {
      const res = withHome(h);
      expect(res.error, h).toBeUndefined();
      expect(res.status, `${h}: ${res.stderr}`).toBe(0);
      expect(res.stdout).toContain('provena');
    }
    expect(fs.readdirSync(bare)).toEqual([]);
    fs.rmSync(home, { recursive: true });
    fs.rmSync(bare, { recursive: true });
  }, 120_000);
});
