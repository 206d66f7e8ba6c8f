import { describe, expect, it } from 'vitest';
import {
  checkChangedPassword,
  checkName,
  checkNewPassword,
  checkNewPhone,
  checkPasswordLogin,
  checkPhone,
  checkRepeatPassword,
  checkSmsCode,
  checkUserName,
  isWeakPassword,
} from './validation.ts';

describe('§5 phone', () => {
  it('accepts exactly 11 digits', () => {
    expect(checkPhone('13812345678')).toBeNull();
  });
  it.each(['1381234567', '138123456789', '1381234567a', ' 13812345678', '+8613812345678'])('rejects %s', (p) => {
    expect(checkPhone(p)).toBe('phone_invalid');
  });
  it('requires a value', () => expect(checkPhone('')).toBe('required'));
});

describe('§5 SMS code', () => {
  it('needs 6 digits', () => {
    expect(checkSmsCode('123456')).toBeNull();
    expect(checkSmsCode('')).toBe('validation_code_required');
    // §5: a short or non-numeric code is "please enter the phone verification code", not "code wrong".
    expect(checkSmsCode('12345')).toBe('validation_code_required');
    expect(checkSmsCode('12345a')).toBe('validation_code_required');
  });
});

describe('§5 password login', () => {
  const phoneMode = { allowUserNameLogin: false };
  it('requires login_id then password', () => {
    expect(checkPasswordLogin('', 'x', phoneMode)).toEqual({ field: 'login_id', key: 'required' });
    expect(checkPasswordLogin('13812345678', '', phoneMode)).toEqual({ field: 'password', key: 'required' });
  });
  it('phone mode: a phone of 11 digits, else one message', () => {
    expect(checkPasswordLogin('13812345678', 'abcdefg1', phoneMode)).toBeNull();
    expect(checkPasswordLogin('1381234567', 'abcdefg1', phoneMode)?.key).toBe('login_failed');
  });
  it('phone mode: any password reaches the server, which alone knows whether it is right (a 7-character one set in the change dialog gets the weak-password dialog there)', () => {
    expect(checkPasswordLogin('13812345678', 'abcdefgh', phoneMode)).toBeNull();
    expect(checkPasswordLogin('13812345678', 'abc1', phoneMode)).toBeNull();
    expect(checkPasswordLogin('13812345678', 'abcdef1', phoneMode)).toBeNull();
  });
  it('username mode only needs non-empty values', () => {
    expect(checkPasswordLogin('alice', 'x', { allowUserNameLogin: true })).toBeNull();
  });
});

describe('§5 new password (register, reset)', () => {
  const normal = { strongPassword: false };
  it('needs ≥ 8 with upper, lower and digit', () => {
    expect(checkNewPassword('Abcdefg1', normal)).toBeNull();
    expect(checkNewPassword('Abcde1', normal)).toBe('password_too_short');
    expect(checkNewPassword('abcdefg1', normal)).toBe('password_needs_letters_and_numbers');
    expect(checkNewPassword('ABCDEFG1', normal)).toBe('password_needs_letters_and_numbers');
    expect(checkNewPassword('Abcdefgh', normal)).toBe('password_needs_letters_and_numbers');
  });
  it('with strongPassword also a special character', () => {
    // Passw0rd1 has upper, lower and digits: the message must name what it lacks.
    expect(checkNewPassword('Passw0rd1', { strongPassword: true })).toBe('password_needs_special_character');
    expect(checkNewPassword('Abcdefg1', { strongPassword: true })).toBe('password_needs_special_character');
    expect(checkNewPassword('abcdef1!', { strongPassword: true })).toBe('password_needs_letters_and_numbers');
    expect(checkNewPassword('Abcdef1!', { strongPassword: true })).toBeNull();
    expect(checkNewPassword('Abcde1!', { strongPassword: true })).toBe('password_too_short');
  });
  it('repeat must match', () => {
    expect(checkRepeatPassword('Abcdefg1', 'Abcdefg1')).toBeNull();
    expect(checkRepeatPassword('Abcdefg1', 'Abcdefg2')).toBe('password_mismatch');
    expect(checkRepeatPassword('Abcdefg1', '')).toBe('required');
  });
});

describe('§5 change password and phone', () => {
  it('new password ≥ 7 and differs from the old', () => {
    const normal = { strongPassword: false };
    // §5's own messages for the dialog: "new password not shorter than 7 characters", "password must contain digits and letters".
    expect(checkChangedPassword('Old12345', 'abc12', normal)).toBe('new_password_too_short');
    expect(checkChangedPassword('Old12345', 'Old12345', normal)).toBe('new_password_same_as_old');
    expect(checkChangedPassword('Old12345', 'abcdefg', normal)).toBe('password_needs_digits_and_letters');
    expect(checkChangedPassword('Old12345', 'abcdef1', normal)).toBeNull();
  });
  it('with strongPassword the dialog asks for a special character too (one rule everywhere)', () => {
    expect(checkChangedPassword('Old12345', 'abcdef1', { strongPassword: true })).toBe('password_needs_special_character');
    expect(checkChangedPassword('Old12345', 'abcde1!', { strongPassword: true })).toBeNull();
  });
  it('new phone differs from the current', () => {
    expect(checkNewPhone('13812345678', '13812345678')).toBe('new_phone_same_as_current');
    expect(checkNewPhone('13812345678', '13900000000')).toBeNull();
    expect(checkNewPhone('13812345678', '139')).toBe('phone_invalid');
  });
});

describe('names', () => {
  it('optional at sign-up, bounded', () => {
    expect(checkName('', { required: false })).toBeNull();
    expect(checkName('  ', { required: true })).toBe('required');
    expect(checkName('张三', { required: true })).toBeNull();
    expect(checkName('x'.repeat(21), { required: true })).toBe('lt');
  });
  it('usernames', () => {
    expect(checkUserName('alice_1')).toBeNull();
    expect(checkUserName('abc')).toBe('gt');
    expect(checkUserName('12345678')).toBe('invalid_param');
    expect(checkUserName('a b c d')).toBe('invalid_param');
  });
});

describe('weak stored passwords (§8 invalid_password_format)', () => {
  it('are those below the login rule, or without a special character under strongPassword', () => {
    expect(isWeakPassword('abcdef1', { strongPassword: false })).toBe(true);
    expect(isWeakPassword('abcdefgh', { strongPassword: false })).toBe(true);
    expect(isWeakPassword('abcdefg1', { strongPassword: false })).toBe(false);
    expect(isWeakPassword('abcdefg1', { strongPassword: true })).toBe(true);
    expect(isWeakPassword('abcdef1!', { strongPassword: true })).toBe(false);
  });
});
