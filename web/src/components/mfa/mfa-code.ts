import { mfaCode } from '@eelarve/shared';
import { firstMessage } from '../form';

/** The message key of a typed MFA code: required, then six digits by the shared rule. */
export function validateMfaCode(code: string): string | undefined {
  return code ? firstMessage(mfaCode, code) : 'validation.required';
}

/** What may be typed into the MFA code field: digits only, at most six. */
export function sanitiseMfaCode(value: string): string {
  return value.replace(/\D/g, '').slice(0, 6);
}
