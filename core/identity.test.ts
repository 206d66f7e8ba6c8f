import { describe, expect, it } from 'vitest';
import { cardCheckChar, checkCardNo, checkRealName, isCardNo, normalizeCardNo } from './identity.ts';

describe('ID card number (§5)', () => {
  it('accepts 18-digit numbers whose ISO 7064 MOD 11-2 check character is right', () => {
    // GB 11643-1999 examples.
    expect(isCardNo('11010519491231002X')).toBe(true);
    expect(isCardNo('440524188001010014')).toBe(true);
    expect(cardCheckChar('11010519491231002')).toBe('X');
  });
  it('accepts a lower-case x and blanks around the number', () => {
    expect(normalizeCardNo(' 11010519491231002x ')).toBe('11010519491231002X');
    expect(isCardNo(' 11010519491231002x ')).toBe(true);
  });
  it('refuses a wrong check character', () => {
    expect(isCardNo('110105194912310021')).toBe(false);
    expect(isCardNo('440524188001010015')).toBe(false);
  });
  it('refuses impossible birth dates and wrong shapes', () => {
    const bad17 = '11010519491331002';
    expect(isCardNo(bad17 + cardCheckChar(bad17))).toBe(false);
    expect(isCardNo('1101051949123100')).toBe(false);
    expect(isCardNo('1101051949123100XX')).toBe(false);
    expect(isCardNo('X10105194912310021')).toBe(false);
  });
  it('accepts 15-digit numbers with a real date', () => {
    expect(isCardNo('110105491231002')).toBe(true);
    expect(isCardNo('110105491331002')).toBe(false);
    expect(isCardNo('11010549123100X')).toBe(false);
  });
  it('answers §8 keys', () => {
    expect(checkCardNo('')).toBe('required');
    expect(checkCardNo('123')).toBe('identity_info_invalid');
    expect(checkCardNo('11010519491231002X')).toBeNull();
    expect(checkRealName(' ')).toBe('required');
    expect(checkRealName('张三')).toBeNull();
    expect(checkRealName('x'.repeat(31))).toBe('lt');
  });
});
