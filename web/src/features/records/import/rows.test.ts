import { type BudgetRecord, validateImportRows } from '@eelarve/shared';
import { describe, expect, it } from 'vitest';
import {
  additionalValues,
  amountCellOf,
  canImportRows,
  checkedRows,
  checkRowsInChunks,
  importClassifiers,
  monthIndexOf,
  recordsToImportRows,
  rowsToSend,
  shortValues,
  tableToImportRows,
} from './rows';

const period = { year: 2026, month: 7, duration: 1 };
const CODE = { typeName: 'Code', typeRegex: '^[0-9A-Za-z.]+$', regexFlag: '', minLength: 1, maxLength: 20, hierarchical: false, ranking: 1 };
const columns = {
  classifiers: [
    { id: 'c-main', fieldName: 'tegevusala', name: 'Tegevusala' },
    { id: 'c-opt', fieldName: 'allikas', name: 'Allikas' },
  ],
  period,
  amountKey: 'summa',
  decimalSeparator: ',' as const,
};

describe('records import rows', () => {
  it('reads months by yyyy-MM, MM.yyyy or a first-of-month date, inside the period only', () => {
    expect(monthIndexOf('2026-07', period)).toBe(0);
    expect(monthIndexOf('2027-06', period)).toBe(11);
    expect(monthIndexOf('2027-07', period)).toBeNull();
    expect(monthIndexOf('2026-06', period)).toBeNull();
    expect(monthIndexOf('08.2026', period)).toBe(1);
    expect(monthIndexOf('2026-09-01', period)).toBe(2);
    expect(monthIndexOf('2026-13', period)).toBeNull();
    expect(monthIndexOf('2026 kokku', period)).toBeNull();
  });

  it('keeps spreadsheet numbers, reads typed amounts with spaces and the separator, passes other text on', () => {
    expect(amountCellOf(1234.5, ',')).toBe(1234.5);
    expect(amountCellOf('1 234,50', ',')).toBe('1234.5');
    expect(amountCellOf('12.5', '.')).toBe('12.5');
    expect(amountCellOf('abc', ',')).toBe('abc');
    expect(amountCellOf('  ', ',')).toBeNull();
    expect(amountCellOf({ formula: 'A1*2', result: 4 }, ',')).toBe(4);
  });

  it('turns a table into rows by its header (name, amount key, months, classifier field names or names); unknown columns are ignored', () => {
    const table = [
      ['Nimi', 'TEGEVUSALA', 'Allikas', 'summa', '2026 kokku', '2026-07', '2026-08'],
      ['Palgad', '01.1', null, 300, 300, 100, 200],
      [null, null, null, null, null, null, null],
      ['Remont', { richText: [{ text: '04' }, { text: '.2' }] }, 'RE', '1 000,25', null, null, null],
    ];
    const { rows, ignoredHeaders } = tableToImportRows(table, columns);
    expect(ignoredHeaders).toEqual(['2026 kokku']);
    expect(rows).toHaveLength(2);
    expect(rows[0]).toEqual({
      line: 2,
      row: { name: 'Palgad', amount: 300, months: [100, 200, ...Array(10).fill(null)], classifiers: { tegevusala: '01.1', allikas: null } },
    });
    expect(rows[1]).toEqual({ line: 4, row: { name: 'Remont', amount: '1000.25', months: null, classifiers: { tegevusala: '04.2', allikas: 'RE' } } });
  });

  it('reads an ERP export’s month and year keys (month/kuu, year/aasta) into the row, for the shared rules to place', () => {
    const { rows, ignoredHeaders } = tableToImportRows(
      [
        ['nimi', 'tegevusala', 'Kuu', 'aasta', 'summa'],
        ['Konto 4500', '01.1', 3, '2027', 150],
      ],
      columns,
    );
    expect(ignoredHeaders).toEqual([]);
    expect(rows[0]!.row).toEqual({ name: 'Konto 4500', amount: 150, months: null, month: '3', year: '2027', classifiers: { tegevusala: '01.1' } });
  });

  it('takes another budget’s records as rows with their exact amounts and months', () => {
    const record = { name: 'X', amount: '0.3', factors: { months: ['0.1', '0.2'] }, classifiers: { 'c-main': '01.1' } } as unknown as BudgetRecord;
    expect(recordsToImportRows([record])).toEqual([{ line: 1, row: { name: 'X', amount: '0.3', months: ['0.1', '0.2'], classifiers: { 'c-main': '01.1' } } }]);
  });

  it('checks the rows with the shared rules and decides when the import is enabled (spec 3, section 4)', () => {
    const classifiers = importClassifiers(
      [
        { id: 'c-main', fieldName: 'tegevusala', name: 'Tegevusala', required: true, master: true, codeSettings: CODE } as never,
        { id: 'c-opt', fieldName: 'allikas', required: false, master: false, codeSettings: CODE } as never,
      ],
      [
        { classifierId: 'c-main', code: '01.1', name: 'Haridus', unselectable: false } as never,
        { classifierId: 'c-opt', code: 'RE', name: 'Riik', unselectable: false } as never,
      ],
    );
    const { rows: source } = tableToImportRows(
      [
        ['name', 'tegevusala', 'allikas', 'summa'],
        ['Hea', '01.1', 'RE', 10],
        ['Valikuline vale', '01.1', 'XX', 5],
        ['Puudub', '99', null, 1],
      ],
      columns,
    );
    const rows = checkedRows(
      source,
      validateImportRows(
        source.map((entry) => entry.row),
        { classifiers, monthCount: 12 },
      ),
    );
    expect(rows.map((row) => [row.line, row.critical, row.validationErrors.map((error) => error.message)])).toEqual([
      [2, false, []],
      [3, false, ['optionalReferenceItemNotFound']],
      [4, true, ['referenceItemNotFound']],
    ]);
    expect(canImportRows(rows, 0, false)).toBe(false);
    expect(canImportRows(rows, 1, false)).toBe(true);
    expect(canImportRows(rows, 1, true)).toBe(false);
    expect(canImportRows([rows[0]!], 0, false)).toBe(true);
    expect(canImportRows([rows[2]!], 1, false)).toBe(false);
    expect(rowsToSend(rows, new Set([2, 4]))).toEqual([rows[0]!.source]);
    expect(additionalValues(rows[0]!, [classifiers[1]!])).toEqual(['allikas: RE']);
  });

  it('checks in chunks exactly as in one go, saying how far it got', async () => {
    const classifiers = importClassifiers(
      [{ id: 'c-main', fieldName: 'tegevusala', name: 'Tegevusala', required: true, master: true, codeSettings: CODE } as never],
      [{ classifierId: 'c-main', code: '01', name: 'Haridus', unselectable: false } as never],
    );
    const { rows: source } = tableToImportRows(
      [
        ['name', 'tegevusala', 'summa'],
        ['A', '01', 1],
        ['', '01', 2],
        ['C', '99', 3],
        ['D', '01', 'x'],
        ['E', '01', 5],
      ],
      columns,
    );
    const context = { classifiers, monthCount: 12 };
    const progress: number[] = [];
    const chunked = await checkRowsInChunks(source, context, (done) => progress.push(done), 2);
    expect(chunked).toEqual(
      checkedRows(
        source,
        validateImportRows(
          source.map((entry) => entry.row),
          context,
        ),
      ),
    );
    expect(chunked.map((row) => row.line)).toEqual([2, 3, 4, 5, 6]);
    expect(progress).toEqual([2, 4, 5]);
  });

  it('shows two values and an ellipsis from three on', () => {
    expect(shortValues(['a', 'b'])).toBe('a, b');
    expect(shortValues(['a', 'b', 'c'])).toBe('a, b, …');
  });
});
