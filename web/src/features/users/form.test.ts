import { occupationInputSchema, userInputSchema } from '@eelarve/shared';
import { describe, expect, it } from 'vitest';
import { issuesToErrors } from './form';

describe('users area forms', () => {
  it('maps the shared user schema to field messages', () => {
    const result = userInputSchema.safeParse({ name: '  ', email: 'not-an-address' });
    expect(result.success).toBe(false);
    expect(issuesToErrors(result.error?.issues ?? [])).toEqual({ name: 'validation.required', email: 'validation.email' });
  });

  it('asks for a user and a name of an occupation, the description is optional', () => {
    const result = occupationInputSchema.safeParse({ userId: '', name: '', description: '', roles: [] });
    expect(result.success).toBe(false);
    expect(issuesToErrors(result.error?.issues ?? [])).toEqual({ userId: 'validation.required', name: 'validation.required' });
  });

  it('keeps the first message of a field', () => {
    expect(
      issuesToErrors([
        { path: ['name'], message: 'validation.required' },
        { path: ['name'], message: 'validation.maxLength' },
      ]),
    ).toEqual({ name: 'validation.required' });
  });
});
