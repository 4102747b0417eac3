import Excel from 'exceljs';
import { describe, expect, it } from 'vitest';
import { buildReportWorkbook, percentFraction, REPORT_SHEET_NAME, reportCell } from './workbook';

describe('report export workbook', () => {
  it('writes a percentage as its fraction, exactly', () => {
    expect(percentFraction('12.5')).toBe('0.125');
    expect(percentFraction('-3')).toBe('-0.03');
    expect(percentFraction('1234.567891')).toBe('12.34567891');
    expect(reportCell('33.333333', true)).toBe(0.33333333);
  });

  it('writes amounts under 0.001 as zero and leaves missing values empty', () => {
    expect(reportCell('0.0009', false)).toBe(0);
    expect(reportCell('-0.0009', false)).toBe(0);
    expect(reportCell('0.001', false)).toBe(0.001);
    expect(reportCell('-1234567.89', false)).toBe(-1234567.89);
    expect(reportCell(null, true)).toBeNull();
  });

  it("builds the sheet 'Raport': widths, formats, indentation, the total last, the formula guard", async () => {
    const workbook = buildReportWorkbook(Excel, {
      nameHeader: 'Nimetus',
      columns: [
        { key: 'base', header: 'Eelarve', percent: false },
        { key: 'calc1', header: '=x', percent: true },
      ],
      rows: [
        { text: '=HYPERLINK("http://x")', depth: 0, sums: { base: '100.5', calc1: '50' } },
        { text: 'Koolid', depth: 1, sums: { base: '0.0004', calc1: null } },
      ],
      total: { text: 'Kokku', depth: 0, sums: { base: '100.5004', calc1: '12.5' } },
      decimalPlaces: 2,
    });
    const reread = new Excel.Workbook();
    await reread.xlsx.load(await workbook.xlsx.writeBuffer());
    const sheet = reread.getWorksheet(REPORT_SHEET_NAME);
    if (!sheet) throw new Error('no Raport sheet');
    expect(sheet.columns.map((column) => column.width)).toEqual([42.5, 42.5, 42.5]);
    expect(sheet.getRow(1).getCell(3).value).toBe('=x');
    expect(sheet.getRow(1).getCell(3).numFmt).toBe('@');
    const first = sheet.getRow(2);
    expect(first.getCell(1).value).toBe('=HYPERLINK("http://x")');
    expect(first.getCell(1).formula).toBeUndefined();
    expect(first.getCell(1).numFmt).toBe('@');
    expect(first.getCell(2).value).toBe(100.5);
    expect(first.getCell(2).numFmt).toBe('#,##0.00');
    expect(first.getCell(3).value).toBe(0.5);
    expect(first.getCell(3).numFmt).toBe('0.00%');
    expect(sheet.getRow(3).getCell(1).value).toBe('  Koolid');
    expect(sheet.getRow(3).getCell(2).value).toBe(0);
    expect(sheet.getRow(3).getCell(3).value).toBeNull();
    expect(sheet.getRow(4).getCell(1).value).toBe('Kokku');
    expect(sheet.getRow(4).getCell(3).value).toBe(0.125);
  });
});
