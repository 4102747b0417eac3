import { LIMITS } from '@eelarve/shared';
import { isMessageKey, type MessageKey } from './messages';

/** The message of a server (or client) error code: `error.<CODE>`, or a generic one for unknown codes. */
export function errorMessageKey(code: string): MessageKey {
  const key = `error.${code}`;
  return isMessageKey(key) ? key : 'error.UNKNOWN';
}

/** A validation message key as produced by the shared zod schemas (`validation.required`, ...). */
export function validationMessageKey(message: string): MessageKey {
  return message.startsWith('validation.') && isMessageKey(message) ? message : 'validation.invalid';
}

export type MessageValues = Record<string, string | number>;

/**
 * Values for validation messages. Every placeholder gets a value ("none" selects the wording
 * without a number) so that a message key coming from the server without values still renders.
 */
export function validationValues(values: { min?: unknown; max?: unknown; values?: unknown } = {}): MessageValues {
  const text = (value: unknown): string => (typeof value === 'number' || typeof value === 'bigint' || typeof value === 'string' ? String(value) : 'none');
  return {
    min: text(values.min),
    max: text(values.max),
    values: Array.isArray(values.values) ? values.values.join(', ') : 'none',
    maxDays: LIMITS.sessionLengthMaxDays,
  };
}
