import { describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG } from './config.ts';
import { CREDIT_AMOUNT_MAX, checkCreditAmount, registrationPrice } from './credits.ts';

describe('credit amounts', () => {
  it('are whole numbers from 1 to the maximum, typed as plain digits', () => {
    for (const ok of [1, 250, CREDIT_AMOUNT_MAX, '42', ' 7 ']) expect(checkCreditAmount(ok), String(ok)).toBeNull();
    for (const missing of [undefined, null, '', '   ']) expect(checkCreditAmount(missing)).toBe('required');
    for (const bad of [0, -1, 1.5, CREDIT_AMOUNT_MAX + 1, Number.NaN, '1e3', '0x10', '1,000', '-3', 'abc', true, {}, [5]]) expect(checkCreditAmount(bad), String(bad)).toBe('invalid_param');
  });
});

describe('registration prices (§9)', () => {
  it('come from the configuration, and are 0 when the deployment does not require credits', () => {
    expect(registrationPrice(DEFAULT_CONFIG, 'asset')).toBe(200);
    expect(registrationPrice(DEFAULT_CONFIG, 'vault_file')).toBe(1000);
    expect(registrationPrice(DEFAULT_CONFIG, 'commit')).toBe(0);
    const custom = { ...DEFAULT_CONFIG, credits: { assetRegistration: 5, vaultFile: 7, commit: 3, applicationFile: 3 } };
    expect(registrationPrice(custom, 'commit')).toBe(3);
    expect(registrationPrice(custom, 'asset')).toBe(5);
    expect(registrationPrice(custom, 'vault_file')).toBe(7);
    expect(registrationPrice(custom, 'application_file')).toBe(3);
    expect(registrationPrice({ ...custom, integralRequired: false }, 'vault_file')).toBe(0);
  });
});
