/**
 * Enterprise keys (architecture: Keys): P-256 ECDSA generated with WebCrypto; the private
 * key kept as an encrypted PKCS#8 PEM (PBES2 with PBKDF2-HMAC-SHA256, 100 000 iterations,
 * AES-256-CBC; 64-character lines), the standard form that OpenSSL reads. Pure WebCrypto:
 * runs in the keys worker and in Node alike.
 */
import { PBKDF2_ITERATIONS } from '../constants.ts';
import { concat, der, integer, octets, oid, oidToString, parseDer, parseIntegerValue, seq, type DerNode } from './der.ts';
import { fromPem, toPem } from './pem.ts';
import { OID } from './oids.ts';

export const ENCRYPTED_KEY_LABEL = 'ENCRYPTED PRIVATE KEY';
export const PUBLIC_KEY_LABEL = 'PUBLIC KEY';

const ECDSA = { name: 'ECDSA', namedCurve: 'P-256' } as const;
const SIGN = { name: 'ECDSA', hash: 'SHA-256' } as const;

function subtle(): SubtleCrypto {
  return globalThis.crypto.subtle;
}

export async function generateKeyPair(): Promise<CryptoKeyPair> {
  return subtle().generateKey(ECDSA, true, ['sign', 'verify']);
}

async function deriveAesKey(passphrase: string, salt: Uint8Array, iterations: number): Promise<CryptoKey> {
  const material = await subtle().importKey('raw', new TextEncoder().encode(passphrase), 'PBKDF2', false, ['deriveKey']);
  return subtle().deriveKey(
    { name: 'PBKDF2', hash: 'SHA-256', salt: salt as BufferSource, iterations },
    material,
    { name: 'AES-CBC', length: 256 },
    false,
    ['encrypt', 'decrypt'],
  );
}

/** Private key → `-----BEGIN ENCRYPTED PRIVATE KEY-----` (RFC 5958 EncryptedPrivateKeyInfo, RFC 8018 PBES2). */
export async function exportEncryptedPkcs8Pem(privateKey: CryptoKey, passphrase: string, iterations = PBKDF2_ITERATIONS): Promise<string> {
  if (!passphrase) throw new Error('a passphrase is required');
  const pkcs8 = new Uint8Array(await subtle().exportKey('pkcs8', privateKey));
  const salt = crypto.getRandomValues(new Uint8Array(16));
  const iv = crypto.getRandomValues(new Uint8Array(16));
  const key = await deriveAesKey(passphrase, salt, iterations);
  const encrypted = new Uint8Array(await subtle().encrypt({ name: 'AES-CBC', iv: iv as BufferSource }, key, pkcs8 as BufferSource));
  const algorithm = seq(
    oid(OID.pbes2),
    seq(
      seq(oid(OID.pbkdf2), seq(octets(salt), integer(iterations), integer(32), seq(oid(OID.hmacWithSha256), der(0x05, new Uint8Array(0))))),
      seq(oid(OID.aes256Cbc), octets(iv)),
    ),
  );
  return toPem(ENCRYPTED_KEY_LABEL, seq(algorithm, octets(encrypted)));
}

function child(node: DerNode | undefined, index: number): DerNode {
  const c = node?.children?.[index];
  if (!c) throw new Error('unsupported encrypted key: unexpected structure');
  return c;
}

function expectOid(node: DerNode, expected: string, what: string): void {
  const got = node.tag === 0x06 ? oidToString(node.content) : '(none)';
  if (got !== expected) throw new Error(`unsupported encrypted key: ${what} is ${got}, expected ${expected}`);
}

export type EncryptedPkcs8 = { salt: Uint8Array; iterations: number; iv: Uint8Array; ciphertext: Uint8Array };

/**
 * Reads the structure of `-----BEGIN ENCRYPTED PRIVATE KEY-----` without the passphrase:
 * PBES2 with PBKDF2-HMAC-SHA256 and AES-256-CBC, or an Error that says what differs.
 * The platform runs this on a deposited key (it can check the wrapping, never the key).
 */
export function readEncryptedPkcs8Pem(pem: string): EncryptedPkcs8 {
  let root: DerNode;
  try {
    root = parseDer(fromPem(ENCRYPTED_KEY_LABEL, pem)).node;
  } catch (error) {
    throw new Error(`unsupported encrypted key: ${error instanceof Error ? error.message : String(error)}`);
  }
  const algorithm = child(root, 0);
  expectOid(child(algorithm, 0), OID.pbes2, 'encryption scheme');
  const params = child(algorithm, 1);
  const kdf = child(params, 0);
  expectOid(child(kdf, 0), OID.pbkdf2, 'key derivation');
  const kdfParams = child(kdf, 1);
  const salt = child(kdfParams, 0).content;
  const iterations = parseIntegerValue(child(kdfParams, 1));
  // Optional keyLength INTEGER, then optional prf AlgorithmIdentifier (default hmacWithSHA1, which we refuse).
  const rest = kdfParams.children!.slice(2);
  const prf = rest.find((n) => n.tag === 0x30);
  if (!prf) throw new Error('unsupported encrypted key: PBKDF2 with HMAC-SHA1 (use -v2prf hmacWithSHA256)');
  expectOid(child(prf, 0), OID.hmacWithSha256, 'PBKDF2 PRF');
  const cipher = child(params, 1);
  expectOid(child(cipher, 0), OID.aes256Cbc, 'cipher');
  const iv = child(cipher, 1).content;
  const ciphertext = child(root, 1);
  if (ciphertext.tag !== 0x04) throw new Error('unsupported encrypted key: unexpected structure');
  return { salt, iterations, iv, ciphertext: ciphertext.content };
}

/** `-----BEGIN ENCRYPTED PRIVATE KEY-----` (PBES2/PBKDF2-SHA256/AES-256-CBC) → P-256 private key. */
export async function importEncryptedPkcs8Pem(pem: string, passphrase: string, extractable = false): Promise<CryptoKey> {
  const { salt, iterations, iv, ciphertext } = readEncryptedPkcs8Pem(pem);
  const key = await deriveAesKey(passphrase, salt, iterations);
  let pkcs8: ArrayBuffer;
  try {
    pkcs8 = await subtle().decrypt({ name: 'AES-CBC', iv: iv as BufferSource }, key, ciphertext as BufferSource);
  } catch {
    throw new Error('wrong passphrase or damaged key');
  }
  return subtle().importKey('pkcs8', pkcs8, ECDSA, extractable, ['sign']);
}

/** The SubjectPublicKeyInfo (DER) of an extractable P-256 private key: its JWK carries the public point. */
export async function spkiOfPrivateKey(privateKey: CryptoKey): Promise<Uint8Array> {
  const jwk = await subtle().exportKey('jwk', privateKey);
  const publicKey = await subtle().importKey('jwk', { kty: 'EC', crv: 'P-256', x: jwk.x, y: jwk.y, ext: true }, ECDSA, true, ['verify']);
  return new Uint8Array(await subtle().exportKey('spki', publicKey));
}

/** The 32-byte private scalar of an extractable P-256 key (for signing a digest computed elsewhere). */
export async function privateScalarOf(privateKey: CryptoKey): Promise<Uint8Array> {
  const jwk = await subtle().exportKey('jwk', privateKey);
  if (!jwk.d) throw new Error('not a private key');
  const b64 = jwk.d.replace(/-/g, '+').replace(/_/g, '/');
  const binary = atob(b64 + '='.repeat((4 - (b64.length % 4)) % 4));
  return Uint8Array.from(binary, (c) => c.charCodeAt(0));
}

export async function exportPublicKeyPem(publicKey: CryptoKey): Promise<string> {
  return toPem(PUBLIC_KEY_LABEL, new Uint8Array(await subtle().exportKey('spki', publicKey)));
}

export async function importPublicKeyPem(pem: string): Promise<CryptoKey> {
  return subtle().importKey('spki', fromPem(PUBLIC_KEY_LABEL, pem) as BufferSource, ECDSA, true, ['verify']);
}

/** WebCrypto's ECDSA signature (r‖s, 64 bytes) → the DER form OpenSSL and X.509 use. */
export function p1363ToDer(signature: Uint8Array): Uint8Array {
  const half = signature.length / 2;
  return seq(integer(signature.subarray(0, half)), integer(signature.subarray(half)));
}

export function derToP1363(signature: Uint8Array, size = 32): Uint8Array {
  const root = parseDer(signature).node;
  const pad = (n: DerNode) => {
    let b = n.content;
    while (b.length > size && b[0] === 0) b = b.subarray(1);
    if (b.length > size) throw new Error('bad ECDSA signature');
    return concat(new Uint8Array(size - b.length), b);
  };
  return concat(pad(child(root, 0)), pad(child(root, 1)));
}

/** ECDSA P-256 with SHA-256; the signature in DER. */
export async function sign(privateKey: CryptoKey, data: Uint8Array): Promise<Uint8Array> {
  return p1363ToDer(new Uint8Array(await subtle().sign(SIGN, privateKey, data as BufferSource)));
}

export async function verify(publicKey: CryptoKey, data: Uint8Array, derSignature: Uint8Array): Promise<boolean> {
  let raw: Uint8Array;
  try {
    raw = derToP1363(derSignature);
  } catch {
    return false;
  }
  return subtle().verify(SIGN, publicKey, raw as BufferSource, data as BufferSource);
}
