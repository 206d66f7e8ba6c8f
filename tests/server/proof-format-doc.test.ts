import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { decodePackage, type ProofPackage } from '../../core/ledger/package.ts';
import { extractPackageNode } from '../../server/proofs/extract.ts';
import { startHarness, type Harness } from './harness.ts';
import { AUDIT_PATH } from '../../src/features/verify/standard-tool-snippets.ts';
import { readProofPdf } from '../../server/services/proof-pdf.ts';

/**
 * docs/proof-format.md says how to verify a proof with standard tools only. Every code
 * block of it runs here, in order, against a proof the real ledger issues now, and what
 * each prints is compared with the package (so the page cannot drift from the code).
 */
vi.setConfig({ testTimeout: 120_000 });

const DOC = fs.readFileSync('docs/proof-format.md', 'utf8');
const blocks = [...DOC.matchAll(/```(\w+)\n([\s\S]*?)```/g)].map((m) => ({ lang: m[1]!, code: m[2]! }));
/** Blocks that need a node of an EVM chain ($RPC_URL): the anchor tests cover what they ask. */
const needsChain = (code: string) => code.includes('$RPC_URL');

let h: Harness;
let dir: string;
let pkg: ProofPackage;
let rootFingerprint: string;
const content = 'An original file, verified with standard tools only.\n';
const sha = (s: string) => createHash('sha256').update(s).digest('hex');

beforeAll(async () => {
  h = await startHarness();
  await h.app.ledger.stop();
  // A few entries so the audit path has hashes in it.
  for (const n of [1, 2]) await h.app.registerEntry({ fileHash: `0x${sha(`filler ${n}`)}`, enterpriseName: 'Filler Ltd', registrantUserId: null, kind: 'asset' });
  const r = await h.app.registerEntry({ fileHash: `0x${sha(content)}.txt`, enterpriseName: '西安示例科技有限公司', registrantUserId: null, kind: 'asset' });
  await h.app.registerEntry({ fileHash: `0x${sha('filler 3')}`, enterpriseName: 'Filler Ltd', registrantUserId: null, kind: 'asset' });
  await h.app.ledger.sealNow();
  await h.app.proofs.drain();
  const pdf = (await readProofPdf(h.app.db, h.app.fileStore.driver, r.dna))!;
  pkg = await decodePackage((await extractPackageNode(new Uint8Array(pdf)))!);
  const roots = (await h.request({ method: 'GET', url: '/api/v1/ledger/platform-roots' })).json().data as { fingerprint: string; certificate: string }[];
  rootFingerprint = roots[0]!.fingerprint;
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'provena-doc-'));
  fs.writeFileSync(path.join(dir, 'original.txt'), content);
  fs.writeFileSync(path.join(dir, 'proof.pdf'), pdf);
  fs.writeFileSync(path.join(dir, 'root.pem'), `-----BEGIN CERTIFICATE-----\n${roots[0]!.certificate.match(/.{1,64}/g)!.join('\n')}\n-----END CERTIFICATE-----\n`);
});
afterAll(async () => {
  await h?.close();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

const run = (lang: string, code: string) =>
  lang === 'sh'
    ? execFileSync('bash', ['-e', '-o', 'pipefail', '-c', code], { cwd: dir, encoding: 'utf8' })
    : execFileSync('python3', ['-c', code], { cwd: dir, encoding: 'utf8' });

describe('docs/proof-format.md', () => {
  it('has the code blocks this test knows, and its package example lists the package fields', () => {
    expect(blocks.map((b) => b.lang)).toEqual(['json', 'sh', 'python', 'python', 'sh', 'python', 'sh', 'sh']);
    const documented = [...blocks[0]!.code.matchAll(/^ {2}"(\w+)":/gm)].map((m) => m[1]);
    expect(documented).toEqual(Object.keys(pkg));
    const statement = /"statement": \{(.*)\}/.exec(blocks[0]!.code)![1]!;
    expect([...statement.matchAll(/"(\w+)":/g)].map((m) => m[1])).toEqual(Object.keys(pkg.statement));
    expect(pkg.statement).not.toHaveProperty('type');
  });

  it('the record example has the kind the platform writes for a registered asset', () => {
    const example = /`(\{"v":1,"kind":"[a-z]+".*?\})`/.exec(DOC)![1]!;
    expect(JSON.parse(example.replace('<64 hex>', '0').replace('<ms>', '0')).kind).toBe(JSON.parse(pkg.record).kind);
  });

  it('every standard-tools command runs and prints what the package says', () => {
    const [shell, auditPath, dna] = [blocks[1]!, blocks[2]!, blocks[3]!];
    const lines = run(shell.lang, shell.code).trim().split('\n');
    const first = (line: string | undefined) => (line ?? '').split(/\s+/)[0];
    const digest = sha(content);
    // 1. the original is the registered file
    expect(lines[0]).toBe(digest);
    expect(lines[1]).toBe(pkg.file_hash);
    // 2. the salt opens the commitment
    expect(first(lines[2])).toBe(lines[3]);
    expect(lines[3]).toBe(JSON.parse(pkg.record).commitment);
    // 3. the leaf hash
    expect(first(lines[4])).toBe(pkg.statement.leaf_hash);
    // 4. block hash, key id, block signature, the X.509 chain
    expect(first(lines[5])).toBe(lines[6]);
    expect(lines[6]).toBe(pkg.block.hash);
    expect(first(lines[7])).toBe(pkg.platform_key.key_id);
    expect(lines[8]).toBe('Verified OK');
    expect(first(lines[9])).toBe(rootFingerprint);
    expect(lines[10]).toBe('signer.pem: OK');
    expect(first(lines[11])).toBe(pkg.platform_key.key_id);
    // 5. the statement's signature and expiry
    expect(lines[12]).toBe('Verified OK');
    expect(Number(lines[13])).toBe(pkg.statement.expires_at);
    expect(lines).toHaveLength(14);

    // 6. the audit path, and its bounds checks refuse what is out of bounds
    expect(pkg.inclusion.length).toBeGreaterThan(0);
    expect(run(auditPath.lang, auditPath.code).trim()).toBe('True');
    const good = fs.readFileSync(path.join(dir, 'pkg.json'), 'utf8');
    const tampered: Array<Partial<ProofPackage>> = [
      { leaf_index: pkg.block.header.tree_size },
      { inclusion: [...pkg.inclusion, pkg.inclusion[0]!] },
      { inclusion: pkg.inclusion.slice(1) },
    ];
    for (const patch of tampered) {
      fs.writeFileSync(path.join(dir, 'pkg.json'), JSON.stringify({ ...pkg, ...patch }));
      expect(run(auditPath.lang, auditPath.code).trim(), JSON.stringify(patch)).toBe('False');
    }
    fs.writeFileSync(path.join(dir, 'pkg.json'), good);

    // 7. the asset DNA
    expect(run(dna.lang, dna.code).trim()).toBe(pkg.asset_dna);

    // 8. the checkpoint the certificate carries: its note is signed by the platform key (key.pem from step 4).
    const checkpoint = blocks[4]!;
    expect(checkpoint.code).toContain('.checkpoint.note');
    expect(pkg.checkpoint).toBeTruthy();
    expect(run(checkpoint.lang, checkpoint.code).trim()).toBe('Verified OK');

    // 9. the page signature: the bytes it covers, its CMS and time-stamp token (Python), then pdfsig and OpenSSL.
    const [extract, tools] = [blocks[5]!, blocks[6]!];
    expect(run(extract.lang, extract.code).trim()).toBe('whole file signed: True');
    expect(run(tools.lang, tools.code).trimEnd().split('\n')).toEqual([
      '  - Total document signed',
      '  - Signature Validation: Signature is Valid.',
      '  - Certificate Validation: Certificate is Trusted.',
      'CMS Verification successful',
      'Verification: OK',
    ]);

    // The anchor block needs a chain node ($RPC_URL); this proof has no anchor.
    expect(blocks.filter((b) => needsChain(b.code))).toHaveLength(1);
    expect(pkg.anchor).toBeNull();
  });

  it('the verification page shows the same audit-path check the page runs', () => {
    expect(AUDIT_PATH).toBe(blocks[2]!.code.trimEnd());
  });

  it('is right that jq -cj does not write JSON.stringify bytes for every text (DEL)', () => {
    const value = { enterprise_name: 'a\u007fb' };
    const byJq = execFileSync('jq', ['-cj', '.'], { input: JSON.stringify(value), encoding: 'utf8' });
    expect(byJq).not.toBe(JSON.stringify(value));
    expect(byJq).toBe('{"enterprise_name":"a\\u007fb"}');
    expect(DOC).toContain('jq escapes DEL');
  });
});
