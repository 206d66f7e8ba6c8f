import type { FastifyInstance } from 'fastify';
import { maskPhoneTail } from '../../core/masking.ts';
import { checkPhone } from '../../core/validation.ts';
import { canSeeEnterpriseData } from '../../core/enterprise.ts';
import { parseFileIdentity } from '../../core/file-identity.ts';
import {
  ASSET_TYPE_IDS,
  DISCLOSURE_SMS_TYPES,
  DISCLOSURE_STATUS,
  FILE_LINK_TTL_MS,
  MAX_EXPIRY_DAYS,
  RECEIPT_SESSION_TTL_MS,
  isDisclosureDead,
  type CreateDisclosureInput,
  type DisclosurePublicDto,
} from '../../core/disclosure.ts';
import type { Db } from '../db/database.ts';
import { ApiError, fail } from '../errors.ts';
import type { MemberContext } from '../plugins/enterprises.ts';
import { disclosableFiles } from './stored-files.ts';
import type { CodeService } from './sms.ts';
import { AGREEMENT_HASH, addEvent, advanceStatus, loadDisclosure, newDisclosureId, newToken, sha256Hex, toRecordDto, type DisclosureRow } from './disclosures.ts';

/**
 * The §7 v2 disclosure flow as the routes ask for it: the sender's create, list and revoke;
 * the receiver's verification, agreement, link and receipt. The routes check who asks
 * (member, or the holder of the receipt cookie) and handle cookies, SMS and streaming.
 */

type Registrar = FastifyInstance['registerEntry'];
export type ReceiptSessionRow = NonNullable<Awaited<ReturnType<typeof receiptSession>>>;

export function isSenderSide(ctx: MemberContext, row: DisclosureRow): boolean {
  return row.enterprise_id === ctx.enterprise.id && (row.sender_user_id === ctx.user.id || canSeeEnterpriseData(ctx.employee.role));
}

/** The receipt session a browser's cookie token names for this disclosure, if verified and live. */
export async function receiptSession(db: Db, token: string | undefined, id: string) {
  if (!token) return null;
  const row = await db.selectFrom('disclosure_sessions').selectAll().where('token_hash', '=', sha256Hex(token)).executeTakeFirst();
  if (!row || row.disclosure_id !== id || Number(row.expires_at) <= Date.now()) return null;
  return row;
}


/** Checks every field, consumes the sender's code and writes the disclosure; answers its id and the cleaned name and phone. */
export async function createDisclosure(db: Db, codes: CodeService, ctx: MemberContext, b: CreateDisclosureInput): Promise<{ id: string; name: string; phone: string }> {
  const hash = b.hash.trim().toLowerCase();
  if (!parseFileIdentity(hash)) fail('required', 'hash');
  const files = await disclosableFiles(db, ctx);
  if (!files.some((f) => f.hash === hash)) fail('not_found', 'hash');
  const name = b.name.trim();
  if (!name) fail('required', 'name');
  if (name.length > 100) fail('lt', 'name');
  const phoneError = checkPhone(b.received_phone.trim());
  if (phoneError) fail(phoneError, 'received_phone');
  const storeName = b.store_name.trim();
  if (!storeName) fail('required', 'store_name');
  if (storeName.length > 64) fail('lt', 'store_name');
  if (!(ASSET_TYPE_IDS as readonly number[]).includes(b.type)) fail('invalid_param', 'type');
  let expiresAt: number | null = null;
  const now = Date.now();
  if (!b.store_forever) {
    const at = b.expires_at;
    if (at === undefined) fail('required', 'expires_at');
    if (at <= now) fail('invalid_param', 'expires_at');
    if (at > now + MAX_EXPIRY_DAYS * 24 * 60 * 60 * 1000) fail('lt', 'expires_at');
    expiresAt = at;
  }
  if (!b.validation_code.trim()) fail('validation_code_required', 'validation_code');
  const id = newDisclosureId();
  let codeError: ApiError | null = null;
  await db.transaction().execute(async (trx) => {
    codeError = await codes.consume(trx, ctx.user.phonenumber, DISCLOSURE_SMS_TYPES.senderConfirm, b.validation_code.trim());
    if (codeError) return;
    await trx
      .insertInto('disclosures')
      .values({
        id,
        enterprise_id: ctx.enterprise.id,
        sender_user_id: ctx.user.id,
        file_id: hash,
        name,
        received_phone: b.received_phone.trim(),
        store_name: storeName,
        type: b.type,
        store_forever: b.store_forever ? 1 : 0,
        expires_at: expiresAt,
        status: DISCLOSURE_STATUS.sent,
        created_at: now,
        revoked_at: null,
      })
      .execute();
    await addEvent(trx, id, 'sent', now);
  });
  if (codeError) throw codeError;
  return { id, name, phone: b.received_phone.trim() };
}

/** The sender side's records, newest first (§6: a plain member their own). */
export async function disclosureRecords(db: Db, ctx: MemberContext, page: number, size: number) {
  let q = db.selectFrom('disclosures').where('enterprise_id', '=', ctx.enterprise.id);
  if (!canSeeEnterpriseData(ctx.employee.role)) q = q.where('sender_user_id', '=', ctx.user.id);
  const total = Number((await q.select((eb) => eb.fn.countAll().as('n')).executeTakeFirst())?.n ?? 0);
  const ids = await q.select('id').orderBy('created_at', 'desc').limit(size).offset((page - 1) * size).execute();
  const items = [];
  for (const { id } of ids) {
    const row = await loadDisclosure(db, id);
    if (row) items.push(await toRecordDto(db, row));
  }
  return { items, total, page, page_size: size };
}

/** Revokes a live disclosure; links already handed out die with it. */
export async function revokeDisclosure(db: Db, row: DisclosureRow) {
  if (!isDisclosureDead(row.status)) {
    const now = Date.now();
    await db.transaction().execute(async (trx) => {
      await trx.updateTable('disclosures').set({ status: DISCLOSURE_STATUS.revoked, revoked_at: now }).where('id', '=', row.id).where('status', '<=', 4).execute();
      await addEvent(trx, row.id, 'revoked', now);
      await trx.deleteFrom('disclosure_links').where('disclosure_id', '=', row.id).execute();
    });
  }
  return toRecordDto(db, (await loadDisclosure(db, row.id))!);
}

/** The receiver's view (phone: last 4 digits only); the sender side also gets the full record. */
export async function publicView(db: Db, row: DisclosureRow, sessionToken: string | undefined, ctx: MemberContext | null) {
  const [enterprise, file, session] = await Promise.all([
    db.selectFrom('enterprises').select('name').where('id', '=', row.enterprise_id).executeTakeFirst(),
    db.selectFrom('stored_files').select('size').where('id', '=', row.file_id).executeTakeFirst(),
    receiptSession(db, sessionToken, row.id),
  ]);
  const dto: DisclosurePublicDto & { record?: unknown } = {
    disclosure_id: row.id,
    disclosure_status: row.status,
    received_phone: maskPhoneTail(row.received_phone),
    name: row.name,
    store_name: row.store_name,
    enterprise_name: enterprise?.name ?? '',
    size: Number(file?.size ?? 0),
    step: session ? (session.accepted_at ? 3 : 2) : 0,
  };
  if (ctx && isSenderSide(ctx, row)) dto.record = await toRecordDto(db, row);
  return dto;
}

/** The receiver proves the phone on record with the type-8 code; answers the new receipt session's token. */
export async function verifyReceiver(db: Db, codes: CodeService, row: DisclosureRow, rawCode: string): Promise<string> {
  if (isDisclosureDead(row.status)) fail('not_found', 'validation_code');
  const given = rawCode.trim();
  if (!given) fail('validation_code_required', 'validation_code');
  const token = newToken();
  const now = Date.now();
  let codeError: ApiError | null = null;
  await db.transaction().execute(async (trx) => {
    codeError = await codes.consume(trx, row.received_phone, DISCLOSURE_SMS_TYPES.receiverCode, given);
    if (codeError) return;
    await trx
      .insertInto('disclosure_sessions')
      .values({ token_hash: sha256Hex(token), disclosure_id: row.id, verified_at: now, accepted_at: null, expires_at: now + RECEIPT_SESSION_TTL_MS })
      .execute();
    await advanceStatus(trx, row.id, DISCLOSURE_STATUS.identityVerified);
    await addEvent(trx, row.id, 'identity_verified', now);
  });
  if (codeError) throw codeError;
  return token;
}

/** The receiver accepts the agreement (once per receipt session). */
export async function acceptAgreement(db: Db, row: DisclosureRow, sessionToken: string | undefined) {
  if (isDisclosureDead(row.status)) fail('not_found', 'disclosure_id');
  const session = await receiptSession(db, sessionToken, row.id);
  if (!session) fail('token_invalid', 'validation_code');
  if (!session.accepted_at) {
    const now = Date.now();
    await db.transaction().execute(async (trx) => {
      await trx.updateTable('disclosure_sessions').set({ accepted_at: now }).where('token_hash', '=', session.token_hash).execute();
      await advanceStatus(trx, row.id, DISCLOSURE_STATUS.agreementAccepted);
      await addEvent(trx, row.id, 'agreement_accepted', now, `agreement sha256 ${AGREEMENT_HASH}`);
    });
  }
  return { disclosure_id: row.id, step: 3 };
}

/** A short-lived download link for a verified, accepting receipt session ('' when the file is not stored). */
export async function issueFileLink(db: Db, isStored: (fileId: string) => Promise<boolean>, row: DisclosureRow, sessionToken: string | undefined) {
  if (isDisclosureDead(row.status)) fail('not_found', 'disclosure_id');
  const session = await receiptSession(db, sessionToken, row.id);
  if (!session?.accepted_at) fail('token_invalid', 'disclosure_id');
  if (!(await isStored(row.file_id))) return { file_link: '' };
  const token = newToken();
  const now = Date.now();
  await db.deleteFrom('disclosure_links').where('expires_at', '<', now).execute();
  await db
    .insertInto('disclosure_links')
    .values({ token_hash: sha256Hex(token), disclosure_id: row.id, session_hash: session.token_hash, created_at: now, expires_at: now + FILE_LINK_TTL_MS })
    .execute();
  return { file_link: `/api/v2/disclosures/files/${token}`, expires_at: now + FILE_LINK_TTL_MS };
}

/**
 * What a download link gives: the live disclosure and its stored size, when the link is live
 * and was issued to the receipt session the cookie names; else null.
 */
export async function downloadOf(db: Db, linkToken: string, cookieOf: (disclosureId: string) => string | undefined) {
  const link = await db.selectFrom('disclosure_links').selectAll().where('token_hash', '=', sha256Hex(linkToken)).executeTakeFirst();
  if (!link || Number(link.expires_at) <= Date.now()) return null;
  const session = await receiptSession(db, cookieOf(link.disclosure_id), link.disclosure_id);
  if (!session || session.token_hash !== link.session_hash || !session.accepted_at) return null;
  const row = await loadDisclosure(db, link.disclosure_id);
  if (!row || isDisclosureDead(row.status)) return null;
  const file = await db.selectFrom('stored_files').select('size').where('id', '=', row.file_id).executeTakeFirst();
  if (!file) return null;
  return { row, size: Number(file.size), sessionHash: session.token_hash };
}

/** The ledger receipt (who, when, which file, which agreement), once per receiver session. */
export async function recordReceipt(db: Db, registerEntry: Registrar, row: DisclosureRow, sessionHash: string, client: { ip: string; userAgent: string }): Promise<void> {
  const known = await db.selectFrom('disclosure_receipts').select('id').where('disclosure_id', '=', row.id).where('session_hash', '=', sessionHash).executeTakeFirst();
  if (known) return;
  const enterprise = await db.selectFrom('enterprises').select('name').where('id', '=', row.enterprise_id).executeTakeFirstOrThrow();
  await registerEntry({ fileHash: row.file_id, enterpriseName: enterprise.name, registrantUserId: null, kind: 'receipt' }, async (trx, registration) => {
    await trx
      .insertInto('disclosure_receipts')
      .values({
        disclosure_id: row.id,
        session_hash: sessionHash,
        dna: registration.dna,
        file_hash: row.file_id,
        agreement_hash: AGREEMENT_HASH,
        receiver_phone: row.received_phone,
        ip: client.ip,
        user_agent: client.userAgent.slice(0, 300),
        received_at: registration.registered_at,
      })
      .execute();
    await advanceStatus(trx, row.id, DISCLOSURE_STATUS.downloaded);
    await addEvent(trx, row.id, 'downloaded', registration.registered_at, `receipt ${registration.dna}`);
  });
}
