/**
 * Block headers and the platform's ECDSA P-256 signatures over them, with WebCrypto
 * (available in browsers, workers and Node alike).
 */
import { concat, fromBase64, sha256, toBase64, toHex, utf8 } from './bytes.ts';

export type BlockHeader = {
  v: 1;
  height: number;
  /** Hex block hash of height − 1; 64 zeros for the first block. */
  prev_hash: string;
  /** Number of leaves in the log once this block is sealed. */
  tree_size: number;
  /** Hex RFC 6962 root of the log's first tree_size leaves. */
  root: string;
  sealed_at: number;
  /** Hex SHA-256 of the signing key's SubjectPublicKeyInfo (DER). */
  key_id: string;
};

export const GENESIS_PREV_HASH = '0'.repeat(64);
const HEX64 = /^[0-9a-f]{64}$/;

/** The signed bytes: JSON with this key order and no spaces. */
export function encodeHeader(h: BlockHeader): string {
  return JSON.stringify({ v: h.v, height: h.height, prev_hash: h.prev_hash, tree_size: h.tree_size, root: h.root, sealed_at: h.sealed_at, key_id: h.key_id });
}

export function isBlockHeader(value: unknown): value is BlockHeader {
  if (typeof value !== 'object' || value === null) return false;
  const h = value as Record<string, unknown>;
  return (
    h.v === 1 &&
    Number.isSafeInteger(h.height) && (h.height as number) >= 1 &&
    typeof h.prev_hash === 'string' && HEX64.test(h.prev_hash) &&
    Number.isSafeInteger(h.tree_size) && (h.tree_size as number) >= 1 &&
    typeof h.root === 'string' && HEX64.test(h.root) &&
    Number.isSafeInteger(h.sealed_at) &&
    typeof h.key_id === 'string' && HEX64.test(h.key_id)
  );
}

export function blockHash(h: BlockHeader): string {
  return toHex(sha256(utf8.encode(encodeHeader(h))));
}

// ---- signatures -------------------------------------------------------------------

const ECDSA = { name: 'ECDSA', namedCurve: 'P-256' } as const;
const ECDSA_SHA256 = { name: 'ECDSA', hash: 'SHA-256' } as const;

export function keyId(spki: Uint8Array): string {
  return toHex(sha256(spki));
}

export async function importPublicKey(spki: Uint8Array): Promise<CryptoKey> {
  return crypto.subtle.importKey('spki', spki as Uint8Array<ArrayBuffer>, ECDSA, true, ['verify']);
}

/** WebCrypto signs as r‖s (IEEE P1363); certificates and OpenSSL use DER. We store DER. */
export function p1363ToDer(sig: Uint8Array): Uint8Array {
  if (sig.length !== 64) throw new Error('P-256 signature is 64 bytes');
  const integer = (bytes: Uint8Array) => {
    let i = 0;
    while (i < bytes.length - 1 && bytes[i] === 0) i++;
    let v = bytes.subarray(i);
    if ((v[0] as number) & 0x80) v = concat(new Uint8Array([0]), v);
    return concat(new Uint8Array([0x02, v.length]), v);
  };
  const body = concat(integer(sig.subarray(0, 32)), integer(sig.subarray(32)));
  return concat(new Uint8Array([0x30, body.length]), body);
}

export function derToP1363(der: Uint8Array): Uint8Array {
  const fail = () => {
    throw new Error('malformed DER ECDSA signature');
  };
  if (der[0] !== 0x30 || der[1] !== der.length - 2) fail();
  const out = new Uint8Array(64);
  let at = 2;
  for (const offset of [0, 32]) {
    if (der[at] !== 0x02) fail();
    const len = der[at + 1] as number;
    let v = der.subarray(at + 2, at + 2 + len);
    if (v.length !== len || len === 0) fail();
    while (v.length > 32 && v[0] === 0) v = v.subarray(1);
    if (v.length > 32) fail();
    out.set(v, offset + 32 - v.length);
    at += 2 + len;
  }
  if (at !== der.length) fail();
  return out;
}

/** Signs `text` with a WebCrypto key or a P1363 signer (a sealed key, an HSM); the signature as base64 DER. */
export async function signText(key: CryptoKey | ((data: Uint8Array) => Promise<Uint8Array>), text: string): Promise<string> {
  const data = utf8.encode(text);
  const raw = typeof key === 'function' ? await key(data) : new Uint8Array(await crypto.subtle.sign(ECDSA_SHA256, key, data as Uint8Array<ArrayBuffer>));
  return toBase64(p1363ToDer(raw));
}

export async function verifyText(publicKey: CryptoKey, text: string, signatureB64: string): Promise<boolean> {
  let raw: Uint8Array;
  try {
    raw = derToP1363(fromBase64(signatureB64));
  } catch {
    return false;
  }
  return crypto.subtle.verify(ECDSA_SHA256, publicKey, raw as Uint8Array<ArrayBuffer>, utf8.encode(text) as Uint8Array<ArrayBuffer>);
}

