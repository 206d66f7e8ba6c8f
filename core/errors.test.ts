import { describe, expect, it } from 'vitest';
import { normalizeErrorKey } from './errors.ts';

describe('normalizeErrorKey', () => {
  it('folds spaced and underscored variants onto one key', () => {
    expect(normalizeErrorKey('validation code mismatch')).toBe('validation_code_mismatch');
    expect(normalizeErrorKey('validation_code_mismatch')).toBe('validation_code_mismatch');
    expect(normalizeErrorKey('Hash Duplicate')).toBe('hash_duplicate');
    expect(normalizeErrorKey('integrals not enough')).toBe('integrals_not_enough');
  });
  it('strips the §8 prefixes of validation code mismatch', () => {
    expect(normalizeErrorKey('create upload validation code mismatch')).toBe('validation_code_mismatch');
    expect(normalizeErrorKey('update file validation code mismatch')).toBe('validation_code_mismatch');
    expect(normalizeErrorKey('create asset file validation code mismatch')).toBe('validation_code_mismatch');
  });
  it('returns null for text outside the catalogue', () => {
    expect(normalizeErrorKey('something odd happened')).toBeNull();
    expect(normalizeErrorKey(undefined)).toBeNull();
    expect(normalizeErrorKey(42)).toBeNull();
  });
});
