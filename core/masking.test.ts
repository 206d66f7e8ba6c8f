import { describe, expect, it } from 'vitest';
import { maskLicense, maskName, maskPhone, maskPhoneTail } from './masking.ts';

describe('masking (§2, §9)', () => {
  it('phone shows first 3 and last 4', () => {
    expect(maskPhone('13812345678')).toBe('138****5678');
  });
  it('receipt phone shows only the last 4', () => {
    expect(maskPhoneTail('13812345678')).toBe('*******5678');
  });
  it('names: 2 → star + last; 3 → star + last two; longer → two stars + rest from the third', () => {
    expect(maskName('张三')).toBe('*三');
    expect(maskName('王小明')).toBe('*小明');
    expect(maskName('欧阳小明')).toBe('**小明');
    expect(maskName('Alexander')).toBe('**exander');
    expect(maskName('李')).toBe('李');
  });
  it('never splits astral characters', () => {
    expect(maskName('𠮷野家')).toBe('*野家');
  });
  it('licence shows first 5 and last 3', () => {
    expect(maskLicense('91610131MA6TXXXX12')).toBe('91610**********X12');
  });
});
