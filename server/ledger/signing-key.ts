import type { Db } from '../db/database.ts';
import { fromBase64, toBase64 } from '../../core/ledger/bytes.ts';
import { keyId } from '../../core/ledger/block.ts';
import { certificateFingerprint, issuePlatformRoot, issueSigningCertificate } from '../../core/ledger/platform-cert.ts';

export type PlatformKey = {
  keyId: string;
  spki: Uint8Array;
  privateKey: CryptoKey;
  publicKey: CryptoKey;
  /** DER X.509 [signing certificate, platform root]: what proof packages carry. */
  certificates: Uint8Array[];
  rootFingerprint: string;
};

const ECDSA = { name: 'ECDSA', namedCurve: 'P-256' } as const;

async function importPair(spki: string, pkcs8: string): Promise<CryptoKeyPair> {
  const privateKey = await crypto.subtle.importKey('pkcs8', fromBase64(pkcs8) as Uint8Array<ArrayBuffer>, ECDSA, false, ['sign']);
  const publicKey = await crypto.subtle.importKey('spki', fromBase64(spki) as Uint8Array<ArrayBuffer>, ECDSA, true, ['verify']);
  return { privateKey, publicKey };
}

/**
 * The platform root CA: P-256, created on first boot, self-signed for 30 years. Like the
 * signing key it lives in the database so every API process shares it; the oldest root
 * is the active one. (An HSM or KMS, with the root offline, is the production path.)
 */
export async function loadOrCreateRoot(db: Db): Promise<{ keys: CryptoKeyPair; certificate: Uint8Array; fingerprint: string }> {
  let row = await db.selectFrom('platform_roots').selectAll().orderBy('created_at').orderBy('fingerprint').executeTakeFirst();
  if (!row) {
    const pair = await crypto.subtle.generateKey(ECDSA, true, ['sign', 'verify']);
    const certificate = await issuePlatformRoot(pair, Date.now());
    await db
      .insertInto('platform_roots')
      .values({
        fingerprint: certificateFingerprint(certificate),
        spki: toBase64(new Uint8Array(await crypto.subtle.exportKey('spki', pair.publicKey))),
        pkcs8: toBase64(new Uint8Array(await crypto.subtle.exportKey('pkcs8', pair.privateKey))),
        certificate: toBase64(certificate),
        created_at: Date.now(),
      })
      .onConflict((oc) => oc.doNothing())
      .execute();
    // Another process may have won the race: whatever is oldest now is the root.
    row = await db.selectFrom('platform_roots').selectAll().orderBy('created_at').orderBy('fingerprint').executeTakeFirstOrThrow();
  }
  return { keys: await importPair(row.spki, row.pkcs8), certificate: fromBase64(row.certificate), fingerprint: row.fingerprint };
}

/**
 * The platform's block-signing key: P-256, created on first boot and kept in the database
 * so every API process signs with the same key. The oldest key is the active one. The
 * platform root certifies it once; verifiers may pin the key id or the root's fingerprint.
 */
export async function loadOrCreatePlatformKey(db: Db): Promise<PlatformKey> {
  let row = await db.selectFrom('ledger_keys').selectAll().orderBy('created_at').orderBy('key_id').executeTakeFirst();
  if (!row) {
    const pair = await crypto.subtle.generateKey(ECDSA, true, ['sign', 'verify']);
    const spki = new Uint8Array(await crypto.subtle.exportKey('spki', pair.publicKey));
    const pkcs8 = new Uint8Array(await crypto.subtle.exportKey('pkcs8', pair.privateKey));
    await db
      .insertInto('ledger_keys')
      .values({ key_id: keyId(spki), spki: toBase64(spki), pkcs8: toBase64(pkcs8), created_at: Date.now() })
      .onConflict((oc) => oc.doNothing())
      .execute();
    row = await db.selectFrom('ledger_keys').selectAll().orderBy('created_at').orderBy('key_id').executeTakeFirstOrThrow();
  }
  const spki = fromBase64(row.spki);
  const { privateKey, publicKey } = await importPair(row.spki, row.pkcs8);

  let cert = await db.selectFrom('ledger_key_certificates').selectAll().where('key_id', '=', row.key_id).executeTakeFirst();
  if (!cert) {
    const root = await loadOrCreateRoot(db);
    const certificate = await issueSigningCertificate(root.keys, publicKey, row.key_id, Date.now());
    await db
      .insertInto('ledger_key_certificates')
      .values({ key_id: row.key_id, root_fingerprint: root.fingerprint, certificate: toBase64(certificate), created_at: Date.now() })
      .onConflict((oc) => oc.doNothing())
      .execute();
    cert = await db.selectFrom('ledger_key_certificates').selectAll().where('key_id', '=', row.key_id).executeTakeFirstOrThrow();
  }
  const root = await db.selectFrom('platform_roots').select(['certificate']).where('fingerprint', '=', cert.root_fingerprint).executeTakeFirstOrThrow();
  return { keyId: row.key_id, spki, privateKey, publicKey, certificates: [fromBase64(cert.certificate), fromBase64(root.certificate)], rootFingerprint: cert.root_fingerprint };
}
