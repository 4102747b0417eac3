import type { importErrorReportSchema, RecordImportRowError } from '@eelarve/shared';
import type { z } from 'zod';
import { cellText } from '../../../components/spreadsheet';

/**
 * GET api/budget/{id}/import/error as the error report modal shows it (spec 3, sections 2, 3 and 8):
 * each row as it was sent, its keys (month, year, amount) and its errors keyed by message key.
 */
export type ImportErrorReport = z.infer<typeof importErrorReportSchema>;
type ReportEntry = ImportErrorReport['list'][number];

/** The row data the report always carries; any other key is a classifier's field name (or id). */
const ROW_FIELDS = new Set(['rowNumber', 'name', 'amount', 'months', 'month', 'year']);

export interface ReportRow {
  rowNumber: number;
  name: string;
  amount: string;
  month: string;
  year: string;
  /** Field name → code, as the row carried them. */
  classifiers: Record<string, string>;
  validationErrors: RecordImportRowError[];
  critical: boolean;
}

/**
 * A report error key back to its message key: a key that recurs in one row is stored as
 * '<message>.<fieldName>' (services' report.ts); `isMessage` tells a whole key that has a dot of its own.
 */
function messageOf(key: string, fieldName: string | null, isMessage: (key: string) => boolean): string {
  const suffix = `.${fieldName ?? ''}`;
  return !isMessage(key) && key.endsWith(suffix) ? key.slice(0, -suffix.length) : key;
}

export function reportRow(entry: ReportEntry, isMessage: (key: string) => boolean): ReportRow {
  const data = entry.rowData;
  const classifiers: Record<string, string> = {};
  for (const [key, value] of Object.entries(data)) if (!ROW_FIELDS.has(key)) classifiers[key] = cellText(value);
  const validationErrors = Object.entries(entry.errors).map(([key, error]) => ({ message: messageOf(key, error.fieldName, isMessage), ...error }));
  return {
    rowNumber: Number(data.rowNumber),
    name: cellText(data.name),
    amount: cellText(data.amount) || (entry.keys.amount ?? ''),
    month: cellText(data.month ?? entry.keys.month),
    year: cellText(data.year ?? entry.keys.year),
    classifiers,
    validationErrors,
    critical: validationErrors.some((error) => error.critical),
  };
}

/** The classifier columns of the report: every field name any row carried, in the order first met. */
export function reportClassifierFields(rows: readonly ReportRow[]): string[] {
  const fields = new Set<string>();
  for (const row of rows) for (const field of Object.keys(row.classifiers)) fields.add(field);
  return [...fields];
}

/**
 * Spec 3, section 8: 'errorReportExpired' when the report is gone (404), lists no row while it
 * counts errors, or has no error count.
 */
export function isExpiredReport(report: ImportErrorReport | null): boolean {
  if (!report) return true;
  if (report.totalErrorsCount === null || report.totalErrorsCount === undefined) return true;
  return report.list.length === 0 && report.totalErrorsCount > 0;
}
