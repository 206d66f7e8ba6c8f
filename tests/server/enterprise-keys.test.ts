import { execFileSync, spawnSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from './harness.ts';
import { memberOf, newPhone, ownerWithEnterprise } from './enterprise-helpers.ts';
import { operatorLogin } from './operator-helpers.ts';
import { purgeExpiredKeys } from '../../server/services/enterprise-keys.ts';
import { createCsrPem } from '../../core/crypto/csr.ts';
import { signDigest } from '../../core/crypto/digest-signature.ts';
import { exportEncryptedPkcs8Pem, generateKeyPair, importEncryptedPkcs8Pem, sign } from '../../core/crypto/keys.ts';
import { toPem } from '../../core/crypto/pem.ts';
import { DAY_MS, KEY_LAST_DOWNLOAD_DAYS, depositMessage, enterpriseSubject, type EnterpriseSubject, type KeyStateDto } from '../../core/enterprise-keys.ts';

let h: Harness;
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'provena-keys-server-'));
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

type Res = { statusCode: number; json(): any; body: string };
const expect400 = (res: Res, message: string, field?: string) => {
  expect(res.statusCode, res.body).toBe(400);
  expect(res.json()).toEqual({ message, ...(field ? { field_name: field } : {}) });
};
const expect403 = (res: Res) => {
  expect(res.statusCode, res.body).toBe(403);
  expect(res.json()).toEqual({ message: 'forbidden' });
};
const data = (res: Res) => {
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data;
};
const write = (name: string, content: string | Uint8Array) => {
  const file = path.join(dir, name);
  fs.writeFileSync(file, content);
  return file;
};
const openssl = (...args: string[]) => execFileSync('openssl', args, { encoding: 'utf8', stdio: ['pipe', 'pipe', 'pipe'] });
const b64 = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64');
const sha256 = (bytes: Uint8Array | string) => createHash('sha256').update(bytes).digest();

const PASSPHRASE = 'Correct-Horse-Battery-9';

/** What the browser's keys worker does in the ceremony: key, encrypted PEM, CSR and the deposit proof. */
async function ceremony(enterpriseId: number, subject: EnterpriseSubject, overrides: { pemKeys?: CryptoKeyPair; csrSubject?: EnterpriseSubject; iterations?: number } = {}) {
  const keys = await generateKeyPair();
  const pemKeys = overrides.pemKeys ?? keys;
  const pem = await exportEncryptedPkcs8Pem(pemKeys.privateKey, PASSPHRASE, overrides.iterations);
  const csr = await createCsrPem(keys, overrides.csrSubject ?? subject);
  const proof = await sign(pemKeys.privateKey, depositMessage(enterpriseId, sha256(pem)));
  return { keys, body: { encrypted_private_key: pem, csr, deposit_signature: b64(proof) } };
}

type Owner = Awaited<ReturnType<typeof ownerWithEnterprise>>;

async function state(cookie: string): Promise<KeyStateDto> {
  return data(await h.request({ method: 'GET', url: '/api/v1/enterprises/keys', cookie }));
}

async function deposit(owner: Owner) {
  const s = await state(owner.cookie);
  const c = await ceremony(owner.company.enterprise_id, s.subject!);
  const after: KeyStateDto = data(await h.request({ method: 'POST', url: '/api/v1/enterprises/keys', cookie: owner.cookie, body: c.body }));
  return { ...c, state: after };
}

async function operatorCookie(login: string): Promise<string> {
  return operatorLogin(h, login);
}

async function countsFor(enterpriseId: number) {
  const db = h.app.db;
  const n = async (table: 'enterprise_keys' | 'enterprise_certificates' | 'enterprise_key_log' | 'key_custody_requests') =>
    Number((await db.selectFrom(table).select((eb) => eb.fn.countAll<number>().as('n')).where('enterprise_id', '=', enterpriseId).executeTakeFirstOrThrow()).n);
  const ledger = Number((await db.selectFrom('ledger_entries').select((eb) => eb.fn.countAll<number>().as('n')).where('kind', '=', 'certificate').executeTakeFirstOrThrow()).n);
  return { keys: await n('enterprise_keys'), certificates: await n('enterprise_certificates'), log: await n('enterprise_key_log'), requests: await n('key_custody_requests'), ledger };
}

async function pkiFiles(tag: string) {
  const ca = data(await h.request({ method: 'GET', url: '/api/v1/pki/ca' }));
  return { root: write(`root-${tag}.pem`, ca.roots.map((r: { pem: string }) => r.pem).join('')), issuing: write(`ca-${tag}.pem`, ca.issuing_cas.map((c: { pem: string }) => c.pem).join('')) };
}

async function crlFile(tag: string) {
  const res = await h.request({ method: 'GET', url: '/api/v1/pki/crl' });
  expect(res.statusCode).toBe(200);
  expect(res.headers['content-type']).toBe('application/pkix-crl');
  return write(`crl-${tag}.pem`, toPem('X509 CRL', new Uint8Array(res.rawPayload)));
}

describe('a new enterprise and its key ceremony', () => {
  it('starts with no key (status 0); only the super administrator sees the subject to request', async () => {
    const owner = await ownerWithEnterprise(h, '西安密钥科技有限公司');
    expect(owner.company.private_key_status).toBe(0);
    expect(owner.company.certificate).toBe('');
    expect(owner.company.certificate_dna).toBe('');
    const s = await state(owner.cookie);
    expect(s.private_key_status).toBe(0);
    expect(s.permissions).toMatchObject({ can_deposit: true, can_sign: false, can_cancel_custody: false, can_revoke: false });
    const licence = (await h.app.db.selectFrom('enterprises').select('license_no').where('id', '=', owner.company.enterprise_id).executeTakeFirstOrThrow()).license_no;
    expect(s.subject).toEqual({ country: 'CN', organization: '西安密钥科技有限公司', organizationIdentifier: `NTRCN-${licence}`, commonName: '西安密钥科技有限公司' });
    const admin = await memberOf(h, owner, 2);
    const adminState = await state(admin.cookie);
    expect(adminState.subject).toBeNull();
    expect(adminState.permissions.can_deposit).toBe(false);
    // An administrator may not hold the ceremony: the enterprise's identity is its owner's act.
    const c = await ceremony(owner.company.enterprise_id, s.subject!);
    expect403(await h.request({ method: 'POST', url: '/api/v1/enterprises/keys', cookie: admin.cookie, body: c.body }));
  });

  it('refuses a plaintext key, weak wrapping, a bad or foreign CSR and a mismatched key, writing nothing', async () => {
    const owner = await ownerWithEnterprise(h, '拒绝测试有限公司');
    const id = owner.company.enterprise_id;
    const subject = (await state(owner.cookie)).subject!;
    const post = (body: unknown) => h.request({ method: 'POST', url: '/api/v1/enterprises/keys', cookie: owner.cookie, body });
    const good = await ceremony(id, subject);
    const ledgerBefore = (await countsFor(id)).ledger;

    // The plaintext PKCS#8 never reaches the platform.
    const plain = toPem('PRIVATE KEY', new Uint8Array(await crypto.subtle.exportKey('pkcs8', good.keys.privateKey)));
    expect400(await post({ ...good.body, encrypted_private_key: plain }), 'private_key_invalid', 'encrypted_private_key');
    // OpenSSL's default PRF (HMAC-SHA1), and too few PBKDF2 iterations.
    const keyFile = write('plain-ossl.pem', openssl('genpkey', '-algorithm', 'EC', '-pkeyopt', 'ec_paramgen_curve:P-256'));
    const sha1 = openssl('pkcs8', '-topk8', '-in', keyFile, '-v2', 'aes-256-cbc', '-v2prf', 'hmacWithSHA1', '-passout', 'pass:x');
    expect400(await post({ ...good.body, encrypted_private_key: sha1 }), 'private_key_invalid', 'encrypted_private_key');
    const weak = await ceremony(id, subject, { iterations: 1000 });
    expect400(await post(weak.body), 'private_key_invalid', 'encrypted_private_key');
    // Lines that are not 64 characters.
    const reflowed = good.body.encrypted_private_key.replace(/\n/g, '').replace(/-----BEGIN ENCRYPTED PRIVATE KEY-----/, '$&\n').replace(/-----END/, '\n-----END');
    expect400(await post({ ...good.body, encrypted_private_key: reflowed }), 'private_key_invalid', 'encrypted_private_key');
    // A request that names another enterprise, and one whose signature is broken.
    const foreign = await ceremony(id, subject, { csrSubject: { ...subject, commonName: '别的公司' } });
    expect400(await post(foreign.body), 'certificate_subject_mismatch', 'csr');
    const der = Buffer.from(good.body.csr.replace(/-----[A-Z ]+-----|\s/g, ''), 'base64');
    der[der.length - 4] ^= 0x01;
    expect400(await post({ ...good.body, csr: toPem('CERTIFICATE REQUEST', der) }), 'certificate_request_invalid', 'csr');
    expect400(await post({ ...good.body, csr: 'hello' }), 'certificate_request_invalid', 'csr');
    // The PEM holds another key than the request (its proof is made by that other key).
    const other = await generateKeyPair();
    const mismatched = await ceremony(id, subject, { pemKeys: other });
    expect400(await post(mismatched.body), 'private_key_mismatch', 'encrypted_private_key');
    // A proof for another PEM, for another enterprise, or no proof at all.
    expect400(await post({ ...good.body, encrypted_private_key: (await ceremony(id, subject)).body.encrypted_private_key }), 'private_key_mismatch', 'encrypted_private_key');
    const elsewhere = b64(await sign(good.keys.privateKey, depositMessage(id + 1, sha256(good.body.encrypted_private_key))));
    expect400(await post({ ...good.body, deposit_signature: elsewhere }), 'private_key_mismatch', 'encrypted_private_key');
    expect400(await post({ ...good.body, deposit_signature: 'not base64!' }), 'private_key_mismatch', 'encrypted_private_key');
    expect400(await post({ ...good.body, deposit_signature: undefined }), 'required', 'deposit_signature');

    expect(await countsFor(id)).toEqual({ keys: 0, certificates: 0, log: 0, requests: 0, ledger: ledgerBefore });
    expect((await state(owner.cookie)).private_key_status).toBe(0);
    // And the good one still goes through.
    expect((data(await post(good.body)) as KeyStateDto).private_key_status).toBe(1);
  });

  it('deposits the encrypted PEM only; the platform CA issues a certificate openssl verifies; its SHA-256 is on the ledger', async () => {
    const ledgerBefore = (await countsFor(0)).ledger;
    const owner = await ownerWithEnterprise(h, '证书签发有限公司');
    const { body, state: after } = await deposit(owner);
    expect(after.private_key_status).toBe(1);
    expect(after.permissions).toMatchObject({ can_deposit: false, can_sign: true, can_cancel_custody: true, can_revoke: true, can_download_key: true, can_view_log: true });
    const cert = after.certificate!;
    expect(cert.status).toBe('active');
    expect(cert.serial_number).toMatch(/^[0-9a-f]{32}$/);
    const licence = (await h.app.db.selectFrom('enterprises').select('license_no').where('id', '=', owner.company.enterprise_id).executeTakeFirstOrThrow()).license_no;
    expect(cert.subject_text).toBe(`C=CN, O=证书签发有限公司, organizationIdentifier=NTRCN-${licence}, CN=证书签发有限公司`);
    expect(cert.issuer_text).toBe('O=Provena, CN=Provena Enterprise CA');
    expect(cert.key_usage).toEqual(['digitalSignature']);
    expect(Math.round((cert.not_after - cert.not_before) / DAY_MS)).toBe(730);

    // The stored key is exactly what the browser sent: encrypted, never plaintext.
    const stored = await h.app.db.selectFrom('enterprise_keys').selectAll().where('enterprise_id', '=', owner.company.enterprise_id).executeTakeFirstOrThrow();
    expect(stored.encrypted_pem).toBe(body.encrypted_private_key);
    expect(stored.encrypted_pem).toContain('BEGIN ENCRYPTED PRIVATE KEY');
    expect(stored.kdf_iterations).toBe(100_000);

    // OpenSSL: the certificate chains to the platform root (through the issuing CA).
    const { root, issuing } = await pkiFiles('issue');
    const certFile = write('issued.pem', cert.pem);
    expect(openssl('verify', '-CAfile', root, '-untrusted', issuing, certFile)).toContain(': OK');
    expect(openssl('x509', '-in', certFile, '-noout', '-subject', '-nameopt', 'utf8,sep_comma_plus')).toContain('CN=证书签发有限公司');
    expect(cert.chain_pem.match(/BEGIN CERTIFICATE/g)).toHaveLength(2);
    // The root the chain ends in is the ledger's platform root (the one proofs pin).
    const roots = data(await h.request({ method: 'GET', url: '/api/v1/ledger/platform-roots' }));
    expect(JSON.stringify(roots)).toContain(openssl('x509', '-in', root, '-noout', '-fingerprint', '-sha256').trim().split('=')[1]!.replace(/:/g, '').toLowerCase());

    // The ledger entry registers the certificate's SHA-256 and is the Company's certificate_dna.
    const entry = await h.app.db.selectFrom('ledger_entries').selectAll().where('dna', '=', cert.dna).executeTakeFirstOrThrow();
    expect(entry.kind).toBe('certificate');
    expect(entry.file_hash).toBe(`0x${cert.fingerprint}.cer`);
    expect(entry.enterprise_name).toBe('证书签发有限公司');
    expect(cert.fingerprint).toBe(createHash('sha256').update(Buffer.from(cert.pem.replace(/-----[A-Z ]+-----|\s/g, ''), 'base64')).digest('hex'));
    expect((await countsFor(0)).ledger).toBe(ledgerBefore + 1);
    const company = data(await h.request({ method: 'GET', url: '/api/v1/enterprises', cookie: owner.cookie }));
    expect(company).toMatchObject({ private_key_status: 1, certificate_dna: cert.dna, certificate: cert.pem });
    // The detail route checks the enterprise; a second deposit while custodied is refused.
    expect(data(await h.request({ method: 'GET', url: `/api/v1/enterprises/certificates/${cert.certificate_id}`, cookie: owner.cookie })).serial_number).toBe(cert.serial_number);
    const stranger = await ownerWithEnterprise(h, '旁观有限公司');
    expect400(await h.request({ method: 'GET', url: `/api/v1/enterprises/certificates/${cert.certificate_id}`, cookie: stranger.cookie }), 'not_found', 'certificate_id');
    const again = await ceremony(owner.company.enterprise_id, enterpriseSubject({ name: '证书签发有限公司', license_no: licence }));
    expect400(await h.request({ method: 'POST', url: '/api/v1/enterprises/keys', cookie: owner.cookie, body: again.body }), 'private_key_status_invalid', 'private_key_status');
    const log = data(await h.request({ method: 'GET', url: '/api/v1/enterprises/keys/log', cookie: owner.cookie }));
    expect(log.items.map((i: { action: string }) => i.action)).toEqual(['certificate_issued', 'key_deposited']);
    expect(log.items[1]).toMatchObject({ from_status: 0, to_status: 1, actor: '张三' });
  });
});

describe('using the custodied key', () => {
  it('logs the fetch with the file hash; the signature made in the browser verifies with openssl against the certificate', async () => {
    const owner = await ownerWithEnterprise(h, '签名使用有限公司');
    const { state: s } = await deposit(owner);
    const admin = await memberOf(h, owner, 2);
    const officer = await memberOf(h, owner, 3);
    const member = await memberOf(h, owner, 0);
    const file = Buffer.concat([Buffer.from('contract 合同\n'), randomBytes(200_000)]);
    const digest = sha256(file);
    const identity = `0x${digest.toString('hex')}.pdf`;

    for (const who of [member, officer]) expect403(await h.request({ method: 'POST', url: '/api/v1/enterprises/keys/usages', cookie: who.cookie, body: { file_hash: identity } }));
    expect400(await h.request({ method: 'POST', url: '/api/v1/enterprises/keys/usages', cookie: admin.cookie, body: { file_hash: 'abc' } }), 'invalid_param', 'file_hash');
    const usage = data(await h.request({ method: 'POST', url: '/api/v1/enterprises/keys/usages', cookie: admin.cookie, body: { file_hash: identity, file_name: '合同.pdf', file_size: file.length } }));
    expect(usage.certificate.serial_number).toBe(s.certificate!.serial_number);
    // In the browser: open the PEM with the passphrase and sign the digest the hash worker computed.
    await expect(importEncryptedPkcs8Pem(usage.encrypted_private_key, 'wrong passphrase')).rejects.toThrow(/wrong passphrase/);
    const key = await importEncryptedPkcs8Pem(usage.encrypted_private_key, PASSPHRASE, true);
    const signature = await signDigest(key, digest);

    // OpenSSL, with only the certificate: the signature is ECDSA-with-SHA256 over the file.
    const certFile = write('signer-cert.pem', usage.certificate.pem);
    const pubFile = write('signer.pub', openssl('x509', '-in', certFile, '-pubkey', '-noout'));
    expect(openssl('dgst', '-sha256', '-verify', pubFile, '-signature', write('contract.sig', signature), write('contract.pdf', file))).toContain('Verified OK');
    const tampered = Buffer.from(file);
    tampered[10] ^= 1;
    expect(spawnSync('openssl', ['dgst', '-sha256', '-verify', pubFile, '-signature', path.join(dir, 'contract.sig'), write('tampered.pdf', tampered)], { encoding: 'utf8' }).stdout).toContain('Verification failure');
    const { root, issuing } = await pkiFiles('sign');
    expect(openssl('verify', '-CAfile', root, '-untrusted', issuing, certFile)).toContain(': OK');

    // The signature is reported and checked against the certificate and the logged hash.
    const otherSig = await signDigest(key, sha256('another file'));
    expect400(await h.request({ method: 'PUT', url: `/api/v1/enterprises/keys/usages/${usage.usage_id}`, cookie: admin.cookie, body: { signature: b64(otherSig) } }), 'signature_invalid', 'signature');
    expect400(await h.request({ method: 'PUT', url: `/api/v1/enterprises/keys/usages/${usage.usage_id}`, cookie: owner.cookie, body: { signature: b64(signature) } }), 'not_found', 'usage_id');
    data(await h.request({ method: 'PUT', url: `/api/v1/enterprises/keys/usages/${usage.usage_id}`, cookie: admin.cookie, body: { signature: b64(signature) } }));
    expect400(await h.request({ method: 'PUT', url: `/api/v1/enterprises/keys/usages/${usage.usage_id}`, cookie: admin.cookie, body: { signature: b64(signature) } }), 'invalid_param', 'usage_id');

    // The usage history: who, when, what hash (the officer sees it; a member does not).
    expect403(await h.request({ method: 'GET', url: '/api/v1/enterprises/keys/log', cookie: member.cookie }));
    const log = data(await h.request({ method: 'GET', url: '/api/v1/enterprises/keys/log?page=1&page_size=2', cookie: officer.cookie }));
    expect(log.total).toBe(4);
    expect(log.items).toHaveLength(2);
    expect(log.items[0]).toMatchObject({ action: 'signed', actor: '李四', file_hash: identity, detail: { signature: b64(signature), file_name: '合同.pdf' } });
    expect(log.items[1]).toMatchObject({ action: 'key_fetched', actor: '李四', file_hash: identity, detail: { purpose: 'sign', file_name: '合同.pdf', file_size: file.length } });
    expect(log.items[0].created_at).toBeGreaterThanOrEqual(log.items[1].created_at);
  });
});

describe('cancelling custody (§4: status 2, an agent follows up)', () => {
  it('an administrator cancels; the operator completes: certificate revoked in the CRL, the key downloadable for the last window, then erased', async () => {
    const owner = await ownerWithEnterprise(h, '托管取消有限公司');
    const { body, state: s } = await deposit(owner);
    const admin = await memberOf(h, owner, 2);
    const officer = await memberOf(h, owner, 3);
    const member = await memberOf(h, owner, 4);
    const put = (cookie: string, b: unknown) => h.request({ method: 'PUT', url: '/api/v1/enterprises', cookie, body: b });
    for (const who of [officer, member]) expect403(await put(who.cookie, { private_key_status: 2 }));
    expect400(await put(admin.cookie, { private_key_status: 3 }), 'private_key_status_invalid', 'private_key_status');
    expect400(await put(admin.cookie, { private_key_status: 0 }), 'private_key_status_invalid', 'private_key_status');
    expect400(await put(admin.cookie, { private_key_status: 1 }), 'private_key_status_invalid', 'private_key_status');
    expect400(await put(admin.cookie, { private_key_status: 9 }), 'lt', 'private_key_status');

    const cancelled: KeyStateDto = data(await put(admin.cookie, { private_key_status: 2, reason: '公司改用自有证书' }));
    expect(cancelled.private_key_status).toBe(2);
    expect(cancelled.custody_request).toMatchObject({ status: 1, reason: '公司改用自有证书', requested_by: '李四' });
    expect(cancelled.permissions).toMatchObject({ can_sign: false, can_cancel_custody: false, can_withdraw_cancel: true, can_download_key: true });
    expect400(await put(admin.cookie, { private_key_status: 2 }), 'private_key_status_invalid', 'private_key_status');
    expect400(await h.request({ method: 'POST', url: '/api/v1/enterprises/keys/usages', cookie: admin.cookie, body: { file_hash: `0x${'a'.repeat(64)}.txt` } }), 'private_key_unavailable', 'private_key_status');
    expect((data(await h.request({ method: 'GET', url: '/api/v1/enterprises', cookie: owner.cookie }))).private_key_status).toBe(2);

    // The operator console: the request is listed; an enterprise session cannot act on it.
    const op = await operatorCookie('ops-keys');
    expect403(await h.request({ method: 'GET', url: '/api/v1/operator/key-custody-requests', cookie: owner.cookie }));
    const pending = data(await h.request({ method: 'GET', url: '/api/v1/operator/key-custody-requests?status=1', cookie: op }));
    const item = pending.find((r: { enterprise_id: number }) => r.enterprise_id === owner.company.enterprise_id);
    expect(item).toMatchObject({ enterprise_name: '托管取消有限公司', reason: '公司改用自有证书', private_key_status: 2, certificate_serial: s.certificate!.serial_number });
    expect403(await h.request({ method: 'PUT', url: `/api/v1/operator/key-custody-requests/${item.id}`, cookie: admin.cookie, body: { status: 2 } }));
    const before = Date.now();
    data(await h.request({ method: 'PUT', url: `/api/v1/operator/key-custody-requests/${item.id}`, cookie: op, body: { status: 2, reason: '已电话确认' } }));
    expect400(await h.request({ method: 'PUT', url: `/api/v1/operator/key-custody-requests/${item.id}`, cookie: op, body: { status: 3, reason: 'again' } }), 'invalid_param', 'status');

    const ended = await state(owner.cookie);
    expect(ended.private_key_status).toBe(3);
    expect(ended.custody_request).toMatchObject({ status: 2, review_reason: '已电话确认' });
    expect(ended.certificate).toMatchObject({ status: 'revoked', revocation_reason: 5 });
    expect(ended.key!.is_stored).toBe(true);
    expect(ended.key!.delete_after).toBeGreaterThanOrEqual(before + KEY_LAST_DOWNLOAD_DAYS * DAY_MS);
    expect(ended.permissions).toMatchObject({ can_sign: false, can_deposit: true, can_download_key: true, can_revoke: true });
    expect((data(await h.request({ method: 'GET', url: '/api/v1/enterprises', cookie: owner.cookie }))).certificate).toBe('');

    // The CRL names the serial with "cessation of operation"; openssl verify -crl_check refuses the certificate.
    const { root, issuing } = await pkiFiles('cancel');
    const crl = await crlFile('cancel');
    expect(openssl('crl', '-in', crl, '-noout', '-text', '-CAfile', issuing)).toMatch(new RegExp(`${s.certificate!.serial_number}[\\s\\S]*Cessation Of Operation`, 'i'));
    const check = spawnSync('openssl', ['verify', '-crl_check', '-CAfile', root, '-untrusted', issuing, '-CRLfile', crl, write('cancelled.pem', s.certificate!.pem)], { encoding: 'utf8' });
    expect(check.stdout + check.stderr).toMatch(/certificate revoked/);

    // The last download window: the encrypted key can still be fetched (logged), nothing can be signed.
    const backup = data(await h.request({ method: 'GET', url: '/api/v1/enterprises/keys/backup', cookie: admin.cookie }));
    expect(backup.pem).toBe(body.encrypted_private_key);
    expect403(await h.request({ method: 'GET', url: '/api/v1/enterprises/keys/backup', cookie: officer.cookie }));
    expect(await purgeExpiredKeys(h.app.db, Date.now())).toBe(0);
    expect(await purgeExpiredKeys(h.app.db, before + (KEY_LAST_DOWNLOAD_DAYS + 1) * DAY_MS)).toBeGreaterThanOrEqual(1);
    const erased = await h.app.db.selectFrom('enterprise_keys').selectAll().where('enterprise_id', '=', owner.company.enterprise_id).executeTakeFirstOrThrow();
    expect(erased.encrypted_pem).toBeNull();
    expect(erased.deleted_at).not.toBeNull();
    expect400(await h.request({ method: 'GET', url: '/api/v1/enterprises/keys/backup', cookie: admin.cookie }), 'private_key_unavailable', 'private_key_status');
    expect((await state(owner.cookie)).key).toMatchObject({ is_stored: false });

    // Every transition is an audited row: who (member or operator), from, to.
    const log = data(await h.request({ method: 'GET', url: '/api/v1/enterprises/keys/log?page_size=100', cookie: officer.cookie }));
    const actions = log.items.map((i: { action: string }) => i.action);
    expect(actions).toEqual(['key_deleted', 'key_downloaded', 'certificate_revoked', 'custody_cancel_completed', 'custody_cancel_requested', 'certificate_issued', 'key_deposited']);
    expect(log.items.find((i: { action: string }) => i.action === 'custody_cancel_completed')).toMatchObject({ is_operator: true, actor: 'ops-keys', from_status: 2, to_status: 3 });
    expect(log.items.find((i: { action: string }) => i.action === 'custody_cancel_requested')).toMatchObject({ is_operator: false, actor: '李四', from_status: 1, to_status: 2 });

    // Custody ended: a new ceremony gives a new key and a new certificate; the old key may not come back.
    const fresh = await deposit(owner);
    expect(fresh.state.private_key_status).toBe(1);
    expect(fresh.state.certificate!.serial_number).not.toBe(s.certificate!.serial_number);
  });

  it('an operator rejection needs a reason and puts the key back in custody; an administrator may withdraw before review', async () => {
    const owner = await ownerWithEnterprise(h, '托管驳回有限公司');
    await deposit(owner);
    const op = await operatorCookie('ops-reject');
    const put = (b: unknown) => h.request({ method: 'PUT', url: '/api/v1/enterprises', cookie: owner.cookie, body: b });
    data(await put({ private_key_status: 2 }));
    const requests = data(await h.request({ method: 'GET', url: '/api/v1/operator/key-custody-requests?status=1', cookie: op }));
    const item = requests.find((r: { enterprise_id: number }) => r.enterprise_id === owner.company.enterprise_id);
    expect400(await h.request({ method: 'PUT', url: `/api/v1/operator/key-custody-requests/${item.id}`, cookie: op, body: { status: 3 } }), 'required', 'reason');
    expect((await state(owner.cookie)).private_key_status).toBe(2);
    data(await h.request({ method: 'PUT', url: `/api/v1/operator/key-custody-requests/${item.id}`, cookie: op, body: { status: 3, reason: '未能联系到法定代表人' } }));
    const back = await state(owner.cookie);
    expect(back.private_key_status).toBe(1);
    expect(back.custody_request).toMatchObject({ status: 3, review_reason: '未能联系到法定代表人' });
    expect(back.certificate!.status).toBe('active');

    // Withdraw: 2 → 1 by an administrator; the operator then finds nothing to complete.
    data(await put({ private_key_status: 2 }));
    const second = data(await h.request({ method: 'GET', url: '/api/v1/operator/key-custody-requests?status=1', cookie: op })).find((r: { enterprise_id: number }) => r.enterprise_id === owner.company.enterprise_id);
    const withdrawn: KeyStateDto = data(await put({ private_key_status: 1 }));
    expect(withdrawn.private_key_status).toBe(1);
    expect(withdrawn.custody_request).toMatchObject({ status: 4 });
    expect400(await h.request({ method: 'PUT', url: `/api/v1/operator/key-custody-requests/${second.id}`, cookie: op, body: { status: 2 } }), 'invalid_param', 'status');
    expect((await state(owner.cookie)).certificate!.status).toBe('active');
    const log = data(await h.request({ method: 'GET', url: '/api/v1/enterprises/keys/log', cookie: owner.cookie }));
    expect(log.items.slice(0, 4).map((i: { action: string; from_status: number; to_status: number }) => [i.action, i.from_status, i.to_status])).toEqual([
      ['custody_cancel_withdrawn', 2, 1],
      ['custody_cancel_requested', 1, 2],
      ['custody_cancel_rejected', 2, 1],
      ['custody_cancel_requested', 1, 2],
    ]);
  });
});

describe('revoking the enterprise identity (§4: status 4)', () => {
  it('is the super administrator’s, confirmed by the enterprise name: certificate revoked, key erased at once, nothing signs', async () => {
    const owner = await ownerWithEnterprise(h, '身份吊销有限公司');
    const { state: s } = await deposit(owner);
    const admin = await memberOf(h, owner, 2);
    const put = (cookie: string, b: unknown) => h.request({ method: 'PUT', url: '/api/v1/enterprises', cookie, body: b });
    expect403(await put(admin.cookie, { private_key_status: 4, confirm_name: '身份吊销有限公司' }));
    expect400(await put(owner.cookie, { private_key_status: 4, confirm_name: '身份吊销' }), 'enterprise_name_mismatch', 'confirm_name');
    expect400(await put(owner.cookie, { private_key_status: 4, confirm_name: '身份吊销有限公司', revocation_reason: 3 }), 'invalid_param', 'revocation_reason');
    expect((await state(owner.cookie)).private_key_status).toBe(1);
    const revoked: KeyStateDto = data(await put(owner.cookie, { private_key_status: 4, confirm_name: ' 身份吊销有限公司 ', revocation_reason: 1, reason: '密钥疑似泄露' }));
    expect(revoked.private_key_status).toBe(4);
    expect(revoked.certificate).toMatchObject({ status: 'revoked', revocation_reason: 1 });
    expect(revoked.key).toMatchObject({ is_stored: false });
    expect(revoked.permissions).toMatchObject({ can_sign: false, can_download_key: false, can_revoke: false, can_deposit: true });
    const stored = await h.app.db.selectFrom('enterprise_keys').select('encrypted_pem').where('enterprise_id', '=', owner.company.enterprise_id).executeTakeFirstOrThrow();
    expect(stored.encrypted_pem).toBeNull();
    expect400(await h.request({ method: 'POST', url: '/api/v1/enterprises/keys/usages', cookie: admin.cookie, body: { file_hash: `0x${'b'.repeat(64)}.txt` } }), 'private_key_unavailable', 'private_key_status');
    expect400(await h.request({ method: 'GET', url: '/api/v1/enterprises/keys/backup', cookie: owner.cookie }), 'private_key_unavailable', 'private_key_status');
    for (const to of [1, 2, 3, 4]) expect400(await put(owner.cookie, { private_key_status: to, confirm_name: '身份吊销有限公司' }), 'private_key_status_invalid', 'private_key_status');
    const crl = await crlFile('revoke');
    const { issuing } = await pkiFiles('revoke');
    expect(openssl('crl', '-in', crl, '-noout', '-text', '-CAfile', issuing)).toMatch(new RegExp(`${s.certificate!.serial_number}[\\s\\S]*Key Compromise`, 'i'));
    const actions = data(await h.request({ method: 'GET', url: '/api/v1/enterprises/keys/log', cookie: owner.cookie })).items.map((i: { action: string }) => i.action);
    expect(actions.slice(0, 3)).toEqual(['key_deleted', 'certificate_revoked', 'identity_revoked']);
    // No identity to revoke yet: 0 → 4 is not a transition.
    const fresh = await ownerWithEnterprise(h, '尚无密钥有限公司');
    expect400(await put(fresh.cookie, { private_key_status: 4, confirm_name: '尚无密钥有限公司' }), 'private_key_status_invalid', 'private_key_status');
  });
});

describe('who may do what with the key (§6)', () => {
  it('gives each role exactly its calls and 403 forbidden otherwise', async () => {
    const owner = await ownerWithEnterprise(h, '密钥权限有限公司');
    await deposit(owner);
    const admin = await memberOf(h, owner, 2);
    const officer = await memberOf(h, owner, 3);
    const member = await memberOf(h, owner, 0);
    const member4 = await memberOf(h, owner, 4);
    const loner = await h.register(newPhone());
    const op = await operatorCookie('ops-key-matrix');
    const certId = (await state(owner.cookie)).certificate!.certificate_id;
    const hash = `0x${'c'.repeat(64)}.txt`;
    type Call = { method: string; url: string; body?: unknown };
    const calls: Record<string, Call> = {
      state: { method: 'GET', url: '/api/v1/enterprises/keys' },
      certificates: { method: 'GET', url: '/api/v1/enterprises/certificates' },
      certificate: { method: 'GET', url: `/api/v1/enterprises/certificates/${certId}` },
      log: { method: 'GET', url: '/api/v1/enterprises/keys/log' },
      backup: { method: 'GET', url: '/api/v1/enterprises/keys/backup' },
      use: { method: 'POST', url: '/api/v1/enterprises/keys/usages', body: { file_hash: hash } },
      deposit: { method: 'POST', url: '/api/v1/enterprises/keys', body: { encrypted_private_key: 'x', csr: 'y', deposit_signature: 'z' } },
      // Probes that change nothing: an invalid target (400 for those allowed) and a wrong confirmation.
      setStatus: { method: 'PUT', url: '/api/v1/enterprises', body: { private_key_status: 3 } },
      revoke: { method: 'PUT', url: '/api/v1/enterprises', body: { private_key_status: 4, confirm_name: 'wrong' } },
      operatorRequests: { method: 'GET', url: '/api/v1/operator/key-custody-requests' },
    };
    const who: Record<string, string> = { superAdmin: owner.cookie, admin: admin.cookie, officer: officer.cookie, member: member.cookie, member4: member4.cookie, noCompany: loner, operator: op };
    const allowed: Record<string, string[]> = {
      superAdmin: ['state', 'certificates', 'certificate', 'log', 'backup', 'use', 'deposit', 'setStatus', 'revoke'],
      admin: ['state', 'certificates', 'certificate', 'log', 'backup', 'use', 'setStatus'],
      officer: ['state', 'certificates', 'certificate', 'log'],
      member: ['state', 'certificates', 'certificate'],
      member4: ['state', 'certificates', 'certificate'],
      noCompany: [],
      operator: ['operatorRequests'],
    };
    for (const [caller, cookie] of Object.entries(who)) {
      for (const [key, call] of Object.entries(calls)) {
        const res = await h.request({ method: call.method, url: call.url, body: call.body, cookie });
        const label = `${caller} → ${key}: ${res.statusCode} ${res.body.slice(0, 120)}`;
        if (allowed[caller]!.includes(key)) expect(res.statusCode, label).not.toBe(403);
        else if (caller === 'operator') expect(res.json(), label).toEqual({ message: 'token_invalid' });
        else expect(res.statusCode, label).toBe(403);
      }
    }
    // What the allowed probes answered, and that the super administrator's deposit probe hit the state rule.
    expect400(await h.request({ method: 'PUT', url: '/api/v1/enterprises', cookie: admin.cookie, body: { private_key_status: 3 } }), 'private_key_status_invalid', 'private_key_status');
    expect400(await h.request({ method: 'PUT', url: '/api/v1/enterprises', cookie: owner.cookie, body: { private_key_status: 4, confirm_name: 'wrong' } }), 'enterprise_name_mismatch', 'confirm_name');
    expect400(await h.request({ method: 'POST', url: '/api/v1/enterprises/keys', cookie: owner.cookie, body: calls.deposit!.body }), 'private_key_status_invalid', 'private_key_status');
    expect((await state(owner.cookie)).private_key_status).toBe(1);
    // Without a session: token_invalid; the CA certificates and the CRL are public.
    expect400(await h.request({ method: 'GET', url: '/api/v1/enterprises/keys' }), 'token_invalid');
    expect((await h.request({ method: 'GET', url: '/api/v1/pki/ca' })).statusCode).toBe(200);
    expect((await h.request({ method: 'GET', url: '/api/v1/pki/crl' })).statusCode).toBe(200);
  });
});
