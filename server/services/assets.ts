import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import { canSeeEnterpriseData } from '../../core/enterprise.ts';
import { DNA_PATTERN } from '../../core/ledger/record.ts';
import { normalizeDigest } from '../../core/ledger/package.ts';
import type { AssetDto, AssetType } from '../../core/assets.ts';
import { registrationOf } from './registered-file.ts';
import { proofStatusColumn } from '../proofs/proof-status-sql.ts';

/** Who is looking: §6 a plain member sees only the assets they registered; roles 1, 2, 3 all the enterprise's. */
export type AssetViewer = { userId: number; role: number };

export function seesAllAssets(viewer: AssetViewer): boolean {
  return canSeeEnterpriseData(viewer.role);
}

/** The assets of an enterprise that the viewer may see, with everything a DTO needs joined. */
export function visibleAssets(db: Kysely<Database>, enterpriseId: number, viewer: AssetViewer) {
  let q = db
    .selectFrom('assets as a')
    .innerJoin('users as u', 'u.id', 'a.user_id')
    .innerJoin('ledger_entries as e', 'e.dna', 'a.dna')
    .leftJoin('proofs as pr', 'pr.dna', 'a.dna')
    .leftJoin('ledger_blocks as b', 'b.height', 'e.block_height')
    .where('a.enterprise_id', '=', enterpriseId);
  if (!seesAllAssets(viewer)) q = q.where('a.user_id', '=', viewer.userId);
  return q;
}

export const ASSET_COLUMNS = [
  'a.id',
  'a.name',
  'a.type',
  'a.description',
  'a.file_hash',
  'a.size',
  'a.dna',
  'a.user_id',
  'a.credits',
  'a.created_at',
  'u.real_name',
  'u.name as user_name',
  'e.block_height',
  'e.registered_at',
  'b.hash as block_hash',
  proofStatusColumn('pr'),
  'pr.expires_at',
] as const;

export type AssetRow = {
  id: number;
  name: string;
  type: number;
  description: string;
  file_hash: string;
  size: number;
  dna: string;
  user_id: number;
  credits: number;
  created_at: number;
  real_name: string;
  user_name: string;
  block_height: number | null;
  registered_at: number;
  block_hash: string | null;
  status: number;
  expires_at: number | null;
};

export function assetDto(r: AssetRow): AssetDto {
  return {
    asset_id: Number(r.id),
    dip_id: r.dna,
    name: r.name,
    type: Number(r.type) as AssetType,
    description: r.description,
    file_hash: r.file_hash,
    ...registrationOf(r),
    block_hash: r.block_hash ?? null,
    registered_at: Number(r.registered_at),
    expired_at: r.expires_at === null ? null : Number(r.expires_at),
  };
}

/**
 * The navbar search hook (§3 entity_type 1 = asset): an asset's DNA or file hash (with or
 * without `0x` and extension), within the viewer's enterprise and §6 visibility, gives its DNA.
 */
export async function findAssetByKeyword(db: Kysely<Database>, enterpriseId: number, viewer: AssetViewer, keyword: string): Promise<{ dip_id: string } | null> {
  const text = keyword.trim();
  let q = db.selectFrom('assets').select('dna').where('enterprise_id', '=', enterpriseId);
  if (DNA_PATTERN.test(text)) q = q.where('dna', '=', text);
  else {
    const digest = normalizeDigest(text);
    if (!digest) return null;
    q = q.where('digest', '=', digest);
  }
  if (!seesAllAssets(viewer)) q = q.where('user_id', '=', viewer.userId);
  const row = await q.executeTakeFirst();
  return row ? { dip_id: row.dna } : null;
}
