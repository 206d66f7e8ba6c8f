import { describe, expect, it } from 'vitest';
import { DEFAULT_LIST_STATE, hasFilters, listQuery, listStateToSearch, parseListState } from './asset-list-state.ts';

describe('asset list state in the address', () => {
  it('a plain list has a plain address, and every filter survives the round trip', () => {
    expect(listStateToSearch(DEFAULT_LIST_STATE)).toBe('');
    expect(parseListState('')).toEqual(DEFAULT_LIST_STATE);
    const state = { page: 3, types: [1, 5], status: 'generated' as const, from: '2026-01-02', to: '2026-02-03', registrant: 42, keyword: '设计', sort: 'name' as const, order: 'desc' as const };
    const search = listStateToSearch(state);
    expect(search).toBe('q=%E8%AE%BE%E8%AE%A1&type=1&type=5&status=generated&from=2026-01-02&to=2026-02-03&registrant=42&sort=name&order=desc&page=3');
    expect(parseListState(search)).toEqual(state);
    expect(hasFilters(state)).toBe(true);
    expect(hasFilters({ ...DEFAULT_LIST_STATE, sort: 'size', page: 2 })).toBe(false);
  });
  it('ignores what is not a filter value (unknown types, statuses, days, sorts)', () => {
    expect(parseListState('type=9&type=x&type=2&type=2&status=done&from=2026-1-2&sort=colour&order=up&page=-1&registrant=abc')).toEqual({ ...DEFAULT_LIST_STATE, types: [2] });
    // The order follows the sort unless given: names A→Z, sizes largest first.
    expect(parseListState('sort=name').order).toBe('asc');
    expect(parseListState('sort=size').order).toBe('desc');
    expect(listStateToSearch({ ...DEFAULT_LIST_STATE, sort: 'name', order: 'asc' })).toBe('sort=name');
  });
  it('sends local days as their first and last millisecond', () => {
    const q = listQuery({ ...DEFAULT_LIST_STATE, from: '2026-03-01', to: '2026-03-01', types: [3] }, 20);
    expect(q.created_from).toBe(new Date(2026, 2, 1).getTime());
    expect(q.created_to).toBe(new Date(2026, 2, 2).getTime() - 1);
    expect(q).toMatchObject({ page: 1, page_size: 20, type: [3], sort: 'time', order: 'desc', keyword: undefined, proof_status: undefined, registrant_user_id: undefined });
  });
});
