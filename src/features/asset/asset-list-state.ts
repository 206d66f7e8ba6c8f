import { ASSET_SORTS, PROOF_FILTERS, isAssetType, type AssetListQuery, type AssetSort, type ProofFilter, type SortOrder } from '../../../core/assets.ts';

/**
 * The list screen's filters, sort and page, kept in the address (`?type=1&type=3&status=generated…`)
 * so that a reload, a shared link or the way back from a detail page shows the same list.
 */
export type AssetListState = {
  page: number;
  types: number[];
  status: ProofFilter | null;
  /** Local calendar days, `YYYY-MM-DD`, inclusive; '' for open-ended. */
  from: string;
  to: string;
  registrant: number | null;
  keyword: string;
  sort: AssetSort;
  order: SortOrder;
};

export const DEFAULT_LIST_STATE: AssetListState = { page: 1, types: [], status: null, from: '', to: '', registrant: null, keyword: '', sort: 'time', order: 'desc' };

const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** The order a sort starts in: names A→Z, sizes and times largest/newest first. */
export function defaultOrder(sort: AssetSort): SortOrder {
  return sort === 'name' ? 'asc' : 'desc';
}

export function parseListState(search: string): AssetListState {
  const params = new URLSearchParams(search);
  const positive = (v: string | null) => {
    const n = Number(v);
    return Number.isSafeInteger(n) && n > 0 ? n : null;
  };
  const sort = (ASSET_SORTS as readonly string[]).includes(params.get('sort') ?? '') ? (params.get('sort') as AssetSort) : 'time';
  const order = params.get('order') === 'asc' || params.get('order') === 'desc' ? (params.get('order') as SortOrder) : defaultOrder(sort);
  const status = params.get('status');
  const day = (v: string | null) => (v && DAY.test(v) ? v : '');
  return {
    page: positive(params.get('page')) ?? 1,
    types: [...new Set(params.getAll('type').map(Number).filter(isAssetType))].sort((a, b) => a - b),
    status: (PROOF_FILTERS as readonly string[]).includes(status ?? '') ? (status as ProofFilter) : null,
    from: day(params.get('from')),
    to: day(params.get('to')),
    registrant: positive(params.get('registrant')),
    keyword: (params.get('q') ?? '').slice(0, 100),
    sort,
    order,
  };
}

/** The address form of a state; defaults are left out so that a plain list has a plain address. */
export function listStateToSearch(state: AssetListState): string {
  const params = new URLSearchParams();
  if (state.keyword.trim()) params.set('q', state.keyword.trim());
  for (const type of state.types) params.append('type', String(type));
  if (state.status) params.set('status', state.status);
  if (state.from) params.set('from', state.from);
  if (state.to) params.set('to', state.to);
  if (state.registrant) params.set('registrant', String(state.registrant));
  if (state.sort !== 'time') params.set('sort', state.sort);
  if (state.order !== defaultOrder(state.sort)) params.set('order', state.order);
  if (state.page > 1) params.set('page', String(state.page));
  return params.toString();
}

export function hasFilters(state: AssetListState): boolean {
  return Boolean(state.keyword.trim() || state.types.length || state.status || state.from || state.to || state.registrant);
}

/** Local midnight of a `YYYY-MM-DD` day, in milliseconds (the API takes §3 seconds or milliseconds). */
function localDayStart(day: string): number {
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  return new Date(y, m - 1, d).getTime();
}

/** The API query of a state: days become the first and last millisecond of those local days. */
export function listQuery(state: AssetListState, pageSize: number): AssetListQuery {
  return {
    page: state.page,
    page_size: pageSize,
    type: state.types.length ? state.types : undefined,
    proof_status: state.status ?? undefined,
    created_from: state.from ? localDayStart(state.from) : undefined,
    created_to: state.to ? localDayStart(state.to) + 24 * 60 * 60 * 1000 - 1 : undefined,
    registrant_user_id: state.registrant ?? undefined,
    keyword: state.keyword.trim() || undefined,
    sort: state.sort,
    order: state.order,
  };
}
