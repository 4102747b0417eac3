import { strongPassword } from '@eelarve/shared';
import { z } from 'zod';
import { type FieldErrors, validate } from '../form';

/** The message key for a mismatching repeat (spec 1, section 5: "Repeat must match"). */
export const PASSWORD_MISMATCH = 'validation.passwordMismatch';

const newPasswordSchema = z.object({ password: strongPassword });

/** A new password by the shared strong-password rule, and its repeat: messages `password` and `repeat`. */
export function validateNewPassword(password: string, repeat: string): FieldErrors {
  const { errors } = validate(newPasswordSchema, { password });
  const repeatMessage = !repeat ? 'validation.required' : repeat !== password ? PASSWORD_MISMATCH : undefined;
  return repeatMessage ? { ...errors, repeat: { message: repeatMessage } } : errors;
}
