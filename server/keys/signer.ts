/**
 * A platform key that can sign but never hands out its private half. Every platform key
 * (root CA, block signing, proof signing, time-stamping, enterprise issuing CA) is used
 * only through this interface, so the software implementation (PKCS#8 sealed with a
 * key-encryption key) and the PKCS#11 one (an HSM; SoftHSM2 in tests) are interchangeable.
 *
 * All platform keys are ECDSA P-256 and sign with SHA-256.
 */
export type KeyPurpose = 'root' | 'block' | 'proof' | 'tsa' | 'enterprise_ca';
export type KeyBackend = 'local' | 'pkcs11';

/** Signs `data` (the message itself, hashed inside with SHA-256); returns IEEE P1363 r‖s (64 bytes), as WebCrypto does. */
export type P1363Sign = (data: Uint8Array) => Promise<Uint8Array>;

export interface Signer {
  readonly purpose: KeyPurpose;
  readonly backend: KeyBackend;
  /** Lowercase hex SHA-256 of the SPKI DER. */
  readonly keyId: string;
  /** DER SubjectPublicKeyInfo. */
  readonly spki: Uint8Array;
  readonly publicKey: CryptoKey;
  readonly sign: P1363Sign;
}

/** A signer with the X.509 chain that certifies it: [its certificate, platform root], DER. */
export type CertifiedSigner = { signer: Signer; certificates: Uint8Array[]; rootFingerprint: string };

const ECDSA_SHA256 = { name: 'ECDSA', hash: 'SHA-256' } as const;

/** A signer over a WebCrypto private key (non-extractable once unsealed). */
export function cryptoKeySigner(opts: { purpose: KeyPurpose; keyId: string; spki: Uint8Array; publicKey: CryptoKey; privateKey: CryptoKey; backend?: KeyBackend }): Signer {
  const { privateKey } = opts;
  return {
    purpose: opts.purpose,
    backend: opts.backend ?? 'local',
    keyId: opts.keyId,
    spki: opts.spki,
    publicKey: opts.publicKey,
    sign: async (data) => new Uint8Array(await crypto.subtle.sign(ECDSA_SHA256, privateKey, data as Uint8Array<ArrayBuffer>)),
  };
}
