import { emailRequestSchema } from '@eelarve/shared';
import { describe, expect, it } from 'vitest';
import { firstMessage, hasErrors } from '../form';
import { PASSWORD_MISMATCH, validateNewPassword } from './new-password';

const messages = (errors: ReturnType<typeof validateNewPassword>) =>
  Object.fromEntries(Object.entries(errors).map(([field, error]) => [field, error?.message]));

describe('new password', () => {
  it('checks a new password with the shared rule and its repeat', () => {
    expect(messages(validateNewPassword('', ''))).toEqual({ password: 'validation.passwordMinLength', repeat: 'validation.required' });
    expect(validateNewPassword('short1A', 'short1A').password?.message).toBe('validation.passwordMinLength');
    expect(validateNewPassword('alllowercase1', 'alllowercase1').password?.message).toBe('validation.passwordStrength');
    expect(validateNewPassword('NoDigitsHere', 'NoDigitsHere').password?.message).toBe('validation.passwordStrength');
    expect(messages(validateNewPassword('Good-Password1', 'Good-Password2'))).toEqual({ repeat: PASSWORD_MISMATCH });
    expect(hasErrors(validateNewPassword('Good-Password1', 'Good-Password1'))).toBe(false);
  });

  it('checks e-mail addresses with the shared request schema', () => {
    const emailMessage = (email: string) => firstMessage(emailRequestSchema, { email });
    expect(emailMessage('')).toBe('validation.required');
    expect(emailMessage('not-an-address')).toBe('validation.email');
    expect(emailMessage(' user@example.com ')).toBeUndefined();
  });
});
