/// <reference lib="webworker" />
import { expose } from 'comlink';
import { createCsrPem, type CsrSubject } from '../../core/crypto/csr.ts';
import { signDigest, verifyDigest } from '../../core/crypto/digest-signature.ts';
import { readCrl, summarizeCertificate, verifyChain, type CertificateSummary, type ChainCheck } from '../../core/crypto/enterprise-cert.ts';
import {
  exportEncryptedPkcs8Pem,
  exportPublicKeyPem,
  generateKeyPair,
  importEncryptedPkcs8Pem,
  importPublicKeyPem,
  readEncryptedPkcs8Pem,
  sign,
  spkiOfPrivateKey,
  verify,
} from '../../core/crypto/keys.ts';
import { fromPem, toPem } from '../../core/crypto/pem.ts';
import { depositMessage } from '../../core/enterprise-keys.ts';
import { fromHex, sha256, toBase64, toHex, utf8 } from '../../core/ledger/bytes.ts';

/** Certificate and key files are small; anything larger is not one. */
const LOCAL_FILE_MAX_BYTES = 1024 * 1024;

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}

function certificateDerOf(pem: string): Uint8Array {
  return fromPem('CERTIFICATE', pem);
}

/** Opens an encrypted PEM; a wrong passphrase becomes the §8-style key the page shows on the field. */
async function openKey(encryptedPem: string, passphrase: string): Promise<CryptoKey> {
  try {
    return await importEncryptedPkcs8Pem(encryptedPem, passphrase, true);
  } catch (error) {
    if (error instanceof Error && /wrong passphrase/.test(error.message)) throw new Error('key_passphrase_wrong');
    throw new Error('private_key_invalid');
  }
}

/** A certificate file as the local check shows it: the summary's plain fields and the verdicts. */
export type LocalCertificate = Pick<CertificateSummary, 'serialNumber' | 'subjectText' | 'issuerText' | 'notBefore' | 'notAfter' | 'fingerprint' | 'keyUsage' | 'isCa' | 'publicKey'> & {
  kind: 'certificate';
  source: string;
  pem: string;
  subject: Array<{ type: string; value: string }>;
  validity: 'valid' | 'expired' | 'not_yet_valid';
  isPlatformRoot: boolean;
  chain: { isOk: true; rootFingerprint: string; length: number } | { isOk: false; reason: Extract<ChainCheck, { isOk: false }>['reason']; detail: string };
  /** Checked against the platform's CRL (fetched by the page; the file itself never leaves the browser). */
  revocation: { isChecked: false } | { isChecked: true; isRevoked: boolean; revokedAt: number | null; reason: number | null };
};
export type LocalKey = { kind: 'encrypted_key'; source: string; pem: string; iterations: number; kdf: string; cipher: string };
export type LocalItem =
  | LocalCertificate
  | LocalKey
  | { kind: 'plain_key'; source: string }
  | { kind: 'certificate_request'; source: string }
  | { kind: 'unreadable'; source: string; reason: 'too_large' | 'not_recognised' | 'damaged' };
export type TrustMaterial = { roots: string[]; issuingCas: string[]; crl: Uint8Array | null };

/** The PEM blocks of a text file, or one DER structure of a binary one. */
function blocksOf(bytes: Uint8Array): Array<{ label: string; der: Uint8Array; pem: string }> | null {
  let text = '';
  try {
    text = utf8.decode(bytes);
  } catch {
    text = '';
  }
  const found = [...text.matchAll(/-----BEGIN ([A-Z0-9 ]+)-----[\s\S]*?-----END \1-----/g)];
  if (found.length) {
    return found.map((m) => {
      const label = m[1] as string;
      return { label, der: fromPem(label, m[0]), pem: `${m[0]}\n` };
    });
  }
  if (bytes[0] === 0x30) return [{ label: 'DER', der: bytes, pem: '' }];
  return null;
}

async function describeCertificate(source: string, der: Uint8Array, trust: TrustMaterial, others: Uint8Array[], now: number): Promise<LocalCertificate> {
  const s = summarizeCertificate(der);
  const roots = trust.roots.map(certificateDerOf);
  const issuing = trust.issuingCas.map(certificateDerOf);
  const chain = await verifyChain(der, [...issuing, ...others.filter((o) => !sameBytes(o, der))], roots, now);
  let revocation: LocalCertificate['revocation'] = { isChecked: false };
  if (chain.isOk && chain.chain.length >= 3 && trust.crl) {
    const issuer = chain.chain[1]!;
    const crl = await readCrl(trust.crl, issuer).catch(() => null);
    if (crl?.isSignedByIssuer) {
      const hit = crl.revoked.get(s.serialNumber);
      revocation = { isChecked: true, isRevoked: Boolean(hit), revokedAt: hit?.revokedAt ?? null, reason: hit?.reason ?? null };
    }
  }
  return {
    kind: 'certificate',
    source,
    pem: toPem('CERTIFICATE', der),
    serialNumber: s.serialNumber,
    subject: s.subject.map(({ type, value }) => ({ type, value })),
    subjectText: s.subjectText,
    issuerText: s.issuerText,
    notBefore: s.notBefore,
    notAfter: s.notAfter,
    fingerprint: s.fingerprint,
    keyUsage: s.keyUsage,
    isCa: s.isCa,
    publicKey: s.publicKey,
    validity: now < s.notBefore ? 'not_yet_valid' : now > s.notAfter ? 'expired' : 'valid',
    isPlatformRoot: roots.some((r) => sameBytes(r, der)),
    chain: chain.isOk ? { isOk: true, rootFingerprint: chain.rootFingerprint, length: chain.chain.length } : { isOk: false, reason: chain.reason, detail: chain.detail },
    revocation,
  };
}

/**
 * Key operations off the page thread: PBKDF2 (100 000 iterations), ECDSA and certificate
 * parsing run here. Private keys leave this worker only as encrypted PKCS#8 PEM.
 */
export const api = {
  /** A new P-256 key pair, the private key wrapped under `passphrase`, plus a CSR for the enterprise certificate. */
  async generate(passphrase: string, subject: CsrSubject): Promise<{ encryptedPrivateKeyPem: string; publicKeyPem: string; csrPem: string }> {
    const pair = await generateKeyPair();
    const [encryptedPrivateKeyPem, publicKeyPem, csrPem] = await Promise.all([
      exportEncryptedPkcs8Pem(pair.privateKey, passphrase),
      exportPublicKeyPem(pair.publicKey),
      createCsrPem(pair, subject),
    ]);
    return { encryptedPrivateKeyPem, publicKeyPem, csrPem };
  },
  /**
   * The key ceremony: a new enterprise key, its encrypted PEM, the CSR for the enterprise
   * subject and the deposit proof (the key's signature over the PEM's hash). Before
   * anything leaves, the PEM is opened again with the passphrase and must give this key.
   */
  async createEnterpriseKey(passphrase: string, subject: CsrSubject, enterpriseId: number): Promise<{ encryptedPrivateKeyPem: string; csrPem: string; depositSignature: string; publicKeySha256: string }> {
    const pair = await generateKeyPair();
    const encryptedPrivateKeyPem = await exportEncryptedPkcs8Pem(pair.privateKey, passphrase);
    const csrPem = await createCsrPem(pair, subject);
    const spki = new Uint8Array(await crypto.subtle.exportKey('spki', pair.publicKey));
    const reopened = await importEncryptedPkcs8Pem(encryptedPrivateKeyPem, passphrase, true);
    if (!sameBytes(await spkiOfPrivateKey(reopened), spki)) throw new Error('private_key_mismatch');
    const proof = await sign(pair.privateKey, depositMessage(enterpriseId, sha256(utf8.encode(encryptedPrivateKeyPem))));
    return { encryptedPrivateKeyPem, csrPem, depositSignature: toBase64(proof), publicKeySha256: toHex(sha256(spki)) };
  },
  /**
   * Signs a SHA-256 digest (from the hash worker) with the custodied key: opens the PEM
   * with the passphrase, checks the key is the one the certificate certifies, signs, and
   * checks the signature before handing it out. The DER signature is what
   * `openssl dgst -sha256 -verify` expects for the file.
   */
  async signDigest(encryptedPem: string, passphrase: string, digestHex: string, certificatePem: string): Promise<Uint8Array> {
    const digest = fromHex(digestHex.replace(/^0x/, ''));
    const spki = summarizeCertificate(certificateDerOf(certificatePem)).spki;
    const key = await openKey(encryptedPem, passphrase);
    if (!sameBytes(await spkiOfPrivateKey(key), spki)) throw new Error('private_key_mismatch');
    const signature = await signDigest(key, digest);
    if (!verifyDigest(spki, digest, signature)) throw new Error('signature_invalid');
    return signature;
  },
  /** Re-wraps a key under a new passphrase (the old one must be right). */
  async changePassphrase(encryptedPem: string, oldPassphrase: string, newPassphrase: string): Promise<string> {
    const key = await importEncryptedPkcs8Pem(encryptedPem, oldPassphrase, true);
    return exportEncryptedPkcs8Pem(key, newPassphrase);
  },
  async sign(encryptedPem: string, passphrase: string, data: Uint8Array): Promise<Uint8Array> {
    return sign(await importEncryptedPkcs8Pem(encryptedPem, passphrase), data);
  },
  async verify(publicKeyPem: string, data: Uint8Array, signature: Uint8Array): Promise<boolean> {
    return verify(await importPublicKeyPem(publicKeyPem), data, signature);
  },
  /**
   * Reads certificate and key files chosen by the user (PEM or DER), entirely here: each
   * certificate's fields, validity, whether it chains to a platform root and whether the
   * platform's CRL lists it; each key's protection. Nothing is sent anywhere.
   */
  async inspectFiles(files: File[], trust: TrustMaterial): Promise<LocalItem[]> {
    const now = Date.now();
    const items: LocalItem[] = [];
    const read: Array<{ source: string; blocks: Array<{ label: string; der: Uint8Array; pem: string }> }> = [];
    for (const file of files) {
      if (file.size > LOCAL_FILE_MAX_BYTES) {
        items.push({ kind: 'unreadable', source: file.name, reason: 'too_large' });
        continue;
      }
      const blocks = blocksOf(new Uint8Array(await file.arrayBuffer()));
      if (!blocks) items.push({ kind: 'unreadable', source: file.name, reason: 'not_recognised' });
      else read.push({ source: file.name, blocks });
    }
    // Every certificate given may help build another's chain (a file with the whole chain).
    const certificates: Uint8Array[] = [];
    for (const { blocks } of read) {
      for (const b of blocks) {
        if (b.label !== 'CERTIFICATE' && b.label !== 'DER') continue;
        try {
          summarizeCertificate(b.der);
          certificates.push(b.der);
        } catch {
          // Not a certificate (a DER key, or damaged): it builds no chain.
        }
      }
    }
    for (const { source, blocks } of read) {
      for (const block of blocks) {
        try {
          if (block.label === 'CERTIFICATE') items.push(await describeCertificate(source, block.der, trust, certificates, now));
          else if (block.label === 'ENCRYPTED PRIVATE KEY') {
            const parsed = readEncryptedPkcs8Pem(block.pem);
            items.push({ kind: 'encrypted_key', source, pem: block.pem, iterations: parsed.iterations, kdf: 'PBKDF2-HMAC-SHA256', cipher: 'AES-256-CBC' });
          } else if (block.label === 'PRIVATE KEY' || block.label === 'EC PRIVATE KEY') items.push({ kind: 'plain_key', source });
          else if (block.label === 'CERTIFICATE REQUEST') items.push({ kind: 'certificate_request', source });
          else if (block.label === 'DER') {
            try {
              items.push(await describeCertificate(source, block.der, trust, certificates, now));
            } catch {
              const pem = toPem('ENCRYPTED PRIVATE KEY', block.der);
              const parsed = readEncryptedPkcs8Pem(pem);
              items.push({ kind: 'encrypted_key', source, pem, iterations: parsed.iterations, kdf: 'PBKDF2-HMAC-SHA256', cipher: 'AES-256-CBC' });
            }
          } else items.push({ kind: 'unreadable', source, reason: 'not_recognised' });
        } catch {
          items.push({ kind: 'unreadable', source, reason: 'damaged' });
        }
      }
    }
    return items;
  },
  /** Whether a passphrase opens an encrypted key, and whether that key is the one a certificate certifies. */
  async tryPassphrase(encryptedPem: string, passphrase: string, certificatePems: string[]): Promise<{ opens: boolean; matchingFingerprint: string | null }> {
    let key: CryptoKey;
    try {
      key = await openKey(encryptedPem, passphrase);
    } catch (error) {
      if (error instanceof Error && error.message === 'key_passphrase_wrong') return { opens: false, matchingFingerprint: null };
      throw error;
    }
    const spki = await spkiOfPrivateKey(key);
    for (const pem of certificatePems) {
      const s = summarizeCertificate(certificateDerOf(pem));
      if (sameBytes(s.spki, spki)) return { opens: true, matchingFingerprint: s.fingerprint };
    }
    return { opens: true, matchingFingerprint: null };
  },
  /** Times one PBKDF2-HMAC-SHA256 derivation of `iterations` (the benchmark reads this). */
  async timePbkdf2(iterations: number): Promise<number> {
    const t0 = performance.now();
    const material = await crypto.subtle.importKey('raw', new TextEncoder().encode('benchmark'), 'PBKDF2', false, ['deriveBits']);
    await crypto.subtle.deriveBits({ name: 'PBKDF2', hash: 'SHA-256', salt: new Uint8Array(16), iterations }, material, 256);
    return performance.now() - t0;
  },
};

export type KeysWorkerApi = typeof api;
expose(api);
