import type { ReportColumn, ReportRowByKey } from '@eelarve/shared';
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
  setComponentColumns,
  setExpansion,
  setPeriod,
} from './columns';
import { activeFilters, filterDefinitions, filterKeyOf, matchingRows, mergeFilters, moveFilter, setVisible } from './filters';
import { fromLocalInput, momentLabel, momentWithin, toLocalInput } from './moment';
import { monthOffset, monthsLeft, pickedPeriod } from './period';
import { changedRows, toggled, visibleRows } from './tree';

const row = (key: string, parentKey: string | null, base = '1'): ReportRowByKey => ({
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
  const two = addComparison(addComparison(EMPTY_COLUMNS, { budgetId: 'b2', copy: false, period: null, asOf: null }), {
    budgetId: 'b1',
    copy: true,
    period: { start: '2027-01-01', duration: 3 },
    asOf: '2027-02-01T08:30:00.000Z',
  });

  it('keys comparisons by place and keeps the base first', () => {
    expect(orderedKeys(two)).toEqual(['base', 'cmp1', 'cmp2']);
    expect(requestComparisons(two)).toEqual([
      { key: 'cmp1', budgetId: 'b2', copy: false },
      { key: 'cmp2', budgetId: 'b1', copy: true, period: { start: '2027-01-01', duration: 3 }, asOf: '2027-02-01T08:30:00.000Z' },
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
    expect(removed.comparisons).toEqual([{ budgetId: 'b1', copy: true, period: { start: '2027-01-01', duration: 3 }, asOf: '2027-02-01T08:30:00.000Z' }]);
    expect(removed.calcColumns).toEqual([{ id: 'calc2', firstOperand: 'cmp1:2027-01', secondOperand: 'base', operation: 'percent' }]);
    expect(orderedKeys(removed)).toEqual(['base', 'cmp1', 'calc2']);
    expect(removeColumn(withCalcs, 'base')).toBe(withCalcs);
  });

  it('sets a period per column and round-trips through a saved column set', () => {
    const state = setPeriod(setPeriod(two, 'base', { start: '2027-04-01', duration: 2 }), 'cmp1', { start: '2027-02-01', duration: 1 });
    expect(state.basePeriod).toEqual({ start: '2027-04-01', duration: 2 });
    const calc = addCalcColumn(moveColumn(state, 'cmp2', -1), { firstOperand: 'base', secondOperand: 'cmp2', operation: 'percent' });
    const expanded = setComponentColumns(setExpansion(calc, 'quarterly'), true);
    const back = columnsOfSettings(columnsSettingsOf(expanded));
    // Every part of the columns comes back: periods, moments, order, expansion, component columns.
    expect(back).toEqual(expanded);
    expect(back.expansion).toBe('quarterly');
    expect(orderedKeys(back)).toEqual(['base', 'cmp2', 'cmp1', 'calc1']);
    // A column set saved before expansions and base periods were kept reads as none of them.
    const old = columnsOfSettings({ reportColumns: ['base', 'cmp1'], comparisonBudgetIds: [{ budgetId: 'b2', copy: false }], calcColumns: [] });
    expect(old).toMatchObject({
      basePeriod: null,
      expansion: 'none',
      componentColumns: false,
      comparisons: [{ budgetId: 'b2', copy: false, period: null, asOf: null }],
    });
  });

  it('drops calculations on columns that an expansion change or hidden component columns take away', () => {
    const quarterly = setExpansion(two, 'quarterly');
    const withCalcs = [
      { firstOperand: 'cmp1:2027-04', secondOperand: 'base:2027-04', operation: 'minus' as const },
      { firstOperand: 'component:b9', secondOperand: 'base', operation: 'percent' as const },
      { firstOperand: 'cmp1', secondOperand: 'base', operation: 'plus' as const },
    ].reduce((state, calc) => addCalcColumn(state, calc), setComponentColumns(quarterly, true));
    expect(setExpansion(withCalcs, 'quarterly')).toBe(withCalcs);
    const monthly = setExpansion(withCalcs, 'monthly');
    expect(monthly.calcColumns.map((calc) => calc.id)).toEqual(['calc2', 'calc3']);
    expect(orderedKeys(monthly)).toEqual(['base', 'cmp1', 'cmp2', 'calc2', 'calc3']);
    const hidden = setComponentColumns(monthly, false);
    expect(hidden.componentColumns).toBe(false);
    expect(orderedKeys(hidden)).toEqual(['base', 'cmp1', 'cmp2', 'calc3']);
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

describe('highlighting filter chips', () => {
  const step = (type: 'SUB_BUDGET' | 'CLASSIFIER', id: string | null, value: string) => ({ type, id, value });
  const rows: ReportRowByKey[] = [
    { ...row('s1', null), text: 'Haridus', extra: { path: [step('SUB_BUDGET', null, 's1')] } },
    { ...row('s1/A', 's1'), text: 'A Riik', extra: { path: [step('SUB_BUDGET', null, 's1'), step('CLASSIFIER', 'c1', 'A')] } },
    { ...row('s1/B', 's1'), text: 'B Omavalitsus', extra: { path: [step('SUB_BUDGET', null, 's1'), step('CLASSIFIER', 'c1', 'B')] } },
    { ...row('s2', null), text: 'Kultuur', extra: { path: [step('SUB_BUDGET', null, 's2')] } },
  ];
  const chip = (type: 'SUB_BUDGET' | 'CLASSIFIER', id: string, change: Record<string, unknown>) => ({
    key: { id, type },
    enabled: true,
    visible: true,
    ...change,
  });

  it('keeps a highlighting chip out of the request and marks the rows it chooses on its own level', () => {
    const filters = [chip('CLASSIFIER', 'c1', { selectedItems: ['B'], highlight: true }), chip('SUB_BUDGET', 'scheme', { searchTerm: 'kult' })];
    expect(activeFilters(filters).map((filter) => filter.key.type)).toEqual(['SUB_BUDGET']);
    expect([...matchingRows(rows, filters)]).toEqual(['s1/B']);
    // The sub-budget chip highlights by name; a term and a selection must both hold.
    const bySubBudget = [chip('SUB_BUDGET', 'scheme', { searchTerm: 'KULT', highlight: true })];
    expect([...matchingRows(rows, bySubBudget)]).toEqual(['s2']);
    const both = [chip('CLASSIFIER', 'c1', { selectedItems: ['A', 'B'], searchTerm: 'riik', highlight: true })];
    expect([...matchingRows(rows, both)]).toEqual(['s1/A']);
  });

  it('applies a chip’s combined search and regex as the server does, and counts a chip with only those as choosing something', () => {
    const regex = chip('CLASSIFIER', 'c1', { regex: '^omav', highlight: true });
    expect([...matchingRows(rows, [regex])]).toEqual(['s1/B']);
    // The regex reads the code too; the combined search reads 'code name' as one text.
    expect([...matchingRows(rows, [chip('CLASSIFIER', 'c1', { regex: '^a$', highlight: true })])]).toEqual(['s1/A']);
    expect([...matchingRows(rows, [chip('CLASSIFIER', 'c1', { comboSearch: 'b omav', highlight: true })])]).toEqual(['s1/B']);
    expect([...matchingRows(rows, [chip('CLASSIFIER', 'c1', { comboSearch: 'riik omav', highlight: true })])]).toEqual([]);
    // Without highlight the same chips filter on the server: they go in the request.
    const filtering = [chip('CLASSIFIER', 'c1', { regex: '^omav' }), chip('SUB_BUDGET', 'scheme', { comboSearch: 's2 kult' })];
    expect(activeFilters(filtering).map((filter) => filter.key.type)).toEqual(['CLASSIFIER', 'SUB_BUDGET']);
  });

  it('marks nothing for a chip that filters, is hidden or chooses nothing, or whose classifier the rows do not show', () => {
    expect(matchingRows(rows, [chip('CLASSIFIER', 'c1', { selectedItems: ['B'] })]).size).toBe(0);
    expect(matchingRows(rows, [chip('CLASSIFIER', 'c1', { selectedItems: ['B'], highlight: true, visible: false })]).size).toBe(0);
    expect(matchingRows(rows, [chip('CLASSIFIER', 'c1', { selectedItems: [], searchTerm: ' ', highlight: true })]).size).toBe(0);
    expect(matchingRows(rows, [chip('CLASSIFIER', 'c2', { selectedItems: ['B'], highlight: true })]).size).toBe(0);
  });
});

describe('report moments', () => {
  it('turns the picker value into ISO time in the browser time zone and back', () => {
    const iso = fromLocalInput('2027-03-01T10:15:30');
    expect(iso).toBe(new Date(2027, 2, 1, 10, 15, 30).toISOString());
    expect(toLocalInput(iso as string)).toBe('2027-03-01T10:15:30');
    expect(fromLocalInput('2027-03-01T10:15')).toBe(new Date(2027, 2, 1, 10, 15).toISOString());
    expect(fromLocalInput('1 March')).toBeUndefined();
    expect(fromLocalInput('')).toBeUndefined();
  });

  it('keeps a moment within the document lifetime and writes it in the organisation format', () => {
    const created = '2027-01-10T08:00:00.400Z';
    const now = new Date('2027-06-01T00:00:00Z');
    expect(momentWithin('2027-01-10T08:00:00.000Z', created, now)).toBe(true);
    expect(momentWithin('2027-01-10T07:59:59.000Z', created, now)).toBe(false);
    expect(momentWithin('2027-06-01T00:00:01Z', created, now)).toBe(false);
    const moment = new Date(2026, 10, 26, 10, 15).toISOString();
    expect(momentLabel(moment, 'dd.MM.yyyy')).toBe('26.11.2026 10:15');
    expect(momentLabel(new Date(2026, 10, 26, 10, 15, 7).toISOString(), 'yyyy-MM-dd')).toBe('2026-11-26 10:15:07');
  });
});
