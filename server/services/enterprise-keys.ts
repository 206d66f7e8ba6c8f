import type { Selectable, Transaction } from 'kysely';
import type { Db } from '../db/database.ts';
import type { Database, EnterpriseCertificatesTable, EnterpriseKeysTable } from '../db/schema.ts';
import { openEnterpriseCaSigner } from '../keys/platform-keys.ts';
import type { P1363Sign } from '../keys/signer.ts';
import { fromBase64 } from '../../core/ledger/bytes.ts';
import { certificatePem, issueCrl, summarizeCertificate } from '../../core/crypto/enterprise-cert.ts';
import { parseCertificate } from '../../core/crypto/x509.ts';
import {
  type CertificateDto,
  type CertificateStatus,
  type CustodyRequestDto,
  type EnterpriseKeyDto,
  type KeyLogAction,
} from '../../core/enterprise-keys.ts';
import type * as pkijs from 'pkijs';

export type KeyRow = Selectable<EnterpriseKeysTable>;
export type CertificateRow = Selectable<EnterpriseCertificatesTable>;
type Executor = Db | Transaction<Database>;


/** The platform's issuing CA for enterprise certificates, with the root above it. */
export type IssuingCa = {
  fingerprint: string;
  rootFingerprint: string;
  der: Uint8Array;
  rootDer: Uint8Array;
  certificate: pkijs.Certificate;
  /** Signs certificates and CRLs through the keyring (a sealed key or the HSM). */
  privateKey: P1363Sign;
};

const issuingCas = new WeakMap<Db, Promise<IssuingCa>>();

/**
 * The issuing CA ("Provena Enterprise CA") under the active platform root. It is created
 * and certified at boot with the other platform keys (ensurePlatformKeys), so issuing
 * never needs the root, which is kept offline. The oldest CA of the active root is the
 * active one. (The name stays for its callers; nothing is created here any more.)
 */
export function loadOrCreateEnterpriseCa(db: Db): Promise<IssuingCa> {
  let pending = issuingCas.get(db);
  if (!pending) {
    pending = (async () => {
      const root = await db.selectFrom('platform_roots').select(['fingerprint', 'certificate']).orderBy('created_at').orderBy('fingerprint').executeTakeFirst();
      if (!root) throw new Error('the platform has no root CA yet (ensurePlatformKeys runs at boot)');
      const row = await db.selectFrom('enterprise_cas').selectAll().where('root_fingerprint', '=', root.fingerprint).orderBy('created_at').orderBy('fingerprint').executeTakeFirst();
      if (!row) throw new Error('the platform has no enterprise issuing CA yet (ensurePlatformKeys runs at boot)');
      const der = fromBase64(row.certificate);
      const signer = await openEnterpriseCaSigner(db, row);
      return { fingerprint: row.fingerprint, rootFingerprint: root.fingerprint, der, rootDer: fromBase64(root.certificate), certificate: parseCertificate(der), privateKey: signer.sign };
    })();
    pending.catch(() => issuingCas.delete(db));
    issuingCas.set(db, pending);
  }
  return pending;
}

/** PEM of [issuing CA, root] for a certificate issued by `caFingerprint`. */
export async function chainPemOf(db: Executor, caFingerprint: string): Promise<string> {
  const ca = await db.selectFrom('enterprise_cas').select(['certificate', 'root_fingerprint']).where('fingerprint', '=', caFingerprint).executeTakeFirst();
  if (!ca) return '';
  const root = await db.selectFrom('platform_roots').select('certificate').where('fingerprint', '=', ca.root_fingerprint).executeTakeFirst();
  return certificatePem(fromBase64(ca.certificate)) + (root ? certificatePem(fromBase64(root.certificate)) : '');
}

export function certificateStatus(row: Pick<CertificateRow, 'revoked_at' | 'not_after'>, now = Date.now()): CertificateStatus {
  if (row.revoked_at !== null) return 'revoked';
  return Number(row.not_after) < now ? 'expired' : 'active';
}

export function certificateDto(row: CertificateRow, chainPem: string): CertificateDto {
  const der = fromBase64(row.der);
  const s = summarizeCertificate(der);
  return {
    certificate_id: row.id,
    serial_number: row.serial_number,
    subject: s.subject,
    subject_text: s.subjectText,
    issuer_text: s.issuerText,
    not_before: Number(row.not_before),
    not_after: Number(row.not_after),
    fingerprint: row.fingerprint,
    key_usage: s.keyUsage,
    public_key: s.publicKey,
    signature_algorithm: s.signatureAlgorithm,
    dna: row.dna,
    status: certificateStatus(row),
    revoked_at: row.revoked_at === null ? null : Number(row.revoked_at),
    revocation_reason: row.revocation_reason,
    created_at: Number(row.created_at),
    pem: certificatePem(der),
    chain_pem: chainPem,
  };
}

export function keyDto(row: KeyRow, depositedBy: string): EnterpriseKeyDto {
  return {
    key_id: row.id,
    deposited_at: Number(row.deposited_at),
    deposited_by: depositedBy,
    is_stored: row.encrypted_pem !== null,
    delete_after: row.delete_after === null ? null : Number(row.delete_after),
    deleted_at: row.deleted_at === null ? null : Number(row.deleted_at),
    pem_sha256: row.pem_sha256,
    kdf_iterations: row.kdf_iterations,
  };
}

export function custodyRequestDto(row: { id: number; status: number; reason: string; review_reason: string; created_at: number; reviewed_at: number | null }, requestedBy: string): CustodyRequestDto {
  return {
    id: row.id,
    status: row.status,
    reason: row.reason,
    review_reason: row.review_reason,
    requested_by: requestedBy,
    created_at: Number(row.created_at),
    reviewed_at: row.reviewed_at === null ? null : Number(row.reviewed_at),
  };
}

export type KeyLogEntry = {
  enterpriseId: number;
  action: KeyLogAction;
  keyId?: number | null;
  certificateId?: number | null;
  userId?: number | null;
  operatorId?: number | null;
  fromStatus?: number | null;
  toStatus?: number | null;
  fileHash?: string | null;
  refId?: number | null;
  detail?: Record<string, unknown>;
  ip?: string;
  at?: number;
};

export async function writeKeyLog(db: Executor, entry: KeyLogEntry): Promise<number> {
  const row = await db
    .insertInto('enterprise_key_log')
    .values({
      enterprise_id: entry.enterpriseId,
      key_id: entry.keyId ?? null,
      certificate_id: entry.certificateId ?? null,
      user_id: entry.userId ?? null,
      operator_id: entry.operatorId ?? null,
      action: entry.action,
      from_status: entry.fromStatus ?? null,
      to_status: entry.toStatus ?? null,
      file_hash: entry.fileHash ?? null,
      ref_id: entry.refId ?? null,
      detail: JSON.stringify(entry.detail ?? {}),
      ip: entry.ip ?? '',
      created_at: entry.at ?? Date.now(),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return Number(row.id);
}

/**
 * Moves an enterprise from one private_key_status to another only if it is still in
 * `from` (a concurrent change makes this return false and the caller answers 400).
 */
export async function moveKeyStatus(trx: Executor, enterpriseId: number, from: readonly number[], to: number, now: number): Promise<boolean> {
  const result = await trx.updateTable('enterprises').set({ private_key_status: to, updated_at: now }).where('id', '=', enterpriseId).where('private_key_status', 'in', [...from]).executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Revokes every unrevoked certificate of the enterprise; returns the revoked rows' ids and serials. */
export async function revokeCertificates(trx: Executor, enterpriseId: number, reason: number, now: number): Promise<Array<{ id: number; serial_number: string }>> {
  const rows = await trx.selectFrom('enterprise_certificates').select(['id', 'serial_number']).where('enterprise_id', '=', enterpriseId).where('revoked_at', 'is', null).execute();
  if (rows.length) {
    await trx
      .updateTable('enterprise_certificates')
      .set({ revoked_at: now, revocation_reason: reason })
      .where('id', 'in', rows.map((r) => r.id))
      .execute();
  }
  return rows.map((r) => ({ id: r.id, serial_number: r.serial_number }));
}

/** Erases a key's encrypted PEM now (the row stays: the history refers to it). */
export async function eraseKey(trx: Executor, keyId: number, now: number): Promise<boolean> {
  const result = await trx.updateTable('enterprise_keys').set({ encrypted_pem: null, deleted_at: now, delete_after: null, retired_at: now }).where('id', '=', keyId).where('encrypted_pem', 'is not', null).executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/**
 * Erases every deposited key whose last download window has passed (custody ended more
 * than KEY_LAST_DOWNLOAD_DAYS ago). Runs at boot, hourly, and before a key is served.
 */
export async function purgeExpiredKeys(db: Db, now = Date.now(), enterpriseId?: number): Promise<number> {
  let query = db.selectFrom('enterprise_keys').select(['id', 'enterprise_id']).where('delete_after', '<=', now).where('encrypted_pem', 'is not', null);
  if (enterpriseId !== undefined) query = query.where('enterprise_id', '=', enterpriseId);
  const due = await query.execute();
  let erased = 0;
  for (const key of due) {
    await db.transaction().execute(async (trx) => {
      if (!(await eraseKey(trx, key.id, now))) return;
      erased += 1;
      await writeKeyLog(trx, { enterpriseId: key.enterprise_id, keyId: key.id, action: 'key_deleted', detail: { cause: 'last_download_window_ended' }, at: now });
    });
  }
  return erased;
}

/** The CRL of the active issuing CA: every certificate it issued that is revoked. */
export async function currentCrl(db: Db, now = Date.now()): Promise<Uint8Array> {
  const ca = await loadOrCreateEnterpriseCa(db);
  const rows = await db
    .selectFrom('enterprise_certificates')
    .select(['serial_number', 'revoked_at', 'revocation_reason'])
    .where('ca_fingerprint', '=', ca.fingerprint)
    .where('revoked_at', 'is not', null)
    .orderBy('revoked_at')
    .execute();
  return issueCrl(ca, rows.map((r) => ({ serialNumber: r.serial_number, revokedAt: Number(r.revoked_at), reason: r.revocation_reason ?? 0 })), now);
}

