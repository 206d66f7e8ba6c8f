import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { Certificate } from 'pkijs';
import { fromBase64 } from '../../core/ledger/bytes.ts';
import { decodePackage } from '../../core/ledger/package.ts';
import { extractPackageNode } from '../../server/proofs/extract.ts';
import { startHarness, type Harness } from './harness.ts';
import { listen } from './storage-helpers.ts';
import { readProofPdf } from '../../server/services/proof-pdf.ts';

/**
 * Trust fails closed. A forger runs their own copy of the platform (a fresh database makes
 * its own "Provena Platform Root CA" and ledger) and issues a proof that passes every
 * check: the verify API, and `provena verify` without a pinned root, must not call it valid.
 */
vi.setConfig({ testTimeout: 120_000 });

let platform: Harness;
let forger: Harness;
let base: string;
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'provena-trust-'));
const sha = (bytes: Buffer | string) => createHash('sha256').update(bytes).digest('hex');

/** A proof from `h`'s own ledger for `content`, registered by its in-process service as a feature would. */
async function issue(h: Harness, content: string): Promise<{ pdf: Uint8Array; dna: string; original: string }> {
  const r = await h.app.registerEntry({ fileHash: `0x${sha(content)}.txt`, enterpriseName: '西安测试科技有限公司', registrantUserId: null, kind: 'file' });
  await h.app.ledger.sealNow();
  await h.app.proofs.drain();
  const pdf = new Uint8Array((await readProofPdf(h.app.db, h.app.fileStore.driver, r.dna))!);
  const original = path.join(dir, `${r.dna}.txt`);
  fs.writeFileSync(original, content);
  return { pdf, dna: r.dna, original };
}

function verifyOverApi(h: Harness, hash: string, pdf: Uint8Array) {
  const boundary = '----provena' + Math.random().toString(16).slice(2);
  const head = Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="hash"\r\n\r\n${hash}\r\n--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="proof.pdf"\r\nContent-Type: application/pdf\r\n\r\n`);
  return h.app.inject({ method: 'PUT', url: '/verify-api/v1/public/zkp-proof-verify', headers: { 'content-type': `multipart/form-data; boundary=${boundary}` }, payload: Buffer.concat([head, Buffer.from(pdf), Buffer.from(`\r\n--${boundary}--\r\n`)]) });
}

/** `provena …` in a child process (asynchronously: the platform answering `trust add` runs in this one). */
function cli(args: string[], env: Record<string, string> = {}): Promise<{ status: number; stdout: string; stderr: string }> {
  const childEnv: NodeJS.ProcessEnv = { ...process.env, XDG_CONFIG_HOME: path.join(dir, 'config'), ...env };
  if (!('PROVENA_TRUST_ROOTS' in env)) delete childEnv.PROVENA_TRUST_ROOTS;
  return new Promise((resolve) => {
    execFile(process.execPath, ['bin/provena.ts', ...args], { env: childEnv, encoding: 'utf8' }, (error, stdout, stderr) => {
      resolve({ status: error ? Number((error as { code?: number }).code ?? 1) : 0, stdout, stderr });
    });
  });
}

let real: Awaited<ReturnType<typeof issue>>;
let forged: Awaited<ReturnType<typeof issue>>;
let platformRoot: string;
let forgerRoot: string;

beforeAll(async () => {
  platform = await startHarness();
  forger = await startHarness();
  await platform.app.ledger.stop();
  await forger.app.ledger.stop();
  base = await listen(platform);
  real = await issue(platform, 'the original work');
  forged = await issue(forger, 'a forged work');
  const roots = async (h: Harness) => ((await h.request({ method: 'GET', url: '/api/v1/ledger/platform-roots' })).json().data as { fingerprint: string }[])[0]!.fingerprint;
  platformRoot = await roots(platform);
  forgerRoot = await roots(forger);
});
afterAll(async () => {
  await platform?.close();
  await forger?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('a proof signed by a self-made "Provena Platform Root CA"', () => {
  it('is a well-formed proof under a root of that name: every check but trust passes', async () => {
    const pkg = await decodePackage((await extractPackageNode(forged.pdf))!);
    const root = Certificate.fromBER(new Uint8Array(fromBase64(pkg.platform_certificates![1]!)));
    expect(root.subject.typesAndValues.map((t) => t.value.valueBlock.value)).toContain('Provena Platform Root CA');
    expect(forgerRoot).not.toBe(platformRoot);
  });

  it('is refused by the verify API, which pins its own roots', async () => {
    const res = await verifyOverApi(platform, sha('a forged work'), forged.pdf);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ message: 'proof_signer_untrusted', failed_check: 'platform_certificate' });
    // The platform's own proof passes, in its own ledger.
    const ok = await verifyOverApi(platform, sha('the original work'), real.pdf);
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json().data.checks.find((c: { id: string }) => c.id === 'platform_ledger')).toMatchObject({ ok: true });
  });

  it('answers exit 3 from provena verify with no pinned root, saying how to pin it', async () => {
    const forgedPdf = path.join(dir, 'forged.pdf');
    fs.writeFileSync(forgedPdf, forged.pdf);
    const res = await cli(['verify', forged.original, forgedPdf]);
    expect(res.status, res.stderr).toBe(3);
    expect(res.stdout).not.toContain('VALID');
    expect(res.stderr).toContain('UNTRUSTED');
    expect(res.stderr).toContain('provena trust add <platform URL>');
    expect(res.stderr).toContain(`--trust-root ${forgerRoot}`);
  });
});

describe("the verify API checks a proof against its own ledger", () => {
  it("a block it holds with another hash, or a block without the entry, is 'not in this platform's ledger', never valid", async () => {
    const entry = await platform.app.db.selectFrom('ledger_entries').select(['block_height']).where('dna', '=', real.dna).executeTakeFirstOrThrow();
    const height = Number(entry.block_height);
    const block = await platform.app.db.selectFrom('ledger_blocks').select('hash').where('height', '=', height).executeTakeFirstOrThrow();
    try {
      await platform.app.db.updateTable('ledger_blocks').set({ hash: 'ff'.repeat(32) }).where('height', '=', height).execute();
      const res = await verifyOverApi(platform, sha('the original work'), real.pdf);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ message: 'proof_not_in_ledger', failed_check: 'platform_ledger' });
    } finally {
      await platform.app.db.updateTable('ledger_blocks').set({ hash: block.hash }).where('height', '=', height).execute();
    }
    try {
      await platform.app.db.updateTable('ledger_entries').set({ block_height: height + 1000 }).where('dna', '=', real.dna).execute();
      const res = await verifyOverApi(platform, sha('the original work'), real.pdf);
      expect(res.json()).toMatchObject({ message: 'proof_not_in_ledger', failed_check: 'platform_ledger' });
    } finally {
      await platform.app.db.updateTable('ledger_entries').set({ block_height: height }).where('dna', '=', real.dna).execute();
    }
    expect((await verifyOverApi(platform, sha('the original work'), real.pdf)).statusCode).toBe(200);
  });
});

describe('provena trust add | list | remove against a running platform', () => {
  it('pins the fetched roots in a 0600 file in a 0700 folder; verify trusts them, PROVENA_TRUST_ROOTS and --trust-root too', async () => {
    const realPdf = path.join(dir, 'real.pdf');
    fs.writeFileSync(realPdf, real.pdf);
    const forgedPdf = path.join(dir, 'forged.pdf');
    fs.writeFileSync(forgedPdf, forged.pdf);

    expect((await cli(['verify', real.original, realPdf])).status).toBe(3);
    expect((await cli(['trust', 'list'])).stdout).toContain('no pinned platform roots');

    const added = await cli(['trust', 'add', base]);
    expect(added.status, added.stderr).toBe(0);
    expect(added.stdout).toContain(`pinned ${platformRoot}`);
    const file = path.join(dir, 'config', 'provena', 'trust.json');
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(fs.statSync(path.dirname(file)).mode & 0o777).toBe(0o700);
    expect(JSON.parse(fs.readFileSync(file, 'utf8')).roots).toEqual([{ fingerprint: platformRoot, platform: base, added_at: expect.any(String) }]);
    expect((await cli(['trust', 'add', base])).stdout).toContain(`already pinned ${platformRoot}`);
    expect((await cli(['trust', 'list'])).stdout).toContain(`${platformRoot}  ${base}`);

    const valid = await cli(['verify', real.original, realPdf]);
    expect(valid.status, valid.stderr).toBe(0);
    expect(valid.stdout).toContain('VALID');
    // The forger's proof stays untrusted next to the pinned root; a changed original is a failed check (1).
    expect((await cli(['verify', forged.original, forgedPdf])).status).toBe(3);
    expect((await cli(['verify', forged.original, realPdf])).status).toBe(1);

    // --json: the API's snake_case names.
    const json = await cli(['verify', forged.original, forgedPdf, '--json']);
    expect(json.status).toBe(3);
    const verdict = JSON.parse(json.stdout);
    expect(verdict).toMatchObject({ valid: false, untrusted: true, message: 'proof_signer_untrusted', failed_check: 'platform_certificate', signer: { root_fingerprint: forgerRoot } });
    expect(verdict.checks[0]).toEqual({ id: 'pdf', ok: true, skipped: false, untrusted: false, message: null, detail: expect.any(String) });
    expect(JSON.stringify(verdict)).not.toMatch(/"(is[A-Z]|failedCheck|[a-z]+[A-Z][a-z]+")/);

    // CI pins by environment or flag; a malformed environment value is a usage error.
    expect((await cli(['verify', forged.original, forgedPdf], { PROVENA_TRUST_ROOTS: `${'ab'.repeat(32)}, ${forgerRoot}` })).status).toBe(0);
    expect((await cli(['verify', forged.original, forgedPdf, '--trust-root', forgerRoot])).status).toBe(0);
    expect((await cli(['verify', forged.original, forgedPdf], { PROVENA_TRUST_ROOTS: 'nope' })).status).toBe(2);

    const removed = await cli(['trust', 'remove', platformRoot]);
    expect(removed.status, removed.stderr).toBe(0);
    expect((await cli(['trust', 'list'])).stdout).toContain('no pinned platform roots');
    expect((await cli(['verify', real.original, realPdf])).status).toBe(3);
    expect((await cli(['trust', 'remove', platformRoot])).status).toBe(1);
    expect((await cli(['trust', 'add', 'not a url'])).status).toBe(2);
    expect((await cli(['trust'])).status).toBe(2);
  });
});
