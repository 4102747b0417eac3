import { emailRequestSchema, mfaCode, strongPassword } from '@eelarve/shared';

/** A field's message key (`validation.*`), or nothing when the value is fine. */
export type FieldMessage = string | undefined;

export interface PasswordPairErrors {
  password?: string;
  repeat?: string;
}

/** The message key for a mismatching repeat (spec 1, section 5: "Repeat must match"). */
export const PASSWORD_MISMATCH = 'validation.passwordMismatch';

/** A new password by the shared strong-password rule, and its repeat. */
export function validatePasswordPair(password: string, repeat: string): PasswordPairErrors {
  const errors: PasswordPairErrors = {};
  const parsed = strongPassword.safeParse(password);
  if (!parsed.success) errors.password = parsed.error.issues[0]?.message ?? 'validation.invalid';
  if (!repeat) errors.repeat = 'validation.required';
  else if (repeat !== password) errors.repeat = PASSWORD_MISMATCH;
  return errors;
}

export function validateEmail(email: string): FieldMessage {
  const parsed = emailRequestSchema.safeParse({ email });
  return parsed.success ? undefined : (parsed.error.issues[0]?.message ?? 'validation.invalid');
}

export function validateMfaCode(code: string): FieldMessage {
  if (!code) return 'validation.required';
  const parsed = mfaCode.safeParse(code);
  return parsed.success ? undefined : (parsed.error.issues[0]?.message ?? 'validation.invalid');
}

/** What may be typed into the MFA code field: digits only, at most six. */
export function sanitiseMfaCode(value: string): string {
  return value.replace(/\D/g, '').slice(0, 6);
}

export function hasErrors(errors: object): boolean {
  return Object.values(errors).some(Boolean);
}
