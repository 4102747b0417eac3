import { canonicalAmount, DomainError, fieldError, fieldErrors, isSingleLineText, LIMITS, MONTHS_PER_YEAR, sumAmounts } from '@eelarve/shared';
import type { RecordValues } from './events';

/**
 * The rules of one record's values (spec 3, section 5 "Record form" and section 8 "Records").
 * The facts they need belong to other aggregates (the document's period and classifiers, the
 * sub-budget the record is edited in); the gateway reads them and passes them in, so the rules
 * stay one pure function every record command shares.
 */

export interface RecordClassifierFact {
  fieldName: string;
  required: boolean;
  /** Item code → selectable. Holds at least the codes the record names (the gateway may load only those). */
  items: Readonly<Record<string, { selectable: boolean }>>;
}

export interface RecordSubBudgetFact {
  id: string;
  /** Every classifier of the sub-budget's scheme. */
  schemeClassifierIds: readonly string[];
  /** The sub-budget's values (classifier id → code); a scheme classifier it leaves empty is absent. */
  classifiers: Readonly<Record<string, string>>;
}

export interface RecordFacts {
  /** Months of the document period: 12 × its duration in years. */
  periodMonths: number;
  masterClassifierId: string | null;
  /** Every classifier of the document, by id. */
  classifiers: Readonly<Record<string, RecordClassifierFact>>;
  /** Set when the record is created or edited inside a sub-budget: it must stay in it. */
  subBudget?: RecordSubBudgetFact | null;
}

/**
 * Values as a command brings them: amounts already canonical (the contract's amountSchema), a
 * classifier key may be the classifier's id or its field name, and null or '' leaves it empty.
 */
export interface RecordValuesInput {
  name: string;
  /** Omitted (or null) with monthly values: the amount is their sum. */
  amount?: string | null;
  months?: readonly string[] | null;
  classifiers: Readonly<Record<string, string | null>>;
}

/** Months in a document period of `durationYears` years. */
export const periodMonthCount = (durationYears: number) => durationYears * MONTHS_PER_YEAR;

const amountIssue = (field: string) => fieldError('SCHEMA_VALIDATION_ERROR', field, 'validation.amount');

/**
 * The amount a record gets: with monthly values and no amount, their exact sum; otherwise the
 * amount given (checked against the months by `checkRecordValues`). Neither is refused: a record
 * always has an amount.
 */
export function recordAmount(amount: string | null | undefined, months: readonly string[] | null | undefined): string {
  if (amount != null) {
    const canonical = canonicalAmount(amount);
    if (canonical === null) throw amountIssue('amount');
    return canonical;
  }
  if (!months) throw fieldError('SCHEMA_VALIDATION_ERROR', 'amount', 'validation.required', 'an amount or monthly values are required');
  const sum = canonicalAmount(sumAmounts(canonicalMonths(months)));
  // 60 months of 15-digit amounts can add up past the amount column.
  if (sum === null) throw amountIssue('amount');
  return sum;
}

function canonicalMonths(months: readonly string[]): string[] {
  return months.map((month, index) => {
    const canonical = canonicalAmount(month);
    if (canonical === null) throw fieldError('RECORD_FACTORS_INVALID', `factors.months.${index}`, 'validation.amount');
    return canonical;
  });
}

function checkName(name: string): string {
  if (!isSingleLineText(name)) throw fieldError('SCHEMA_VALIDATION_ERROR', 'name', 'validation.controlCharacters');
  const trimmed = name.trim();
  if (trimmed === '') throw fieldError('SCHEMA_VALIDATION_ERROR', 'name', 'validation.required');
  if (trimmed.length > LIMITS.text) throw fieldError('RECORD_NAME_TOO_LONG', 'name', 'validation.maxLength');
  return trimmed;
}

/** One value per month of the document period, and an amount that is exactly their sum. */
function checkAmounts(input: RecordValuesInput, periodMonths: number): Pick<RecordValues, 'amount' | 'months'> {
  const months = input.months ? canonicalMonths(input.months) : null;
  if (months && months.length !== periodMonths)
    throw fieldError('RECORD_FACTORS_INVALID', 'factors.months', 'validation.invalid', `expected ${periodMonths} monthly values, got ${months.length}`);
  const amount = recordAmount(input.amount, months);
  if (months && canonicalAmount(sumAmounts(months)) !== amount) throw fieldError('RECORD_FACTORS_MISMATCH', 'amount', 'sumAndPeriodizedInfoMismatch');
  return { amount, months };
}

/**
 * Keys by id or field name (case-insensitive) → classifier ids; an empty value becomes null (it
 * clears the classifier when merged over a record's values). Unknown keys are refused.
 */
export function resolveRecordClassifierKeys(values: RecordValuesInput['classifiers'], facts: Pick<RecordFacts, 'classifiers'>): Record<string, string | null> {
  const idsByFieldName = new Map(Object.entries(facts.classifiers).map(([id, fact]) => [fact.fieldName.toLowerCase(), id]));
  const resolved: Record<string, string | null> = {};
  for (const [key, raw] of Object.entries(values)) {
    const id = facts.classifiers[key] ? key : idsByFieldName.get(key.toLowerCase());
    if (!id) throw fieldError('RECORD_CLASSIFIER_INVALID', `classifiers.${key}`, 'classifierMissing', `${key} is not a classifier of the document`);
    const code = raw?.trim() ?? '';
    resolved[id] = code === '' ? null : code;
  }
  return resolved;
}

/** The classifiers that hold a value. */
export function withoutEmptyClassifiers(values: Readonly<Record<string, string | null>>): Record<string, string> {
  return Object.fromEntries(Object.entries(values).filter((entry): entry is [string, string] => entry[1] !== null));
}

function checkItems(classifiers: Record<string, string>, facts: RecordFacts): void {
  for (const [id, code] of Object.entries(classifiers)) {
    const item = facts.classifiers[id]?.items[code];
    if (!item) throw fieldError('RECORD_CLASSIFIER_ITEM_INVALID', `classifiers.${id}`, 'referenceItemNotFound');
    if (!item.selectable) throw fieldError('RECORD_CLASSIFIER_ITEM_UNSELECTABLE', `classifiers.${id}`, 'referenceItemUnselectable');
  }
}

/** Spec 3, section 5 (record form): every required classifier needs a value ('validation.requiredField'). */
const REQUIRED_CLASSIFIER = 'validation.requiredField';

function checkPresence(classifiers: Record<string, string>, facts: RecordFacts): void {
  const master = facts.masterClassifierId;
  if (master && classifiers[master] === undefined) throw fieldError('RECORD_MASTER_CLASSIFIER_MISSING', `classifiers.${master}`, REQUIRED_CLASSIFIER);
  const missing = Object.entries(facts.classifiers)
    .filter(([id, fact]) => fact.required && classifiers[id] === undefined)
    .map(([id]) => ({ field: `classifiers.${id}`, message: REQUIRED_CLASSIFIER }));
  if (missing.length > 0) throw fieldErrors('RECORD_CLASSIFIER_REQUIRED', missing);
}

/** True when the record carries exactly the sub-budget's value for every classifier of its scheme. */
export function recordFitsSubBudget(classifiers: Readonly<Record<string, string>>, subBudget: RecordSubBudgetFact): boolean {
  return subBudget.schemeClassifierIds.every((id) => (classifiers[id] ?? null) === (subBudget.classifiers[id] ?? null));
}

function checkSubBudget(classifiers: Record<string, string>, subBudget: RecordSubBudgetFact | null | undefined): void {
  if (!subBudget || recordFitsSubBudget(classifiers, subBudget)) return;
  const differing = subBudget.schemeClassifierIds
    .filter((id) => (classifiers[id] ?? null) !== (subBudget.classifiers[id] ?? null))
    .map((id) => ({ field: `classifiers.${id}`, message: 'doesNotMatchSubBudget' }));
  throw fieldErrors('RECORD_DOES_NOT_MATCH_SUB_BUDGET', differing);
}

/**
 * Checks a record's values against every rule and answers them normalised: name trimmed,
 * amount (the months' sum when only months are given), classifier keys as ids. Throws the first
 * broken rule's RECORD_* code naming the field ('name', 'amount', 'factors.months.3',
 * 'classifiers.<id>').
 */
export function checkRecordValues(input: RecordValuesInput, facts: RecordFacts): RecordValues {
  if (facts.periodMonths <= 0 || !Number.isInteger(facts.periodMonths)) throw new DomainError('RECORD_FACTORS_INVALID', 'the document has no period');
  const name = checkName(input.name);
  const { amount, months } = checkAmounts(input, facts.periodMonths);
  const classifiers = withoutEmptyClassifiers(resolveRecordClassifierKeys(input.classifiers, facts));
  checkItems(classifiers, facts);
  checkPresence(classifiers, facts);
  checkSubBudget(classifiers, facts.subBudget);
  return { name, amount, months, classifiers };
}
