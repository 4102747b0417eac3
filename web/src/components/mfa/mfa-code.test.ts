import { describe, expect, it } from 'vitest';
import { sanitiseMfaCode, validateMfaCode } from './mfa-code';

describe('MFA code', () => {
  it('takes exactly six digits as an MFA code', () => {
    expect(validateMfaCode('')).toBe('validation.required');
    expect(validateMfaCode('12345')).toBe('validation.mfaCode');
    expect(validateMfaCode('123456')).toBeUndefined();
    expect(sanitiseMfaCode(' 12a3-45 678')).toBe('123456');
  });
});
