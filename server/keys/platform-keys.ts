/**
 * The platform's keys and their certificates: one root CA, kept offline, that certifies
 * the online keys (block signing, proof signing, time-stamping, the enterprise issuing
 * CA). Every key is used only through a Signer (server/keys/signer.ts) and stored only
 * sealed (server/keys/keyring.ts).
 *
 * Boot (`ensurePlatformKeys`) creates what is missing. The root's private key is needed
 * only then: on a new platform it is generated, certifies every online key, and is sealed
 * under the root passphrase. A later key that must be certified (a rotation, a purpose
 * added by an upgrade) needs the passphrase again: `provena keys rotate`.
 *
 * Several processes may boot at once on PostgreSQL: creation runs under an advisory lock.
 */
import { sql, type Transaction } from 'kysely';
import type { Db } from '../db/database.ts';
import type { Database } from '../db/schema.ts';
import { fromBase64, toBase64 } from '../../core/ledger/bytes.ts';
import { certificateFingerprint, issuePlatformCertificate, issuePlatformRoot, type CertificateIssuer } from '../../core/ledger/platform-cert.ts';
import { issueEnterpriseCa } from '../../core/crypto/enterprise-cert.ts';
import { parseCertificate } from '../../core/crypto/x509.ts';
import { isSealed, keyIdOf, type Keyring } from './keyring.ts';
import type { CertifiedSigner, Signer } from './signer.ts';

type Log = { warn(obj: object | string, msg?: string): void; info(obj: object | string, msg?: string): void };
type Tx = Transaction<Database>;

export type RotatablePurpose = 'block' | 'proof' | 'tsa';
export const ROTATABLE_PURPOSES: readonly RotatablePurpose[] = ['block', 'proof', 'tsa'];

const keyrings = new WeakMap<Db, Keyring>();

/** Makes `keyring` the one that opens this database's keys (the app does it at build time). */
export function attachKeyring(db: Db, keyring: Keyring): void {
  keyrings.set(db, keyring);
}

export function keyringOf(db: Db): Keyring {
  const keyring = keyrings.get(db);
  if (!keyring) throw new Error('no keyring is attached to this database (attachKeyring)');
  return keyring;
}

/** Runs `work` in a transaction that no other process's key creation runs beside. */
async function withKeyLock<T>(db: Db, work: (tx: Tx) => Promise<T>): Promise<T> {
  return db.transaction().execute(async (tx) => {
    if (db.getExecutor().adapter.constructor.name.toLowerCase().includes('postgres')) {
      await sql`select pg_advisory_xact_lock(724172001)`.execute(tx);
    }
    return work(tx);
  });
}

type RootRow = { fingerprint: string; spki: string; sealed_key: string; certificate: string };

async function activeRoot(tx: Tx | Db): Promise<RootRow | undefined> {
  return tx.selectFrom('platform_roots').select(['fingerprint', 'spki', 'sealed_key', 'certificate']).orderBy('created_at').orderBy('fingerprint').executeTakeFirst();
}

/** The root's signing key: open only with the passphrase (or from a legacy plaintext row, once). */
class RootAccess {
  private signer: Promise<Signer> | null = null;
  private readonly keyring: Keyring;
  private readonly row: RootRow;
  private readonly reason: string;

  constructor(keyring: Keyring, row: RootRow, reason: string) {
    this.keyring = keyring;
    this.row = row;
    this.reason = reason;
  }

  issuer(): Promise<CertificateIssuer> {
    this.signer ??= this.keyring.open('root', this.row.spki, this.row.sealed_key, () => {
      const passphrase = this.keyring.rootPassphrase();
      if (!passphrase) throw new Error(`${this.reason}, which needs the platform root CA key; it is kept offline: set ROOT_KEY_PASSPHRASE (or ROOT_KEY_PASSPHRASE_FILE) and run \`provena keys rotate\``);
      return passphrase;
    });
    return this.signer.then((s) => ({ spki: s.spki, key: s.sign }));
  }
}

/**
 * Creates the root and every online key that is missing, certifies them, and seals
 * what an older version left in plaintext. Safe to call from every process at boot.
 */
export async function ensurePlatformKeys(db: Db, log: Log, now = Date.now()): Promise<void> {
  const keyring = keyringOf(db);
  await withKeyLock(db, async (tx) => {
    let root = await activeRoot(tx);
    let fresh: { issuer: CertificateIssuer; pkcs8: Uint8Array } | null = null;
    if (!root) {
      const made = await keyring.generate('root');
      const issuer = { spki: made.signer.spki, key: made.signer.sign };
      const certificate = await issuePlatformRoot(issuer, now);
      const fingerprint = certificateFingerprint(certificate);
      const sealed = await keyring.sealOffline('root', made.signer.keyId, made.pkcs8!, keyring.newRootPassphrase());
      await tx.insertInto('platform_roots').values({ fingerprint, spki: toBase64(made.signer.spki), sealed_key: sealed, certificate: toBase64(certificate), created_at: now }).execute();
      root = { fingerprint, spki: toBase64(made.signer.spki), sealed_key: sealed, certificate: toBase64(certificate) };
      fresh = { issuer, pkcs8: made.pkcs8! };
      log.info({ fingerprint }, 'created the platform root CA');
    }
    const access = fresh ? null : new RootAccess(keyring, root, 'a platform key must be certified');
    const issuer = () => (fresh ? Promise.resolve(fresh.issuer) : access!.issuer());

    // Block-signing key (ledger_keys + ledger_key_certificates).
    const block = await tx.selectFrom('ledger_keys').select(['key_id']).where('retired_at', 'is', null).orderBy('created_at').orderBy('key_id').executeTakeFirst();
    if (!block) await createKey(tx, keyring, 'block', await issuer(), root.fingerprint, now);
    for (const purpose of ['proof', 'tsa'] as const) {
      const row = await tx.selectFrom('platform_keys').select('key_id').where('purpose', '=', purpose).where('retired_at', 'is', null).executeTakeFirst();
      if (!row) await createKey(tx, keyring, purpose, await issuer(), root.fingerprint, now);
    }
    // A block key from before certificates existed.
    const uncertified = await tx
      .selectFrom('ledger_keys')
      .leftJoin('ledger_key_certificates', 'ledger_key_certificates.key_id', 'ledger_keys.key_id')
      .select(['ledger_keys.key_id', 'ledger_keys.spki'])
      .where('ledger_key_certificates.key_id', 'is', null)
      .execute();
    for (const k of uncertified) {
      const certificate = await issuePlatformCertificate('block', await issuer(), fromBase64(k.spki), k.key_id, now);
      await tx.insertInto('ledger_key_certificates').values({ key_id: k.key_id, root_fingerprint: root.fingerprint, certificate: toBase64(certificate), created_at: now }).execute();
    }
    // The enterprise issuing CA under the active root.
    const ca = await tx.selectFrom('enterprise_cas').select('fingerprint').where('root_fingerprint', '=', root.fingerprint).executeTakeFirst();
    if (!ca) {
      const made = await keyring.generate('enterprise_ca');
      const rootIssuer = await issuer();
      const der = await issueEnterpriseCa({ certificate: parseCertificate(fromBase64(root.certificate)), privateKey: rootIssuer.key }, made.signer.spki, now);
      await tx
        .insertInto('enterprise_cas')
        .values({ fingerprint: certificateFingerprint(der), root_fingerprint: root.fingerprint, spki: toBase64(made.signer.spki), sealed_key: made.sealed, certificate: toBase64(der), created_at: now })
        .execute();
    }

    // Keys an older version stored as plaintext PKCS#8: seal them now.
    let sealedCount = 0;
    for (const r of await tx.selectFrom('ledger_keys').select(['key_id', 'spki', 'sealed_key']).execute()) {
      if (isSealed(r.sealed_key)) continue;
      await tx.updateTable('ledger_keys').set({ sealed_key: await keyring.sealLocal('block', r.key_id, fromBase64(r.sealed_key)) }).where('key_id', '=', r.key_id).execute();
      sealedCount++;
    }
    for (const r of await tx.selectFrom('enterprise_cas').select(['fingerprint', 'spki', 'sealed_key']).execute()) {
      if (isSealed(r.sealed_key)) continue;
      await tx.updateTable('enterprise_cas').set({ sealed_key: await keyring.sealLocal('enterprise_ca', keyIdOf(fromBase64(r.spki)), fromBase64(r.sealed_key)) }).where('fingerprint', '=', r.fingerprint).execute();
      sealedCount++;
    }
    for (const r of await tx.selectFrom('platform_roots').select(['fingerprint', 'spki', 'sealed_key']).execute()) {
      if (isSealed(r.sealed_key)) continue;
      const sealed = await keyring.sealOffline('root', keyIdOf(fromBase64(r.spki)), fromBase64(r.sealed_key), keyring.newRootPassphrase());
      await tx.updateTable('platform_roots').set({ sealed_key: sealed }).where('fingerprint', '=', r.fingerprint).execute();
      sealedCount++;
    }
    if (sealedCount) log.warn({ keys: sealedCount }, 'platform private keys were stored in plaintext by an earlier version: they are sealed now');
  });
}

async function createKey(tx: Tx, keyring: Keyring, purpose: RotatablePurpose, root: CertificateIssuer, rootFingerprint: string, now: number): Promise<string> {
  const made = await keyring.generate(purpose);
  const certificate = await issuePlatformCertificate(purpose, root, made.signer.spki, made.signer.keyId, now);
  if (purpose === 'block') {
    await tx.insertInto('ledger_keys').values({ key_id: made.signer.keyId, spki: toBase64(made.signer.spki), sealed_key: made.sealed, created_at: now, retired_at: null }).execute();
    await tx.insertInto('ledger_key_certificates').values({ key_id: made.signer.keyId, root_fingerprint: rootFingerprint, certificate: toBase64(certificate), created_at: now }).execute();
  } else {
    await tx
      .insertInto('platform_keys')
      .values({ key_id: made.signer.keyId, purpose, spki: toBase64(made.signer.spki), sealed_key: made.sealed, certificate: toBase64(certificate), root_fingerprint: rootFingerprint, created_at: now, retired_at: null })
      .execute();
  }
  return made.signer.keyId;
}

/** The active key for `purpose` with [its certificate, root]. */
async function loadCertified(db: Db, purpose: RotatablePurpose): Promise<{ keyId: string; spki: string; sealed: string; certificate: string; rootFingerprint: string }> {
  if (purpose === 'block') {
    const row = await db
      .selectFrom('ledger_keys')
      .innerJoin('ledger_key_certificates', 'ledger_key_certificates.key_id', 'ledger_keys.key_id')
      .select(['ledger_keys.key_id', 'ledger_keys.spki', 'ledger_keys.sealed_key', 'ledger_key_certificates.certificate', 'ledger_key_certificates.root_fingerprint'])
      .where('ledger_keys.retired_at', 'is', null)
      .orderBy('ledger_keys.created_at')
      .orderBy('ledger_keys.key_id')
      .executeTakeFirst();
    if (!row) throw new Error('no active block-signing key (ensurePlatformKeys runs at boot)');
    return { keyId: row.key_id, spki: row.spki, sealed: row.sealed_key, certificate: row.certificate, rootFingerprint: row.root_fingerprint };
  }
  const row = await db.selectFrom('platform_keys').selectAll().where('purpose', '=', purpose).where('retired_at', 'is', null).orderBy('created_at').orderBy('key_id').executeTakeFirst();
  if (!row) throw new Error(`no active ${purpose} key (ensurePlatformKeys runs at boot)`);
  return { keyId: row.key_id, spki: row.spki, sealed: row.sealed_key, certificate: row.certificate, rootFingerprint: row.root_fingerprint };
}

/** The active key id for `purpose`: one indexed read, so callers can notice a rotation cheaply. */
export async function activeKeyId(db: Db, purpose: RotatablePurpose): Promise<string | undefined> {
  if (purpose === 'block') {
    return (await db.selectFrom('ledger_keys').select('key_id').where('retired_at', 'is', null).orderBy('created_at').orderBy('key_id').executeTakeFirst())?.key_id;
  }
  return (await db.selectFrom('platform_keys').select('key_id').where('purpose', '=', purpose).where('retired_at', 'is', null).orderBy('created_at').orderBy('key_id').executeTakeFirst())?.key_id;
}

const opened = new WeakMap<Db, Map<string, Promise<CertifiedSigner>>>();

/**
 * The active signer for `purpose` with its chain [certificate, root]. Opened once per key
 * and cached; a rotation is picked up on the next call (the active key id is re-read).
 */
export async function loadPlatformSigner(db: Db, purpose: RotatablePurpose): Promise<CertifiedSigner> {
  const keyId = await activeKeyId(db, purpose);
  if (!keyId) throw new Error(`no active ${purpose} key (ensurePlatformKeys runs at boot)`);
  let cache = opened.get(db);
  if (!cache) opened.set(db, (cache = new Map()));
  const cacheKey = `${purpose}:${keyId}`;
  let pending = cache.get(cacheKey);
  if (!pending) {
    pending = (async () => {
      const row = await loadCertified(db, purpose);
      const root = await db.selectFrom('platform_roots').select('certificate').where('fingerprint', '=', row.rootFingerprint).executeTakeFirstOrThrow();
      const signer = await keyringOf(db).open(purpose, row.spki, row.sealed);
      return { signer, certificates: [fromBase64(row.certificate), fromBase64(root.certificate)], rootFingerprint: row.rootFingerprint };
    })();
    pending.catch(() => cache.delete(cacheKey));
    cache.set(cacheKey, pending);
  }
  return pending;
}

/** The enterprise issuing CA's signer, by the CA's certificate fingerprint. */
export async function openEnterpriseCaSigner(db: Db, row: { spki: string; sealed_key: string }): Promise<Signer> {
  return keyringOf(db).open('enterprise_ca', row.spki, row.sealed_key);
}

export type RotationResult = { purpose: RotatablePurpose; keyId: string; retired: string[]; rootFingerprint: string };

/**
 * A new key for `purpose`, certified by the root (which needs the root passphrase); the
 * keys it replaces are retired, not deleted: what they signed stays checkable, and
 * /api/v1/ledger/platform-keys keeps listing them.
 */
export async function rotatePlatformKey(db: Db, purpose: RotatablePurpose, now = Date.now()): Promise<RotationResult> {
  const keyring = keyringOf(db);
  return withKeyLock(db, async (tx) => {
    const root = await activeRoot(tx);
    if (!root) throw new Error('this platform has no root CA yet: start the server once first');
    const issuer = await new RootAccess(keyring, root, `rotating the ${purpose} key`).issuer();
    const table = purpose === 'block' ? 'ledger_keys' : 'platform_keys';
    const previous = purpose === 'block'
      ? await tx.selectFrom('ledger_keys').select('key_id').where('retired_at', 'is', null).execute()
      : await tx.selectFrom('platform_keys').select('key_id').where('purpose', '=', purpose).where('retired_at', 'is', null).execute();
    // The new key is created a millisecond later than any it retires, so "oldest active" is unambiguous.
    const keyId = await createKey(tx, keyring, purpose, issuer, root.fingerprint, now);
    const retired = previous.map((r) => r.key_id);
    if (retired.length) await tx.updateTable(table).set({ retired_at: now }).where('key_id', 'in', retired).execute();
    return { purpose, keyId, retired, rootFingerprint: root.fingerprint };
  });
}

