import type { z } from 'zod';
import { isApiError } from '../../api/errors';
import { type MessageValues, validationValues } from '../../i18n/keys';

/**
 * A field's message: a shared `validation.*` key (the shared zod schemas carry them) or
 * `error.<CODE>` for a server error about that field, with the values its wording needs.
 */
export interface FieldMessage {
  message: string;
  values?: MessageValues;
}

/** The messages of a form by field key (`name`, `localeSettings.language`). */
export type FieldErrors = Partial<Record<string, FieldMessage>>;

type IssuePath = string | ReadonlyArray<PropertyKey>;
interface Issue {
  path: ReadonlyArray<PropertyKey>;
  message: string;
  code?: string;
}

/**
 * The form key of a field path: zod's `['localeSettings', 'language']`, a server's `body.name` or
 * `/localeSettings/language`. A list's items belong to the list (`roles.2` is `roles`).
 */
export function fieldKey(path: IssuePath): string {
  const segments = typeof path === 'string' ? path.replace(/^\/+/, '').split(/[./]/) : path.map(String);
  const fromBody = segments[0] === 'body' ? segments.slice(1) : segments;
  const firstIndex = fromBody.findIndex((segment) => /^\d+$/.test(segment));
  return (firstIndex === -1 ? fromBody : fromBody.slice(0, firstIndex)).join('.');
}

/** The values a validation message shows (limits, allowed values) that a zod issue names; the rest are left to the field. */
function valuesOf(issue: Issue): MessageValues {
  const details = issue as { minimum?: unknown; maximum?: unknown; values?: unknown };
  const all = validationValues({ min: details.minimum, max: details.maximum, values: details.values });
  return Object.fromEntries(Object.entries(all).filter(([, value]) => value !== 'none'));
}

/**
 * The first message per field of zod issues. `adjust` lets a form reword an issue of its own
 * (an empty number field is "required", not "not a number").
 */
export function issuesToErrors(issues: ReadonlyArray<Issue>, adjust?: (issue: Issue, key: string) => string): FieldErrors {
  const errors: FieldErrors = {};
  for (const issue of issues) {
    const key = fieldKey(issue.path);
    if (errors[key]) continue;
    errors[key] = { message: adjust ? adjust(issue, key) : issue.message, values: valuesOf(issue) };
  }
  return errors;
}

export type Validation<T> = { data: T; errors: FieldErrors } | { data: null; errors: FieldErrors };

/** Checks a form's values with a zod schema (the same one the server uses): the parsed payload, or the field messages. */
export function validate<S extends z.ZodType>(schema: S, candidate: unknown, adjust?: (issue: Issue, key: string) => string): Validation<z.output<S>> {
  const parsed = schema.safeParse(candidate);
  if (parsed.success) return { data: parsed.data, errors: {} };
  return { data: null, errors: issuesToErrors(parsed.error.issues, adjust) };
}

/** The message of one value checked alone (an e-mail, a code), or undefined when it is fine. */
export function firstMessage<S extends z.ZodType>(schema: S, value: unknown): string | undefined {
  const parsed = schema.safeParse(value);
  return parsed.success ? undefined : (parsed.error.issues[0]?.message ?? 'validation.invalid');
}

/**
 * Field messages of a failed server call: a SCHEMA_VALIDATION_ERROR's `details[].path` (`body.x` is
 * field x), and error codes that concern one field (`{ EMAIL_IN_USE: 'email' }`) as `error.<CODE>`.
 */
export function serverFieldErrors(error: unknown, fieldOfCode: Readonly<Record<string, string>> = {}): FieldErrors {
  if (!isApiError(error)) return {};
  const errors: FieldErrors = {};
  for (const issue of error.fieldIssues) {
    const key = fieldKey(issue.path);
    if (!errors[key]) errors[key] = { message: issue.message };
  }
  return { ...codeFieldErrors(error, fieldOfCode), ...errors };
}

/** Only the field an error code concerns (`{ EMAIL_IN_USE: 'email' }` gives email `error.EMAIL_IN_USE`), else none. */
export function codeFieldErrors(error: unknown, fieldOfCode: Readonly<Record<string, string>>): FieldErrors {
  if (!isApiError(error)) return {};
  const field = fieldOfCode[error.code];
  return field ? { [field]: { message: `error.${error.code}` } } : {};
}

/** Only the messages of `fields` (the fields a form shows; a server message about any other field is no field's). */
export function pickErrors(errors: FieldErrors, fields: readonly string[]): FieldErrors {
  return Object.fromEntries(Object.entries(errors).filter(([field, error]) => error && fields.includes(field)));
}

export function hasErrors(errors: FieldErrors): boolean {
  return Object.values(errors).some(Boolean);
}

/** The errors without `field`'s (typing into a field clears its message); the same object when it had none. */
export function withoutError(errors: FieldErrors, field: string): FieldErrors {
  if (!errors[field]) return errors;
  const { [field]: _cleared, ...rest } = errors;
  return rest;
}

/** A field message from a bare key (`validation.required`, `error.EMAIL_IN_USE`), or none. */
export function messageOf(message: string | undefined, values?: MessageValues): FieldMessage | undefined {
  return message ? { message, values } : undefined;
}
