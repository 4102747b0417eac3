import { type BudgetRecord, sumAmounts } from '@eelarve/shared';
import type { Workbook, Worksheet } from 'exceljs';
import {
  amountCell,
  amountNumberFormat,
  DEFAULT_SHEET_NAME,
  EXPORT_COLUMN_WIDTH,
  exportFileName,
  looksLikeFormula,
  TEXT_FORMAT,
} from '../../../components/spreadsheet-export';

// Shared with the report export (components/spreadsheet-export.ts); named here too for this feature's callers.
export { amountCell, amountNumberFormat, DEFAULT_SHEET_NAME, EXPORT_COLUMN_WIDTH, exportFileName, looksLikeFormula };

/**
 * The records export (spec 3, section 9 "Exports"), built in the browser with exceljs: one sheet
 * per sub-budget, a column per classifier, the amount, the year sums and the months. Amounts are
 * numbers written from their exact decimal text (sums are added up exactly, never by a formula);
 * text that a spreadsheet would run as a formula stays text.
 */

/** Excel refuses longer sheet names. */
const SHEET_NAME_MAX = 31;

export interface ExportClassifier {
  id: string;
  fieldName: string;
}

export interface ExportPeriod {
  year: number;
  /** 1-12. */
  month: number;
  /** Years. */
  duration: number;
}

export interface ExportSettings {
  /** 0-5 (spec 3, section 9), the user's or organisation's setting. */
  decimalPlaces: number;
  /** The organisation's date format: dd.MM.yyyy or yyyy-MM-dd. */
  dateFormat: string;
}

/** The header texts the user reads (translated); months and classifiers keep technical names so the file imports back. */
export interface ExportLabels {
  name: string;
  amount: string;
  yearTotal: (year: number) => string;
  promoted: string;
  updatedAt: string;
  updatedBy: string;
  yes: string;
  no: string;
}

export interface RecordsSheet {
  name: string;
  records: readonly BudgetRecord[];
}

export interface RecordsExport {
  sheets: readonly RecordsSheet[];
  classifiers: readonly ExportClassifier[];
  period: ExportPeriod;
  /** The document's amount key (spec 3, section 9: 'summa' by default): the amount column's technical name. */
  amountKey: string;
  settings: ExportSettings;
  labels: ExportLabels;
}

/** Spec 3, section 9: letters, digits, hyphen, period, underscore and spaces are kept; nothing left is 'unnamed'. */
export function cleanSheetName(name: string): string {
  const cleaned = name
    .replace(/[^\p{L}\p{N}\-._ ]/gu, '')
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, SHEET_NAME_MAX)
    .trim();
  return cleaned === '' ? DEFAULT_SHEET_NAME : cleaned;
}

/** Sheet names are unique in a workbook (case-insensitively): a repeated one gets " 2", " 3", ... */
export function uniqueSheetNames(names: readonly string[]): string[] {
  const taken = new Set<string>();
  return names.map((raw) => {
    const base = cleanSheetName(raw);
    let candidate = base;
    for (let counter = 2; taken.has(candidate.toLowerCase()); counter += 1) {
      const suffix = ` ${counter}`;
      candidate = `${base.slice(0, SHEET_NAME_MAX - suffix.length).trimEnd()}${suffix}`;
    }
    taken.add(candidate.toLowerCase());
    return candidate;
  });
}

/** The product's date pattern (dd.MM.yyyy, yyyy-MM-dd) with the time, as a spreadsheet number format. */
export function dateNumberFormat(dateFormat: string): string {
  return `${dateFormat === 'yyyy-MM-dd' ? 'yyyy-mm-dd' : 'dd.mm.yyyy'} hh:mm`;
}

/**
 * A timestamp as the user's wall-clock time: spreadsheet dates have no time zone and exceljs
 * writes a Date's UTC fields, so the local fields are passed as UTC ones.
 */
export function localDateTime(timestamp: string | null | undefined): Date | null {
  if (!timestamp) return null;
  const date = new Date(timestamp);
  if (Number.isNaN(date.getTime())) return null;
  return new Date(Date.UTC(date.getFullYear(), date.getMonth(), date.getDate(), date.getHours(), date.getMinutes(), date.getSeconds()));
}

/** The months of the period as 'yyyy-MM' (the import reads them back by these names). */
export function monthKeys(period: ExportPeriod): string[] {
  return Array.from({ length: period.duration * 12 }, (_, index) => {
    const zeroBased = period.month - 1 + index;
    const year = period.year + Math.floor(zeroBased / 12);
    return `${year}-${String((zeroBased % 12) + 1).padStart(2, '0')}`;
  });
}

/** The calendar years the period touches (one more than its duration when it does not start in January). */
export function periodYears(period: ExportPeriod): number[] {
  const count = period.duration + (period.month === 1 ? 0 : 1);
  return Array.from({ length: count }, (_, index) => period.year + index);
}

/** A record's sum per calendar year, added exactly; null without a monthly split. */
export function yearSums(record: Pick<BudgetRecord, 'factors'>, period: ExportPeriod): Map<number, string> | null {
  const months = record.factors.months;
  if (!months) return null;
  const keys = monthKeys(period);
  const byYear = new Map<number, string[]>();
  months.forEach((value, index) => {
    const year = Number(keys[index]?.slice(0, 4));
    byYear.set(year, [...(byYear.get(year) ?? []), value]);
  });
  return new Map([...byYear].map(([year, values]) => [year, sumAmounts(values)]));
}

type Kind = 'text' | 'amount' | 'date';

interface ColumnSpec {
  header: string;
  kind: Kind;
  value: (record: BudgetRecord, years: Map<number, string> | null) => string | number | Date | null;
}

function columnSpecs(input: RecordsExport): ColumnSpec[] {
  const { labels, period } = input;
  const months = monthKeys(period);
  return [
    { header: labels.name, kind: 'text', value: (record) => record.name },
    ...input.classifiers.map<ColumnSpec>((classifier) => ({
      header: classifier.fieldName,
      kind: 'text',
      value: (record) => record.classifiers[classifier.id] ?? null,
    })),
    { header: input.amountKey || labels.amount, kind: 'amount', value: (record) => amountCell(record.amount) },
    ...periodYears(period).map<ColumnSpec>((year) => ({
      header: labels.yearTotal(year),
      kind: 'amount',
      value: (_record, years) => amountCell(years?.get(year)),
    })),
    ...months.map<ColumnSpec>((month, index) => ({
      header: month,
      kind: 'amount',
      value: (record) => amountCell(record.factors.months?.[index]),
    })),
    { header: labels.promoted, kind: 'text', value: (record) => (record.extra.promoted ? labels.yes : labels.no) },
    { header: labels.updatedAt, kind: 'date', value: (record) => localDateTime(record.updated_at) },
    { header: labels.updatedBy, kind: 'text', value: (record) => record.user_name },
  ];
}

function writeSheet(sheet: Worksheet, specs: readonly ColumnSpec[], records: readonly BudgetRecord[], input: RecordsExport): void {
  const amountFormat = amountNumberFormat(input.settings.decimalPlaces);
  const dateFormat = dateNumberFormat(input.settings.dateFormat);
  sheet.columns = specs.map((spec) => ({ width: EXPORT_COLUMN_WIDTH, style: spec.kind === 'amount' ? { numFmt: amountFormat } : {} }));
  const header = sheet.addRow(specs.map((spec) => spec.header));
  header.font = { bold: true };
  header.eachCell((cell) => {
    if (looksLikeFormula(String(cell.value))) cell.numFmt = TEXT_FORMAT;
  });
  for (const record of records) {
    const years = yearSums(record, input.period);
    const row = sheet.addRow(specs.map((spec) => spec.value(record, years)));
    specs.forEach((spec, index) => {
      const cell = row.getCell(index + 1);
      if (spec.kind === 'amount') cell.numFmt = amountFormat;
      else if (spec.kind === 'date') cell.numFmt = dateFormat;
      // A string cell is never a formula; the Text format keeps it text when the user edits it.
      else if (typeof cell.value === 'string' && looksLikeFormula(cell.value)) cell.numFmt = TEXT_FORMAT;
    });
  }
  sheet.views = [{ state: 'frozen', ySplit: 1 }];
}

/** The export's workbook; `Excel` is exceljs, loaded by the caller (on first use in the browser). */
export function buildRecordsWorkbook(Excel: typeof import('exceljs'), input: RecordsExport): Workbook {
  const workbook = new Excel.Workbook();
  workbook.creator = 'Eelarve';
  const specs = columnSpecs(input);
  const names = uniqueSheetNames(input.sheets.map((sheet) => sheet.name));
  input.sheets.forEach((sheet, index) => {
    writeSheet(workbook.addWorksheet(names[index]), specs, sheet.records, input);
  });
  if (input.sheets.length === 0) writeSheet(workbook.addWorksheet(DEFAULT_SHEET_NAME), specs, [], input);
  return workbook;
}
