/**
 * PBES2-style sealing of a private key under a passphrase: PBKDF2-HMAC-SHA256 (600 000
 * rounds, OWASP's 2023 figure) derives an AES-256-GCM key; `label` is the associated data,
 * so a sealed key only opens for what it was sealed as. Used for the platform root CA key
 * (kept offline) and a witness's key.
 */
import { fromBase64, toBase64 } from '../../core/ledger/bytes.ts';

export const PBKDF2_ITERATIONS = 600_000;

export type OfflineEnvelope = { v: 1; backend: 'offline'; alg: 'PBES2-PBKDF2-SHA256-A256GCM'; iter: number; salt: string; iv: string; ct: string };

async function passphraseKey(passphrase: string, salt: Uint8Array, iterations: number): Promise<CryptoKey> {
  const base = await crypto.subtle.importKey('raw', new TextEncoder().encode(passphrase) as Uint8Array<ArrayBuffer>, 'PBKDF2', false, ['deriveKey']);
  return crypto.subtle.deriveKey({ name: 'PBKDF2', hash: 'SHA-256', salt: salt as Uint8Array<ArrayBuffer>, iterations }, base, { name: 'AES-GCM', length: 256 }, false, ['encrypt', 'decrypt']);
}

export async function sealWithPassphrase(secret: Uint8Array, passphrase: string, label: string, iterations = PBKDF2_ITERATIONS): Promise<string> {
  const salt = crypto.getRandomValues(new Uint8Array(16));
  const iv = crypto.getRandomValues(new Uint8Array(12));
  const key = await passphraseKey(passphrase, salt, iterations);
  const additionalData = new TextEncoder().encode(label) as Uint8Array<ArrayBuffer>;
  const ct = new Uint8Array(await crypto.subtle.encrypt({ name: 'AES-GCM', iv, additionalData }, key, secret as Uint8Array<ArrayBuffer>));
  const envelope: OfflineEnvelope = { v: 1, backend: 'offline', alg: 'PBES2-PBKDF2-SHA256-A256GCM', iter: iterations, salt: toBase64(salt), iv: toBase64(iv), ct: toBase64(ct) };
  return JSON.stringify(envelope);
}

/** Opens a passphrase-sealed secret; a wrong passphrase or label throws an OperationError. */
export async function openWithPassphrase(envelope: OfflineEnvelope, passphrase: string, label: string): Promise<ArrayBuffer> {
  const key = await passphraseKey(passphrase, fromBase64(envelope.salt), envelope.iter);
  const additionalData = new TextEncoder().encode(label) as Uint8Array<ArrayBuffer>;
  return crypto.subtle.decrypt({ name: 'AES-GCM', iv: fromBase64(envelope.iv) as Uint8Array<ArrayBuffer>, additionalData }, key, fromBase64(envelope.ct) as Uint8Array<ArrayBuffer>);
}
