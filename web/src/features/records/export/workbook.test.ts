import type { BudgetRecord } from '@eelarve/shared';
import Excel from 'exceljs';
import { describe, expect, it } from 'vitest';
import {
  amountCell,
  amountNumberFormat,
  buildRecordsWorkbook,
  cleanSheetName,
  dateNumberFormat,
  EXPORT_COLUMN_WIDTH,
  looksLikeFormula,
  monthKeys,
  periodYears,
  type RecordsExport,
  uniqueSheetNames,
  yearSums,
} from './workbook';

const record = (overrides: Partial<BudgetRecord>): BudgetRecord => ({
  id: 'r1',
  budgetId: 'b',
  documentId: 'd',
  name: 'Palgad',
  amount: '1200.5',
  classifiers: { c1: '01.1' },
  factors: { months: null },
  extra: { promoted: false },
  hasComments: false,
  hasCommentAttachments: false,
  createdAt: '2026-01-01T10:00:00Z',
  updated_at: '2026-03-04T10:00:00Z',
  user_name: 'Mari Maasikas',
  ...overrides,
});

const labels = {
  name: 'Nimi',
  amount: 'Summa',
  yearTotal: (year: number) => `${year} kokku`,
  promoted: 'Esile tõstetud',
  updatedAt: 'Muudetud',
  updatedBy: 'Muutja',
  yes: 'jah',
  no: 'ei',
};

const exportOf = (records: BudgetRecord[], overrides: Partial<RecordsExport> = {}): RecordsExport => ({
  sheets: [{ name: 'Haridus / koolid: 2026*', records }],
  classifiers: [{ id: 'c1', fieldName: 'tegevusala' }],
  period: { year: 2026, month: 7, duration: 1 },
  amountKey: 'summa',
  settings: { decimalPlaces: 3, dateFormat: 'yyyy-MM-dd' },
  labels,
  ...overrides,
});

describe('records export workbook', () => {
  it('cleans sheet names to letters, digits, hyphen, period, underscore and spaces, defaulting to unnamed', () => {
    expect(cleanSheetName('Haridus / koolid: 2026*')).toBe('Haridus koolid 2026');
    expect(cleanSheetName('Õppe-kulud_1.2')).toBe('Õppe-kulud_1.2');
    expect(cleanSheetName('[]:*?/\\')).toBe('unnamed');
    expect(cleanSheetName('x'.repeat(40))).toHaveLength(31);
    expect(uniqueSheetNames(['A', 'a', '?', ''])).toEqual(['A', 'a 2', 'unnamed', 'unnamed 2']);
  });

  it('formats amounts with the decimal places (0-5) and dates with the date format', () => {
    expect(amountNumberFormat(2)).toBe('#,##0.00');
    expect(amountNumberFormat(0)).toBe('#,##0');
    expect(amountNumberFormat(5)).toBe('#,##0.00000');
    expect(dateNumberFormat('dd.MM.yyyy')).toBe('dd.mm.yyyy hh:mm');
    expect(dateNumberFormat('yyyy-MM-dd')).toBe('yyyy-mm-dd hh:mm');
  });

  it('knows what a spreadsheet would run as a formula', () => {
    for (const text of ['=1+1', '+5', '-2', '@SUM(A1)']) expect(looksLikeFormula(text)).toBe(true);
    for (const text of ['Palgad', '1=1', ' =x', '']) expect(looksLikeFormula(text)).toBe(false);
  });

  it('covers the period: months as yyyy-MM and one calendar year more when it does not start in January', () => {
    expect(monthKeys({ year: 2026, month: 11, duration: 1 })).toEqual([
      '2026-11',
      '2026-12',
      '2027-01',
      '2027-02',
      '2027-03',
      '2027-04',
      '2027-05',
      '2027-06',
      '2027-07',
      '2027-08',
      '2027-09',
      '2027-10',
    ]);
    expect(periodYears({ year: 2026, month: 11, duration: 1 })).toEqual([2026, 2027]);
    expect(periodYears({ year: 2026, month: 1, duration: 2 })).toEqual([2026, 2027]);
  });

  it('adds the year sums exactly (no binary floating point)', () => {
    const months = ['0.1', '0.2', ...Array(10).fill('0')];
    const sums = yearSums(record({ factors: { months } }), { year: 2026, month: 11, duration: 1 });
    expect(sums?.get(2026)).toBe('0.3');
    expect(sums?.get(2027)).toBe('0');
    expect(yearSums(record({}), { year: 2026, month: 1, duration: 1 })).toBeNull();
  });

  it('writes amounts as numbers whose shortest text is the exact decimal', () => {
    for (const text of ['1234567890123.45', '0.000001', '-999999999999.99', '0.3']) expect(String(amountCell(text))).toBe(text);
    expect(amountCell(null)).toBeNull();
  });

  it('builds a sheet per sub-budget: widths, number formats, exact sums, the formula guard', () => {
    const months = ['100.25', '200.25', ...Array(10).fill('0')];
    const workbook = buildRecordsWorkbook(
      Excel,
      exportOf([record({ name: '=HYPERLINK("http://x","y")', amount: '300.5', factors: { months }, classifiers: { c1: '-01' } }), record({ id: 'r2' })]),
    );
    const sheet = workbook.worksheets[0]!;
    expect(sheet.name).toBe('Haridus koolid 2026');
    const header = (sheet.getRow(1).values as unknown[]).slice(1);
    expect(header).toEqual([
      'Nimi',
      'tegevusala',
      'summa',
      '2026 kokku',
      '2027 kokku',
      ...monthKeys({ year: 2026, month: 7, duration: 1 }),
      'Esile tõstetud',
      'Muudetud',
      'Muutja',
    ]);
    expect(sheet.columns.every((column) => column.width === EXPORT_COLUMN_WIDTH)).toBe(true);

    const first = sheet.getRow(2);
    expect(first.getCell(1).value).toBe('=HYPERLINK("http://x","y")');
    expect(first.getCell(1).type).toBe(Excel.ValueType.String);
    expect(first.getCell(1).numFmt).toBe('@');
    expect(first.getCell(2).value).toBe('-01');
    expect(first.getCell(2).numFmt).toBe('@');
    expect(first.getCell(3).value).toBe(300.5);
    expect(first.getCell(3).numFmt).toBe('#,##0.000');
    expect(first.getCell(4).value).toBe(300.5);
    expect(first.getCell(5).value).toBe(0);
    expect(first.getCell(6).value).toBe(100.25);
    const updated = first.getCell(header.length - 1);
    expect(updated.numFmt).toBe('yyyy-mm-dd hh:mm');
    expect(updated.value).toBeInstanceOf(Date);

    const plain = sheet.getRow(3);
    expect(plain.getCell(1).numFmt).not.toBe('@');
    expect(plain.getCell(4).value).toBeNull();
  });

  it('writes a file that opens again with the same values and formats', async () => {
    const workbook = buildRecordsWorkbook(Excel, exportOf([record({ name: '+372 5555 5555' })]));
    const reread = new Excel.Workbook();
    await reread.xlsx.load(await workbook.xlsx.writeBuffer());
    const row = reread.worksheets[0]!.getRow(2);
    expect(row.getCell(1).value).toBe('+372 5555 5555');
    expect(row.getCell(1).formula).toBeUndefined();
    expect(row.getCell(3).value).toBe(1200.5);
    expect(row.getCell(3).numFmt).toBe('#,##0.000');
  });
});
