import { describe, expect, it } from 'vitest';
import { hasErrors, PASSWORD_MISMATCH, sanitiseMfaCode, validateEmail, validateMfaCode, validatePasswordPair } from './form';

describe('auth forms', () => {
  it('checks a new password with the shared rule and its repeat', () => {
    expect(validatePasswordPair('', '')).toEqual({ password: 'validation.passwordMinLength', repeat: 'validation.required' });
    expect(validatePasswordPair('short1A', 'short1A').password).toBe('validation.passwordMinLength');
    expect(validatePasswordPair('alllowercase1', 'alllowercase1').password).toBe('validation.passwordStrength');
    expect(validatePasswordPair('NoDigitsHere', 'NoDigitsHere').password).toBe('validation.passwordStrength');
    expect(validatePasswordPair('Good-Password1', 'Good-Password2')).toEqual({ repeat: PASSWORD_MISMATCH });
    expect(hasErrors(validatePasswordPair('Good-Password1', 'Good-Password1'))).toBe(false);
  });

  it('checks e-mail addresses', () => {
    expect(validateEmail('')).toBe('validation.required');
    expect(validateEmail('not-an-address')).toBe('validation.email');
    expect(validateEmail(' user@example.com ')).toBeUndefined();
  });

  it('takes exactly six digits as an MFA code', () => {
    expect(validateMfaCode('')).toBe('validation.required');
    expect(validateMfaCode('12345')).toBe('validation.mfaCode');
    expect(validateMfaCode('123456')).toBeUndefined();
    expect(sanitiseMfaCode(' 12a3-45 678')).toBe('123456');
  });
});
