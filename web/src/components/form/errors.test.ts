import { occupationInputSchema, organizationInputSchema, userInputSchema } from '@eelarve/shared';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ApiError } from '../../api/errors';
import { codeFieldErrors, fieldKey, firstMessage, hasErrors, issuesToErrors, pickErrors, serverFieldErrors, validate, withoutError } from './errors';

describe('form layer: zod schema to field messages', () => {
  it('maps the shared user schema to field messages', () => {
    const { data, errors } = validate(userInputSchema, { name: '  ', email: 'not-an-address' });
    expect(data).toBeNull();
    expect(errors.name?.message).toBe('validation.required');
    expect(errors.email?.message).toBe('validation.email');
  });

  it('asks for a user and a name of an occupation, the description is optional', () => {
    const { errors } = validate(occupationInputSchema, { userId: '', name: '', description: '', roles: [] });
    expect(Object.keys(errors).sort()).toEqual(['name', 'userId']);
    expect(errors.userId?.message).toBe('validation.required');
  });

  it('answers the parsed payload when the values are fine', () => {
    const { data, errors } = validate(userInputSchema, { name: ' Mari ', email: 'mari@example.com' });
    expect(errors).toEqual({});
    expect(data).toMatchObject({ name: 'Mari', email: 'mari@example.com' });
  });

  it('keeps the first message of a field', () => {
    expect(
      issuesToErrors([
        { path: ['name'], message: 'validation.required' },
        { path: ['name'], message: 'validation.maxLength' },
      ]),
    ).toEqual({ name: { message: 'validation.required', values: expect.any(Object) } });
  });

  it('carries the limits a message shows, and only those', () => {
    const { errors } = validate(z.object({ size: z.number().min(1, 'validation.min') }), { size: 0 });
    expect(errors.size).toMatchObject({ message: 'validation.min', values: { min: '1' } });
    expect(errors.size?.values?.max).toBeUndefined();
  });

  it('gives a list its items’ messages and a nested setting its own', () => {
    const { errors } = validate(organizationInputSchema, { allowedAuthenticationTypes: ['NOPE'], localeSettings: { language: 7 } });
    expect(errors.allowedAuthenticationTypes).toBeDefined();
    expect(errors['allowedAuthenticationTypes.0']).toBeUndefined();
  });

  it('lets a form reword an issue of its own', () => {
    const schema = z.object({ count: z.number('validation.number') });
    const { errors } = validate(schema, { count: undefined }, (issue, key) => (key === 'count' ? 'validation.required' : issue.message));
    expect(errors.count?.message).toBe('validation.required');
  });

  it('checks one value alone', () => {
    expect(firstMessage(z.string().email('validation.email'), 'x')).toBe('validation.email');
    expect(firstMessage(z.string(), 'x')).toBeUndefined();
  });
});

describe('form layer: field paths and server errors', () => {
  it('maps zod and server field paths to form fields', () => {
    expect(fieldKey('/localeSettings/language')).toBe('localeSettings.language');
    expect(fieldKey('body.name')).toBe('name');
    expect(fieldKey(['localeSettings', 'dateFormat'])).toBe('localeSettings.dateFormat');
    expect(fieldKey(['roles', 2])).toBe('roles');
    expect(fieldKey('body.tags.0')).toBe('tags');
  });

  it("maps a SCHEMA_VALIDATION_ERROR's details to fields, 'body.x' to x", () => {
    const error = new ApiError(400, 'SCHEMA_VALIDATION_ERROR', 'invalid', [
      { path: 'body.name', message: 'validation.required' },
      { path: 'body.name', message: 'validation.maxLength' },
      { path: 'body.localeSettings.language', message: 'validation.invalid' },
    ]);
    expect(serverFieldErrors(error)).toEqual({
      name: { message: 'validation.required' },
      'localeSettings.language': { message: 'validation.invalid' },
    });
  });

  it('marks the field an error code concerns', () => {
    const error = new ApiError(409, 'EMAIL_IN_USE');
    expect(serverFieldErrors(error, { EMAIL_IN_USE: 'email' })).toEqual({ email: { message: 'error.EMAIL_IN_USE' } });
    expect(serverFieldErrors(error)).toEqual({});
    expect(serverFieldErrors(new Error('network'))).toEqual({});
  });

  it('clears one field and tells whether any message is left', () => {
    const errors = { name: { message: 'validation.required' }, email: undefined };
    expect(hasErrors(errors)).toBe(true);
    expect(hasErrors(withoutError(errors, 'name'))).toBe(false);
    expect(withoutError(errors, 'email')).toBe(errors);
  });
});

describe('form layer: error codes alone', () => {
  it('marks only the field of a known code, never a schema issue', () => {
    const taken = new ApiError(409, 'USER_ALREADY_ALLOCATED');
    expect(codeFieldErrors(taken, { USER_ALREADY_ALLOCATED: 'userId' })).toEqual({ userId: { message: 'error.USER_ALREADY_ALLOCATED' } });
    const refused = new ApiError(400, 'SCHEMA_VALIDATION_ERROR', 'invalid', [{ path: 'body.userId', message: 'validation.required' }]);
    expect(codeFieldErrors(refused, { USER_ALREADY_ALLOCATED: 'userId' })).toEqual({});
  });

  it('lets a schema issue win over the code on the same field', () => {
    const error = new ApiError(400, 'PASSWORD_NOT_STRONG', 'weak', [{ path: 'body.password', message: 'validation.passwordStrength' }]);
    expect(serverFieldErrors(error, { PASSWORD_NOT_STRONG: 'password' })).toEqual({ password: { message: 'validation.passwordStrength' } });
  });

  it('keeps only the fields a form shows', () => {
    expect(pickErrors({ current: { message: 'error.INVALID_CURRENT_PASSWORD' }, newPassword: { message: 'validation.required' } }, ['current'])).toEqual({
      current: { message: 'error.INVALID_CURRENT_PASSWORD' },
    });
  });
});
