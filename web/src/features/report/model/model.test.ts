import type { ReportColumn, ReportRow } from '@eelarve/shared';
import { describe, expect, it } from 'vitest';
import {
  addCalcColumn,
  addComparison,
  columnsOfSettings,
  columnsSettingsOf,
  displayColumns,
  EMPTY_COLUMNS,
  moveColumn,
  orderedKeys,
  removeColumn,
  requestComparisons,
  setPeriod,
} from './columns';
import { activeFilters, filterDefinitions, filterKeyOf, mergeFilters, moveFilter, setVisible } from './filters';
import { monthOffset, monthsLeft, pickedPeriod } from './period';
import { changedRows, toggled, visibleRows } from './tree';

const row = (key: string, parentKey: string | null, base = '1'): ReportRow => ({
  key,
  parentKey,
  text: key,
  depth: key.split('/').length - 1,
  type: 'SUB_BUDGET',
  filterValue: null,
  sums: { base },
  hasChildren: true,
  extra: { path: [] },
});

describe('report columns', () => {
  const two = addComparison(addComparison(EMPTY_COLUMNS, { budgetId: 'b2', copy: false, period: null }), {
    budgetId: 'b1',
    copy: true,
    period: { start: '2027-01-01', duration: 3 },
  });

  it('keys comparisons by place and keeps the base first', () => {
    expect(orderedKeys(two)).toEqual(['base', 'cmp1', 'cmp2']);
    expect(requestComparisons(two)).toEqual([
      { key: 'cmp1', budgetId: 'b2', copy: false },
      { key: 'cmp2', budgetId: 'b1', copy: true, period: { start: '2027-01-01', duration: 3 } },
    ]);
    expect(moveColumn(two, 'base', 1)).toBe(two);
    expect(moveColumn(two, 'cmp1', -1)).toBe(two);
    expect(orderedKeys(moveColumn(two, 'cmp1', 1))).toEqual(['base', 'cmp2', 'cmp1']);
    expect(moveColumn(two, 'cmp2', 1)).toBe(two);
  });

  it('renumbers later comparisons on removal and drops calculations that used the removed column', () => {
    const withCalcs = addCalcColumn(addCalcColumn(two, { firstOperand: 'base', secondOperand: 'cmp1', operation: 'minus' }), {
      firstOperand: 'cmp2:2027-01',
      secondOperand: 'base',
      operation: 'percent',
    });
    expect(withCalcs.calcColumns.map((calc) => calc.id)).toEqual(['calc1', 'calc2']);
    const removed = removeColumn(withCalcs, 'cmp1');
    expect(removed.comparisons).toEqual([{ budgetId: 'b1', copy: true, period: { start: '2027-01-01', duration: 3 } }]);
    expect(removed.calcColumns).toEqual([{ id: 'calc2', firstOperand: 'cmp1:2027-01', secondOperand: 'base', operation: 'percent' }]);
    expect(orderedKeys(removed)).toEqual(['base', 'cmp1', 'calc2']);
    expect(removeColumn(withCalcs, 'base')).toBe(withCalcs);
  });

  it('sets a period per column and round-trips through a saved column set', () => {
    const state = setPeriod(setPeriod(two, 'base', { start: '2027-04-01', duration: 2 }), 'cmp1', { start: '2027-02-01', duration: 1 });
    expect(state.basePeriod).toEqual({ start: '2027-04-01', duration: 2 });
    const calc = addCalcColumn(moveColumn(state, 'cmp2', -1), { firstOperand: 'base', secondOperand: 'cmp2', operation: 'percent' });
    const back = columnsOfSettings(columnsSettingsOf(calc));
    expect(back).toEqual({ ...calc, basePeriod: null });
    expect(orderedKeys(back)).toEqual(['base', 'cmp2', 'cmp1', 'calc1']);
  });

  it('puts expansion sub-columns after their column, in the screen order', () => {
    const column = (key: string, parentKey: string | null = null): ReportColumn => ({
      key,
      kind: 'SUM',
      parentKey,
      budgetId: null,
      budgetName: null,
      copy: false,
      period: null,
      asOf: null,
      operation: null,
      firstOperand: null,
      secondOperand: null,
    });
    const server = [column('base'), column('cmp1'), column('cmp2'), column('base:2027-01', 'base'), column('cmp2:2027-01', 'cmp2')];
    expect(displayColumns(server, moveColumn(two, 'cmp2', -1)).map((c) => c.key)).toEqual(['base', 'base:2027-01', 'cmp2', 'cmp2:2027-01', 'cmp1']);
  });
});

describe('report filters', () => {
  const definitions = filterDefinitions('s1', 'm', ['m', 'c1']);

  it('offers the sub-budgets and the master classifier shown, the other classifiers hidden', () => {
    const filters = mergeFilters(definitions, [], []);
    expect(filters.map((filter) => [filterKeyOf(filter.key), filter.visible])).toEqual([
      ['SUB_BUDGET:s1', true],
      ['MASTER_CLASSIFIER:m', true],
      ['CLASSIFIER:c1', false],
    ]);
    expect(activeFilters(filters)).toEqual([]);
  });

  it('keeps saved filters in their order and counts only shown, enabled ones that choose something', () => {
    const saved = [{ key: { id: 'c1', type: 'CLASSIFIER' as const }, enabled: true, visible: true, selectedItems: ['A'] }];
    const filters = mergeFilters(definitions, saved, ['CLASSIFIER:c1', 'SUB_BUDGET:other', 'MASTER_CLASSIFIER:m']);
    expect(filters.map((filter) => filterKeyOf(filter.key))).toEqual(['CLASSIFIER:c1', 'SUB_BUDGET:s1', 'MASTER_CLASSIFIER:m']);
    expect(activeFilters(filters).map((filter) => filterKeyOf(filter.key))).toEqual(['CLASSIFIER:c1']);
    expect(activeFilters(setVisible(filters, 'CLASSIFIER:c1', false))).toEqual([]);
    expect(moveFilter(filters, 'CLASSIFIER:c1', 'MASTER_CLASSIFIER:m').map((filter) => filterKeyOf(filter.key))).toEqual([
      'SUB_BUDGET:s1',
      'MASTER_CLASSIFIER:m',
      'CLASSIFIER:c1',
    ]);
  });
});

describe('report period picker', () => {
  const period = { year: 2027, month: 7, duration: 1 };
  it('keeps a column period inside the document period', () => {
    expect(monthOffset(period, '2027-07')).toBe(0);
    expect(monthOffset(period, '2028-06')).toBe(11);
    expect(monthOffset(period, '2028-07')).toBe(-1);
    expect(monthsLeft(period, '2028-01')).toBe(6);
    expect(pickedPeriod(period, '2028-01', 12)).toEqual({ start: '2028-01-01', duration: 6 });
    expect(pickedPeriod(period, '2027-06', 1)).toBeNull();
  });
});

describe('report tree', () => {
  const rows = [row('a', null), row('a/x', 'a'), row('a/x/r', 'a/x'), row('b', null, '2')];
  it('shows a row when every ancestor is expanded', () => {
    expect(visibleRows(rows, new Set()).map((r) => r.key)).toEqual(['a', 'b']);
    expect(visibleRows(rows, new Set(['a'])).map((r) => r.key)).toEqual(['a', 'a/x', 'b']);
    expect(visibleRows(rows, new Set(['a/x'])).map((r) => r.key)).toEqual(['a', 'b']);
    expect(visibleRows(rows, toggled(new Set(['a']), 'a/x')).map((r) => r.key)).toEqual(['a', 'a/x', 'a/x/r', 'b']);
  });

  it('finds the rows whose sums changed', () => {
    expect(changedRows(undefined, rows)).toEqual([]);
    expect(changedRows(rows, [row('a', null, '5'), row('b', null, '2'), row('c', null)])).toEqual(['a']);
    expect(changedRows(rows, [{ ...row('a', null), sums: { base: '1', cmp1: '2' } }])).toEqual([]);
  });
});
