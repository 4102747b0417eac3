import { describe, expect, it } from 'vitest';
import type { ImportRow } from '../contracts/records';
import { amountOfCell, type ImportValidationContext, importCounts, importValidationContext, sumImportAmounts, validateImportRows } from './import-validation';

const MASTER = 'c-master';
const REQUIRED = 'c-required';
const OPTIONAL = 'c-optional';

const context: ImportValidationContext = {
  monthCount: 12,
  classifiers: [
    {
      id: MASTER,
      fieldName: 'tegevusala',
      required: false,
      master: true,
      code: { typeRegex: '^[0-9]+$', regexFlag: '', minLength: 2, maxLength: 5 },
      items: [
        { code: '01', name: 'Haridus', selectable: true },
        { code: '02', name: 'Kultuur', selectable: true },
        { code: '09', name: 'Kokku', selectable: false },
      ],
    },
    {
      id: REQUIRED,
      fieldName: 'allikas',
      required: true,
      master: false,
      code: { typeRegex: '^[A-Za-z0-9._\\-/]+$', regexFlag: '', minLength: 1, maxLength: 10 },
      items: [
        { code: 'RE', name: 'Riik', selectable: true },
        { code: 'AB', name: 'Muu', selectable: true },
      ],
    },
    {
      id: OPTIONAL,
      fieldName: 'projekt',
      required: false,
      master: false,
      code: null,
      items: [
        { code: 'P1', name: 'Projekt 1', selectable: true },
        { code: 'PX', name: 'Suletud', selectable: false },
      ],
    },
  ],
};

const row = (overrides: Partial<ImportRow> = {}): ImportRow => ({
  name: 'Õpetajate palgad',
  amount: '1200',
  months: null,
  classifiers: { tegevusala: '01', allikas: 'RE' },
  ...overrides,
});

const only = (overrides: Partial<ImportRow>, extra: Partial<ImportValidationContext> = {}) =>
  validateImportRows([row(overrides)], { ...context, ...extra })[0]!;
const messages = (overrides: Partial<ImportRow>, extra: Partial<ImportValidationContext> = {}) =>
  only(overrides, extra).validationErrors.map((error) => [error.message, error.critical, error.fieldName]);

describe('import rows are checked with the rules of spec 3 section 5', () => {
  it('keeps a valid row as the values of a record (classifier id → code, exact amount)', () => {
    const result = only({ classifiers: { tegevusala: 1 as never, allikas: 're', projekt: 'P1' } });
    expect(result).toEqual({
      values: { name: 'Õpetajate palgad', amount: '1200', months: null, classifiers: { [REQUIRED]: 'RE', [OPTIONAL]: 'P1' } },
      validationErrors: [{ message: 'codeTypeError', critical: true, fieldName: 'tegevusala' }],
      critical: true,
    });
    expect(only({ classifiers: { [MASTER]: '02', allikas: 're', projekt: 'P1' } })).toMatchObject({ critical: false, validationErrors: [] });
  });

  it('names: empty takes the master item name (emptyNameMaster) or is critical (emptyName); too long is critical', () => {
    expect(only({ name: '  ' })).toMatchObject({
      values: { name: 'Haridus' },
      validationErrors: [{ message: 'emptyNameMaster', critical: false, fieldName: 'name' }],
    });
    expect(messages({ name: null, classifiers: { allikas: 'RE' } })).toEqual([
      ['validation.required', true, 'tegevusala'],
      ['emptyName', true, 'name'],
    ]);
    expect(messages({ name: 'x'.repeat(257) })).toEqual([['validation.max', true, 'name']]);
  });

  it('sums and months: numbers, exact sums, mismatch drops the months, an empty sum becomes 0', () => {
    const months = ['100', 100, '100,5', '99.5', ...Array(8).fill(100)];
    expect(only({ amount: '1 200,00', months }).values).toMatchObject({ amount: '1200', months: ['100', '100', '100.5', '99.5', ...Array(8).fill('100')] });
    expect(messages({ amount: 'abc' })).toEqual([['sumNotNumeric', true, 'amount']]);
    expect(messages({ months: ['1', 'x'] })).toEqual([['periodValueNotNumeric', true, 'months.1']]);
    expect(messages({ months: [...Array(12).fill(''), '5'] })).toEqual([['periodOutsideDocument', true, 'months.12']]);
    const mismatch = only({ amount: '1000', months: ['1', '2'] });
    expect(mismatch.validationErrors).toEqual([{ message: 'sumAndPeriodizedInfoMismatch', critical: false, fieldName: 'months' }]);
    expect(mismatch.values).toMatchObject({ amount: '1000', months: null });
    expect(only({ amount: null, months: null })).toMatchObject({
      values: { amount: '0' },
      validationErrors: [{ message: 'sumAndPeriodizedInfoMissing', critical: false, fieldName: 'amount' }],
    });
    expect(only({ amount: '', months: ['0', '0'] })).toMatchObject({
      values: { amount: '0', months: Array(12).fill('0') },
      validationErrors: [{ message: 'emptySum', critical: false, fieldName: 'amount' }],
    });
    expect(messages({ amount: ' ', months: ['5'] })).toEqual([
      ['emptySum', false, 'amount'],
      ['sumAndPeriodizedInfoMismatch', false, 'months'],
    ]);
  });

  it('master and required classifiers: required and existing, both critical', () => {
    expect(messages({ classifiers: { tegevusala: '01' } })).toEqual([['validation.required', true, 'allikas']]);
    expect(messages({ classifiers: { tegevusala: '03', allikas: 'RE' } })).toEqual([['referenceItemNotFound', true, 'tegevusala']]);
    expect(messages({ classifiers: { tegevusala: '01', allikas: 'XX' } })).toEqual([['referenceItemNotFound', true, 'allikas']]);
  });

  it('optional classifiers: a missing item is dropped with a non-critical error', () => {
    const result = only({ classifiers: { tegevusala: '01', allikas: 'RE', projekt: 'NOPE' } });
    expect(result.validationErrors).toEqual([{ message: 'optionalReferenceItemNotFound', critical: false, fieldName: 'projekt' }]);
    expect(result.values.classifiers).toEqual({ [MASTER]: '01', [REQUIRED]: 'RE' });
  });

  it('code type, one code per cell (uniqueCode), codes in any letter case, and unselectable items', () => {
    expect(messages({ classifiers: { tegevusala: 'A1', allikas: 'RE' } })).toEqual([['codeTypeError', true, 'tegevusala']]);
    expect(messages({ classifiers: { tegevusala: '01', allikas: 'RE, AB' } })).toEqual([['uniqueCode', true, 'allikas']]);
    expect(messages({ classifiers: { tegevusala: '01', allikas: 'RE', projekt: 'P1;PX' } })).toEqual([['uniqueCode', false, 'projekt']]);
    expect(only({ classifiers: { tegevusala: '01', allikas: 'ab' } }).values.classifiers[REQUIRED]).toBe('AB');
    expect(messages({ classifiers: { tegevusala: '09', allikas: 'RE' } })).toEqual([['referenceItemUnselectable', true, 'tegevusala']]);
    expect(messages({ classifiers: { tegevusala: '01', allikas: 'RE', projekt: 'PX' } })).toEqual([['referenceItemUnselectable', false, 'projekt']]);
  });

  it('rows into a sub-budget take its values and must not differ from them', () => {
    const subBudget = { schemeClassifierIds: [MASTER, OPTIONAL], classifiers: { [MASTER]: '02' } };
    expect(only({ name: '', classifiers: { ALLIKAS: 'RE' } }, { subBudget })).toMatchObject({
      values: { name: 'Kultuur', classifiers: { [MASTER]: '02', [REQUIRED]: 'RE' } },
      critical: false,
    });
    expect(messages({}, { subBudget })).toEqual([['doesNotMatchSubBudget', true, 'tegevusala']]);
    // The sub-budget leaves 'projekt' empty: a row in it must too.
    expect(messages({ classifiers: { tegevusala: '02', allikas: 'RE', projekt: 'P1' } }, { subBudget })).toEqual([['doesNotMatchSubBudget', true, 'projekt']]);
  });

  it('sums months exactly, in whatever form the amounts were written', () => {
    expect(sumImportAmounts(['0.1', '0.2', '-0.3'])).toBe('0');
    expect(sumImportAmounts(['999999999999999.999999', '0.000001'])).toBe('1000000000000000');
    expect(sumImportAmounts(['-1.5', '0.25'])).toBe('-1.25');
    expect(only({ amount: '0.3', months: ['0.1', 0.2] }).validationErrors).toEqual([]);
    expect(amountOfCell('007,50')).toBe('7.5');
    expect(amountOfCell('-0,000')).toBe('0');
    expect(amountOfCell('+5')).toBe('5');
    expect(amountOfCell('1,2,3')).toBeNull();
    expect(amountOfCell('1.0000001')).toBeNull();
    expect(amountOfCell(1e21)).toBeNull();
  });

  it('reads spreadsheet numbers at 15 significant digits and text with the organisation’s separator', () => {
    expect(amountOfCell(0.1 + 0.2)).toBe('0.3');
    expect(amountOfCell('1 234,56', ',')).toBe('1234.56');
    expect(amountOfCell('1,234.56', '.')).toBeNull();
    expect(amountOfCell(Number.NaN)).toBeNull();
  });

  it('an ERP row keyed by month and year puts its amount in that month of the period, or raises the period codes', () => {
    // A period of two years from July 2026: months 0-23 are 2026-07 … 2028-06.
    const period = { monthCount: 24, periodStart: { year: 2026, month: 7 } };
    const keyed = only({ amount: '250,5', month: 2, year: '2027' }, period);
    expect(keyed).toMatchObject({ critical: false, validationErrors: [], values: { amount: '250.5' } });
    expect(keyed.values.months).toEqual(Object.assign(Array(24).fill('0'), { 7: '250.5' }));
    expect(only({ amount: '10', month: '07', year: 2026 }, period).values.months?.[0]).toBe('10');
    expect(only({ amount: '10', month: 6, year: 2028 }, period).values.months?.[23]).toBe('10');
    expect(messages({ month: 13, year: 2027 }, period)).toEqual([['RECORD_PERIOD_MONTH_INVALID', true, 'month']]);
    expect(messages({ month: 0, year: 2027 }, period)).toEqual([['RECORD_PERIOD_MONTH_INVALID', true, 'month']]);
    expect(messages({ month: 'mai', year: 2027 }, period)).toEqual([['RECORD_PERIOD_MONTH_INVALID', true, 'month']]);
    expect(messages({ month: 2.5, year: 2027 }, period)).toEqual([['RECORD_PERIOD_MONTH_INVALID', true, 'month']]);
    expect(messages({ year: 2027 }, period)).toEqual([['RECORD_PERIOD_MONTH_INVALID', true, 'month']]);
    expect(messages({ month: 6, year: 2026 }, period)).toEqual([['RECORD_PERIOD_OUT_OF_RANGE', true, 'year']]);
    expect(messages({ month: 7, year: 2028 }, period)).toEqual([['RECORD_PERIOD_OUT_OF_RANGE', true, 'year']]);
    expect(messages({ month: 7 }, period)).toEqual([['RECORD_PERIOD_OUT_OF_RANGE', true, 'year']]);
    // Without the period's start (a context that does not know it) no keyed row fits.
    expect(messages({ month: 7, year: 2026 })).toEqual([['RECORD_PERIOD_OUT_OF_RANGE', true, 'year']]);
    expect(messages({ month: 7, year: 2026, months: ['5'] }, period)).toEqual([['RECORD_FACTORS_INVALID', true, 'months']]);
    expect(only({ amount: null, month: 8, year: 2026 }, period)).toMatchObject({
      critical: false,
      values: { amount: '0', months: Array(24).fill('0') },
      validationErrors: [{ message: 'sumAndPeriodizedInfoMissing', critical: false, fieldName: 'amount' }],
    });
  });

  it('counts imported rows and errors', () => {
    const rows = validateImportRows([row(), row({ name: '' }), row({ amount: 'x', classifiers: {} })], context);
    expect(importCounts(rows)).toEqual({ recordsInserted: 2, totalErrorsCount: 4, criticalErrorsCount: 3 });
  });
});

describe('the context from the API’s classifiers', () => {
  it('takes the classifiers’ code rules, the items’ selectability and 12 months per year of the period', () => {
    const built = importValidationContext({
      classifiers: [
        {
          id: MASTER,
          fieldName: 'tegevusala',
          required: false,
          master: true,
          codeSettings: { typeName: 'Number', typeRegex: '^[0-9]+$', regexFlag: '', minLength: 2, maxLength: 5, hierarchical: false, ranking: 1 },
        },
      ],
      itemsOf: (id) =>
        id === MASTER
          ? [
              { code: '01', name: 'Haridus', unselectable: false },
              { code: '09', name: 'Kokku', unselectable: true },
            ]
          : [],
      periodDurationYears: 2,
      periodStart: { year: 2026, month: 7 },
      decimalSeparator: '.',
    });
    expect(built).toEqual({
      classifiers: [
        {
          id: MASTER,
          fieldName: 'tegevusala',
          required: false,
          master: true,
          code: { typeRegex: '^[0-9]+$', regexFlag: '', minLength: 2, maxLength: 5 },
          items: [
            { code: '01', name: 'Haridus', selectable: true },
            { code: '09', name: 'Kokku', selectable: false },
          ],
        },
      ],
      monthCount: 24,
      periodStart: { year: 2026, month: 7 },
      subBudget: null,
      decimalSeparator: '.',
    });
    expect(
      validateImportRows([row({ name: '', amount: '1,5', classifiers: { tegevusala: '09' } })], built)[0]!.validationErrors.map((error) => error.message),
    ).toEqual(['referenceItemUnselectable', 'emptyName', 'sumNotNumeric']);
  });
});
