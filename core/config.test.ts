import { describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG, mergeConfig } from './config.ts';

describe('deployment configuration', () => {
  it('has the §9 defaults', () => {
    expect(DEFAULT_CONFIG.allowPhoneLogin).toBe(true);
    expect(DEFAULT_CONFIG.allowUserNameLogin).toBe(false);
    expect(DEFAULT_CONFIG.allowRegister).toBe(true);
    expect(DEFAULT_CONFIG.allowResetPassword).toBe(true);
    expect(DEFAULT_CONFIG.multiCompany).toBe(true);
    expect(DEFAULT_CONFIG.realAuthNeedOCR).toBe(false);
    expect(DEFAULT_CONFIG.frontPageAvailable).toBe(false);
    expect(DEFAULT_CONFIG.strongPassword).toBe(false);
    expect(DEFAULT_CONFIG.credits).toEqual({ assetRegistration: 200, vaultFile: 1000, commit: 0, applicationFile: 10 });
    expect(DEFAULT_CONFIG.menu.chart).toBe(false);
    expect(DEFAULT_CONFIG.defaultPage).toBe('home');
  });
  it('deep-merges overrides', () => {
    const { config, issues } = mergeConfig(DEFAULT_CONFIG, { allowUserNameLogin: true, credits: { vaultFile: 500 } });
    expect(issues).toEqual([]);
    expect(config.allowUserNameLogin).toBe(true);
    expect(config.credits).toEqual({ assetRegistration: 200, vaultFile: 500, commit: 0, applicationFile: 10 });
  });
  it('reports unknown keys and wrong types', () => {
    const { issues } = mergeConfig(DEFAULT_CONFIG, { allowRegistr: true, multiCompany: 'yes', credits: { vaultFile: '1' } });
    expect(issues.map((i) => i.path)).toEqual(['allowRegistr', 'multiCompany', 'credits.vaultFile']);
  });
  it('requires credits: registrations cost credits by default, and prices are whole non-negative numbers', () => {
    expect(DEFAULT_CONFIG.integralRequired).toBe(true);
    expect(mergeConfig(DEFAULT_CONFIG, { integralRequired: false, credits: { assetRegistration: 0 } }).issues).toEqual([]);
    const { issues } = mergeConfig(DEFAULT_CONFIG, { credits: { assetRegistration: -1, vaultFile: 2.5 } });
    expect(issues.map((i) => i.path)).toEqual(['credits.assetRegistration', 'credits.vaultFile']);
  });
  it('refuses a deployment with no way to log in', () => {
    const { issues } = mergeConfig(DEFAULT_CONFIG, { allowPhoneLogin: false });
    expect(issues[0]?.path).toBe('allowPhoneLogin');
  });
});
