/**
 * ECDSA P-256 over a SHA-256 digest computed elsewhere. WebCrypto signs only whole
 * messages (it hashes them itself), but a file to sign can be gigabytes: the hash worker
 * streams it to a digest, and this signs the digest. The result is the same signature
 * `openssl dgst -sha256 -sign` makes over the file (ECDSA with SHA-256, DER), so
 * `openssl dgst -sha256 -verify` accepts it. @noble/curves does the curve arithmetic
 * (audited, hedged RFC 6979 nonces); the private scalar is wiped after use.
 *
 * The options are spelled out because @noble/curves 2 changed its defaults: it hashes the
 * message itself (`prehash: true`; ours is already a digest), answers compact signatures
 * (we exchange DER), and signs and accepts only low-S signatures. OpenSSL and WebCrypto
 * make high-S signatures half of the time, and ECDSA over P-256 accepts both, so low-S
 * stays off as it was.
 */
import { p256 } from '@noble/curves/nist.js';
import { ecPointOfSpki } from './enterprise-cert.ts';
import { privateScalarOf } from './keys.ts';

export async function signDigest(extractablePrivateKey: CryptoKey, digest: Uint8Array): Promise<Uint8Array> {
  if (digest.length !== 32) throw new Error('a SHA-256 digest is 32 bytes');
  const scalar = await privateScalarOf(extractablePrivateKey);
  try {
    return p256.sign(digest, scalar, { prehash: false, lowS: false, format: 'der', extraEntropy: true });
  } finally {
    scalar.fill(0);
  }
}

/** Checks a DER ECDSA signature over a SHA-256 digest with the key in a SubjectPublicKeyInfo. */
export function verifyDigest(spki: Uint8Array, digest: Uint8Array, derSignature: Uint8Array): boolean {
  if (digest.length !== 32) return false;
  try {
    return p256.verify(derSignature, digest, ecPointOfSpki(spki), { prehash: false, lowS: false, format: 'der' });
  } catch {
    return false;
  }
}
