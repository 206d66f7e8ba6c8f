/**
 * Where platform private keys live, and how they are opened. Nothing here ever writes a
 * private key in the clear:
 *
 * - `local`: the PKCS#8 is sealed with AES-256-GCM under the key-encryption key (KEK:
 *   KEY_ENCRYPTION_KEY, KEY_ENCRYPTION_KEY_FILE, or DATA_DIR/key-encryption.key created
 *   0600), with the key's purpose and id as associated data so a sealed key cannot be
 *   moved to another row. Opened keys are non-extractable WebCrypto keys.
 * - `pkcs11`: the key is generated inside an HSM (SoftHSM2 in tests), marked sensitive and
 *   non-extractable; the database keeps only which token and object id to ask for.
 * - the root CA key is sealed with a passphrase (PBES2: PBKDF2-SHA256 + AES-256-GCM) that
 *   the running server does not hold: it certifies the online keys once, then only its
 *   sealed form is kept, and `provena keys rotate` asks for the passphrase again.
 */
import fs from 'node:fs';
import path from 'node:path';
import { createHash, randomBytes } from 'node:crypto';
import { fromBase64, toBase64, toHex } from '../../core/ledger/bytes.ts';
import { cryptoKeySigner, type KeyPurpose, type Signer } from './signer.ts';
import { Pkcs11Token, type Pkcs11Settings } from './pkcs11.ts';
import { openWithPassphrase, sealWithPassphrase, type OfflineEnvelope } from './passphrase-seal.ts';

export type { Pkcs11Settings } from './pkcs11.ts';

export type KeysEnv = {
  /** 32 bytes; null when none is configured: the keyring then uses DATA_DIR/key-encryption.key. */
  kek: Uint8Array | null;
  kekFile: string | null;
  backend: 'local' | 'pkcs11';
  pkcs11: Pkcs11Settings | null;
  rootPassphrase: string | null;
  rootPassphraseFile: string | null;
};

type Log = { warn(obj: object | string, msg?: string): void };

const ECDSA = { name: 'ECDSA', namedCurve: 'P-256' } as const;
export const KEK_FILE = 'key-encryption.key';
export const ROOT_PASSPHRASE_FILE = 'root-key.passphrase';

type LocalEnvelope = { v: 1; backend: 'local'; alg: 'A256GCM'; kek: string; iv: string; ct: string };
type Pkcs11Envelope = { v: 1; backend: 'pkcs11'; token: string; id: string };
type Envelope = LocalEnvelope | Pkcs11Envelope | OfflineEnvelope;

export function keyIdOf(spki: Uint8Array): string {
  return createHash('sha256').update(spki).digest('hex');
}

function aad(purpose: KeyPurpose, keyId: string): Uint8Array<ArrayBuffer> {
  return new TextEncoder().encode(`provena-key:${purpose}:${keyId}`) as Uint8Array<ArrayBuffer>;
}

/** Whether a stored key column holds a sealed envelope (and not a legacy plaintext PKCS#8). */
export function isSealed(stored: string): boolean {
  return stored.startsWith('{');
}

function parseEnvelope(stored: string): Envelope {
  if (!isSealed(stored)) throw new Error('the stored key is not sealed');
  const e = JSON.parse(stored) as Envelope;
  if (e.v !== 1) throw new Error(`unknown sealed key version ${String((e as { v?: unknown }).v)}`);
  return e;
}

/** Reads a file that holds a secret, refusing one that others can read. */
export function readSecretFile(file: string): string {
  const stat = fs.statSync(file);
  if ((stat.mode & 0o077) !== 0) throw new Error(`${file} is readable by others (mode ${(stat.mode & 0o777).toString(8)}): chmod 600 it`);
  return fs.readFileSync(file, 'utf8').trim();
}

export class Keyring {
  readonly env: KeysEnv;
  readonly dataDir: string;
  private readonly log: Log;
  private kekKey: Promise<{ key: CryptoKey; id: string }> | null = null;
  private token: Pkcs11Token | null = null;

  constructor(env: KeysEnv, dataDir: string, log: Log) {
    this.env = env;
    this.dataDir = dataDir;
    this.log = log;
  }

  get backend(): 'local' | 'pkcs11' {
    return this.env.backend;
  }

  /** The key-encryption key, loaded (or, with none configured, created in DATA_DIR) on first use. */
  private kek(): Promise<{ key: CryptoKey; id: string }> {
    this.kekKey ??= (async () => {
      let raw = this.env.kek;
      if (!raw) {
        const file = this.env.kekFile ?? path.join(this.dataDir, KEK_FILE);
        let hex: string;
        try {
          hex = readSecretFile(file);
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code !== 'ENOENT' || this.env.kekFile) throw error;
          fs.mkdirSync(this.dataDir, { recursive: true, mode: 0o700 });
          hex = randomBytes(32).toString('hex');
          fs.writeFileSync(file, `${hex}\n`, { mode: 0o600, flag: 'wx' });
          this.log.warn({ file }, 'created a key-encryption key beside the database; in production set KEY_ENCRYPTION_KEY (or KEY_ENCRYPTION_KEY_FILE on another volume) so a copy of the data folder alone does not open the keys');
        }
        if (!/^[0-9a-fA-F]{64}$/.test(hex)) throw new Error(`${file} must hold 64 hex digits (32 bytes)`);
        raw = Buffer.from(hex, 'hex');
      }
      const id = toHex(createHash('sha256').update(raw).digest()).slice(0, 16);
      const key = await crypto.subtle.importKey('raw', raw as Uint8Array<ArrayBuffer>, 'AES-GCM', false, ['encrypt', 'decrypt']);
      return { key, id };
    })();
    this.kekKey.catch(() => (this.kekKey = null));
    return this.kekKey;
  }

  private pkcs11(): Pkcs11Token {
    if (!this.env.pkcs11) throw new Error('KEY_BACKEND=pkcs11 needs PKCS11_MODULE, PKCS11_TOKEN_LABEL and PKCS11_PIN');
    this.token ??= Pkcs11Token.open(this.env.pkcs11);
    return this.token;
  }

  /** Seals a PKCS#8 private key under the KEK. */
  async sealLocal(purpose: KeyPurpose, keyId: string, pkcs8: Uint8Array): Promise<string> {
    const { key, id } = await this.kek();
    const iv = crypto.getRandomValues(new Uint8Array(12));
    const ct = new Uint8Array(await crypto.subtle.encrypt({ name: 'AES-GCM', iv, additionalData: aad(purpose, keyId) }, key, pkcs8 as Uint8Array<ArrayBuffer>));
    const envelope: LocalEnvelope = { v: 1, backend: 'local', alg: 'A256GCM', kek: id, iv: toBase64(iv), ct: toBase64(ct) };
    return JSON.stringify(envelope);
  }

  /**
   * Seals a secret the server must read back (an application's HMAC key) under the
   * KEK, AES-256-GCM with `label` as associated data: a sealed secret opens only for its row.
   */
  async sealSecret(label: string, secret: Uint8Array): Promise<string> {
    const { key, id } = await this.kek();
    const iv = crypto.getRandomValues(new Uint8Array(12));
    const ct = new Uint8Array(await crypto.subtle.encrypt({ name: 'AES-GCM', iv, additionalData: new TextEncoder().encode(`provena-secret:${label}`) }, key, secret as Uint8Array<ArrayBuffer>));
    return JSON.stringify({ v: 1, alg: 'A256GCM', kek: id, iv: toBase64(iv), ct: toBase64(ct) });
  }

  /** Opens what sealSecret sealed under the same label; throws when the KEK or the label differ. */
  async openSecret(label: string, sealed: string): Promise<Uint8Array> {
    const e = JSON.parse(sealed) as { v: number; kek: string; iv: string; ct: string };
    const { key, id } = await this.kek();
    if (e.v !== 1 || e.kek !== id) throw new Error(`secret sealed under key-encryption key ${e.kek}, but the configured one is ${id}`);
    return new Uint8Array(await crypto.subtle.decrypt({ name: 'AES-GCM', iv: fromBase64(e.iv) as Uint8Array<ArrayBuffer>, additionalData: new TextEncoder().encode(`provena-secret:${label}`) }, key, fromBase64(e.ct) as Uint8Array<ArrayBuffer>));
  }

  /** Seals the root's PKCS#8 under a passphrase the server does not keep. */
  sealOffline(purpose: KeyPurpose, keyId: string, pkcs8: Uint8Array, passphrase: string): Promise<string> {
    return sealWithPassphrase(pkcs8, passphrase, `provena-key:${purpose}:${keyId}`);
  }

  /**
   * A new key pair for `purpose` on the configured backend, with its sealed form. The root
   * is always a software key (sealed offline by the caller); the online keys go to the HSM
   * when KEY_BACKEND=pkcs11.
   */
  async generate(purpose: KeyPurpose): Promise<{ signer: Signer; sealed: string; pkcs8?: Uint8Array }> {
    if (this.backend === 'pkcs11' && purpose !== 'root') {
      const token = this.pkcs11();
      const made = token.generate(purpose);
      const publicKey = await importSpki(made.spki);
      const keyId = keyIdOf(made.spki);
      const envelope: Pkcs11Envelope = { v: 1, backend: 'pkcs11', token: token.label, id: made.id };
      return { signer: token.signer(purpose, keyId, made.spki, publicKey, made.id), sealed: JSON.stringify(envelope) };
    }
    const pair = await crypto.subtle.generateKey(ECDSA, true, ['sign', 'verify']);
    const spki = new Uint8Array(await crypto.subtle.exportKey('spki', pair.publicKey));
    const pkcs8 = new Uint8Array(await crypto.subtle.exportKey('pkcs8', pair.privateKey));
    const keyId = keyIdOf(spki);
    // Re-import so the signer holds a key that can no longer be exported.
    const privateKey = await crypto.subtle.importKey('pkcs8', pkcs8 as Uint8Array<ArrayBuffer>, ECDSA, false, ['sign']);
    const signer = cryptoKeySigner({ purpose, keyId, spki, publicKey: pair.publicKey, privateKey });
    const sealed = purpose === 'root' ? '' : await this.sealLocal(purpose, keyId, pkcs8);
    return { signer, sealed, ...(purpose === 'root' ? { pkcs8 } : {}) };
  }

  /** Opens a stored key as a signer. `legacyPlaintext` rows (base64 PKCS#8 from before sealing) open only when asked. */
  async open(purpose: KeyPurpose, spkiBase64: string, stored: string, passphrase?: () => string): Promise<Signer> {
    const spki = fromBase64(spkiBase64);
    const keyId = keyIdOf(spki);
    const publicKey = await importSpki(spki);
    if (!isSealed(stored)) {
      const privateKey = await crypto.subtle.importKey('pkcs8', fromBase64(stored) as Uint8Array<ArrayBuffer>, ECDSA, false, ['sign']);
      return cryptoKeySigner({ purpose, keyId, spki, publicKey, privateKey });
    }
    const e = parseEnvelope(stored);
    if (e.backend === 'pkcs11') {
      const token = this.pkcs11();
      if (e.token !== token.label) throw new Error(`the ${purpose} key is on HSM token "${e.token}", but PKCS11_TOKEN_LABEL is "${token.label}"`);
      return token.signer(purpose, keyId, spki, publicKey, e.id);
    }
    let pkcs8: ArrayBuffer;
    try {
      if (e.backend === 'local') {
        const { key, id } = await this.kek();
        if (e.kek !== id) throw new Error(`sealed under key-encryption key ${e.kek}, but the configured one is ${id}`);
        pkcs8 = await crypto.subtle.decrypt({ name: 'AES-GCM', iv: fromBase64(e.iv) as Uint8Array<ArrayBuffer>, additionalData: aad(purpose, keyId) }, key, fromBase64(e.ct) as Uint8Array<ArrayBuffer>);
      } else {
        if (!passphrase) throw new Error(`the ${purpose} key is kept offline: its passphrase is needed`);
        pkcs8 = await openWithPassphrase(e, passphrase(), `provena-key:${purpose}:${keyId}`);
      }
    } catch (error) {
      if (error instanceof Error && error.name === 'OperationError') throw new Error(`the sealed ${purpose} key ${keyId.slice(0, 16)}… does not open: wrong key-encryption key or passphrase, or the row was altered`);
      throw error;
    }
    const privateKey = await crypto.subtle.importKey('pkcs8', pkcs8, ECDSA, false, ['sign']);
    return cryptoKeySigner({ purpose, keyId, spki, publicKey, privateKey });
  }

  /** Reads the root passphrase (ROOT_KEY_PASSPHRASE, its file, or DATA_DIR/root-key.passphrase); null when none is at hand. */
  rootPassphrase(): string | null {
    if (this.env.rootPassphrase) return this.env.rootPassphrase;
    const file = this.env.rootPassphraseFile ?? path.join(this.dataDir, ROOT_PASSPHRASE_FILE);
    try {
      return readSecretFile(file);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw error;
    }
  }

  /** The passphrase a new root is sealed with: the configured one, or a new one written 0600 for the operator to take offline. */
  newRootPassphrase(): string {
    const existing = this.rootPassphrase();
    if (existing) return existing;
    const passphrase = randomBytes(24).toString('base64url');
    const file = this.env.rootPassphraseFile ?? path.join(this.dataDir, ROOT_PASSPHRASE_FILE);
    fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
    fs.writeFileSync(file, `${passphrase}\n`, { mode: 0o600, flag: 'wx' });
    this.log.warn({ file }, 'the platform root CA key is sealed with a new passphrase written to this file: move it offline (a safe, a password manager) and delete the file; `provena keys rotate` asks for it');
    return passphrase;
  }

  close(): void {
    this.token?.close();
    this.token = null;
  }
}

async function importSpki(spki: Uint8Array): Promise<CryptoKey> {
  return crypto.subtle.importKey('spki', spki as Uint8Array<ArrayBuffer>, ECDSA, true, ['verify']);
}

/** KEY_* settings from the environment; problems are collected, not thrown, like the rest of server/env.ts. */
export function readKeysEnv(source: NodeJS.ProcessEnv, problems: string[]): KeysEnv {
  const kekText = source.KEY_ENCRYPTION_KEY || undefined;
  if (kekText && !/^[0-9a-fA-F]{64}$/.test(kekText)) problems.push('KEY_ENCRYPTION_KEY must be 64 hex digits (32 bytes), e.g. from `openssl rand -hex 32`');
  const backend = (source.KEY_BACKEND || 'local') as KeysEnv['backend'];
  if (!['local', 'pkcs11'].includes(backend)) problems.push(`KEY_BACKEND must be local or pkcs11, got "${backend}"`);
  let pkcs11: Pkcs11Settings | null = null;
  if (backend === 'pkcs11') {
    const module = source.PKCS11_MODULE;
    const tokenLabel = source.PKCS11_TOKEN_LABEL;
    const pin = source.PKCS11_PIN;
    if (!module || !tokenLabel || !pin) problems.push('KEY_BACKEND=pkcs11 needs PKCS11_MODULE (the library, e.g. /usr/lib/softhsm/libsofthsm2.so), PKCS11_TOKEN_LABEL and PKCS11_PIN');
    else pkcs11 = { module, tokenLabel, pin };
  }
  return {
    kek: kekText && /^[0-9a-fA-F]{64}$/.test(kekText) ? Buffer.from(kekText, 'hex') : null,
    kekFile: source.KEY_ENCRYPTION_KEY_FILE || null,
    backend,
    pkcs11,
    rootPassphrase: source.ROOT_KEY_PASSPHRASE || null,
    rootPassphraseFile: source.ROOT_KEY_PASSPHRASE_FILE || null,
  };
}

/** A keyring from the process environment for tools that open a database without the app (scripts, benches, crash tests). */
export function keyringFromProcessEnv(dataDir: string, log: Log = { warn: () => {} }): Keyring {
  const problems: string[] = [];
  const env = readKeysEnv(process.env, problems);
  if (problems.length) throw new Error(`Invalid configuration:\n  - ${problems.join('\n  - ')}`);
  return new Keyring(env, dataDir, log);
}
