/// <reference lib="webworker" />
import { expose } from 'comlink';
import { createCsrPem, type CsrSubject } from '../../core/crypto/csr.ts';
import {
  exportEncryptedPkcs8Pem,
  exportPublicKeyPem,
  generateKeyPair,
  importEncryptedPkcs8Pem,
  importPublicKeyPem,
  sign,
  verify,
} from '../../core/crypto/keys.ts';

/**
 * Key operations off the page thread: PBKDF2 (100 000 iterations) and ECDSA run here.
 * Private keys leave this worker only as encrypted PKCS#8 PEM.
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
