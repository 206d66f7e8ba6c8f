/**
 * ECDSA P-256 over a SHA-256 digest computed elsewhere. WebCrypto signs only whole
 * messages (it hashes them itself), but a file to sign can be gigabytes: the hash worker
 * streams it to a digest, and this signs the digest. The result is the same signature
 * `openssl dgst -sha256 -sign` makes over the file (ECDSA with SHA-256, DER), so
 * `openssl dgst -sha256 -verify` accepts it. @noble/curves does the curve arithmetic
 * (audited, hedged RFC 6979 nonces); the private scalar is wiped after use.
 */
import { p256 } from '@noble/curves/p256';
import { ecPointOfSpki } from './enterprise-cert.ts';
import { privateScalarOf } from './keys.ts';

export async function signDigest(extractablePrivateKey: CryptoKey, digest: Uint8Array): Promise<Uint8Array> {
  if (digest.length !== 32) throw new Error('a SHA-256 digest is 32 bytes');
  const scalar = await privateScalarOf(extractablePrivateKey);
  try {
    return p256.sign(digest, scalar, { extraEntropy: true }).toDERRawBytes();
  } finally {
    scalar.fill(0);
  }
}

/** Checks a DER ECDSA signature over a SHA-256 digest with the key in a SubjectPublicKeyInfo. */
export function verifyDigest(spki: Uint8Array, digest: Uint8Array, derSignature: Uint8Array): boolean {
  if (digest.length !== 32) return false;
  try {
    return p256.verify(derSignature, digest, ecPointOfSpki(spki));
  } catch {
    return false;
  }
}
