import { createHash, createPublicKey, generateKeyPairSync, sign, verify } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { signDigest, verifyDigest } from './digest-signature.ts';

const N = BigInt('0xffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551');

/** The S of a DER ECDSA signature (SEQUENCE { INTEGER r, INTEGER s }, short lengths for P-256). */
function sOf(der: Uint8Array): bigint {
  const rLength = der[3]!;
  const sStart = 4 + rLength + 2;
  return BigInt('0x' + Buffer.from(der.subarray(sStart, sStart + der[sStart - 1]!)).toString('hex'));
}

describe('ECDSA P-256 over a digest (@noble/curves 2 with explicit options)', () => {
  it('accepts what OpenSSL signs, high-S signatures included, and refuses another digest', () => {
    const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const spki = new Uint8Array(publicKey.export({ type: 'spki', format: 'der' }));
    let highS = 0;
    for (let i = 0; i < 24; i++) {
      const data = Buffer.from(`file ${i}`);
      const digest = new Uint8Array(createHash('sha256').update(data).digest());
      const signature = new Uint8Array(sign('sha256', data, privateKey));
      if (sOf(signature) > N / 2n) highS++;
      expect(verifyDigest(spki, digest, signature)).toBe(true);
      expect(verifyDigest(spki, new Uint8Array(createHash('sha256').update('other').digest()), signature)).toBe(false);
    }
    // 24 signatures with none high-S happens once in 2^24 runs.
    expect(highS).toBeGreaterThan(0);
  });

  it('signs a digest (not a message) in DER that OpenSSL verifies over the file', async () => {
    const pair = await crypto.subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-256' }, true, ['sign', 'verify']);
    const spki = new Uint8Array(await crypto.subtle.exportKey('spki', pair.publicKey));
    const data = Buffer.from('a file to sign');
    const digest = new Uint8Array(createHash('sha256').update(data).digest());
    const signature = await signDigest(pair.privateKey, digest);
    expect(signature[0]).toBe(0x30);
    expect(verify('sha256', data, createPublicKey({ key: Buffer.from(spki), format: 'der', type: 'spki' }), signature)).toBe(true);
    expect(verifyDigest(spki, digest, signature)).toBe(true);
  });
});
