import { execFileSync, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * The CLI is a real package: packed (`npm pack` in cli/, which bundles bin/ to JavaScript),
 * installed globally into a throwaway prefix, and run from there, where no TypeScript, no
 * repository and no node_modules of ours exist.
 */
const root = path.resolve(import.meta.dirname, '..');
let tmp: string;
let provena: string;
const run = (...args: string[]) => spawnSync(provena, args, { encoding: 'utf8', cwd: tmp, env: { ...process.env, XDG_CONFIG_HOME: path.join(tmp, 'config'), PROVENA_TRUST_ROOTS: '' } });
const fixture = (f: string) => path.join(root, 'tests', 'fixtures', 'proof', f);
const rootFingerprint = () => {
  const pem = fs.readFileSync(fixture('platform-root.pem'), 'utf8');
  const der = Buffer.from(pem.replace(/-----[^-]+-----|\s/g, ''), 'base64');
  return createHash('sha256').update(der).digest('hex');
};

beforeAll(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'provena-pack-'));
  const out = execFileSync('npm', ['pack', '--pack-destination', tmp, '--json'], { cwd: path.join(root, 'cli'), encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
  const [{ filename }] = JSON.parse(out.slice(out.indexOf('['))) as [{ filename: string }];
  const prefix = path.join(tmp, 'prefix');
  execFileSync('npm', ['i', '-g', '--prefix', prefix, '--offline', '--no-audit', '--no-fund', path.join(tmp, filename)], { cwd: tmp, stdio: 'ignore' });
  provena = path.join(prefix, 'bin', 'provena');
}, 180_000);
afterAll(() => {
  if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
});

describe('the packed CLI', () => {
  it('installs from its tarball and answers --version and --help, for itself and every command', () => {
    const version = (JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as { version: string }).version;
    expect(run('--version')).toMatchObject({ status: 0, stdout: `${version}\n` });
    const help = run('--help');
    expect(help.status).toBe(0);
    for (const command of ['hash', 'verify', 'trust']) {
      expect(help.stdout).toContain(`provena ${command} `);
      const own = run(command, '--help');
      expect(own.status).toBe(0);
      expect(own.stdout).toMatch(new RegExp(`^usage: provena ${command}`));
    }
    expect(run('verify', '--help').stdout).toMatch(/3 {2}every check passed but the signer is not trusted/);
    expect(run().status).toBe(2);
    expect(run('nonsense').status).toBe(2);
  });

  it('verifies a proof: 0 with its root pinned, 3 with nothing pinned, 1 for another original', () => {
    expect(run('verify', fixture('original.txt'), fixture('proof.pdf')).status).toBe(3);
    const ok = run('verify', fixture('original.txt'), fixture('proof.pdf'), '--trust-root', rootFingerprint());
    expect(ok.stderr).toBe('');
    expect(ok.status).toBe(0);
    expect(ok.stdout).toMatch(/^VALID$/m);
    const json = run('verify', fixture('original.txt'), fixture('proof.pdf'), '--trust-root', rootFingerprint(), '--json');
    expect(JSON.parse(json.stdout)).toMatchObject({ valid: true, failed_check: null });
    const wrong = run('verify', fixture('platform-root.pem'), fixture('proof.pdf'), '--trust-root', rootFingerprint());
    expect(wrong.status).toBe(1);
  });

  it('hashes with node:crypto by default and with the WebAssembly core on request, the same digest as sha256', () => {
    const expected = createHash('sha256').update(fs.readFileSync(fixture('proof.pdf'))).digest('hex');
    for (const engine of [[], ['--engine', 'wasm'], ['--engine', 'node']]) {
      const r = run('hash', ...engine, fixture('proof.pdf'));
      expect(r.status).toBe(0);
      expect(r.stdout).toBe(`0x${expected}.pdf  ${fixture('proof.pdf')}\n`);
    }
    expect(run('hash', '--engine', 'gpu', fixture('proof.pdf')).status).toBe(2);
  });

  it('says where the server commands run instead of failing obscurely', () => {
    const r = run('ledger-verify');
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/runs on a Provena server installation/);
  });
});
