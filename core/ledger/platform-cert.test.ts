import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { certificateFingerprint, issuePlatformRoot, issueSigningCertificate, verifyPlatformChain } from './platform-cert.ts';
import { toBase64 } from './bytes.ts';
import { keyId } from './block.ts';

const ECDSA = { name: 'ECDSA', namedCurve: 'P-256' } as const;
const NOW = Date.UTC(2026, 10, 22);

async function pair() {
  return crypto.subtle.generateKey(ECDSA, true, ['sign', 'verify']);
}
async function spki(key: CryptoKey) {
  return new Uint8Array(await crypto.subtle.exportKey('spki', key));
}
async function chainFor(root: CryptoKeyPair, rootCert: Uint8Array, signer: CryptoKeyPair) {
  const s = await spki(signer.publicKey);
  return { spki: s, chain: [await issueSigningCertificate(root, signer.publicKey, keyId(s), NOW), rootCert] };
}
const pem = (der: Uint8Array, label = 'CERTIFICATE') => `-----BEGIN ${label}-----\n${toBase64(der).replace(/.{64}/g, '$&\n').replace(/\n?$/, '\n')}-----END ${label}-----\n`;

describe('platform X.509 chain', () => {
  it('accepts [signing certificate, root] for the signing key, pinned by the root fingerprint', async () => {
    const root = await pair();
    const rootCert = await issuePlatformRoot(root, NOW);
    const { spki: s, chain } = await chainFor(root, rootCert, await pair());
    const fp = certificateFingerprint(rootCert);
    expect(await verifyPlatformChain(chain, s, NOW + 1000, [fp])).toMatchObject({ isOk: true, isRootTrusted: true, rootFingerprint: fp });
    expect(await verifyPlatformChain(chain, s, NOW + 1000)).toMatchObject({ isOk: true, isRootTrusted: false });
  });

  it('refuses another root, another key, a forged issuer, a wrong time and a bad shape', async () => {
    const root = await pair();
    const rootCert = await issuePlatformRoot(root, NOW);
    const signer = await pair();
    const { spki: s, chain } = await chainFor(root, rootCert, signer);

    // A look-alike root the verifier does not pin.
    const other = await pair();
    const otherCert = await issuePlatformRoot(other, NOW);
    const forged = await chainFor(other, otherCert, signer);
    expect(await verifyPlatformChain(forged.chain, s, NOW, [certificateFingerprint(rootCert)])).toMatchObject({ isOk: false, detail: expect.stringContaining('not a trusted platform root') });
    // The right root presented with a signing certificate the other root issued.
    expect(await verifyPlatformChain([forged.chain[0]!, rootCert], s, NOW)).toMatchObject({ isOk: false, detail: expect.stringContaining('not signed by the root') });
    // The chain of another key.
    expect(await verifyPlatformChain(chain, await spki((await pair()).publicKey), NOW)).toMatchObject({ isOk: false, detail: expect.stringContaining('another key') });
    // Before the certificates existed, and 31 years on.
    expect((await verifyPlatformChain(chain, s, NOW - 3_600_000)).isOk).toBe(false);
    expect((await verifyPlatformChain(chain, s, NOW + 31 * 365 * 86_400_000)).isOk).toBe(false);
    // One flipped byte in the signing certificate's signature.
    const tampered = chain[0]!.slice();
    tampered[tampered.length - 3]! ^= 1;
    expect((await verifyPlatformChain([tampered, rootCert], s, NOW)).isOk).toBe(false);
    // The signing certificate used as a root, garbage, wrong length.
    expect((await verifyPlatformChain([chain[0]!, chain[0]!], s, NOW)).isOk).toBe(false);
    expect((await verifyPlatformChain([new Uint8Array([1, 2, 3]), rootCert], s, NOW)).isOk).toBe(false);
    expect((await verifyPlatformChain([chain[0]!], s, NOW)).isOk).toBe(false);
  });

  it('is a standard chain: OpenSSL verifies it with the root as the only trust anchor', async () => {
    const root = await pair();
    const rootCert = await issuePlatformRoot(root, Date.now());
    const signer = await pair();
    const s = await spki(signer.publicKey);
    const leaf = await issueSigningCertificate(root, signer.publicKey, keyId(s), Date.now());
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'provena-x509-'));
    try {
      fs.writeFileSync(path.join(dir, 'root.pem'), pem(rootCert));
      fs.writeFileSync(path.join(dir, 'leaf.pem'), pem(leaf));
      const out = execFileSync('openssl', ['verify', '-x509_strict', '-CAfile', path.join(dir, 'root.pem'), path.join(dir, 'leaf.pem')], { encoding: 'utf8' });
      expect(out.trim()).toMatch(/leaf\.pem: OK$/);
      const text = execFileSync('openssl', ['x509', '-in', path.join(dir, 'leaf.pem'), '-noout', '-text'], { encoding: 'utf8' });
      expect(text).toContain('CA:FALSE');
      expect(text).toContain('Digital Signature');
      expect(text).toContain('Provena Platform Root CA');
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
