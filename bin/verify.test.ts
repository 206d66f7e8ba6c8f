import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

// An empty trust store: only what a test pins is trusted.
const config = fs.mkdtempSync(path.join(os.tmpdir(), 'provena-trust-store-'));
const env = { ...process.env, XDG_CONFIG_HOME: config, PROVENA_TRUST_ROOTS: '' };
const run = (...args: string[]) => spawnSync(process.execPath, ['bin/provena.ts', ...args], { encoding: 'utf8', env });
const FIX = 'tests/fixtures/proof';
const key = JSON.parse(fs.readFileSync(`${FIX}/platform-key.json`, 'utf8')).key_id as string;
const rootDer = Buffer.from(fs.readFileSync(`${FIX}/platform-root.pem`, 'utf8').replace(/-----[A-Z ]+-----|\s/g, ''), 'base64');
const rootFingerprint = createHash('sha256').update(rootDer).digest('hex');

describe('provena verify', () => {
  it('passes the test vector, printing every check and the summary', () => {
    const res = run('verify', `${FIX}/original.txt`, `${FIX}/proof.pdf`, '--trust', key);
    expect(res.status, res.stderr).toBe(0);
    expect(res.stdout).toContain('✓ audit path to block root');
    expect(res.stdout).toContain('VALID');
    expect(res.stdout).toContain('西安示例科技有限公司');
  });

  it('exits 1 naming the failed check: changed original, expiry, untrusted key, no package, not a PDF', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'provena-verify-'));
    const changed = path.join(dir, 'changed.txt');
    fs.writeFileSync(changed, fs.readFileSync(`${FIX}/original.txt`, 'utf8') + ' ');
    const a = run('verify', changed, `${FIX}/proof.pdf`);
    expect(a.status).toBe(1);
    expect(a.stderr).toContain('FAILED at check "file_hash": original and proof file do not match (hash_mismatch)');

    const b = run('verify', `${FIX}/original.txt`, `${FIX}/proof-expired.pdf`);
    expect(b.status).toBe(1);
    expect(b.stderr).toContain('"expiry"');

    // Intact but signed by a key nobody pinned: not valid, exit 3, saying what to pin.
    const c = run('verify', `${FIX}/original.txt`, `${FIX}/proof.pdf`, '--trust', 'ab'.repeat(32));
    expect(c.status).toBe(3);
    expect(c.stdout).toContain('? platform certificate chain');
    expect(c.stderr).toContain(`--trust-root ${rootFingerprint}`);
    expect(run('verify', `${FIX}/original.txt`, `${FIX}/proof.pdf`).status).toBe(3);

    const notPdf = path.join(dir, 'x.pdf');
    fs.writeFileSync(notPdf, 'hello');
    const d = run('verify', `${FIX}/original.txt`, notPdf);
    expect(d.status).toBe(1);
    expect(d.stderr).toContain('certificate parse error (parse_pdf_failed)');

    expect(run('verify', `${FIX}/original.txt`).status).toBe(2);
    const help = run('verify', '--help');
    expect(help.status).toBe(0);
    expect(help.stdout).toMatch(/Exit codes:\n  0  valid.*\n  1  a check failed.*\n  2  usage error or unreadable input\n  3  every check passed but the signer is not trusted/);
    expect(run('--help').stdout).toContain('3 every check passed but the signer is not trusted');
    expect(run('verify', path.join(dir, 'missing'), `${FIX}/proof.pdf`).status).toBe(2);
    fs.rmSync(dir, { recursive: true });
  }, 120_000);

  it('the packed CLI (cli/, chunks) gives the same answers: valid, a changed original, an untrusted signer; `hash` and `--help` load no pdf.js', () => {
    const out = fs.mkdtempSync(path.join(os.tmpdir(), 'provena-packed-cli-'));
    const built = spawnSync(process.execPath, ['scripts/build-cli.ts', '--out', out], { encoding: 'utf8' });
    expect(built.status, built.stderr).toBe(0);
    const packed = (...args: string[]) => spawnSync(process.execPath, [path.join(out, 'provena.mjs'), ...args], { encoding: 'utf8', env });
    // pdf.js and its worker are chunks of their own, not in the entry.
    const entry = fs.readFileSync(path.join(out, 'provena.mjs'), 'utf8');
    expect(entry).not.toContain('WorkerMessageHandler');
    expect(fs.readdirSync(path.join(out, 'chunks')).some((f) => f.startsWith('pdf.worker'))).toBe(true);
    const ok = packed('verify', `${FIX}/original.txt`, `${FIX}/proof.pdf`, '--trust', key);
    expect(ok.status, ok.stderr).toBe(0);
    expect(ok.stdout).toContain('VALID');
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'provena-verify-'));
    const changed = path.join(dir, 'changed.txt');
    fs.writeFileSync(changed, fs.readFileSync(`${FIX}/original.txt`, 'utf8') + ' ');
    expect(packed('verify', changed, `${FIX}/proof.pdf`, '--trust', key).status).toBe(1);
    expect(packed('verify', `${FIX}/original.txt`, `${FIX}/proof.pdf`).status).toBe(3);
    const hashed = packed('hash', `${FIX}/original.txt`);
    expect(hashed.status, hashed.stderr).toBe(0);
    expect(hashed.stdout).toContain(createHash('sha256').update(fs.readFileSync(`${FIX}/original.txt`)).digest('hex'));
    expect(packed('--help').stdout).toContain('3 every check passed but the signer is not trusted');
    fs.rmSync(dir, { recursive: true });
    fs.rmSync(out, { recursive: true });
  }, 120_000);
});
