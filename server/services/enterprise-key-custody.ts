import type { FastifyInstance } from 'fastify';
import { PBKDF2_ITERATIONS } from '../../core/constants.ts';
import { parseFileIdentity } from '../../core/file-identity.ts';
import { fromBase64, sha256, toBase64, toHex, utf8 } from '../../core/ledger/bytes.ts';
import { checkCsrPem } from '../../core/crypto/csr.ts';
import { certificatePem, issueEnterpriseCertificate, summarizeCertificate } from '../../core/crypto/enterprise-cert.ts';
import { verifyDigest } from '../../core/crypto/digest-signature.ts';
import { readEncryptedPkcs8Pem, verify as verifyEcdsa } from '../../core/crypto/keys.ts';
import {
  CERTIFICATE_LEDGER_KIND,
  CUSTODY_REQUEST_STATUS,
  DAY_MS,
  DEPOSIT_FROM,
  ENTERPRISE_CERT_VALIDITY_DAYS,
  KEY_LAST_DOWNLOAD_DAYS,
  KEY_LOG_ACTIONS,
  PRIVATE_KEY_STATUS,
  REVOCATION_REASON,
  depositMessage,
  enterpriseSubject,
  keyPermissions,
  memberTransition,
  type KeyLogAction,
  type KeyLogDto,
  type KeyStateDto,
  type KeyUsageDto,
  type OperatorCustodyRequestDto,
  type PkiCaDto,
} from '../../core/enterprise-keys.ts';
import type { Db } from '../db/database.ts';
import { fail } from '../errors.ts';
import { forbidden, type MemberContext } from '../plugins/enterprises.ts';
import { writeOperatorAudit } from './operators.ts';
import {
  certificateDto,
  certificateStatus,
  chainPemOf,
  custodyRequestDto,
  eraseKey,
  keyDto,
  loadOrCreateEnterpriseCa,
  moveKeyStatus,
  purgeExpiredKeys,
  revokeCertificates,
  writeKeyLog,
} from './enterprise-keys.ts';

/**
 * The enterprise key ceremony, custody and use (docs/enterprise-keys.md) as the routes ask
 * for it: each function decides and writes; the routes have checked who asks (membership
 * level or operator session) and parsed the request.
 */

type Registrar = FastifyInstance['registerEntry'];
/** Who does it and from where, for the key log. */
type Actor = { ip: string };

function displayName(u: { real_name: string | null; name: string | null } | undefined): string {
  return (u?.real_name || u?.name) ?? '';
}

/**
 * The platform only ever holds an enterprise key as an encrypted PKCS#8 PEM of the shape
 * the architecture fixes (PBES2: PBKDF2-HMAC-SHA256 with at least 100 000 iterations,
 * AES-256-CBC; 64-character lines). It can check the wrapping, never the key inside.
 */
function checkEncryptedPem(pem: string): { iterations: number } {
  const bad = () => fail('private_key_invalid', 'encrypted_private_key');
  const blocks = pem.match(/-----BEGIN [A-Z0-9 ]+-----/g) ?? [];
  if (blocks.length !== 1 || blocks[0] !== '-----BEGIN ENCRYPTED PRIVATE KEY-----') bad();
  const body = /-----BEGIN ENCRYPTED PRIVATE KEY-----\n([\s\S]*?)\n-----END ENCRYPTED PRIVATE KEY-----\n?$/.exec(pem.trim() + '\n');
  if (!body) bad();
  const lines = body![1]!.split('\n');
  if (lines.some((line, i) => !/^[A-Za-z0-9+/=]+$/.test(line) || (i < lines.length - 1 ? line.length !== 64 : line.length > 64))) bad();
  let parsed: ReturnType<typeof readEncryptedPkcs8Pem>;
  try {
    parsed = readEncryptedPkcs8Pem(pem);
  } catch {
    return bad();
  }
  const isShapeOk =
    parsed.iterations >= PBKDF2_ITERATIONS &&
    parsed.iterations <= 10_000_000 &&
    parsed.salt.length >= 8 &&
    parsed.salt.length <= 64 &&
    parsed.iv.length === 16 &&
    parsed.ciphertext.length % 16 === 0 &&
    // A P-256 PKCS#8 is 67–150 bytes; anything far outside is not one.
    parsed.ciphertext.length >= 64 &&
    parsed.ciphertext.length <= 256;
  if (!isShapeOk) bad();
  return { iterations: parsed.iterations };
}

function latestKey(db: Db, enterpriseId: number) {
  return db.selectFrom('enterprise_keys').selectAll().where('enterprise_id', '=', enterpriseId).orderBy('id', 'desc').executeTakeFirst();
}

function latestCertificate(db: Db, enterpriseId: number) {
  return db.selectFrom('enterprise_certificates').selectAll().where('enterprise_id', '=', enterpriseId).orderBy('id', 'desc').executeTakeFirst();
}

async function nameOfUser(db: Db, userId: number | null | undefined): Promise<string> {
  if (!userId) return '';
  return displayName(await db.selectFrom('users').select(['name', 'real_name']).where('id', '=', userId).executeTakeFirst());
}

/** GET /enterprises/keys and the answer of every change: status, permissions, key, certificate, custody request. */
export async function keyState(db: Db, ctx: MemberContext): Promise<KeyStateDto> {
  await purgeExpiredKeys(db, Date.now(), ctx.enterprise.id);
  const enterprise = await db.selectFrom('enterprises').selectAll().where('id', '=', ctx.enterprise.id).executeTakeFirstOrThrow();
  const key = await latestKey(db, enterprise.id);
  const cert = await latestCertificate(db, enterprise.id);
  const request = await db.selectFrom('key_custody_requests').selectAll().where('enterprise_id', '=', enterprise.id).orderBy('id', 'desc').executeTakeFirst();
  const permissions = keyPermissions(ctx.employee.role, enterprise.private_key_status, Boolean(key?.encrypted_pem));
  return {
    private_key_status: enterprise.private_key_status,
    role: ctx.employee.role,
    permissions,
    subject: permissions.can_deposit ? enterpriseSubject(enterprise) : null,
    key: key ? keyDto(key, await nameOfUser(db, key.deposited_by)) : null,
    certificate: cert ? certificateDto(cert, await chainPemOf(db, cert.ca_fingerprint)) : null,
    custody_request: request ? custodyRequestDto(request, await nameOfUser(db, request.requested_by)) : null,
  };
}

export type DepositInput = { encrypted_private_key: string; csr: string; deposit_signature: string };

/** The key ceremony's deposit (super administrator): encrypted PEM + CSR + the deposit proof → certificate, ledger entry, status 1. */
export async function depositKey(db: Db, registerEntry: Registrar, publicUrl: string, ctx: MemberContext, input: DepositInput, actor: Actor): Promise<KeyStateDto> {
  const { enterprise, user } = ctx;
  if (!DEPOSIT_FROM.includes(enterprise.private_key_status)) fail('private_key_status_invalid', 'private_key_status');
  const pem = input.encrypted_private_key;
  const { iterations } = checkEncryptedPem(pem);
  const subject = enterpriseSubject(enterprise);
  const checked = await checkCsrPem(input.csr, subject);
  if ('problem' in checked) fail(checked.problem, 'csr');
  // The PEM is encrypted: the key proves it deposited this PEM by signing its hash.
  const pemSha256 = sha256(utf8.encode(pem));
  let signature: Uint8Array;
  try {
    signature = fromBase64(input.deposit_signature);
  } catch {
    return fail('private_key_mismatch', 'encrypted_private_key');
  }
  if (!(await verifyEcdsa(checked.publicKey, depositMessage(enterprise.id, pemSha256), signature))) fail('private_key_mismatch', 'encrypted_private_key');
  const spki = toBase64(checked.spki);
  // A key is deposited once: a revoked or retired key never comes back under a new certificate.
  if (await db.selectFrom('enterprise_keys').select('id').where('spki', '=', spki).executeTakeFirst()) fail('private_key_invalid', 'encrypted_private_key');

  const ca = await loadOrCreateEnterpriseCa(db);
  const now = Date.now();
  const issued = await issueEnterpriseCertificate({
    subject,
    spki: checked.spki,
    ca,
    now,
    validityDays: ENTERPRISE_CERT_VALIDITY_DAYS,
    crlUrl: `${publicUrl}/api/v1/pki/crl`,
  });
  const fingerprint = toHex(sha256(issued.der));
  await registerEntry({ fileHash: `0x${fingerprint}.cer`, enterpriseName: enterprise.name, registrantUserId: user.id, kind: CERTIFICATE_LEDGER_KIND }, async (trx, registration) => {
    const from = (await trx.selectFrom('enterprises').select('private_key_status').where('id', '=', enterprise.id).executeTakeFirstOrThrow()).private_key_status;
    if (!(await moveKeyStatus(trx, enterprise.id, DEPOSIT_FROM, PRIVATE_KEY_STATUS.custodied, now))) fail('private_key_status_invalid', 'private_key_status');
    const key = await trx
      .insertInto('enterprise_keys')
      .values({
        enterprise_id: enterprise.id,
        spki,
        encrypted_pem: pem,
        pem_sha256: toHex(pemSha256),
        kdf_iterations: iterations,
        csr: input.csr,
        deposit_signature: input.deposit_signature,
        deposited_by: user.id,
        deposited_at: now,
        retired_at: null,
        delete_after: null,
        deleted_at: null,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const summary = summarizeCertificate(issued.der);
    const cert = await trx
      .insertInto('enterprise_certificates')
      .values({
        enterprise_id: enterprise.id,
        key_id: key.id,
        ca_fingerprint: ca.fingerprint,
        serial_number: issued.serialNumber,
        fingerprint,
        subject: summary.subjectText,
        not_before: summary.notBefore,
        not_after: summary.notAfter,
        der: toBase64(issued.der),
        dna: registration.dna,
        revoked_at: null,
        revocation_reason: null,
        created_at: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const base = { enterpriseId: enterprise.id, keyId: key.id, userId: user.id, ip: actor.ip, at: now };
    await writeKeyLog(trx, { ...base, action: 'key_deposited', fromStatus: from, toStatus: PRIVATE_KEY_STATUS.custodied, detail: { pem_sha256: toHex(pemSha256), kdf_iterations: iterations } });
    await writeKeyLog(trx, { ...base, action: 'certificate_issued', certificateId: cert.id, detail: { serial_number: issued.serialNumber, fingerprint, dna: registration.dna } });
  });
  return keyState(db, ctx);
}

/** The enterprise's certificates, newest first. */
export async function certificatePage(db: Db, enterpriseId: number, page: number, pageSize: number) {
  const total = await db.selectFrom('enterprise_certificates').select((eb) => eb.fn.countAll<number>().as('n')).where('enterprise_id', '=', enterpriseId).executeTakeFirstOrThrow();
  const rows = await db.selectFrom('enterprise_certificates').selectAll().where('enterprise_id', '=', enterpriseId).orderBy('id', 'desc').limit(pageSize).offset((page - 1) * pageSize).execute();
  const items = [];
  for (const row of rows) items.push(certificateDto(row, await chainPemOf(db, row.ca_fingerprint)));
  return { items, page, page_size: pageSize, total: Number(total.n) };
}

export async function certificateOf(db: Db, enterpriseId: number, certificateId: number) {
  const row = await db.selectFrom('enterprise_certificates').selectAll().where('id', '=', certificateId).where('enterprise_id', '=', enterpriseId).executeTakeFirst();
  if (!row) fail('not_found', 'certificate_id');
  return certificateDto(row, await chainPemOf(db, row.ca_fingerprint));
}

/** The encrypted key as a file: a backup while custodied, the last download after custody ends (logged). */
export async function keyBackup(db: Db, ctx: MemberContext, actor: Actor) {
  await purgeExpiredKeys(db, Date.now(), ctx.enterprise.id);
  const key = await latestKey(db, ctx.enterprise.id);
  if (!key?.encrypted_pem) fail('private_key_unavailable', 'private_key_status');
  const cert = await db.selectFrom('enterprise_certificates').select(['id', 'serial_number']).where('key_id', '=', key.id).orderBy('id', 'desc').executeTakeFirst();
  await writeKeyLog(db, { enterpriseId: ctx.enterprise.id, keyId: key.id, certificateId: cert?.id ?? null, userId: ctx.user.id, action: 'key_downloaded', ip: actor.ip, detail: { serial_number: cert?.serial_number ?? null } });
  return { pem: key.encrypted_pem, file_name: `enterprise-key-${cert?.serial_number ?? key.id}.pem` };
}

/** Hands out the custodied key and certificate to sign the named file in the browser, logging the fetch first. */
export async function startKeyUsage(db: Db, ctx: MemberContext, identity: { sha256: string; extension: string }, file: { name: string; size: number | null }, actor: Actor): Promise<KeyUsageDto> {
  const enterprise = await db.selectFrom('enterprises').select(['private_key_status']).where('id', '=', ctx.enterprise.id).executeTakeFirstOrThrow();
  const key = await latestKey(db, ctx.enterprise.id);
  if (enterprise.private_key_status !== PRIVATE_KEY_STATUS.custodied || !key?.encrypted_pem) fail('private_key_unavailable', 'private_key_status');
  const cert = await db.selectFrom('enterprise_certificates').selectAll().where('key_id', '=', key.id).orderBy('id', 'desc').executeTakeFirst();
  if (!cert || certificateStatus(cert) !== 'active') fail('private_key_unavailable', 'private_key_status');
  const fileHash = `0x${identity.sha256}${identity.extension}`;
  const usageId = await writeKeyLog(db, {
    enterpriseId: ctx.enterprise.id,
    keyId: key.id,
    certificateId: cert.id,
    userId: ctx.user.id,
    action: 'key_fetched',
    fileHash,
    ip: actor.ip,
    detail: { purpose: 'sign', file_name: file.name, file_size: file.size, serial_number: cert.serial_number },
  });
  return { usage_id: usageId, encrypted_private_key: key.encrypted_pem, certificate: certificateDto(cert, await chainPemOf(db, cert.ca_fingerprint)) };
}

/** The signature made with a fetched key: checked against the certificate and the file hash, then logged. */
export async function recordKeySignature(db: Db, ctx: MemberContext, usageId: number, signatureBase64: string, actor: Actor) {
  const usage = await db.selectFrom('enterprise_key_log').selectAll().where('id', '=', usageId).where('enterprise_id', '=', ctx.enterprise.id).executeTakeFirst();
  if (!usage || usage.action !== 'key_fetched' || usage.user_id !== ctx.user.id) fail('not_found', 'usage_id');
  if (await db.selectFrom('enterprise_key_log').select('id').where('ref_id', '=', usage.id).where('action', '=', 'signed').executeTakeFirst()) fail('invalid_param', 'usage_id');
  const cert = await db.selectFrom('enterprise_certificates').selectAll().where('id', '=', usage.certificate_id ?? 0).executeTakeFirst();
  if (!cert) fail('private_key_unavailable', 'private_key_status');
  let signature: Uint8Array;
  try {
    signature = fromBase64(signatureBase64);
  } catch {
    return fail('signature_invalid', 'signature');
  }
  const identity = parseFileIdentity(usage.file_hash ?? '');
  const spki = (await db.selectFrom('enterprise_keys').select('spki').where('id', '=', cert.key_id).executeTakeFirstOrThrow()).spki;
  const digest = identity ? Uint8Array.from(Buffer.from(identity.sha256, 'hex')) : new Uint8Array();
  if (!verifyDigest(fromBase64(spki), digest, signature)) fail('signature_invalid', 'signature');
  const logId = await writeKeyLog(db, {
    enterpriseId: ctx.enterprise.id,
    keyId: usage.key_id,
    certificateId: cert.id,
    userId: ctx.user.id,
    action: 'signed',
    fileHash: usage.file_hash,
    refId: usage.id,
    ip: actor.ip,
    detail: { signature: signatureBase64, serial_number: cert.serial_number, file_name: (JSON.parse(usage.detail) as { file_name?: string }).file_name ?? '' },
  });
  return { log_id: logId };
}

/** The key usage history and audit trail, newest first. */
export async function keyLogPage(db: Db, enterpriseId: number, page: number, pageSize: number) {
  const total = await db.selectFrom('enterprise_key_log').select((eb) => eb.fn.countAll<number>().as('n')).where('enterprise_id', '=', enterpriseId).executeTakeFirstOrThrow();
  const rows = await db
    .selectFrom('enterprise_key_log as l')
    .leftJoin('users as u', 'u.id', 'l.user_id')
    .leftJoin('operators as o', 'o.id', 'l.operator_id')
    .select(['l.id', 'l.action', 'l.user_id', 'l.operator_id', 'l.from_status', 'l.to_status', 'l.file_hash', 'l.detail', 'l.created_at', 'u.name as user_name', 'u.real_name as user_real_name', 'o.name as operator_name', 'o.login_id as operator_login'])
    .where('l.enterprise_id', '=', enterpriseId)
    .orderBy('l.id', 'desc')
    .limit(pageSize)
    .offset((page - 1) * pageSize)
    .execute();
  const items: KeyLogDto[] = rows.map((r) => ({
    log_id: r.id,
    action: (KEY_LOG_ACTIONS as readonly string[]).includes(r.action) ? (r.action as KeyLogAction) : 'key_fetched',
    actor: r.operator_id ? r.operator_name || r.operator_login || '' : displayName({ real_name: r.user_real_name, name: r.user_name }),
    is_operator: r.operator_id !== null,
    from_status: r.from_status,
    to_status: r.to_status,
    file_hash: r.file_hash,
    detail: JSON.parse(r.detail) as Record<string, unknown>,
    created_at: Number(r.created_at),
  }));
  return { items, page, page_size: pageSize, total: Number(total.n) };
}

export type KeyStatusChange = { private_key_status: number; reason?: string; confirm_name?: string; revocation_reason?: number };

/**
 * A member's custody change: cancel custody (1 → 2, administrators; review by an operator
 * follows), withdraw that request (2 → 1), revoke the identity (→ 4, super administrator,
 * confirmed by typing the enterprise name: the certificate is revoked and the key erased at once).
 */
export async function changeKeyStatus(db: Db, ctx: MemberContext, change: KeyStatusChange, actor: Actor): Promise<KeyStateDto> {
  const { enterprise, user, employee } = ctx;
  const to = change.private_key_status;
  const transition = memberTransition(employee.role, enterprise.private_key_status, to);
  if (transition === 'forbidden') forbidden();
  if (transition === 'invalid') fail('private_key_status_invalid', 'private_key_status');
  const from = enterprise.private_key_status;
  const reason = (change.reason ?? '').trim();
  const now = Date.now();
  const base = { enterpriseId: enterprise.id, userId: user.id, ip: actor.ip, at: now };
  const invalid = () => fail('private_key_status_invalid', 'private_key_status');
  if (transition === 'revoke_identity' && (change.confirm_name ?? '').trim() !== enterprise.name) fail('enterprise_name_mismatch', 'confirm_name');
  await db.transaction().execute(async (trx) => {
    if (!(await moveKeyStatus(trx, enterprise.id, [from], to, now))) invalid();
    const key = await trx.selectFrom('enterprise_keys').select(['id']).where('enterprise_id', '=', enterprise.id).orderBy('id', 'desc').executeTakeFirst();
    if (transition === 'cancel_custody') {
      const row = await trx
        .insertInto('key_custody_requests')
        .values({ enterprise_id: enterprise.id, key_id: key?.id ?? null, requested_by: user.id, reason, status: CUSTODY_REQUEST_STATUS.pending, operator_id: null, reviewed_at: null, created_at: now, updated_at: now })
        .returning('id')
        .executeTakeFirstOrThrow();
      await writeKeyLog(trx, { ...base, keyId: key?.id, action: 'custody_cancel_requested', fromStatus: from, toStatus: to, detail: { request_id: row.id, reason } });
    } else if (transition === 'withdraw_cancel') {
      const pending = await trx.selectFrom('key_custody_requests').select('id').where('enterprise_id', '=', enterprise.id).where('status', '=', CUSTODY_REQUEST_STATUS.pending).execute();
      await trx.updateTable('key_custody_requests').set({ status: CUSTODY_REQUEST_STATUS.withdrawn, updated_at: now }).where('enterprise_id', '=', enterprise.id).where('status', '=', CUSTODY_REQUEST_STATUS.pending).execute();
      await writeKeyLog(trx, { ...base, keyId: key?.id, action: 'custody_cancel_withdrawn', fromStatus: from, toStatus: to, detail: { request_ids: pending.map((p) => p.id), reason } });
    } else {
      const revocationReason = change.revocation_reason ?? REVOCATION_REASON.unspecified;
      await trx.updateTable('key_custody_requests').set({ status: CUSTODY_REQUEST_STATUS.superseded, updated_at: now }).where('enterprise_id', '=', enterprise.id).where('status', '=', CUSTODY_REQUEST_STATUS.pending).execute();
      await writeKeyLog(trx, { ...base, keyId: key?.id, action: 'identity_revoked', fromStatus: from, toStatus: to, detail: { reason, revocation_reason: revocationReason } });
      for (const cert of await revokeCertificates(trx, enterprise.id, revocationReason, now)) {
        await writeKeyLog(trx, { ...base, certificateId: cert.id, action: 'certificate_revoked', detail: { serial_number: cert.serial_number, revocation_reason: revocationReason } });
      }
      const stored = await trx.selectFrom('enterprise_keys').select('id').where('enterprise_id', '=', enterprise.id).where('encrypted_pem', 'is not', null).execute();
      for (const k of stored) {
        if (await eraseKey(trx, k.id, now)) await writeKeyLog(trx, { ...base, keyId: k.id, action: 'key_deleted', detail: { cause: 'identity_revoked' } });
      }
    }
  });
  return keyState(db, ctx);
}

/** The cancelled-custody requests operators review, newest first (200 at most). */
export async function custodyRequests(db: Db, status: number | undefined): Promise<OperatorCustodyRequestDto[]> {
  let query = db
    .selectFrom('key_custody_requests as r')
    .innerJoin('enterprises as e', 'e.id', 'r.enterprise_id')
    .innerJoin('users as u', 'u.id', 'r.requested_by')
    .leftJoin('enterprise_certificates as c', (join) => join.onRef('c.key_id', '=', 'r.key_id'))
    .select(['r.id', 'r.status', 'r.reason', 'r.review_reason', 'r.created_at', 'r.reviewed_at', 'r.enterprise_id', 'e.name as enterprise_name', 'e.private_key_status', 'u.name as user_name', 'u.real_name as user_real_name', 'u.phonenumber', 'c.serial_number']);
  if (status) query = query.where('r.status', '=', status);
  const rows = await query.orderBy('r.id', 'desc').limit(200).execute();
  const seen = new Set<number>();
  const items: OperatorCustodyRequestDto[] = [];
  for (const r of rows) {
    // A key has one certificate; the join never doubles a request, but stay safe.
    if (seen.has(r.id)) continue;
    seen.add(r.id);
    items.push({
      ...custodyRequestDto(r, displayName({ real_name: r.user_real_name, name: r.user_name })),
      enterprise_id: r.enterprise_id,
      enterprise_name: r.enterprise_name,
      requester_phone: r.phonenumber,
      private_key_status: r.private_key_status,
      certificate_serial: r.serial_number ?? null,
    });
  }
  return items;
}

/**
 * Completes a cancellation (2 → 3): the certificate is revoked now (cessation of
 * operation) and the encrypted key stays downloadable for KEY_LAST_DOWNLOAD_DAYS, then
 * it is erased. Rejecting needs a reason the enterprise reads, and puts the key back in
 * custody (2 → 1).
 */
export async function reviewCustodyRequest(db: Db, op: { id: number; login_id: string }, requestId: number, status: number, rawReason: string | undefined, actor: Actor) {
  const reason = (rawReason ?? '').trim();
  const isComplete = status === CUSTODY_REQUEST_STATUS.completed;
  if (!isComplete && !reason) fail('required', 'reason');
  const now = Date.now();
  await db.transaction().execute(async (trx) => {
    const row = await trx.selectFrom('key_custody_requests').selectAll().where('id', '=', requestId).executeTakeFirst();
    if (!row) fail('not_found', 'id');
    if (row.status !== CUSTODY_REQUEST_STATUS.pending) fail('invalid_param', 'status');
    const to = isComplete ? PRIVATE_KEY_STATUS.custodyEnded : PRIVATE_KEY_STATUS.custodied;
    if (!(await moveKeyStatus(trx, row.enterprise_id, [PRIVATE_KEY_STATUS.cancelRequested], to, now))) fail('private_key_status_invalid', 'status');
    await trx.updateTable('key_custody_requests').set({ status, operator_id: op.id, review_reason: reason, reviewed_at: now, updated_at: now }).where('id', '=', row.id).execute();
    await writeOperatorAudit(trx, {
      operatorId: op.id,
      loginId: op.login_id,
      action: isComplete ? 'key_custody_completed' : 'key_custody_rejected',
      target: `key_custody_request:${row.id}`,
      detail: { enterprise_id: row.enterprise_id, ...(reason ? { reason } : {}) },
      ip: actor.ip,
    });
    const base = { enterpriseId: row.enterprise_id, operatorId: op.id, ip: actor.ip, at: now };
    if (!isComplete) {
      await writeKeyLog(trx, { ...base, keyId: row.key_id, action: 'custody_cancel_rejected', fromStatus: PRIVATE_KEY_STATUS.cancelRequested, toStatus: to, detail: { request_id: row.id, reason } });
      return;
    }
    const deleteAfter = now + KEY_LAST_DOWNLOAD_DAYS * DAY_MS;
    await trx.updateTable('enterprise_keys').set({ retired_at: now, delete_after: deleteAfter }).where('enterprise_id', '=', row.enterprise_id).where('encrypted_pem', 'is not', null).where('delete_after', 'is', null).execute();
    await writeKeyLog(trx, { ...base, keyId: row.key_id, action: 'custody_cancel_completed', fromStatus: PRIVATE_KEY_STATUS.cancelRequested, toStatus: to, detail: { request_id: row.id, reason, delete_after: deleteAfter } });
    for (const cert of await revokeCertificates(trx, row.enterprise_id, REVOCATION_REASON.cessationOfOperation, now)) {
      await writeKeyLog(trx, { ...base, certificateId: cert.id, action: 'certificate_revoked', detail: { serial_number: cert.serial_number, revocation_reason: REVOCATION_REASON.cessationOfOperation } });
    }
  });
  return { id: requestId, status };
}

/** The CA certificates to check enterprise certificates against. */
export async function pkiCa(db: Db): Promise<PkiCaDto> {
  const ca = await loadOrCreateEnterpriseCa(db);
  const roots = await db.selectFrom('platform_roots').select(['fingerprint', 'certificate']).orderBy('created_at').execute();
  const cas = await db.selectFrom('enterprise_cas').select(['fingerprint', 'root_fingerprint', 'certificate']).orderBy('created_at').execute();
  const data: PkiCaDto = {
    roots: roots.map((r) => ({ fingerprint: r.fingerprint, pem: certificatePem(fromBase64(r.certificate)) })),
    issuing_cas: cas.map((c) => ({ fingerprint: c.fingerprint, root_fingerprint: c.root_fingerprint, pem: certificatePem(fromBase64(c.certificate)) })),
  };
  if (!data.issuing_cas.some((c) => c.fingerprint === ca.fingerprint)) data.issuing_cas.push({ fingerprint: ca.fingerprint, root_fingerprint: ca.rootFingerprint, pem: certificatePem(ca.der) });
  return data;
}
