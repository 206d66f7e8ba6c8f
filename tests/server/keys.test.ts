import { execFile, execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it, vi } from 'vitest';
import SQLite from 'better-sqlite3';
import type { FastifyInstance } from 'fastify';
import { buildServer } from '../../server/build-app.ts';
import { readEnv } from '../../server/env.ts';
import { DEFAULT_CONFIG } from '../../core/config.ts';
import { fromBase64, toBase64 } from '../../core/ledger/bytes.ts';
import { blockHash, encodeHeader, signText, type BlockHeader } from '../../core/ledger/block.ts';
import { verifyCertificate } from '../../core/ledger/package.ts';
import { extractPackageNode } from '../../server/proofs/extract.ts';
import { loadPlatformSigner } from '../../server/keys/platform-keys.ts';
import { KEK_FILE, ROOT_PASSPHRASE_FILE } from '../../server/keys/keyring.ts';
import { readProofPdf } from '../../server/services/proof-pdf.ts';

/**
 * Platform keys at rest. The attack: someone walks away with a copy of the data folder's
 * database (a backup, a snapshot, a misplaced dump). Before, provena.sqlite held the block
 * key and the root CA key as plaintext PKCS#8: the thief signed a block of their own that
 * passed root pinning. Now every key is sealed (KEK or HSM), the root offline under a
 * passphrase, and DATA_DIR is 0700 with 0600 files.
 */
vi.setConfig({ testTimeout: 120_000 });
const run = promisify(execFile);
const sha = (s: string | Buffer) => createHash('sha256').update(s).digest('hex');
const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
});

function tempDir(prefix: string): string {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  dirs.push(d);
  return d;
}

async function boot(dataDir: string, extraEnv: Record<string, string> = {}): Promise<FastifyInstance> {
  const env = readEnv({ DATA_DIR: dataDir, LOG_LEVEL: 'silent', APP_DIR: path.join(dataDir, 'no-app'), ...extraEnv });
  const app = await buildServer(env, { config: DEFAULT_CONFIG, logger: false });
  await app.ready();
  return app;
}

async function issueProof(app: FastifyInstance, content: string): Promise<Uint8Array> {
  const r = await app.registerEntry({ fileHash: `0x${sha(content)}.txt`, enterpriseName: '西安测试科技有限公司', registrantUserId: null, kind: 'file' });
  await app.ledger.sealNow();
  await app.proofs.drain();
  return new Uint8Array((await readProofPdf(app.db, app.fileStore.driver, r.dna))!);
}

async function rootFingerprints(app: FastifyInstance): Promise<string[]> {
  return (await app.db.selectFrom('platform_roots').select('fingerprint').execute()).map((r) => r.fingerprint);
}

/** The base64 of a P-256 PKCS#8 header: any plaintext key in the file starts with it. */
const PKCS8_P256_B64_PREFIX = 'MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQg';

describe('a stolen database', () => {
  it('holds no private key in the clear, and what it holds does not sign a forged block', async () => {
    const dataDir = tempDir('provena-keys-');
    const app = await boot(dataDir);
    await issueProof(app, 'first work');
    await app.close();

    // The thief copies the database (and its WAL) but not the KEK or the root passphrase.
    const stolen = tempDir('provena-stolen-');
    for (const f of fs.readdirSync(dataDir).filter((f) => f.startsWith('provena.sqlite'))) fs.copyFileSync(path.join(dataDir, f), path.join(stolen, f));
    for (const f of fs.readdirSync(stolen)) expect(fs.readFileSync(path.join(stolen, f)).includes(PKCS8_P256_B64_PREFIX), `${f} holds a plaintext PKCS#8 key`).toBe(false);

    const db = new SQLite(path.join(stolen, 'provena.sqlite'), { readonly: true });
    const stored = [
      ...db.prepare('select sealed_key, spki from ledger_keys').all(),
      ...db.prepare('select sealed_key, spki from platform_roots').all(),
      ...db.prepare('select sealed_key, spki from enterprise_cas').all(),
      ...db.prepare('select sealed_key, spki from platform_keys').all(),
    ] as { sealed_key: string; spki: string }[];
    const blockKey = db.prepare('select key_id from ledger_keys').get() as { key_id: string };
    const head = db.prepare('select height, hash, tree_size, root, sealed_at from ledger_blocks order by height desc limit 1').get() as { height: number; hash: string; tree_size: number; root: string; sealed_at: number };
    db.close();
    expect(stored.length).toBe(5); // block, root, enterprise CA, proof, time-stamping
    for (const row of stored) {
      const envelope = JSON.parse(row.sealed_key) as { backend: string; ct?: string };
      expect(['local', 'offline']).toContain(envelope.backend);
      // Neither the sealed text nor its ciphertext imports as a private key.
      await expect(crypto.subtle.importKey('pkcs8', fromBase64(envelope.ct!) as Uint8Array<ArrayBuffer>, { name: 'ECDSA', namedCurve: 'P-256' }, false, ['sign'])).rejects.toThrow();
    }
    const root = stored.find((r) => JSON.parse(r.sealed_key).backend === 'offline');
    expect(root, 'the root CA key is sealed under its passphrase, not the KEK').toBeTruthy();

    // The thief's best try: a key of their own signing the next block. It does not verify under the platform key.
    const forgedKey = await crypto.subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-256' }, true, ['sign', 'verify']);
    const header: BlockHeader = { v: 1, height: head.height + 1, prev_hash: head.hash, tree_size: Number(head.tree_size), root: head.root, sealed_at: Date.now(), key_id: blockKey.key_id };
    const signature = await signText(forgedKey.privateKey, encodeHeader(header));
    const again = await boot(dataDir);
    try {
      const platformSpki = (await again.db.selectFrom('ledger_keys').select('spki').executeTakeFirstOrThrow()).spki;
      const publicKey = await crypto.subtle.importKey('spki', fromBase64(platformSpki) as Uint8Array<ArrayBuffer>, { name: 'ECDSA', namedCurve: 'P-256' }, true, ['verify']);
      const { verifyText } = await import('../../core/ledger/block.ts');
      expect(await verifyText(publicKey, encodeHeader(header), signature)).toBe(false);
      expect(blockHash(header)).toMatch(/^[0-9a-f]{64}$/);
    } finally {
      await again.close();
    }
  });

  it('does not open with another key-encryption key, nor with a sealed key moved to another row', async () => {
    const dataDir = tempDir('provena-keys-');
    const app = await boot(dataDir);
    await app.close();
    // Another KEK: the keys do not open, and boot says why instead of making new keys.
    await expect(boot(dataDir, { KEY_ENCRYPTION_KEY: 'ab'.repeat(32) })).rejects.toThrow(/key-encryption key/);

    // The right KEK, but the proof key's sealed bytes pasted onto the time-stamping key's row.
    const db = new SQLite(path.join(dataDir, 'provena.sqlite'));
    const proof = db.prepare("select sealed_key from platform_keys where purpose = 'proof'").get() as { sealed_key: string };
    db.prepare("update platform_keys set sealed_key = ? where purpose = 'tsa'").run(proof.sealed_key);
    db.close();
    const moved = await boot(dataDir);
    try {
      await expect(loadPlatformSigner(moved.db, 'tsa')).rejects.toThrow(/does not open/);
    } finally {
      await moved.close();
    }
  });

  it('seals the plaintext keys an older version left, at boot', async () => {
    const dataDir = tempDir('provena-keys-');
    const app = await boot(dataDir);
    await app.close();
    // A retired key row as an older version stored it: base64 PKCS#8 in the clear.
    const pair = await crypto.subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-256' }, true, ['sign', 'verify']);
    const spki = new Uint8Array(await crypto.subtle.exportKey('spki', pair.publicKey));
    const pkcs8 = new Uint8Array(await crypto.subtle.exportKey('pkcs8', pair.privateKey));
    const db = new SQLite(path.join(dataDir, 'provena.sqlite'));
    db.prepare('insert into ledger_keys (key_id, spki, sealed_key, created_at, retired_at) values (?, ?, ?, ?, ?)').run(sha(Buffer.from(spki)), toBase64(spki), toBase64(pkcs8), 1, 2);
    db.close();
    expect(fs.readFileSync(path.join(dataDir, 'provena.sqlite')).includes(PKCS8_P256_B64_PREFIX) || fs.readFileSync(path.join(dataDir, 'provena.sqlite-wal')).includes(PKCS8_P256_B64_PREFIX)).toBe(true);
    const again = await boot(dataDir);
    const row = await again.db.selectFrom('ledger_keys').select('sealed_key').where('key_id', '=', sha(Buffer.from(spki))).executeTakeFirstOrThrow();
    await again.close();
    expect(JSON.parse(row.sealed_key)).toMatchObject({ backend: 'local', alg: 'A256GCM' });
    const db2 = new SQLite(path.join(dataDir, 'provena.sqlite'));
    db2.pragma('wal_checkpoint(TRUNCATE)');
    db2.prepare('vacuum').run();
    db2.close();
    expect(fs.readFileSync(path.join(dataDir, 'provena.sqlite')).includes(PKCS8_P256_B64_PREFIX)).toBe(false);
  });
});

describe('DATA_DIR', () => {
  it('is 0700 with every file 0600, created that way and repaired at boot', async () => {
    const dataDir = tempDir('provena-perm-');
    const app = await boot(dataDir);
    await issueProof(app, 'a work');
    const looseCheck = () => {
      const loose: string[] = [];
      const walk = (d: string) => {
        if ((fs.statSync(d).mode & 0o077) !== 0) loose.push(d);
        for (const e of fs.readdirSync(d, { withFileTypes: true })) {
          const p = path.join(d, e.name);
          if (e.isDirectory()) walk(p);
          else if ((fs.statSync(p).mode & 0o077) !== 0) loose.push(p);
        }
      };
      walk(dataDir);
      return loose;
    };
    const files = fs.readdirSync(dataDir);
    expect(files).toEqual(expect.arrayContaining(['provena.sqlite', 'provena.sqlite-wal', 'provena.sqlite-shm', KEK_FILE, ROOT_PASSPHRASE_FILE]));
    expect(looseCheck()).toEqual([]);
    await app.close();

    // An operator's copy (cp without -p) or an older version left them world-readable.
    fs.chmodSync(dataDir, 0o755);
    for (const f of fs.readdirSync(dataDir)) fs.chmodSync(path.join(dataDir, f), fs.statSync(path.join(dataDir, f)).isDirectory() ? 0o755 : 0o644);
    expect(looseCheck().length).toBeGreaterThan(3);
    const again = await boot(dataDir);
    expect(looseCheck()).toEqual([]);
    await again.close();
  });

  it('refuses a key-encryption key file that others can read', async () => {
    const dataDir = tempDir('provena-kekfile-');
    const kekFile = path.join(tempDir('provena-kek-'), 'kek');
    fs.writeFileSync(kekFile, `${'cd'.repeat(32)}\n`, { mode: 0o644 });
    fs.chmodSync(kekFile, 0o644);
    await expect(boot(dataDir, { KEY_ENCRYPTION_KEY_FILE: kekFile })).rejects.toThrow(/readable by others/);
    fs.chmodSync(kekFile, 0o600);
    const app = await boot(dataDir, { KEY_ENCRYPTION_KEY_FILE: kekFile });
    expect(fs.existsSync(path.join(dataDir, KEK_FILE))).toBe(false);
    await app.close();
  });
});

describe('rotation (`provena keys rotate`)', () => {
  const cli = (args: string[], env: Record<string, string>) =>
    run(process.execPath, ['bin/provena.ts', ...args], { env: { ...process.env, ...env }, encoding: 'utf8' }).then(
      (r) => ({ code: 0, ...r }),
      (e: { code: number; stdout: string; stderr: string }) => ({ code: e.code, stdout: e.stdout, stderr: e.stderr }),
    );

  it('needs the offline root passphrase, retires the old key, and old and new proofs both verify', async () => {
    const dataDir = tempDir('provena-rotate-');
    const app = await boot(dataDir);
    const before = await issueProof(app, 'signed before the rotation');
    const roots = await rootFingerprints(app);
    const oldBlockKey = app.ledger.key.keyId;

    // The passphrase is offline: taken out of DATA_DIR, the rotation refuses and says what it needs.
    const passphraseFile = path.join(tempDir('provena-offline-'), 'root.passphrase');
    fs.renameSync(path.join(dataDir, ROOT_PASSPHRASE_FILE), passphraseFile);
    const refused = await cli(['keys', 'rotate', '--purpose', 'block'], { DATA_DIR: dataDir });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/ROOT_KEY_PASSPHRASE/);
    expect((await cli(['keys', 'rotate', '--purpose', 'nope'], { DATA_DIR: dataDir })).code).toBe(2);
    const wrong = await cli(['keys', 'rotate', '--purpose', 'block'], { DATA_DIR: dataDir, ROOT_KEY_PASSPHRASE: 'not the passphrase' });
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toMatch(/does not open/);

    for (const purpose of ['block', 'proof', 'tsa']) {
      const rotated = await cli(['keys', 'rotate', '--purpose', purpose, '--root-passphrase-file', passphraseFile], { DATA_DIR: dataDir });
      expect(rotated.stderr).toBe('');
      expect(rotated.stdout).toMatch(new RegExp(`^${purpose} key rotated: new key [0-9a-f]{64}`));
    }
    const listed = await cli(['keys', 'list'], { DATA_DIR: dataDir });
    expect(listed.stdout.match(/retired/g)?.length).toBe(3);
    expect(listed.stdout.match(/active/g)?.length).toBe(3);

    // The running server seals its next block with the new key; the public list shows both.
    const after = await issueProof(app, 'signed after the rotation');
    expect(app.ledger.key.keyId).not.toBe(oldBlockKey);
    const keys = (await app.inject({ method: 'GET', url: '/api/v1/ledger/platform-keys' })).json().data as { key_id: string; purpose: string; retired_at: number | null }[];
    expect(keys.filter((k) => k.purpose === 'block').map((k) => [k.key_id === oldBlockKey, k.retired_at !== null])).toEqual([
      [true, true],
      [false, false],
    ]);
    expect(keys.filter((k) => k.purpose === 'proof').length).toBe(2);
    expect(keys.filter((k) => k.purpose === 'tsa').length).toBe(2);
    for (const [pdf, content] of [
      [before, 'signed before the rotation'],
      [after, 'signed after the rotation'],
    ] as const) {
      const verdict = await verifyCertificate(pdf, extractPackageNode, { fileSha256: sha(content), now: Date.now(), trustedRootFingerprints: roots });
      expect(verdict.isValid, JSON.stringify(verdict.checks.filter((c) => !c.isOk))).toBe(true);
    }
    await app.close();
  });
});

const SOFTHSM = '/usr/lib/softhsm/libsofthsm2.so';

describe.skipIf(!fs.existsSync(SOFTHSM) && !process.env.CI)('an HSM through PKCS#11 (SoftHSM2)', () => {
  it('generates the online keys on the token, non-extractable, and signs blocks, proofs and enterprise certificates with them', async () => {
    const hsmDir = tempDir('provena-softhsm-');
    fs.mkdirSync(path.join(hsmDir, 'tokens'));
    fs.writeFileSync(path.join(hsmDir, 'softhsm2.conf'), `directories.tokendir = ${path.join(hsmDir, 'tokens')}\nobjectstore.backend = file\nlog.level = ERROR\n`);
    process.env.SOFTHSM2_CONF = path.join(hsmDir, 'softhsm2.conf');
    execFileSync('softhsm2-util', ['--init-token', '--free', '--label', 'provena-test', '--pin', '24681357', '--so-pin', '13572468'], { env: process.env, stdio: 'pipe' });
    const hsmEnv = { KEY_BACKEND: 'pkcs11', PKCS11_MODULE: SOFTHSM, PKCS11_TOKEN_LABEL: 'provena-test', PKCS11_PIN: '24681357' };

    const dataDir = tempDir('provena-hsm-');
    const app = await boot(dataDir, hsmEnv);
    const pdf = await issueProof(app, 'signed in the HSM');
    const roots = await rootFingerprints(app);
    const verdict = await verifyCertificate(pdf, extractPackageNode, { fileSha256: sha('signed in the HSM'), now: Date.now(), trustedRootFingerprints: roots });
    expect(verdict.isValid, JSON.stringify(verdict.checks.filter((c) => !c.isOk))).toBe(true);
    expect(app.ledger.key.signer.backend).toBe('pkcs11');
    for (const table of ['ledger_keys', 'platform_keys', 'enterprise_cas'] as const) {
      for (const r of await app.db.selectFrom(table).select('sealed_key').execute()) expect(JSON.parse(r.sealed_key)).toMatchObject({ backend: 'pkcs11', token: 'provena-test' });
    }
    const proofSigner = await loadPlatformSigner(app.db, 'proof');
    expect(proofSigner.signer.backend).toBe('pkcs11');
    await app.close();

    // The token refuses to hand the private keys out.
    const pkcs11js = (await import('pkcs11js')).default;
    const p11 = new pkcs11js.PKCS11();
    p11.load(SOFTHSM);
    try {
      p11.C_Initialize();
    } catch (error) {
      if (!(error instanceof pkcs11js.Pkcs11Error && error.code === pkcs11js.CKR_CRYPTOKI_ALREADY_INITIALIZED)) throw error;
    }
    try {
      const slot = p11.C_GetSlotList(true).find((s) => p11.C_GetTokenInfo(s).label.trim() === 'provena-test')!;
      const session = p11.C_OpenSession(slot, pkcs11js.CKF_SERIAL_SESSION);
      p11.C_Login(session, pkcs11js.CKU_USER, '24681357');
      p11.C_FindObjectsInit(session, [{ type: pkcs11js.CKA_CLASS, value: pkcs11js.CKO_PRIVATE_KEY }]);
      const keys = p11.C_FindObjects(session, 10);
      p11.C_FindObjectsFinal(session);
      expect(keys.length).toBe(4); // block, proof, tsa, enterprise CA; the root is not on the token (offline)
      for (const k of keys) {
        const [extractable, sensitive] = p11.C_GetAttributeValue(session, k, [{ type: pkcs11js.CKA_EXTRACTABLE }, { type: pkcs11js.CKA_SENSITIVE }]);
        expect(extractable!.value).toEqual(Buffer.from([0]));
        expect(sensitive!.value).toEqual(Buffer.from([1]));
        expect(() => p11.C_GetAttributeValue(session, k, [{ type: pkcs11js.CKA_VALUE }])).toThrow(/SENSITIVE/);
      }
    } finally {
      p11.C_Finalize();
    }

    // Restarted, the server finds its keys on the token again.
    const again = await boot(dataDir, hsmEnv);
    const pdf2 = await issueProof(again, 'signed in the HSM after a restart');
    expect((await verifyCertificate(pdf2, extractPackageNode, { fileSha256: sha('signed in the HSM after a restart'), now: Date.now(), trustedRootFingerprints: roots })).isValid).toBe(true);
    await again.close();
  });
});

describe("a witness's key", () => {
  it('is kept sealed under its passphrase; a plaintext key file from an older version is sealed in place', async () => {
    const { loadOrCreateWitnessKey } = await import('../../server/witness/witness.ts');
    const dir = tempDir('provena-witness-key-');
    const file = path.join(dir, 'witness.key');
    const first = await loadOrCreateWitnessKey(file, 'correct horse');
    expect((fs.statSync(file).mode & 0o777).toString(8)).toBe('600');
    const stored = fs.readFileSync(file, 'utf8');
    expect(JSON.parse(stored)).toMatchObject({ backend: 'offline', alg: 'PBES2-PBKDF2-SHA256-A256GCM' });
    await expect(loadOrCreateWitnessKey(file, 'wrong horse')).rejects.toThrow(/does not open/);
    expect((await loadOrCreateWitnessKey(file, 'correct horse')).publicKey).toEqual(first.publicKey);

    const legacy = path.join(dir, 'legacy.key');
    const pair = (await crypto.subtle.generateKey('Ed25519', true, ['sign', 'verify'])) as CryptoKeyPair;
    fs.writeFileSync(legacy, new Uint8Array(await crypto.subtle.exportKey('pkcs8', pair.privateKey)), { mode: 0o600 });
    const opened = await loadOrCreateWitnessKey(legacy, 'correct horse');
    expect(fs.readFileSync(legacy, 'utf8').startsWith('{')).toBe(true);
    expect((await loadOrCreateWitnessKey(legacy, 'correct horse')).publicKey).toEqual(opened.publicKey);
  });
});

describe.skipIf(!process.env.TEST_DATABASE_URL)('several servers booting at once on one PostgreSQL', () => {
  it('make exactly one root and one key of each purpose', async () => {
    const pg = (await import('pg')).default;
    const { randomBytes } = await import('node:crypto');
    const schema = `t_${randomBytes(6).toString('hex')}`;
    const admin = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
    await admin.connect();
    await admin.query(`create schema ${schema}`);
    const url = new URL(process.env.TEST_DATABASE_URL!);
    url.searchParams.set('options', `-c search_path=${schema}`);
    // Replicas share the KEK and the root passphrase (their configuration), not a data folder.
    const shared = { DATABASE_URL: url.toString(), KEY_ENCRYPTION_KEY: 'ef'.repeat(32), ROOT_KEY_PASSPHRASE: 'replica passphrase' };
    try {
      // Building (not starting) one server migrates the schema; then three replicas start at once and race for the keys.
      const migrate = await buildServer(readEnv({ DATA_DIR: tempDir('provena-replica-'), LOG_LEVEL: 'silent', ...shared }), { config: DEFAULT_CONFIG, logger: false });
      await migrate.close();
      expect(await Number((await admin.query(`select count(*) as n from ${schema}.platform_roots`)).rows[0].n)).toBe(0);
      const apps = await Promise.all([0, 1, 2].map(() => boot(tempDir('provena-replica-'), shared)));
      const count = async (q: string) => Number((await admin.query(q)).rows[0].n);
      expect(await count(`select count(*) as n from ${schema}.platform_roots`)).toBe(1);
      expect(await count(`select count(*) as n from ${schema}.ledger_keys`)).toBe(1);
      expect(await count(`select count(*) as n from ${schema}.platform_keys`)).toBe(2);
      expect(await count(`select count(*) as n from ${schema}.enterprise_cas`)).toBe(1);
      expect(new Set(apps.map((a) => a.ledger.key.keyId)).size).toBe(1);
      await Promise.all(apps.map((a) => a.close()));
    } finally {
      await admin.query(`drop schema ${schema} cascade`);
      await admin.end();
    }
  });
});
