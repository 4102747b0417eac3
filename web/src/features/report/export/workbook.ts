import { compareAmounts, REPORT_ZERO_TOLERANCE } from '@eelarve/shared';
import type { Workbook } from 'exceljs';
import { amountCell, amountNumberFormat, EXPORT_COLUMN_WIDTH, looksLikeFormula, TEXT_FORMAT } from '../../../components/spreadsheet-export';

/**
 * The report export (spec 3, section 9 "Exports"): one sheet 'Raport', the rows as the screen shows
 * them (indented by depth) with the total last, every column 42.5 wide, amounts as numbers in
 * #,##0.00 (the user's decimal places), a percentage as a fraction in a percent format, amounts
 * under 0.001 as zero, and text a spreadsheet would run as a formula kept as text.
 */

export const REPORT_SHEET_NAME = 'Raport';
const PERCENT_FORMAT = '0.00%';
const INDENT = '  ';

export interface ReportExportColumn {
  key: string;
  header: string;
  /** A calculated percentage: the server's value is in percent (12.5 = 12.5 %). */
  percent: boolean;
}

export interface ReportExportRow {
  text: string;
  depth: number;
  sums: Record<string, string | null>;
}

export interface ReportExport {
  nameHeader: string;
  columns: readonly ReportExportColumn[];
  rows: readonly ReportExportRow[];
  total: ReportExportRow;
  decimalPlaces: number;
}

/** A decimal text divided by 100 by moving its point (exact: 12.5 → 0.125). */
export function percentFraction(value: string): string {
  const negative = value.startsWith('-');
  const [whole = '0', fraction = ''] = (negative ? value.slice(1) : value).split('.');
  const padded = whole.padStart(3, '0');
  return `${negative ? '-' : ''}${padded.slice(0, -2)}.${padded.slice(-2)}${fraction}`;
}

/** A sum as the spreadsheet number: zero under the tolerance, a percentage as a fraction (exact text, then once a double). */
export function reportCell(value: string | null | undefined, percent: boolean): number | null {
  if (value === null || value === undefined || value === '') return null;
  if (compareAmounts(value.replace(/^-/, ''), REPORT_ZERO_TOLERANCE) < 0) return 0;
  return amountCell(percent ? percentFraction(value) : value);
}

export function buildReportWorkbook(Excel: typeof import('exceljs'), input: ReportExport): Workbook {
  const workbook = new Excel.Workbook();
  workbook.creator = 'Eelarve';
  const sheet = workbook.addWorksheet(REPORT_SHEET_NAME);
  const amountFormat = amountNumberFormat(input.decimalPlaces);
  sheet.columns = [{ width: EXPORT_COLUMN_WIDTH }, ...input.columns.map(() => ({ width: EXPORT_COLUMN_WIDTH }))];
  const header = sheet.addRow([input.nameHeader, ...input.columns.map((column) => column.header)]);
  header.font = { bold: true };
  const rows = [...input.rows, input.total];
  rows.forEach((source, index) => {
    const text = `${INDENT.repeat(source.depth)}${source.text}`;
    const row = sheet.addRow([text, ...input.columns.map((column) => reportCell(source.sums[column.key], column.percent))]);
    if (index === rows.length - 1) row.font = { bold: true };
    input.columns.forEach((column, columnIndex) => {
      row.getCell(columnIndex + 2).numFmt = column.percent ? PERCENT_FORMAT : amountFormat;
    });
  });
  // A text cell is never a formula; the Text format keeps it text when the user edits it.
  sheet.eachRow((row) =>
    row.eachCell((cell) => {
      if (typeof cell.value === 'string' && looksLikeFormula(cell.value)) cell.numFmt = TEXT_FORMAT;
    }),
  );
  sheet.views = [{ state: 'frozen', ySplit: 1 }];
  return workbook;
}
