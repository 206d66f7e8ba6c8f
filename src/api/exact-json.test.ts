import { describe, expect, it } from 'vitest';
import { parseJsonExact } from './exact-json.ts';

describe('parseJsonExact', () => {
  it('keeps integers beyond the safe range exact, as decimal text', () => {
    const parsed = parseJsonExact('{"id": 1234567890123456789, "neg": -9007199254740993, "ok": 9007199254740991}') as Record<string, unknown>;
    expect(parsed.id).toBe('1234567890123456789');
    expect(parsed.neg).toBe('-9007199254740993');
    expect(parsed.ok).toBe(9007199254740991);
  });

  it('leaves fractions and exponents to ordinary number parsing', () => {
    // oxlint-disable-next-line no-loss-of-precision -- the rounding of a long fraction is what this checks
    expect(parseJsonExact('[1.5, -0.25, 1e3, 12345678901234567890.5]')).toEqual([1.5, -0.25, 1000, 12345678901234567890.5]);
  });

  it('agrees with JSON.parse on ordinary documents', () => {
    const docs = [
      '{"data":{"a":[1,2,{"b":null}],"c":true,"d":false,"e":"x\\"y\\u4e2d\\n"}}',
      ' [ ] ',
      '{}',
      '"just a string"',
      '0',
      '{"message":"token_invalid","field_name":"login_id"}',
      '{"nested":[[[[]]]],"emoji":"\\ud83d\\ude00","slash":"a\\/b"}',
    ];
    for (const doc of docs) expect(parseJsonExact(doc)).toEqual(JSON.parse(doc));
  });

  it('treats __proto__ as an own property, like JSON.parse', () => {
    const parsed = parseJsonExact('{"__proto__": {"polluted": 1}}') as Record<string, unknown>;
    expect(Object.getPrototypeOf(parsed)).toBe(Object.prototype);
    expect(Object.hasOwn(parsed, '__proto__')).toBe(true);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('rejects malformed JSON', () => {
    for (const bad of ['', '{', '[1,]', '{"a" 1}', '01', '"unterminated', 'tru', '{"a":1} x', "{'a':1}", '"tab\there"']) {
      expect(() => parseJsonExact(bad), bad).toThrow(SyntaxError);
    }
  });
});
