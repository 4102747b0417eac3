import { describe, expect, it } from 'vitest';
import { REPORT_EXPANSIONS, reportRequestSchema } from './report';
import { REPORT_COLUMN_EXPANSIONS, reportColumnsSettingsSchema, storedSettingCreateSchema } from './stored-settings';

/**
 * A saved column set carries everything the columns are (issue 12; spec 3, sections 3-4): base
 * period, expansion, comparisons with copy flag, period and moment, calculated columns and a sum
 * budget's component columns; it stays a strict object, and payloads stored before the added keys
 * read as before.
 */
const budgetId = '0b6c4f1e-5d0a-4c1e-9a55-1f2a3b4c5d6e';
const full = {
  reportColumns: ['base', 'cmp1', 'calc1'],
  comparisonBudgetIds: [{ budgetId, copy: true, period: { start: '2027-01-01', duration: 6 }, asOf: '2027-03-01T10:15:00.000Z' }],
  calcColumns: [{ id: 'calc1', firstOperand: 'cmp1', secondOperand: 'base', operation: 'minus' as const }],
  basePeriod: { start: '2027-04-01', duration: 3 },
  expansion: 'quarterly' as const,
  componentColumns: true,
};

describe('REPORT_COLUMNS settings', () => {
  it('keeps every part of the columns', () => {
    expect(reportColumnsSettingsSchema.parse(full)).toEqual(full);
  });

  it('reads a column set stored before the added keys as before', () => {
    const old = { reportColumns: ['base', 'cmp1'], comparisonBudgetIds: [{ budgetId, copy: false }], calcColumns: [] };
    const parsed = reportColumnsSettingsSchema.parse(old);
    expect(parsed).toEqual({ ...old, comparisonBudgetIds: [{ budgetId, copy: false }] });
    expect(parsed.expansion).toBeUndefined();
    expect(parsed.basePeriod).toBeUndefined();
    expect(parsed.componentColumns).toBeUndefined();
  });

  it('stays strict and bounded', () => {
    expect(reportColumnsSettingsSchema.safeParse({ ...full, asOf: '2027-03-01T10:15:00Z' }).success).toBe(false);
    expect(reportColumnsSettingsSchema.safeParse({ ...full, expansion: 'yearly' }).success).toBe(false);
    expect(reportColumnsSettingsSchema.safeParse({ ...full, basePeriod: { start: '2027-04-01', duration: 61 } }).success).toBe(false);
    expect(reportColumnsSettingsSchema.safeParse({ ...full, componentColumns: 'yes' }).success).toBe(false);
    const badMoment = { ...full, comparisonBudgetIds: [{ budgetId, asOf: '1 March' }] };
    expect(reportColumnsSettingsSchema.safeParse(badMoment).success).toBe(false);
    const create = { type: 'REPORT_COLUMNS', name: 'Kvartalid', documentId: budgetId, settings: { ...full, extra: 1 } };
    expect(storedSettingCreateSchema.safeParse(create).success).toBe(false);
  });

  it('is a report request as it is: the same expansions, and comparisons keyed by place', () => {
    expect([...REPORT_COLUMN_EXPANSIONS]).toEqual([...REPORT_EXPANSIONS]);
    const settings = reportColumnsSettingsSchema.parse(full);
    const request = reportRequestSchema.safeParse({
      schemeId: budgetId,
      basePeriod: settings.basePeriod,
      expansion: settings.expansion,
      componentColumns: settings.componentColumns,
      comparisons: settings.comparisonBudgetIds.map((comparison, index) => ({ ...comparison, key: `cmp${index + 1}` })),
      calcColumns: settings.calcColumns,
    });
    expect(request.success).toBe(true);
  });
});
