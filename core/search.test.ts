import { describe, expect, it } from 'vitest';
import { classifySearchInput, isSearchHidden, searchResultPath, SEARCH_ENTITY } from './search.ts';

const HEX = '9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08';

describe('classifySearchInput: DNA, fingerprint or invalid (§2 search box)', () => {
  it('empty input is nothing to search', () => {
    expect(classifySearchInput('')).toEqual({ kind: 'empty' });
    expect(classifySearchInput('   \t ')).toEqual({ kind: 'empty' });
  });

  it('a DNA: pv + 20 base32 characters, any case, spaces trimmed', () => {
    expect(classifySearchInput('pvabcdefghijklmnopqrst')).toEqual({ kind: 'dna', keyword: 'pvabcdefghijklmnopqrst' });
    expect(classifySearchInput('  PVABCDEFGHIJKLMNOP2345  ')).toEqual({ kind: 'dna', keyword: 'pvabcdefghijklmnop2345' });
    // base32 has no 0, 1, 8 or 9; one character short or long is not a DNA.
    expect(classifySearchInput('pvabcdefghijklmnopqrs0').kind).toBe('invalid');
    expect(classifySearchInput('pvabcdefghijklmnopqrs').kind).toBe('invalid');
    expect(classifySearchInput('pvabcdefghijklmnopqrstu').kind).toBe('invalid');
  });

  it('a fingerprint: 0x + SHA-256, with or without 0x, any case, with or without the extension', () => {
    const hash = { kind: 'hash', keyword: `0x${HEX}`, digest: HEX };
    expect(classifySearchInput(`0x${HEX}`)).toEqual(hash);
    expect(classifySearchInput(HEX)).toEqual(hash);
    expect(classifySearchInput(`0X${HEX.toUpperCase()}`)).toEqual(hash);
    expect(classifySearchInput(` 0x${HEX}.PDF `)).toEqual({ kind: 'hash', keyword: `0x${HEX}.pdf`, digest: HEX });
    expect(classifySearchInput(`0x${HEX}.tar`)).toEqual({ kind: 'hash', keyword: `0x${HEX}.tar`, digest: HEX });
  });

  it('a 40-hex git commit id is a commit', () => {
    expect(classifySearchInput(` ${'AB'.repeat(20)} `)).toEqual({ kind: 'commit', keyword: 'ab'.repeat(20) });
  });

  it('a commit id prefix of 7 to 39 hex digits is a commit (git shows 7)', () => {
    expect(classifySearchInput(' ABCDEF1 ')).toEqual({ kind: 'commit', keyword: 'abcdef1' });
    expect(classifySearchInput('abcdef')).toEqual({ kind: 'invalid' });
    expect(classifySearchInput('abcdefg')).toEqual({ kind: 'invalid' });
  });

  it('anything else is invalid and never reaches the server', () => {
    for (const text of ['hello', '0x1234', `0x${HEX}0`, `0x${HEX.slice(1)}`, `0x${HEX}.`, `0x${HEX}.tar.gz`, `0x${HEX}.${'a'.repeat(17)}`, `${HEX.slice(0, 63)}g`, '合同.pdf', `x${'a'.repeat(200)}`, "pv' or 1=1 --"]) {
      expect(classifySearchInput(text), text).toEqual({ kind: 'invalid' });
    }
  });
});

describe('searchResultPath: §3 entity types 0–4 to the §2 named routes', () => {
  const searched = { keyword: `0x${HEX}.pdf` };
  it('1 asset → assetDetail (asset_id is the DNA)', () => {
    expect(searchResultPath({ entity_type: SEARCH_ENTITY.asset, dip_id: 'pvabcdefghijklmnopqrst', project_id: null }, searched)).toBe('/dashboard/asset/detail/pvabcdefghijklmnopqrst');
  });
  it('2 project → the vault project, locating the file by its DNA', () => {
    expect(searchResultPath({ entity_type: SEARCH_ENTITY.project, dip_id: 'pvabcdefghijklmnopqrst', project_id: 12 }, searched)).toBe('/dashboard/vault/project/12?dip_id=pvabcdefghijklmnopqrst');
    expect(searchResultPath({ entity_type: SEARCH_ENTITY.project, dip_id: null, project_id: 12 }, searched)).toBe('/dashboard/vault/project/12');
    // A source-code project goes to its page.
    expect(searchResultPath({ entity_type: SEARCH_ENTITY.project, dip_id: 'pvabcdefghijklmnopqrst', project_id: 12, container: 'repo' }, searched)).toBe('/dashboard/repos/detail/12');
  });
  it('3 commit → commitDetail repos/detail/:project_id/:commit_id', () => {
    expect(searchResultPath({ entity_type: SEARCH_ENTITY.commit, dip_id: 'pvcommitcommitcommitab', project_id: 7 }, searched)).toBe('/dashboard/repos/detail/7/pvcommitcommitcommitab');
  });
  it('4 application file → applicationFileDetail application/detail/file/:application_id/:file_id', () => {
    expect(searchResultPath({ entity_type: SEARCH_ENTITY.applicationFile, dip_id: 'pvfilefilefilefilefil', project_id: 3 }, searched)).toBe('/dashboard/application/detail/file/3/pvfilefilefilefilefil');
  });
  it('0 none (or a result missing what its route needs) → the empty page with what was searched', () => {
    expect(searchResultPath({ entity_type: SEARCH_ENTITY.none, dip_id: null, project_id: null }, searched)).toBe(`/dashboard/empty?keyword=0x${HEX}.pdf`);
    expect(searchResultPath({ entity_type: SEARCH_ENTITY.none, dip_id: null, project_id: null }, { ...searched, fileName: '报价 单.pdf' })).toBe(
      `/dashboard/empty?keyword=0x${HEX}.pdf&file=%E6%8A%A5%E4%BB%B7+%E5%8D%95.pdf`,
    );
    expect(searchResultPath({ entity_type: SEARCH_ENTITY.asset, dip_id: null, project_id: null }, searched)).toMatch(/^\/dashboard\/empty\?/);
    expect(searchResultPath({ entity_type: SEARCH_ENTITY.commit, dip_id: 'pvcommitcommitcommitab', project_id: null }, searched)).toMatch(/^\/dashboard\/empty\?/);
  });
});

describe('isSearchHidden (§2: company status 3, 4, 6 or 7)', () => {
  it('hides the box for exactly those statuses', () => {
    expect([0, 1, 2, 3, 4, 5, 6, 7, 8].filter(isSearchHidden)).toEqual([3, 4, 6, 7]);
  });
});
