import {
  type BudgetRecord,
  type Classifier,
  type ClassifierItem,
  type ImportClassifier,
  type ImportRow,
  type ImportValidationContext,
  importValidationContext,
  parseTypedAmount,
  type RecordImportRowError,
  type ValidatedImportRow,
  validateImportRows,
} from '@eelarve/shared';
import { cellText } from '../../../components/spreadsheet';

/**
 * From a file's table (or another budget's records) to import rows, and what the rows table
 * shows of them. The rules themselves are the shared `validateImportRows` (spec 3, section 5).
 */

export interface ImportPeriod {
  year: number;
  month: number;
  duration: number;
}

/** How a file's header is read: the name, the document's amount key, a month per 'yyyy-MM', a classifier per field name or name. */
export interface ImportColumnsContext {
  classifiers: ReadonlyArray<Pick<Classifier, 'id' | 'fieldName' | 'name'>>;
  period: ImportPeriod;
  /** The document's amount key (spec 3, section 9: 'summa' by default). */
  amountKey: string;
  decimalSeparator: ',' | '.';
}

const NAME_HEADERS = ['name', 'nimi'];
const AMOUNT_HEADERS = ['amount', 'summa', 'sum'];
/** An ERP export's row keys (spec 3, section 3): the calendar month and year its amount is for. */
const MONTH_KEY_HEADERS = ['month', 'kuu'];
const YEAR_KEY_HEADERS = ['year', 'aasta'];

/** One row to import with its place in the source (the file's line, 1 = header). */
export interface SourceRow {
  line: number;
  row: ImportRow;
}

type Target =
  | { kind: 'name' }
  | { kind: 'amount' }
  | { kind: 'month'; index: number }
  | { kind: 'key'; key: 'month' | 'year' }
  | { kind: 'classifier'; fieldName: string };

/**
 * An amount cell: a spreadsheet number stays a number (the shared rules read its 15 significant
 * digits); text typed with spaces and the organisation's separator becomes its exact decimal text;
 * anything else is passed on as it is, for the rules to call it not a number.
 */
export function amountCellOf(value: unknown, decimalSeparator: ',' | '.'): string | number | null {
  if (typeof value === 'number') return value;
  if (typeof value === 'object' && value !== null && 'result' in value) return amountCellOf((value as { result: unknown }).result, decimalSeparator);
  const text = cellText(value);
  if (text === '') return null;
  return parseTypedAmount(text, decimalSeparator) ?? text;
}

/** A classifier code cell: numbers as written ('101'), text trimmed. */
function codeCellOf(value: unknown): string | null {
  const text = cellText(value);
  return text === '' ? null : text;
}

/** A month header: 'yyyy-MM' (as the export writes it), 'MM.yyyy', or the first of the month as a spreadsheet turned it into a date. */
function yearAndMonth(header: string): [number, number] | null {
  const iso = /^(\d{4})-(\d{1,2})(-01)?$/.exec(header);
  if (iso) return [Number(iso[1]), Number(iso[2])];
  const dotted = /^(\d{1,2})\.(\d{4})$/.exec(header);
  return dotted ? [Number(dotted[2]), Number(dotted[1])] : null;
}

/** A month header → the month's place in the document period, or null (not a month, or outside the period). */
export function monthIndexOf(header: string, period: ImportPeriod): number | null {
  const yearMonth = yearAndMonth(header);
  if (!yearMonth) return null;
  const [year, month] = yearMonth;
  if (month < 1 || month > 12) return null;
  const index = (year - period.year) * 12 + (month - period.month);
  return index >= 0 && index < period.duration * 12 ? index : null;
}

function headerTarget(header: string, context: ImportColumnsContext): Target | null {
  const lower = header.toLowerCase();
  if (lower === '') return null;
  if (NAME_HEADERS.includes(lower)) return { kind: 'name' };
  if (lower === context.amountKey.toLowerCase() || AMOUNT_HEADERS.includes(lower)) return { kind: 'amount' };
  if (MONTH_KEY_HEADERS.includes(lower)) return { kind: 'key', key: 'month' };
  if (YEAR_KEY_HEADERS.includes(lower)) return { kind: 'key', key: 'year' };
  const month = monthIndexOf(header, context.period);
  if (month !== null) return { kind: 'month', index: month };
  const classifier =
    context.classifiers.find((candidate) => candidate.fieldName.toLowerCase() === lower) ??
    context.classifiers.find((candidate) => candidate.name.toLowerCase() === lower);
  return classifier ? { kind: 'classifier', fieldName: classifier.fieldName } : null;
}

export interface ReadTable {
  rows: SourceRow[];
  /** Header cells the import does not read (sums per year, who changed it, ...). */
  ignoredHeaders: string[];
}

/** A table whose first row is the header: every non-empty line becomes an import row. */
export function tableToImportRows(table: readonly (readonly unknown[])[], context: ImportColumnsContext): ReadTable {
  const [header = [], ...lines] = table;
  const targets = header.map((cell) => headerTarget(cellText(cell), context));
  const ignoredHeaders = header.map(cellText).filter((text, index) => text !== '' && targets[index] === null);
  const monthCount = context.period.duration * 12;
  const rows: SourceRow[] = [];
  lines.forEach((line, offset) => {
    if (line.every((cell) => cellText(cell) === '')) return;
    const row: ImportRow = { name: null, amount: null, months: null, classifiers: {} };
    const months: Array<string | number | null> = Array(monthCount).fill(null);
    targets.forEach((target, column) => {
      const value = line[column];
      if (!target) return;
      if (target.kind === 'name') row.name = cellText(value);
      else if (target.kind === 'amount') row.amount = amountCellOf(value, context.decimalSeparator);
      else if (target.kind === 'month') months[target.index] = amountCellOf(value, context.decimalSeparator);
      else if (target.kind === 'key') row[target.key] = codeCellOf(value);
      else row.classifiers[target.fieldName] = codeCellOf(value);
    });
    if (months.some((value) => value !== null)) row.months = months;
    rows.push({ line: offset + 2, row });
  });
  return { rows, ignoredHeaders };
}

/** Another budget's records of the same document as import rows (classifiers keyed by id). */
export function recordsToImportRows(records: readonly BudgetRecord[]): SourceRow[] {
  return records.map((record, index) => ({
    line: index + 1,
    row: { name: record.name, amount: record.amount, months: record.factors.months, classifiers: { ...record.classifiers } },
  }));
}

/** A classifier as the import knows it: the shared rules' facts and its name (a file's column may use it). */
export type ImportFactsClassifier = ImportClassifier & { name: string };

/**
 * The facts the shared rules need about the document's classifiers and their items, built by the
 * shared importValidationContext (the import job builds its own with it too).
 */
export function importClassifiers(classifiers: readonly Classifier[], items: readonly ClassifierItem[]): ImportFactsClassifier[] {
  const byClassifier = new Map<string, ClassifierItem[]>();
  for (const item of items) byClassifier.set(item.classifierId, [...(byClassifier.get(item.classifierId) ?? []), item]);
  const context = importValidationContext({ classifiers, itemsOf: (id) => byClassifier.get(id) ?? [], periodDurationYears: 0 });
  return context.classifiers.map((fact, index) => ({ ...fact, name: classifiers[index]!.name }));
}

/** A row of the rows table: where it came from, what the rules made of it. */
export interface CheckedRow extends ValidatedImportRow {
  line: number;
  source: ImportRow;
}

export function checkedRows(source: readonly SourceRow[], validated: readonly ValidatedImportRow[]): CheckedRow[] {
  return validated.map((row, index) => ({ ...row, line: source[index]!.line, source: source[index]!.row }));
}

/** Rows checked per chunk: 100,000 rows take seconds to check, so the browser gets its turn between chunks. */
export const CHECK_CHUNK_ROWS = 5_000;

/** The shared rules over every row (each row is checked on its own, so chunks change nothing), saying how far it got. */
export async function checkRowsInChunks(
  source: readonly SourceRow[],
  context: ImportValidationContext,
  onProgress: (checked: number) => void = () => {},
  chunkRows: number = CHECK_CHUNK_ROWS,
): Promise<CheckedRow[]> {
  const checked: CheckedRow[] = [];
  for (let start = 0; start < source.length; start += chunkRows) {
    const chunk = source.slice(start, start + chunkRows);
    for (const row of checkedRows(
      chunk,
      validateImportRows(
        chunk.map((entry) => entry.row),
        context,
      ),
    ))
      checked.push(row);
    onProgress(checked.length);
    await new Promise((resolve) => setTimeout(resolve, 0));
  }
  return checked;
}

/** Spec 3, section 5: with three or more values only the first two are shown, then an ellipsis. */
export function shortValues(values: readonly string[]): string {
  return values.length >= 3 ? `${values.slice(0, 2).join(', ')}, …` : values.join(', ');
}

/** The row's values of the classifiers without a column of their own, as 'fieldName: code'. */
export function additionalValues(row: CheckedRow, classifiers: ReadonlyArray<Pick<ImportClassifier, 'id' | 'fieldName'>>): string[] {
  return classifiers.flatMap((classifier) => {
    const code = row.values.classifiers[classifier.id] ?? row.source.classifiers[classifier.fieldName] ?? row.source.classifiers[classifier.id];
    return code === null || code === undefined || code === '' ? [] : [`${classifier.fieldName}: ${code}`];
  });
}

/**
 * Spec 3, section 4: import is enabled when a row is selected (or no row has errors), and not when
 * every row is critical or a filter is active.
 */
export function canImportRows(rows: readonly CheckedRow[], selectedCount: number, filterActive: boolean): boolean {
  if (rows.length === 0 || filterActive) return false;
  if (rows.every((row) => row.critical)) return false;
  const noErrors = rows.every((row) => row.validationErrors.length === 0);
  return selectedCount > 0 || noErrors;
}

/** What is sent: the selected rows, or every row when none has errors and none is selected. */
export function rowsToSend(rows: readonly CheckedRow[], selected: ReadonlySet<number>): ImportRow[] {
  const chosen = selected.size > 0 ? rows.filter((row) => selected.has(row.line)) : rows;
  return chosen.filter((row) => !row.critical).map((row) => row.source);
}

/** The error keys of a row as catalog keys ('records.importError.<message>'). */
export const errorKey = (error: RecordImportRowError) => `records.importError.${error.message}`;
