/**
 * Digital assets: the §3 asset types, the §5 rules of a file to register, and the
 * API shapes of /api/v1/assets, shared by the server and the browser.
 */
import { PROJECT_DESCRIPTION_MAX, REGISTERED_FILE_NAME_MAX, toMillis } from './constants.ts';
import type { ErrorKey } from './errors.ts';
import type { Paged } from './api-types.ts';
import { parseFileIdentity } from './file-identity.ts';
import { checkOptionalText, checkRequiredText } from './validation.ts';

/**
 * §3 asset types as stable numeric codes: stored in the database and sent over the API, so a
 * code never changes meaning (new types get new codes; the order of this list is the order
 * the screens offer them).
 */
export const ASSET_TYPES = {
  creativeWork: 0,
  creativeDesign: 1,
  industrialDesign: 2,
  code: 3,
  research: 4,
  data: 5,
  signedFile: 6,
  other: 7,
} as const;
export type AssetType = (typeof ASSET_TYPES)[keyof typeof ASSET_TYPES];
export const ASSET_TYPE_VALUES: readonly AssetType[] = Object.values(ASSET_TYPES);

export function isAssetType(value: unknown): value is AssetType {
  return typeof value === 'number' && (ASSET_TYPE_VALUES as readonly number[]).includes(value);
}

/** The asset's description: optional, bounded like a project's (§9: description at most 200). */
export const ASSET_DESCRIPTION_MAX = PROJECT_DESCRIPTION_MAX;
/** Most files one batch registration call takes (a folder of more is sent in several calls). */
export const ASSET_BATCH_MAX = 500;

/** §5 file to register: a name is required (bounded like a vault file's). */
export function checkAssetName(raw: string): ErrorKey | null {
  return checkRequiredText(raw, REGISTERED_FILE_NAME_MAX);
}

export function checkAssetDescription(raw: string): ErrorKey | null {
  return checkOptionalText(raw, ASSET_DESCRIPTION_MAX);
}

/** The type must be one of the §3 codes; none chosen is `required`. */
export function checkAssetType(value: unknown): ErrorKey | null {
  if (value === null || value === undefined || value === '') return 'required';
  return isAssetType(value) ? null : 'invalid_param';
}

/** §5 file to register: a chosen file, i.e. its §3 identity (`0x` + SHA-256 + extension). */
export function checkAssetFileHash(raw: string): ErrorKey | null {
  const value = raw.trim().toLowerCase();
  if (!value) return 'required';
  return parseFileIdentity(value) ? null : 'invalid_param';
}

/** A name from a chosen file: its base name, cut to the name limit (the user may edit it). */
export function nameFromFileName(fileName: string): string {
  const base = fileName.split(/[\\/]/).pop() ?? '';
  return Array.from(base.trim()).slice(0, REGISTERED_FILE_NAME_MAX).join('');
}

/** What a registration sends: only the file's identity and size leave the browser, never its bytes. */
export type AssetRegisterInput = { name: string; type: number; description?: string; file_hash: string; size?: number };

export type CleanAssetInput = { name: string; type: AssetType; description: string; identity: { sha256: string; extension: string }; size: number };
export type AssetInputCheck = { ok: true; value: CleanAssetInput } | { ok: false; message: ErrorKey; field_name: string };

/**
 * Every §5 rule of one registration, in the order a form shows them (file first). Loose
 * input (any JSON) is accepted so that a batch checks each item on its own: one malformed
 * item is refused with its field, the others go on.
 */
export function checkAssetInput(raw: unknown): AssetInputCheck {
  const item = (raw && typeof raw === 'object' ? raw : {}) as Record<string, unknown>;
  const refuse = (message: ErrorKey, field_name: string): AssetInputCheck => ({ ok: false, message, field_name });
  if (item.file_hash !== undefined && typeof item.file_hash !== 'string') return refuse('invalid_param', 'file_hash');
  const fileHash = typeof item.file_hash === 'string' ? item.file_hash : '';
  const hashKey = checkAssetFileHash(fileHash);
  if (hashKey) return refuse(hashKey, 'file_hash');
  if (item.name !== undefined && typeof item.name !== 'string') return refuse('invalid_param', 'name');
  const name = typeof item.name === 'string' ? item.name.trim() : '';
  const nameKey = checkAssetName(name);
  if (nameKey) return refuse(nameKey, 'name');
  const typeKey = checkAssetType(item.type);
  if (typeKey) return refuse(typeKey, 'type');
  if (item.description !== undefined && item.description !== null && typeof item.description !== 'string') return refuse('invalid_param', 'description');
  const description = typeof item.description === 'string' ? item.description.trim() : '';
  const descriptionKey = checkAssetDescription(description);
  if (descriptionKey) return refuse(descriptionKey, 'description');
  const size = item.size ?? 0;
  if (typeof size !== 'number' || !Number.isSafeInteger(size) || size < 0) return refuse('invalid_param', 'size');
  const identity = parseFileIdentity(fileHash.trim().toLowerCase()) as { sha256: string; extension: string };
  return { ok: true, value: { name, type: item.type as AssetType, description, identity, size } };
}

/** §3 proof status as the list filter names it: 1–4 generating, 5–6 generated. */
export const PROOF_FILTERS = ['generating', 'generated'] as const;
export type ProofFilter = (typeof PROOF_FILTERS)[number];
export const ASSET_SORTS = ['time', 'name', 'size'] as const;
export type AssetSort = (typeof ASSET_SORTS)[number];
export type SortOrder = 'asc' | 'desc';

/** The list query: every filter optional; times in seconds or milliseconds (§3). */
export type AssetListQuery = {
  page?: number;
  page_size?: number;
  type?: number | number[];
  proof_status?: ProofFilter;
  created_from?: number;
  created_to?: number;
  registrant_user_id?: number;
  keyword?: string;
  sort?: AssetSort;
  order?: SortOrder;
};

/** §3: a time filter may come in seconds or milliseconds; values above 9999999999 are milliseconds. */
export function timeFilterMillis(value: number | undefined): number | undefined {
  return value === undefined ? undefined : toMillis(value);
}

export type AssetDto = {
  asset_id: number;
  /** The asset's DNA: its ledger entry, the id the detail route and search use. */
  dip_id: string;
  name: string;
  type: AssetType;
  description: string;
  file_hash: string;
  size: number;
  registrant_user_id: number;
  registrant_name: string;
  credits: number;
  proof_status: number;
  is_generated: boolean;
  block_height: number | null;
  /** The block's hash once sealed: with the height, the §2 block address. */
  block_hash: string | null;
  registered_at: number;
  expired_at: number | null;
};

/** A page of assets; `sees_all` tells the screen whether the registrant filter applies (§6). */
export type AssetPage = Paged<AssetDto> & { sees_all: boolean };

/** One batch item's outcome, in the order sent: the asset, or the §8 refusal on its field. */
export type AssetBatchResult = { index: number; ok: true; asset: AssetDto } | { index: number; ok: false; message: ErrorKey; field_name?: string };
export type AssetBatchResponse = { results: AssetBatchResult[]; registered: number; refused: number };

export type AssetRegistrantDto = { user_id: number; name: string; asset_count: number };
