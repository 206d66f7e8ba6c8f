import { createHash, randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Db } from '../db/database.ts';
import type { Database, DisclosuresTable } from '../db/schema.ts';
import { toBase32 } from '../../core/ledger/bytes.ts';
import { AGREEMENT_TEXT, DISCLOSURE_STATUS, isDisclosureDead, type DisclosureEvent, type DisclosureRecordDto } from '../../core/disclosure.ts';

export type DisclosureRow = DisclosuresTable;

/** 130 random bits as 26 lowercase base32 characters: the id in the receiver's link. */
export function newDisclosureId(): string {
  return toBase32(randomBytes(17)).slice(0, 26);
}

export const sha256Hex = (text: string | Buffer) => createHash('sha256').update(text).digest('hex');
export const newToken = () => randomBytes(32).toString('base64url');
export const AGREEMENT_HASH = sha256Hex(AGREEMENT_TEXT);

export async function addEvent(db: Kysely<Database>, disclosureId: string, kind: DisclosureEvent, at = Date.now(), detail: string | null = null): Promise<void> {
  await db.insertInto('disclosure_events').values({ disclosure_id: disclosureId, kind, at, detail }).execute();
}

/**
 * The disclosure with its status as of now: a dated disclosure past its expiry becomes
 * expired (5) the first time anyone looks, with an "expired" event.
 */
export async function loadDisclosure(db: Db, id: string, now = Date.now()): Promise<DisclosureRow | undefined> {
  const row = await db.selectFrom('disclosures').selectAll().where('id', '=', id).executeTakeFirst();
  if (!row) return undefined;
  const normalized = { ...row, expires_at: row.expires_at === null ? null : Number(row.expires_at), created_at: Number(row.created_at) };
  if (!isDisclosureDead(normalized.status) && !normalized.store_forever && normalized.expires_at !== null && normalized.expires_at <= now) {
    await db.transaction().execute(async (trx) => {
      const updated = await trx
        .updateTable('disclosures')
        .set({ status: DISCLOSURE_STATUS.expired })
        .where('id', '=', id)
        .where('status', '<=', 4)
        .executeTakeFirst();
      if (Number(updated.numUpdatedRows) === 1) await addEvent(trx, id, 'expired', normalized.expires_at!);
    });
    return { ...normalized, status: DISCLOSURE_STATUS.expired };
  }
  return normalized;
}

/** Moves the status forward to `status` (never back, never out of expired or revoked). */
export async function advanceStatus(db: Kysely<Database>, id: string, status: number): Promise<void> {
  await db.updateTable('disclosures').set({ status }).where('id', '=', id).where('status', '<', status).where('status', '<=', 4).execute();
}

export async function toRecordDto(db: Db, row: DisclosureRow): Promise<DisclosureRecordDto> {
  const [events, file, sender] = await Promise.all([
    db.selectFrom('disclosure_events').select(['kind', 'at', 'detail']).where('disclosure_id', '=', row.id).orderBy('id').execute(),
    db.selectFrom('stored_files').select('size').where('id', '=', row.file_id).executeTakeFirst(),
    db.selectFrom('users').select(['name', 'real_name']).where('id', '=', row.sender_user_id).executeTakeFirst(),
  ]);
  return {
    disclosure_id: row.id,
    disclosure_status: row.status,
    hash: row.file_id,
    name: row.name,
    received_phone: row.received_phone,
    store_name: row.store_name,
    type: row.type,
    store_forever: Boolean(row.store_forever),
    expires_at: row.expires_at === null ? null : Number(row.expires_at),
    created_at: Number(row.created_at),
    size: Number(file?.size ?? 0),
    sender_name: sender?.real_name || sender?.name || '',
    events: events.map((e) => {
      const dna = e.kind === 'downloaded' ? /^receipt (\S+)$/.exec(e.detail ?? '')?.[1] : undefined;
      return { kind: e.kind as DisclosureEvent, at: Number(e.at), ...(dna ? { receipt_dna: dna } : {}) };
    }),
  };
}

/** A filename for Content-Disposition: the sender's name for it, with the file's extension when it lacks one. */
export function downloadName(name: string, identity: string): string {
  const ext = /(\.[a-z0-9]{1,16})$/.exec(identity)?.[1] ?? '';
  const clean = name.replace(/[\u0000-\u001f"\\/]/g, '_').trim() || 'file';
  return ext && !clean.toLowerCase().endsWith(ext) ? `${clean}${ext}` : clean;
}

/** One header builder for every download route (server/content-disposition.ts). */
export { contentDisposition } from '../content-disposition.ts';
