import { describe, expect, it } from 'vitest';
import {
  ASSET_TYPES,
  ASSET_TYPE_VALUES,
  checkAssetDescription,
  checkAssetFileHash,
  checkAssetInput,
  checkAssetName,
  checkAssetType,
  isAssetType,
  nameFromFileName,
  timeFilterMillis,
} from './assets.ts';

const HASH = `0x${'ab'.repeat(32)}`;

describe('§3 asset types', () => {
  it('are the eight types with stable codes 0–7, in the order of §3', () => {
    expect(ASSET_TYPES).toEqual({ creativeWork: 0, creativeDesign: 1, industrialDesign: 2, code: 3, research: 4, data: 5, signedFile: 6, other: 7 });
    expect(ASSET_TYPE_VALUES).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    expect(isAssetType(7)).toBe(true);
    expect(isAssetType(8)).toBe(false);
    expect(isAssetType(-1)).toBe(false);
    expect(isAssetType(1.5)).toBe(false);
    expect(isAssetType('1')).toBe(false);
  });
  it('type rule: required, then in range', () => {
    expect(checkAssetType(undefined)).toBe('required');
    expect(checkAssetType(null)).toBe('required');
    expect(checkAssetType('')).toBe('required');
    expect(checkAssetType(0)).toBeNull();
    expect(checkAssetType(8)).toBe('invalid_param');
    expect(checkAssetType('3')).toBe('invalid_param');
  });
});

describe('§5 file to register: a chosen file and a name', () => {
  it('name: required, at most 100 characters as people count them', () => {
    expect(checkAssetName('')).toBe('required');
    expect(checkAssetName('  ')).toBe('required');
    expect(checkAssetName('设'.repeat(100))).toBeNull();
    expect(checkAssetName('设'.repeat(101))).toBe('lt');
    expect(checkAssetName('😀'.repeat(100))).toBeNull();
    expect(checkAssetName(` ${'a'.repeat(100)} `)).toBeNull();
  });
  it('description: optional, at most 200', () => {
    expect(checkAssetDescription('')).toBeNull();
    expect(checkAssetDescription('述'.repeat(200))).toBeNull();
    expect(checkAssetDescription('述'.repeat(201))).toBe('lt');
  });
  it('file: the §3 identity is required and must be one', () => {
    expect(checkAssetFileHash('')).toBe('required');
    expect(checkAssetFileHash('not a hash')).toBe('invalid_param');
    expect(checkAssetFileHash(HASH)).toBeNull();
    expect(checkAssetFileHash(`${HASH}.PDF`.toUpperCase().replace('0X', '0x'))).toBeNull();
    expect(checkAssetFileHash(`${HASH.slice(0, -1)}.pdf`)).toBe('invalid_param');
  });
  it('a name from a file name is its base name cut to the limit', () => {
    expect(nameFromFileName('dir/sub/design.psd')).toBe('design.psd');
    expect(nameFromFileName('C:\\x\\图纸.dwg')).toBe('图纸.dwg');
    expect(Array.from(nameFromFileName('名'.repeat(150))).length).toBe(100);
  });
});

describe('checkAssetInput: every rule of one registration, on its field', () => {
  const good = { file_hash: `${HASH}.pdf`, name: ' Design ', type: 1, description: ' d ', size: 10 };
  it('cleans a good item', () => {
    expect(checkAssetInput(good)).toEqual({ ok: true, value: { name: 'Design', type: 1, description: 'd', identity: { sha256: 'ab'.repeat(32), extension: '.pdf' }, size: 10 } });
    expect(checkAssetInput({ file_hash: HASH, name: 'n', type: 0 })).toMatchObject({ ok: true, value: { description: '', size: 0, identity: { extension: '' } } });
  });
  it('refuses the first failing field, file first, and malformed values of any JSON type', () => {
    expect(checkAssetInput(null)).toEqual({ ok: false, message: 'required', field_name: 'file_hash' });
    expect(checkAssetInput('x')).toEqual({ ok: false, message: 'required', field_name: 'file_hash' });
    expect(checkAssetInput({ ...good, file_hash: 5 })).toEqual({ ok: false, message: 'invalid_param', field_name: 'file_hash' });
    expect(checkAssetInput({ ...good, file_hash: 'zz' })).toEqual({ ok: false, message: 'invalid_param', field_name: 'file_hash' });
    expect(checkAssetInput({ ...good, name: '' })).toEqual({ ok: false, message: 'required', field_name: 'name' });
    expect(checkAssetInput({ ...good, name: ['a'] })).toEqual({ ok: false, message: 'invalid_param', field_name: 'name' });
    expect(checkAssetInput({ ...good, name: 'x'.repeat(101) })).toEqual({ ok: false, message: 'lt', field_name: 'name' });
    expect(checkAssetInput({ ...good, type: undefined })).toEqual({ ok: false, message: 'required', field_name: 'type' });
    expect(checkAssetInput({ ...good, type: 9 })).toEqual({ ok: false, message: 'invalid_param', field_name: 'type' });
    expect(checkAssetInput({ ...good, description: 3 })).toEqual({ ok: false, message: 'invalid_param', field_name: 'description' });
    expect(checkAssetInput({ ...good, description: 'x'.repeat(201) })).toEqual({ ok: false, message: 'lt', field_name: 'description' });
    expect(checkAssetInput({ ...good, size: -1 })).toEqual({ ok: false, message: 'invalid_param', field_name: 'size' });
    expect(checkAssetInput({ ...good, size: 1.5 })).toEqual({ ok: false, message: 'invalid_param', field_name: 'size' });
    expect(checkAssetInput({ ...good, size: '10' })).toEqual({ ok: false, message: 'invalid_param', field_name: 'size' });
  });
});

describe('§3 times in seconds or milliseconds', () => {
  it('values above 9999999999 are milliseconds, the rest seconds', () => {
    expect(timeFilterMillis(undefined)).toBeUndefined();
    expect(timeFilterMillis(1_700_000_000)).toBe(1_700_000_000_000);
    expect(timeFilterMillis(9_999_999_999)).toBe(9_999_999_999_000);
    expect(timeFilterMillis(10_000_000_000)).toBe(10_000_000_000);
    expect(timeFilterMillis(1_700_000_000_123)).toBe(1_700_000_000_123);
  });
});
