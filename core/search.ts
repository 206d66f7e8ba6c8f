/**
 * The nav-bar search (§2, §3 Search result, §7 GET /search/dip-data), shared by the server
 * and the browser: what a typed keyword is, where a result leads, and when the box is hidden.
 */
import { DNA_PATTERN } from './ledger/record.ts';

/** §3 Search result entity_type (§9: 0 to 4). */
export const SEARCH_ENTITY = { none: 0, asset: 1, project: 2, commit: 3, applicationFile: 4 } as const;
export type SearchEntityType = (typeof SEARCH_ENTITY)[keyof typeof SEARCH_ENTITY];

/**
 * §3 Search result. `dip_id` is the registration's DNA; `project_id` the container it sits in
 * (a vault project, a source-code project, an application), null for an asset.
 */
export type SearchResultDto = {
  entity_type: SearchEntityType;
  dip_id: string | null;
  project_id: number | null;
  /** Which kind of project an entity_type 2 is: absent for a vault project, 'repo' for a source-code project. */
  container?: 'repo';
};

/** The longest keyword worth looking at: an identity is 0x + 64 hex + a dot and up to 16 characters. */
export const SEARCH_KEYWORD_MAX = 100;

export type SearchInput =
  | { kind: 'empty' }
  /** A digital asset DNA (pv + 20 base32 characters), lower-cased. */
  | { kind: 'dna'; keyword: string }
  /** A file fingerprint: `0x` + SHA-256 (with or without the 0x, any case) and an optional extension, normalized to lower case. */
  | { kind: 'hash'; keyword: string; digest: string }
  /** A git commit id (40 hex, SHA-1 object format) or its prefix of 7 or more hex digits, lower-cased (source-code commits). */
  | { kind: 'commit'; keyword: string }
  | { kind: 'invalid' };

const HASH = /^(?:0x)?([0-9a-f]{64})(\.[a-z0-9]{1,16})?$/;

/**
 * What a typed keyword is. Surrounding spaces are ignored and case does not matter (a DNA and
 * a hex digest are lower case, a user may paste either in capitals); anything else is invalid
 * and is never sent to the server.
 */
export function classifySearchInput(raw: string): SearchInput {
  const text = raw.trim().toLowerCase();
  if (!text) return { kind: 'empty' };
  if (text.length > SEARCH_KEYWORD_MAX) return { kind: 'invalid' };
  if (DNA_PATTERN.test(text)) return { kind: 'dna', keyword: text };
  const m = HASH.exec(text);
  if (m) return { kind: 'hash', keyword: `0x${m[1]}${m[2] ?? ''}`, digest: m[1] as string };
  if (/^[0-9a-f]{7,40}$/.test(text)) return { kind: 'commit', keyword: text };
  return { kind: 'invalid' };
}

/**
 * §2: the search box is hidden when the company status is 3, 4, 6 or 7. Our server sends the
 * displayed membership's status (1 confirmed, 2 applied, 3 rejected, 4 frozen); 6 and 7 are
 * kept from §2 for the statuses a later build may add.
 */
export const SEARCH_HIDDEN_COMPANY_STATUSES: readonly number[] = [3, 4, 6, 7];

export function isSearchHidden(companyStatus: number): boolean {
  return SEARCH_HIDDEN_COMPANY_STATUSES.includes(companyStatus);
}

/** The "no search results found!" page (§2 dashboard child `empty`). */
export const EMPTY_SEARCH_PATH = '/dashboard/empty';

/**
 * Where a §3 result leads, by the §2 named routes: assetDetail (asset_id = the DNA), project
 * (projectId, dip_id), commitDetail (project_id, commit_id), applicationFileDetail
 * (application_id, file_id); entity_type 0 (or a result that lacks what its route needs) goes to
 * the empty page, which shows what was searched (`keyword`, and `file` when a file was chosen).
 */
export function searchResultPath(result: SearchResultDto, searched: { keyword: string; fileName?: string }): string {
  const dip = result.dip_id ? encodeURIComponent(result.dip_id) : null;
  const container = result.project_id;
  switch (result.entity_type) {
    case SEARCH_ENTITY.asset:
      if (dip) return `/dashboard/asset/detail/${dip}`;
      break;
    case SEARCH_ENTITY.project:
      if (container !== null && result.container === 'repo') return `/dashboard/repos/detail/${container}`;
      if (container !== null) return `/dashboard/vault/project/${container}${dip ? `?dip_id=${dip}` : ''}`;
      break;
    case SEARCH_ENTITY.commit:
      if (container !== null && dip) return `/dashboard/repos/detail/${container}/${dip}`;
      break;
    case SEARCH_ENTITY.applicationFile:
      if (container !== null && dip) return `/dashboard/application/detail/file/${container}/${dip}`;
      break;
  }
  const query = new URLSearchParams({ keyword: searched.keyword });
  if (searched.fileName) query.set('file', searched.fileName);
  return `${EMPTY_SEARCH_PATH}?${query.toString()}`;
}
