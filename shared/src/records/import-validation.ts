import type { Classifier, ClassifierItem } from '../contracts/classifiers';
import { MONTHS_PER_YEAR, type ImportRow, type RecordImportRowError } from '../contracts/records';
import { amountFromNumber, parseTypedAmount } from '../decimal';
import { LIMITS } from '../limits';

/**
 * The rules of spec 3 section 5 "Import rows" (issue 11, point 4): one pure function that the
 * web runs before sending a file's rows and the import job runs again with the facts of the
 * moment. A row with a critical error is skipped; the other errors say what was changed on the
 * way in (a value dropped, a default taken).
 *
 * Message keys: emptyName, emptyNameMaster, validation.max (name), periodValueNotNumeric,
 * periodOutsideDocument, sumNotNumeric, sumAndPeriodizedInfoMissing,
 * sumAndPeriodizedInfoMismatch, emptySum, validation.required, referenceItemNotFound,
 * optionalReferenceItemNotFound, codeTypeError, uniqueCode (a cell listing several codes where a
 * record takes one), referenceItemUnselectable, doesNotMatchSubBudget. An ERP row keyed by month
 * and year (spec 3, section 3) raises the record codes of the error catalogue (spec 3, section 8):
 * RECORD_PERIOD_MONTH_INVALID (not a month 1-12), RECORD_PERIOD_OUT_OF_RANGE (no year, or a month
 * outside the document period), RECORD_FACTORS_INVALID (monthly values as well).
 */
export const IMPORT_MESSAGES = {
  emptyName: 'emptyName',
  emptyNameMaster: 'emptyNameMaster',
  nameTooLong: 'validation.max',
  periodValueNotNumeric: 'periodValueNotNumeric',
  periodOutsideDocument: 'periodOutsideDocument',
  sumNotNumeric: 'sumNotNumeric',
  sumAndPeriodizedInfoMissing: 'sumAndPeriodizedInfoMissing',
  sumAndPeriodizedInfoMismatch: 'sumAndPeriodizedInfoMismatch',
  emptySum: 'emptySum',
  required: 'validation.required',
  referenceItemNotFound: 'referenceItemNotFound',
  optionalReferenceItemNotFound: 'optionalReferenceItemNotFound',
  codeTypeError: 'codeTypeError',
  uniqueCode: 'uniqueCode',
  referenceItemUnselectable: 'referenceItemUnselectable',
  doesNotMatchSubBudget: 'doesNotMatchSubBudget',
  periodMonthInvalid: 'RECORD_PERIOD_MONTH_INVALID',
  periodOutOfRange: 'RECORD_PERIOD_OUT_OF_RANGE',
  factorsInvalid: 'RECORD_FACTORS_INVALID',
} as const;
export type ImportMessageKey = (typeof IMPORT_MESSAGES)[keyof typeof IMPORT_MESSAGES];

export interface ImportClassifierItem {
  code: string;
  name: string;
  selectable: boolean;
}

export interface ImportClassifier {
  id: string;
  fieldName: string;
  required: boolean;
  /** The document's master classifier: always required; its item's name is the default record name. */
  master: boolean;
  /** The classifier's code rules (spec 2: code type pattern and length bounds), when it has them. */
  code?: { typeRegex: string; regexFlag: string; minLength: number; maxLength: number } | null;
  items: readonly ImportClassifierItem[];
}

export interface ImportSubBudget {
  schemeClassifierIds: readonly string[];
  /** Classifier id → code; a scheme classifier the sub-budget leaves empty is absent. */
  classifiers: Readonly<Record<string, string>>;
}

export interface ImportValidationContext {
  classifiers: readonly ImportClassifier[];
  /** 12 × the document's duration in years. */
  monthCount: number;
  /** The document period's first month: rows keyed by month and year are placed from it (without it, none fits). */
  periodStart?: { year: number; month: number } | null;
  /**
   * The sub-budget the rows go into: a row takes its values where it has none, and must carry
   * exactly its values in every classifier of its scheme (one it leaves empty stays empty).
   */
  subBudget?: ImportSubBudget | null;
  /** The organisation's decimal separator, for amounts written as text ("1 234,56"). */
  decimalSeparator?: ',' | '.';
}

/**
 * The context from what the web has of the API: the document's classifiers (GET
 * api/document/{id}/classifiers), their items, the period's duration in years, and the target
 * sub-budget (its scheme's classifier ids and its values) when the rows go into one.
 */
export function importValidationContext(facts: {
  classifiers: readonly Pick<Classifier, 'id' | 'fieldName' | 'required' | 'master' | 'codeSettings'>[];
  itemsOf: (classifierId: string) => readonly Pick<ClassifierItem, 'code' | 'name' | 'unselectable'>[];
  periodDurationYears: number;
  periodStart?: { year: number; month: number } | null;
  subBudget?: ImportSubBudget | null;
  decimalSeparator?: ',' | '.';
}): ImportValidationContext {
  return {
    classifiers: facts.classifiers.map((classifier) => ({
      id: classifier.id,
      fieldName: classifier.fieldName,
      required: classifier.required,
      master: classifier.master,
      code: {
        typeRegex: classifier.codeSettings.typeRegex,
        regexFlag: classifier.codeSettings.regexFlag,
        minLength: classifier.codeSettings.minLength,
        maxLength: classifier.codeSettings.maxLength,
      },
      items: facts.itemsOf(classifier.id).map((item) => ({ code: item.code, name: item.name, selectable: !item.unselectable })),
    })),
    monthCount: facts.periodDurationYears * MONTHS_PER_YEAR,
    periodStart: facts.periodStart ?? null,
    subBudget: facts.subBudget ?? null,
    decimalSeparator: facts.decimalSeparator ?? ',',
  };
}

/** What a valid row becomes: the values of the record to import. */
export interface ImportRowValues {
  name: string;
  amount: string;
  months: string[] | null;
  /** Classifier id → item code. */
  classifiers: Record<string, string>;
}

export interface ValidatedImportRow {
  values: ImportRowValues;
  validationErrors: RecordImportRowError[];
  /** A critical error: the row is skipped (and cannot be selected in the web). */
  critical: boolean;
}

type Cell = string | number | null | undefined;

const isEmptyCell = (cell: Cell): boolean => cell === null || cell === undefined || (typeof cell === 'string' && cell.trim() === '');

/**
 * Amounts of import rows in exact integer millionths (AMOUNT_LIMITS.fractionDigits = 6): a file
 * of 100,000 rows has 1.3 million amounts, and decimal.js takes ~14 µs for each, BigInt well
 * under one. Plain texts take this path; anything unusual falls back to decimal.ts.
 */
const SIMPLE_AMOUNT = /^(-?)(\d{1,15})(?:\.(\d{1,6}))?$/;
const MICROS = 1_000_000n;

function simpleCanonical(text: string): string | null {
  const match = SIMPLE_AMOUNT.exec(text);
  if (!match) return null;
  const [, sign, digits, fraction = ''] = match;
  const integer = digits!.replace(/^0+(?=\d)/, '');
  const decimals = fraction.replace(/0+$/, '');
  const canonical = decimals ? `${integer}.${decimals}` : integer;
  return sign && canonical !== '0' ? `-${canonical}` : canonical;
}

const toMicros = (amount: string): bigint => {
  const negative = amount.startsWith('-');
  const [integer, fraction = ''] = (negative ? amount.slice(1) : amount).split('.');
  const micros = BigInt(integer!) * MICROS + BigInt(fraction.padEnd(6, '0'));
  return negative ? -micros : micros;
};

function fromMicros(micros: bigint): string {
  const negative = micros < 0n;
  const absolute = negative ? -micros : micros;
  const fraction = (absolute % MICROS).toString().padStart(6, '0').replace(/0+$/, '');
  const text = `${absolute / MICROS}${fraction ? `.${fraction}` : ''}`;
  return negative && text !== '0' ? `-${text}` : text;
}

/** The exact sum of canonical amounts. */
export function sumImportAmounts(amounts: readonly string[]): string {
  let total = 0n;
  for (const amount of amounts) total += toMicros(amount);
  return fromMicros(total);
}

/** Text as a person writes it: spaces as thousands separators, the organisation's decimal separator. */
function amountOfText(text: string, decimalSeparator: ',' | '.'): string | null {
  const compact = text.replace(/[\s\u00a0\u202f]/g, '');
  const plain = decimalSeparator === ',' && !compact.includes('.') ? compact.replace(',', '.') : compact;
  return simpleCanonical(plain) ?? parseTypedAmount(text, decimalSeparator);
}

/**
 * A cell as an exact amount, or null when it is not a number. A spreadsheet number carries
 * binary noise past Excel's 15 significant digits (0.1 + 0.2); those digits are not the value.
 */
export function amountOfCell(cell: string | number, decimalSeparator: ',' | '.' = ','): string | null {
  if (typeof cell === 'number') {
    if (!Number.isFinite(cell)) return null;
    const rounded = Number(cell.toPrecision(15));
    return simpleCanonical(String(rounded)) ?? amountFromNumber(rounded);
  }
  return amountOfText(cell, decimalSeparator);
}

/**
 * A classifier's items by code, compared without letter case: codes are unique within a
 * classifier regardless of case (spec 2), so a file's "re" finds the item "RE".
 */
type ItemIndex = Map<string, ImportClassifierItem>;

function indexItems(items: readonly ImportClassifierItem[]): ItemIndex {
  return new Map(items.map((item) => [item.code.toUpperCase(), item]));
}

/** No code type allows these: a cell holding them lists several codes where a record takes one. */
const CODE_LIST_SEPARATOR = /[,;]/;
const listsSeveralCodes = (code: string) => code.split(CODE_LIST_SEPARATOR).filter((part) => part.trim() !== '').length > 1;

interface PreparedClassifier extends ImportClassifier {
  index: ItemIndex;
  pattern: RegExp | null;
}

function prepare(classifier: ImportClassifier): PreparedClassifier {
  const pattern = classifier.code ? new RegExp(classifier.code.typeRegex, classifier.code.regexFlag) : null;
  return { ...classifier, index: indexItems(classifier.items), pattern };
}

const codeText = (cell: string | number | null | undefined): string => (cell === null || cell === undefined ? '' : String(cell).trim());

/** A row's cell for the classifier: by field name (any letter case) or by id. */
function cellOf(row: ImportRow, classifier: ImportClassifier): string {
  const wanted = classifier.fieldName.toLowerCase();
  for (const [key, cell] of Object.entries(row.classifiers)) {
    if ((key === classifier.id || key.toLowerCase() === wanted) && cell !== null && cell !== undefined) return codeText(cell);
  }
  return '';
}

/** In the sub-budget's scheme: the code it requires ('' when it leaves the classifier empty); undefined outside it. */
function subBudgetCodeOf(subBudget: ImportSubBudget | null | undefined, classifierId: string): string | undefined {
  if (!subBudget?.schemeClassifierIds.includes(classifierId)) return undefined;
  return subBudget.classifiers[classifierId] ?? '';
}

function fitsCodeType(classifier: PreparedClassifier, code: string): boolean {
  if (!classifier.pattern || !classifier.code) return true;
  return code.length >= classifier.code.minLength && code.length <= classifier.code.maxLength && classifier.pattern.test(code);
}

interface RowCheck {
  errors: RecordImportRowError[];
  add(message: ImportMessageKey, critical: boolean, fieldName: string | null): void;
}

function rowCheck(): RowCheck {
  const errors: RecordImportRowError[] = [];
  return { errors, add: (message, critical, fieldName) => errors.push({ message, critical, fieldName }) };
}

/**
 * One classifier's value of a row: the code it keeps, or null. A master or required classifier's
 * fault is critical; an optional one's value is dropped with a non-critical error.
 */
function checkClassifier(row: ImportRow, classifier: PreparedClassifier, subBudgetCode: string | undefined, check: RowCheck): ImportClassifierItem | null {
  const mandatory = classifier.required || classifier.master;
  const given = cellOf(row, classifier);
  const code = given === '' ? (subBudgetCode ?? '') : given;
  const field = classifier.fieldName;
  if (subBudgetCode === '' && code !== '') {
    check.add(IMPORT_MESSAGES.doesNotMatchSubBudget, true, field);
    return null;
  }
  if (code === '') {
    if (mandatory) check.add(IMPORT_MESSAGES.required, true, field);
    return null;
  }
  if (listsSeveralCodes(code)) {
    check.add(IMPORT_MESSAGES.uniqueCode, mandatory, field);
    return null;
  }
  if (!fitsCodeType(classifier, code)) {
    check.add(IMPORT_MESSAGES.codeTypeError, mandatory, field);
    return null;
  }
  const item = classifier.index.get(code.toUpperCase());
  if (!item) {
    check.add(mandatory ? IMPORT_MESSAGES.referenceItemNotFound : IMPORT_MESSAGES.optionalReferenceItemNotFound, mandatory, field);
    return null;
  }
  if (!item.selectable) {
    check.add(IMPORT_MESSAGES.referenceItemUnselectable, mandatory, field);
    return null;
  }
  if (subBudgetCode !== undefined && subBudgetCode !== '' && item.code !== subBudgetCode) {
    check.add(IMPORT_MESSAGES.doesNotMatchSubBudget, true, field);
    return null;
  }
  return item;
}

/** The monthly values: null when none is given; each given one must be a number inside the period. */
function checkMonths(row: ImportRow, context: ImportValidationContext, check: RowCheck): string[] | null {
  const cells = row.months ?? [];
  if (cells.every(isEmptyCell)) return null;
  const months: string[] = [];
  let valid = true;
  cells.forEach((cell, index) => {
    if (isEmptyCell(cell)) {
      months.push('0');
      return;
    }
    if (index >= context.monthCount) {
      check.add(IMPORT_MESSAGES.periodOutsideDocument, true, `months.${index}`);
      valid = false;
      return;
    }
    const amount = amountOfCell(cell as string | number, context.decimalSeparator);
    if (amount === null) {
      check.add(IMPORT_MESSAGES.periodValueNotNumeric, true, `months.${index}`);
      valid = false;
      return;
    }
    months.push(amount);
  });
  if (!valid) return null;
  const inPeriod = months.slice(0, context.monthCount);
  while (inPeriod.length < context.monthCount) inPeriod.push('0');
  return inPeriod;
}

/** A whole number written in a cell (3, '03'), or null. */
function wholeNumberOf(cell: Cell): number | null {
  const text = codeText(cell);
  return /^\d{1,4}$/.test(text) ? Number(text) : null;
}

/** Whether the row is keyed by month and year (an ERP row): either one given. */
const isKeyedRow = (row: ImportRow): boolean => !isEmptyCell(row.month) || !isEmptyCell(row.year);

/**
 * A keyed row's place in the document period (0 = its first month), or null with a critical
 * error: the month must be 1-12, the year given, the month inside the period, and no monthly
 * values beside them (the keys say which month the amount is).
 */
function keyedMonthIndex(row: ImportRow, context: ImportValidationContext, check: RowCheck): number | null {
  const month = wholeNumberOf(row.month);
  const year = wholeNumberOf(row.year);
  if (month === null || month < 1 || month > MONTHS_PER_YEAR) {
    check.add(IMPORT_MESSAGES.periodMonthInvalid, true, 'month');
    return null;
  }
  const start = context.periodStart;
  const index = year === null || !start ? -1 : (year - start.year) * MONTHS_PER_YEAR + (month - start.month);
  if (index < 0 || index >= context.monthCount) {
    check.add(IMPORT_MESSAGES.periodOutOfRange, true, 'year');
    return null;
  }
  if (!(row.months ?? []).every(isEmptyCell)) {
    check.add(IMPORT_MESSAGES.factorsInvalid, true, 'months');
    return null;
  }
  return index;
}

/** The monthly split of a keyed row: its amount in its month, 0 in the others. */
function keyedMonths(index: number, amount: string, monthCount: number): string[] {
  const months = Array<string>(monthCount).fill('0');
  months[index] = amount;
  return months;
}

/** A keyed row's amount, and the monthly split that puts it in its month. */
function checkKeyedAmount(row: ImportRow, context: ImportValidationContext, check: RowCheck): { amount: string; months: string[] | null } {
  const index = keyedMonthIndex(row, context, check);
  const { amount } = checkAmount(row, null, context, check);
  return { amount, months: index === null ? null : keyedMonths(index, amount, context.monthCount) };
}

/** A keyed row's month and year as numbers, for the error report's keys (null where not a whole number). */
export function importRowKeys(row: ImportRow): { month: number | null; year: number | null } {
  return { month: wholeNumberOf(row.month), year: wholeNumberOf(row.year) };
}

/**
 * The sum and the months together. An empty sum becomes 0 ('emptySum'; with no months either,
 * 'sumAndPeriodizedInfoMissing'); months that do not add up to the sum are dropped
 * ('sumAndPeriodizedInfoMismatch').
 */
function checkAmount(row: ImportRow, months: string[] | null, context: ImportValidationContext, check: RowCheck): { amount: string; months: string[] | null } {
  if (isEmptyCell(row.amount)) {
    check.add(months ? IMPORT_MESSAGES.emptySum : IMPORT_MESSAGES.sumAndPeriodizedInfoMissing, false, 'amount');
    return reconcile('0', months, check);
  }
  const amount = amountOfCell(row.amount as string | number, context.decimalSeparator);
  if (amount === null) {
    check.add(IMPORT_MESSAGES.sumNotNumeric, true, 'amount');
    return { amount: '0', months };
  }
  return reconcile(amount, months, check);
}

function reconcile(amount: string, months: string[] | null, check: RowCheck): { amount: string; months: string[] | null } {
  if (months && toMicros(sumImportAmounts(months)) !== toMicros(amount)) {
    check.add(IMPORT_MESSAGES.sumAndPeriodizedInfoMismatch, false, 'months');
    return { amount, months: null };
  }
  return { amount, months };
}

/** The name: empty takes the master item's name ('emptyNameMaster') or is critical ('emptyName'). */
function checkName(row: ImportRow, masterItem: ImportClassifierItem | null, check: RowCheck): string {
  const name = (row.name ?? '').trim();
  if (name === '') {
    if (masterItem) {
      check.add(IMPORT_MESSAGES.emptyNameMaster, false, 'name');
      return masterItem.name.slice(0, LIMITS.text);
    }
    check.add(IMPORT_MESSAGES.emptyName, true, 'name');
    return '';
  }
  if (name.length > LIMITS.text) check.add(IMPORT_MESSAGES.nameTooLong, true, 'name');
  return name;
}

function validateRow(row: ImportRow, classifiers: readonly PreparedClassifier[], context: ImportValidationContext): ValidatedImportRow {
  const check = rowCheck();
  const values: Record<string, string> = {};
  let masterItem: ImportClassifierItem | null = null;
  for (const classifier of classifiers) {
    const item = checkClassifier(row, classifier, subBudgetCodeOf(context.subBudget, classifier.id), check);
    if (!item) continue;
    values[classifier.id] = item.code;
    if (classifier.master) masterItem = item;
  }
  const name = checkName(row, masterItem, check);
  const { amount, months } = isKeyedRow(row) ? checkKeyedAmount(row, context, check) : checkAmount(row, checkMonths(row, context, check), context, check);
  return { values: { name, amount, months, classifiers: values }, validationErrors: check.errors, critical: check.errors.some((error) => error.critical) };
}

/** Every row checked against the same facts (the classifier items are indexed once). */
export function validateImportRows(rows: readonly ImportRow[], context: ImportValidationContext): ValidatedImportRow[] {
  const classifiers = context.classifiers.map(prepare);
  return rows.map((row) => validateRow(row, classifiers, context));
}

/** What the import report counts: the rows imported and the errors of all rows. */
export function importCounts(rows: readonly ValidatedImportRow[]): { recordsInserted: number; totalErrorsCount: number; criticalErrorsCount: number } {
  let recordsInserted = 0;
  let totalErrorsCount = 0;
  let criticalErrorsCount = 0;
  for (const row of rows) {
    if (!row.critical) recordsInserted++;
    totalErrorsCount += row.validationErrors.length;
    criticalErrorsCount += row.validationErrors.filter((error) => error.critical).length;
  }
  return { recordsInserted, totalErrorsCount, criticalErrorsCount };
}
