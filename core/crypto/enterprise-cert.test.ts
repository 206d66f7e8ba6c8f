import { execFileSync, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import * as pkijs from 'pkijs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issuePlatformRoot } from '../ledger/platform-cert.ts';
import { enterpriseSubject } from '../enterprise-keys.ts';
import { checkCsrPem, createCsrPem } from './csr.ts';
import { signDigest, verifyDigest } from './digest-signature.ts';
import {
  certificatePem,
  issueCrl,
  issueEnterpriseCa,
  issueEnterpriseCertificate,
  readCrl,
  summarizeCertificate,
  verifyChain,
} from './enterprise-cert.ts';
import { parseCertificate } from './x509.ts';
import { exportEncryptedPkcs8Pem, generateKeyPair, importEncryptedPkcs8Pem, spkiOfPrivateKey } from './keys.ts';
import { toPem } from './pem.ts';

const ECDSA = { name: 'ECDSA', namedCurve: 'P-256' } as const;
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'provena-ent-cert-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
const write = (name: string, data: string | Uint8Array) => {
  const file = path.join(dir, name);
  fs.writeFileSync(file, data);
  return file;
};
const openssl = (...args: string[]) => execFileSync('openssl', args, { encoding: 'utf8', stdio: ['pipe', 'pipe', 'pipe'] });

const subject = enterpriseSubject({ name: '西安示例科技有限公司', license_no: '91610000MA6U123456' });

type Ca = { certificate: pkijs.Certificate; privateKey: CryptoKey; der: Uint8Array };
let root: Ca;
let issuing: Ca;

beforeAll(async () => {
  const rootKeys = await crypto.subtle.generateKey(ECDSA, true, ['sign', 'verify']);
  const rootDer = await issuePlatformRoot(rootKeys, Date.now());
  root = { certificate: parseCertificate(rootDer), privateKey: rootKeys.privateKey, der: rootDer };
  const caKeys = await crypto.subtle.generateKey(ECDSA, true, ['sign', 'verify']);
  const caDer = await issueEnterpriseCa(root, caKeys.publicKey, Date.now());
  issuing = { certificate: parseCertificate(caDer), privateKey: caKeys.privateKey, der: caDer };
});

async function issueFor(keys: CryptoKeyPair) {
  const checked = await checkCsrPem(await createCsrPem(keys, subject), subject);
  if ('problem' in checked) throw new Error(checked.detail);
  return issueEnterpriseCertificate({ subject, spki: checked.spki, ca: issuing, now: Date.now(), validityDays: 730, crlUrl: 'https://provena.example/api/v1/pki/crl' });
}

describe('enterprise certificates issued by the platform CA', () => {
  it('chain to the platform root for openssl verify, with the enterprise subject in UTF-8 and digitalSignature', async () => {
    const issued = await issueFor(await generateKeyPair());
    const rootFile = write('root.pem', certificatePem(root.der));
    const caFile = write('ca.pem', certificatePem(issuing.der));
    const certFile = write('ent.pem', certificatePem(issued.der));
    expect(openssl('verify', '-CAfile', rootFile, '-untrusted', caFile, certFile)).toContain(': OK');
    // The issuing CA alone is not a trust anchor: without the root nothing verifies.
    expect(spawnSync('openssl', ['verify', '-CAfile', caFile, certFile], { encoding: 'utf8' }).status).not.toBe(0);
    const text = openssl('x509', '-in', certFile, '-noout', '-text', '-nameopt', 'utf8,sep_comma_plus');
    expect(text).toContain('CN=西安示例科技有限公司');
    expect(text).toMatch(/organizationIdentifier=NTRCN-91610000MA6U123456/);
    expect(text).toContain('Digital Signature');
    expect(text).toContain('CA:FALSE');
    expect(text).toContain('https://provena.example/api/v1/pki/crl');
    expect(text).toContain('Issuer: O=Provena,CN=Provena Enterprise CA');
    const caText = openssl('x509', '-in', caFile, '-noout', '-text');
    expect(caText).toContain('CA:TRUE, pathlen:0');
    expect(caText).toContain('Certificate Sign, CRL Sign');
    const serial = openssl('x509', '-in', certFile, '-noout', '-serial').trim().split('=')[1]!.toLowerCase();
    expect(serial).toBe(issued.serialNumber);
    expect(issued.serialNumber).toMatch(/^[4-7][0-9a-f]{31}$/);
    const days = (summarizeCertificate(issued.der).notAfter - summarizeCertificate(issued.der).notBefore) / 86_400_000;
    expect(Math.round(days)).toBe(730);
  });

  it('gives two certificates two random serials', async () => {
    const keys = await generateKeyPair();
    const [a, b] = await Promise.all([issueFor(keys), issueFor(keys)]);
    expect(a.serialNumber).not.toBe(b.serialNumber);
  });

  it('summarises a certificate the way openssl reads it', async () => {
    const issued = await issueFor(await generateKeyPair());
    const s = summarizeCertificate(issued.der);
    expect(s.subjectText).toBe('C=CN, O=西安示例科技有限公司, organizationIdentifier=NTRCN-91610000MA6U123456, CN=西安示例科技有限公司');
    expect(s.issuerText).toBe('O=Provena, CN=Provena Enterprise CA');
    expect(s.keyUsage).toEqual(['digitalSignature']);
    expect(s.isCa).toBe(false);
    expect(s.publicKey).toBe('ECDSA P-256');
    expect(s.signatureAlgorithm).toBe('ecdsa-with-SHA256');
    expect(s.fingerprint).toBe(createHash('sha256').update(issued.der).digest('hex'));
    const fp = openssl('x509', '-in', write('s.pem', certificatePem(issued.der)), '-noout', '-fingerprint', '-sha256').trim().split('=')[1]!.replace(/:/g, '').toLowerCase();
    expect(s.fingerprint).toBe(fp);
  });

  it('verifyChain accepts the platform chain and refuses another root, an expired time and a missing issuer', async () => {
    const issued = await issueFor(await generateKeyPair());
    const now = Date.now();
    const ok = await verifyChain(issued.der, [issuing.der], [root.der], now);
    expect(ok.isOk).toBe(true);
    if (ok.isOk) expect(ok.chain).toHaveLength(3);
    const otherKeys = await crypto.subtle.generateKey(ECDSA, true, ['sign', 'verify']);
    const otherRoot = await issuePlatformRoot(otherKeys, now);
    expect(await verifyChain(issued.der, [issuing.der], [otherRoot], now)).toMatchObject({ isOk: false, reason: 'no_issuer' });
    expect(await verifyChain(issued.der, [], [root.der], now)).toMatchObject({ isOk: false, reason: 'no_issuer' });
    expect(await verifyChain(issued.der, [issuing.der], [root.der], now + 3 * 365 * 86_400_000)).toMatchObject({ isOk: false, reason: 'expired' });
  });
});

describe('certification requests', () => {
  it('accepts the enterprise request and hands back its key', async () => {
    const keys = await generateKeyPair();
    const checked = await checkCsrPem(await createCsrPem(keys, subject), subject);
    expect('problem' in checked).toBe(false);
    if (!('problem' in checked)) expect(Buffer.from(checked.spki)).toEqual(Buffer.from(await crypto.subtle.exportKey('spki', keys.publicKey)));
  });

  it('refuses another subject, a broken signature, another curve, extra PEM blocks and garbage', async () => {
    const keys = await generateKeyPair();
    const other = await createCsrPem(keys, { ...subject, organizationIdentifier: 'NTRCN-91610000MA6U999999' });
    expect(await checkCsrPem(other, subject)).toMatchObject({ problem: 'certificate_subject_mismatch' });
    const good = await createCsrPem(keys, subject);
    const der = Buffer.from(good.replace(/-----[A-Z ]+-----|\s/g, ''), 'base64');
    der[der.length - 5] ^= 0x01; // inside the signature
    expect(await checkCsrPem(toPem('CERTIFICATE REQUEST', der), subject)).toMatchObject({ problem: 'certificate_request_invalid' });
    const p384 = await crypto.subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-384' }, true, ['sign', 'verify']);
    expect(await checkCsrPem(await createCsrPem(p384, subject), subject)).toMatchObject({ problem: 'certificate_request_invalid' });
    expect(await checkCsrPem(good + good, subject)).toMatchObject({ problem: 'certificate_request_invalid' });
    expect(await checkCsrPem('-----BEGIN CERTIFICATE REQUEST-----\nAAAA\n-----END CERTIFICATE REQUEST-----\n', subject)).toMatchObject({ problem: 'certificate_request_invalid' });
    // A request OpenSSL made for the same subject but signed with SHA-384 is refused too.
    const keyFile = write('k384.pem', openssl('genpkey', '-algorithm', 'EC', '-pkeyopt', 'ec_paramgen_curve:P-256'));
    const sha384 = openssl('req', '-new', '-key', keyFile, '-sha384', '-subj', '/CN=x', '-utf8');
    expect(await checkCsrPem(sha384, subject)).toMatchObject({ problem: 'certificate_request_invalid' });
  });
});

describe('signing a digest with the enterprise key', () => {
  it('makes the signature openssl dgst -sha256 -verify accepts over the file, with the certificate key', async () => {
    const keys = await generateKeyPair();
    const issued = await issueFor(keys);
    // The key goes through its encrypted PEM, as in the browser.
    const pem = await exportEncryptedPkcs8Pem(keys.privateKey, 'key pass phrase 1!');
    const opened = await importEncryptedPkcs8Pem(pem, 'key pass phrase 1!', true);
    expect(Buffer.from(await spkiOfPrivateKey(opened))).toEqual(Buffer.from(summarizeCertificate(issued.der).spki));
    const file = Buffer.from('合同 contract v1\n'.repeat(1000));
    const digest = createHash('sha256').update(file).digest();
    const signature = await signDigest(opened, digest);
    expect(verifyDigest(summarizeCertificate(issued.der).spki, digest, signature)).toBe(true);
    expect(verifyDigest(summarizeCertificate(issued.der).spki, createHash('sha256').update('other').digest(), signature)).toBe(false);
    const certFile = write('signer.pem', certificatePem(issued.der));
    const pubFile = write('signer.pub', openssl('x509', '-in', certFile, '-pubkey', '-noout'));
    const out = openssl('dgst', '-sha256', '-verify', pubFile, '-signature', write('file.sig', signature), write('file.bin', file));
    expect(out).toContain('Verified OK');
    // WebCrypto, hashing the file itself, agrees.
    const raw = await crypto.subtle.importKey('spki', summarizeCertificate(issued.der).spki as BufferSource, ECDSA, false, ['verify']);
    const { derToP1363 } = await import('./keys.ts');
    expect(await crypto.subtle.verify({ name: 'ECDSA', hash: 'SHA-256' }, raw, derToP1363(signature) as BufferSource, file)).toBe(true);
  });
});

describe('revocation list', () => {
  it('is a CRL openssl verifies, and openssl verify -crl_check refuses the revoked certificate', async () => {
    const revokedCert = await issueFor(await generateKeyPair());
    const goodCert = await issueFor(await generateKeyPair());
    const now = Date.now();
    const crl = await issueCrl(issuing, [{ serialNumber: revokedCert.serialNumber, revokedAt: now - 1000, reason: 5 }], now);
    const crlFile = write('ca.crl', toPem('X509 CRL', crl));
    const rootFile = write('root2.pem', certificatePem(root.der));
    const caFile = write('ca2.pem', certificatePem(issuing.der));
    const crlText = openssl('crl', '-in', crlFile, '-noout', '-text', '-CAfile', caFile);
    expect(crlText).toContain('Cessation Of Operation');
    expect(crlText.toLowerCase()).toContain(revokedCert.serialNumber);
    // The CRL is checked for the leaf only (-crl_check); the chain comes from -untrusted.
    const revoked = spawnSync('openssl', ['verify', '-crl_check', '-CAfile', rootFile, '-untrusted', caFile, '-CRLfile', crlFile, write('rev.pem', certificatePem(revokedCert.der))], { encoding: 'utf8' });
    expect(revoked.status).not.toBe(0);
    expect(revoked.stdout + revoked.stderr).toMatch(/certificate revoked/);
    expect(openssl('verify', '-crl_check', '-CAfile', rootFile, '-untrusted', caFile, '-CRLfile', crlFile, write('good.pem', certificatePem(goodCert.der)))).toContain(': OK');
    const read = await readCrl(crl, issuing.der);
    expect(read.isSignedByIssuer).toBe(true);
    expect(read.revoked.get(revokedCert.serialNumber)).toEqual({ revokedAt: Math.floor((now - 1000) / 1000) * 1000, reason: 5 });
    expect(read.revoked.has(goodCert.serialNumber)).toBe(false);
    expect((await readCrl(crl, root.der)).isSignedByIssuer).toBe(false);
  });
});
