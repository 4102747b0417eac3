import { describe, expect, it } from 'vitest';
import { type ImportErrorReport, isExpiredReport, reportClassifierFields, reportRow } from './error-report';

const isMessage = (key: string) => ['validation.required', 'RECORD_PERIOD_MONTH_INVALID', 'referenceItemNotFound'].includes(key);

describe('the import error report as its modal shows it', () => {
  it('gives each row as sent, with its keys and its errors back under their message keys', () => {
    const entry: ImportErrorReport['list'][number] = {
      rowData: { rowNumber: 3, name: 'Konto 4500', amount: 150, months: null, month: 13, year: 2026, tegevusala: '01', allikas: null },
      errors: {
        RECORD_PERIOD_MONTH_INVALID: { critical: true, fieldName: 'month' },
        'validation.required': { critical: true, fieldName: 'allikas' },
        // The same key again in the row: stored with its field name after a dot.
        'validation.required.projekt': { critical: true, fieldName: 'projekt' },
      },
      keys: { month: 13, year: 2026, amount: '150' },
    };
    expect(reportRow(entry, isMessage)).toEqual({
      rowNumber: 3,
      name: 'Konto 4500',
      amount: '150',
      month: '13',
      year: '2026',
      classifiers: { tegevusala: '01', allikas: '' },
      validationErrors: [
        { message: 'RECORD_PERIOD_MONTH_INVALID', critical: true, fieldName: 'month' },
        { message: 'validation.required', critical: true, fieldName: 'allikas' },
        { message: 'validation.required', critical: true, fieldName: 'projekt' },
      ],
      critical: true,
    });
  });

  it('falls back to the keys where the row data lacks a value, and lists every classifier field once', () => {
    const rows = [
      reportRow(
        {
          rowData: { rowNumber: 1, name: null, amount: null, tegevusala: '01' },
          errors: { emptySum: { critical: false, fieldName: 'amount' } },
          keys: { month: null, year: null, amount: '0' },
        },
        isMessage,
      ),
      reportRow(
        { rowData: { rowNumber: 2, name: 'B', amount: '1', allikas: 'RE', tegevusala: '02' }, errors: {}, keys: { month: 4, year: 2026, amount: '1' } },
        isMessage,
      ),
    ];
    expect(rows.map((row) => [row.amount, row.month, row.year, row.critical])).toEqual([
      ['0', '', '', false],
      ['1', '4', '2026', false],
    ]);
    expect(reportClassifierFields(rows)).toEqual(['tegevusala', 'allikas']);
  });

  it('is expired when gone (404), when it lists no row while it counts errors, or has no error count (spec 3, section 8)', () => {
    expect(isExpiredReport(null)).toBe(true);
    expect(isExpiredReport({ list: [], totalErrorsCount: 3 })).toBe(true);
    expect(isExpiredReport({ list: [], totalErrorsCount: null as unknown as number })).toBe(true);
    expect(isExpiredReport({ list: [], totalErrorsCount: 0 })).toBe(false);
  });
});
