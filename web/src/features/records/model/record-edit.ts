import { type Classifier, parseTypedAmount, type RecordInput, recordInputSchema, sumAmounts } from '@eelarve/shared';
import { errorCodeOf, isApiError } from '../../../api';
import { type InlineEditSession, InlineEditStore } from '../../../grid/inline-edit';
import type { DraftParseResult } from '../../../grid/useInlineRowEditing';
import type { RecordRow } from './rows';

/**
 * The edited row of the records table (spec 3, section 5, record form): its name, the amount as
 * typed, the monthly split as typed (null: none; then the amount is typed), and one item code per
 * classifier under `classifier:<id>` ('' for none). Typed numbers may hold spaces and the
 * organisation's decimal separator (shared `parseTypedAmount`).
 */
export type ClassifierField = `classifier:${string}`;
export type RecordDraft = { name: string; amount: string; months: string[] | null } & { [field: ClassifierField]: string };
export type RecordDraftField = keyof RecordDraft & string;
export type RecordEditSession = InlineEditSession<RecordDraft>;
export type DecimalSeparator = ',' | '.';

export const classifierField = (classifierId: string): ClassifierField => `classifier:${classifierId}`;
export const isClassifierField = (field: string): field is ClassifierField => field.startsWith('classifier:');
export const classifierIdOf = (field: ClassifierField) => field.slice('classifier:'.length);

/** An amount as it is typed: the canonical text shown with the separator the user types. */
export function typedAmount(amount: string, separator: DecimalSeparator): string {
  return separator === ',' ? amount.replace('.', ',') : amount;
}

/** The draft of a row (or of the values a new row starts with). */
export function draftOf(
  row: Pick<RecordRow, 'name' | 'amount' | 'months' | 'classifiers'>,
  classifiers: readonly Pick<Classifier, 'id'>[],
  separator: DecimalSeparator,
  name: string = row.name,
): RecordDraft {
  const draft: RecordDraft = {
    name,
    amount: row.amount === '' ? '' : typedAmount(row.amount, separator),
    months: row.months ? row.months.map((month) => typedAmount(month, separator)) : null,
  };
  for (const classifier of classifiers) draft[classifierField(classifier.id)] = row.classifiers[classifier.id] ?? '';
  return draft;
}

/** Two typed amounts are the same when they are the same number (or, unreadable, the same text). */
function sameAmount(a: string, b: string, separator: DecimalSeparator): boolean {
  const left = parseTypedAmount(a, separator);
  const right = parseTypedAmount(b, separator);
  return left !== null && right !== null ? left === right : a.trim() === b.trim();
}

/** Save is offered only when something changed (spec 3, section 4). */
export function recordDraftChanged(original: RecordDraft, draft: RecordDraft, separator: DecimalSeparator): boolean {
  if (original.name.trim() !== draft.name.trim()) return true;
  if ((original.months === null) !== (draft.months === null)) return true;
  if (original.months && draft.months) {
    if (original.months.length !== draft.months.length) return true;
    if (original.months.some((month, index) => !sameAmount(month, draft.months?.[index] ?? '', separator))) return true;
  } else if (!sameAmount(original.amount, draft.amount, separator)) return true;
  const fields = new Set([...Object.keys(original), ...Object.keys(draft)].filter(isClassifierField));
  return [...fields].some((field) => (original[field] ?? '').trim() !== (draft[field] ?? '').trim());
}

/** The amount a monthly split adds up to (null while a month is not a number); an empty month counts as 0. */
export function monthsTotal(months: readonly string[], separator: DecimalSeparator): string | null {
  const parsed = months.map((month) => (month.trim() === '' ? '0' : parseTypedAmount(month, separator)));
  return parsed.every((value): value is string => value !== null) ? sumAmounts(parsed) : null;
}

type Issue = { path: PropertyKey[]; message: string };

/** A schema issue's field in the draft. */
function draftFieldOfPath(path: readonly PropertyKey[]): RecordDraftField | null {
  const [first, second] = path.map(String);
  if (first === 'name' || first === 'amount') return first;
  if (first === 'factors') return 'months';
  if (first === 'classifiers' && second) return classifierField(second);
  return null;
}

/**
 * The request body of a draft, checked as the server will (the shared schema) and for what the
 * form itself requires: a number in the amount and every month, a value for every required
 * classifier. Refusals name the draft's fields. On a new record empty classifiers are left out;
 * on an edited one they are sent as null (cleared).
 */
export function parseRecordDraft(
  draft: RecordDraft,
  { classifiers, separator, editing }: { classifiers: readonly Pick<Classifier, 'id' | 'required'>[]; separator: DecimalSeparator; editing: boolean },
): DraftParseResult<RecordInput> {
  const issues: Issue[] = [];
  const values: Record<string, string | null> = {};
  for (const classifier of classifiers) {
    const code = (draft[classifierField(classifier.id)] ?? '').trim();
    if (code !== '') values[classifier.id] = code;
    else if (classifier.required) issues.push({ path: [classifierField(classifier.id)], message: 'validation.requiredField' });
    else if (editing) values[classifier.id] = null;
  }
  let amount: string | null;
  let months: string[] | null = null;
  if (draft.months) {
    const parsed = draft.months.map((month) => (month.trim() === '' ? '0' : parseTypedAmount(month, separator)));
    if (parsed.some((month) => month === null)) issues.push({ path: ['months'], message: 'validation.amount' });
    months = parsed.map((month) => month ?? '0');
    amount = sumAmounts(months);
  } else {
    amount = parseTypedAmount(draft.amount, separator);
    if (amount === null) issues.push({ path: ['amount'], message: draft.amount.trim() === '' ? 'validation.required' : 'validation.amount' });
  }
  const checked = recordInputSchema.safeParse({ name: draft.name, amount: amount ?? '0', factors: { months }, classifiers: values });
  if (!checked.success) {
    for (const issue of checked.error.issues) {
      const field = draftFieldOfPath(issue.path);
      if (field) issues.push({ path: [field], message: issue.message });
    }
  }
  if (issues.length > 0 || !checked.success) return { success: false, error: { issues } };
  return { success: true, data: checked.data };
}

/**
 * The fields a server refusal of a save belongs to (their value is the error code, or the
 * validation key of a schema refusal): `body.name`, `body.amount`, `body.factors...` and
 * `body.classifiers.<id>`, and the codes that can only mean one field.
 */
export function serverInvalid(error: unknown): Partial<Record<RecordDraftField, string>> {
  const code = errorCodeOf(error);
  const invalid: Partial<Record<RecordDraftField, string>> = {};
  for (const issue of isApiError(error) ? error.fieldIssues : []) {
    const field = draftFieldOfPath(issue.path.replace(/^body\./, '').split('.'));
    if (field) invalid[field] ??= code === 'SCHEMA_VALIDATION_ERROR' ? issue.message : code;
  }
  if (Object.keys(invalid).length > 0) return invalid;
  switch (code) {
    case 'RECORD_NAME_TOO_LONG':
      return { name: code };
    case 'RECORD_FACTORS_MISMATCH':
    case 'RECORD_FACTORS_INVALID':
    case 'RECORD_PERIOD_MONTH_INVALID':
    case 'RECORD_PERIOD_OUT_OF_RANGE':
      return { months: code };
    default:
      return {};
  }
}

/** The records table's edit store: a change counts by value, with the organisation's separator. */
export class RecordEditStore extends InlineEditStore<RecordDraft> {
  constructor(separator: DecimalSeparator) {
    super({
      changed: (original, draft) => recordDraftChanged(original, draft, separator),
      copy: (draft) => ({ ...draft, months: draft.months ? [...draft.months] : null }),
    });
  }
}
