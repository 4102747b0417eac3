import { gunzipSync, gzipSync } from 'node:zlib';
import { type ImportRow, type importErrorReportSchema, importRowKeys, type ValidatedImportRow } from '@eelarve/shared';
import type { z } from 'zod';

/**
 * The error report of an import (GET .../import/error): each row that broke a rule, as it was
 * sent, with its errors keyed by message key (a key that recurs in one row, e.g. two required
 * classifiers, gets its field name after a dot) and its keys: an ERP row's month and year, and
 * the amount taken. Kept gzip-compressed with the import.
 */
export type ImportErrorReport = z.infer<typeof importErrorReportSchema>;
type ReportRow = ImportErrorReport['list'][number];

function rowData(row: ImportRow, rowIndex: number): Record<string, unknown> {
  const keyed = row.month !== undefined || row.year !== undefined ? { month: row.month ?? null, year: row.year ?? null } : {};
  return { rowNumber: rowIndex + 1, name: row.name ?? null, amount: row.amount ?? null, months: row.months ?? null, ...keyed, ...row.classifiers };
}

function keyedErrors(validated: ValidatedImportRow): ReportRow['errors'] {
  const errors: ReportRow['errors'] = {};
  for (const error of validated.validationErrors) {
    const key = errors[error.message] ? `${error.message}.${error.fieldName ?? ''}` : error.message;
    errors[key] = { critical: error.critical, fieldName: error.fieldName };
  }
  return errors;
}

export function errorReport(rows: readonly ImportRow[], validated: readonly ValidatedImportRow[]): ImportErrorReport {
  const list: ReportRow[] = [];
  let totalErrorsCount = 0;
  validated.forEach((result, index) => {
    if (result.validationErrors.length === 0) return;
    totalErrorsCount += result.validationErrors.length;
    const row = rows[index]!;
    list.push({ rowData: rowData(row, index), errors: keyedErrors(result), keys: { ...importRowKeys(row), amount: result.values.amount } });
  });
  return { list, totalErrorsCount };
}

export const packReport = (report: ImportErrorReport): Buffer => gzipSync(JSON.stringify(report));
export const unpackReport = (bytes: Buffer): ImportErrorReport => JSON.parse(gunzipSync(bytes).toString('utf8')) as ImportErrorReport;
