import { describe, expect, it } from 'vitest';
import { checkKeyPassphrase, depositMessage, enterpriseSubject, keyPermissions, memberTransition, passphraseStrength } from './enterprise-keys.ts';

describe('key passphrase rules', () => {
  const avoid = ['西安示例科技有限公司', '91610000MA6U123456', '13912345678'];
  it.each([
    ['', 'required'],
    ['Short1!', 'key_passphrase_too_short'],
    ['alllowercaseonly', 'key_passphrase_weak'],
    ['Aaaaaaaa1!xyz', 'key_passphrase_weak'],
    ['Pass-91610000MA6U123456', 'key_passphrase_contains_identity'],
    ['x13912345678X!a', 'key_passphrase_contains_identity'],
    ['西安示例科技有限公司-Key-1', 'key_passphrase_contains_identity'],
    ['Provena-Key-2024!', null],
    ['correct horse battery staple', null],
    ['x'.repeat(257), 'lt'],
  ])('%j → %s', (value, expected) => {
    expect(checkKeyPassphrase(value, avoid)).toBe(expected);
  });

  it('rates strength from 0 to 4', () => {
    expect(passphraseStrength('')).toBe(0);
    expect(passphraseStrength('aaaaaaaaaaaa')).toBeLessThan(2);
    expect(passphraseStrength('Provena-Key-2024!x')).toBeGreaterThanOrEqual(3);
  });
});

describe('who may do what with the key', () => {
  it('lets only the super administrator hold the ceremony, from 0, 3 or 4', () => {
    for (const status of [0, 3, 4]) expect(keyPermissions(1, status, false).can_deposit).toBe(true);
    for (const status of [1, 2]) expect(keyPermissions(1, status, true).can_deposit).toBe(false);
    for (const role of [0, 2, 3, 4]) expect(keyPermissions(role, 0, false).can_deposit).toBe(false);
  });

  it('lets administrators sign only while custodied with a stored key, and the officer read the history', () => {
    expect(keyPermissions(2, 1, true).can_sign).toBe(true);
    expect(keyPermissions(2, 1, false).can_sign).toBe(false);
    expect(keyPermissions(2, 2, true).can_sign).toBe(false);
    expect(keyPermissions(3, 1, true)).toMatchObject({ can_sign: false, can_view_log: true, can_download_key: false });
    expect(keyPermissions(0, 1, true)).toMatchObject({ can_sign: false, can_view_log: false });
  });

  it('maps §7 PUT /enterprises to a transition, 403 or 400', () => {
    expect(memberTransition(2, 1, 2)).toBe('cancel_custody');
    expect(memberTransition(1, 2, 1)).toBe('withdraw_cancel');
    expect(memberTransition(1, 1, 4)).toBe('revoke_identity');
    expect(memberTransition(1, 3, 4)).toBe('revoke_identity');
    expect(memberTransition(2, 1, 4)).toBe('forbidden');
    for (const role of [0, 3, 4]) expect(memberTransition(role, 1, 2)).toBe('forbidden');
    expect(memberTransition(1, 0, 4)).toBe('invalid');
    expect(memberTransition(1, 4, 4)).toBe('invalid');
    expect(memberTransition(2, 2, 2)).toBe('invalid');
    expect(memberTransition(2, 1, 3)).toBe('invalid');
    expect(memberTransition(2, 3, 1)).toBe('invalid');
    expect(memberTransition(2, 1, 0)).toBe('invalid');
  });
});

describe('deposit proof and subject', () => {
  it('binds the PEM hash to the enterprise', () => {
    const hash = new Uint8Array(32).fill(7);
    const a = depositMessage(12, hash);
    expect(new TextDecoder().decode(a.subarray(0, 26))).toBe('provena-key-deposit-v1\u000012\u0000');
    expect(a.subarray(26)).toEqual(hash);
    expect(depositMessage(13, hash)).not.toEqual(a);
  });

  it('names the enterprise by licence number in the ETSI organizationIdentifier form', () => {
    expect(enterpriseSubject({ name: '西安示例科技有限公司', license_no: '91610000MA6U123456' })).toEqual({
      country: 'CN',
      organization: '西安示例科技有限公司',
      organizationIdentifier: 'NTRCN-91610000MA6U123456',
      commonName: '西安示例科技有限公司',
    });
  });
});
