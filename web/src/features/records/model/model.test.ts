import type { BudgetRecord, Classifier, ClassifierItem } from '@eelarve/shared';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../api';
import { recordsAccess } from '../access';
import { parseBulkEdit } from './bulk-edit';
import { groupingOptions, groupOfRecord, indexItems } from './grouping';
import { periodMonths, periodSums, periodYears } from './period';
import { draftOf, monthsTotal, parseRecordDraft, recordDraftChanged, serverInvalid } from './record-edit';
import { buildRows, keepGroupsTogether, type RecordRow } from './rows';

const record = (id: string, name: string, amount: string, classifiers: Record<string, string>, months: string[] | null = null): BudgetRecord => ({
  id,
  budgetId: 'b',
  documentId: 'd',
  name,
  amount,
  classifiers,
  factors: { months },
  extra: { promoted: false },
  hasComments: false,
  hasCommentAttachments: false,
  createdAt: '',
  updated_at: '',
  user_name: '',
});

const classifier = (id: string, extra: Partial<Classifier> = {}) =>
  ({ id, required: false, displayOrder: 1, groupedByIds: [], primaryGroupedById: null, ...extra }) as Classifier;

describe('the document period in the records table', () => {
  it('gives a calendar year more when the period does not start in January, with only its own months in each quarter', () => {
    const years = periodYears({ year: 2025, month: 8, duration: 1 });
    expect(years.map((year) => year.key)).toEqual(['y2025', 'y2026']);
    expect(years[0]?.quarters.map((quarter) => [quarter.key, quarter.months])).toEqual([
      ['y2025q3', [0, 1]],
      ['y2025q4', [2, 3, 4]],
    ]);
    expect(years[1]?.quarters.map((quarter) => quarter.key)).toEqual(['y2026q1', 'y2026q2', 'y2026q3']);
    expect(periodMonths({ year: 2025, month: 1, duration: 2 })).toHaveLength(24);
    expect(periodYears({ year: 2025, month: 1, duration: 1 }).map((year) => year.key)).toEqual(['y2025']);
  });

  it('sums a monthly split exactly per quarter and year', () => {
    const years = periodYears({ year: 2025, month: 1, duration: 1 });
    const months = ['0.1', '0.2', '0.3', ...Array.from({ length: 9 }, () => '1000000000000.01')];
    const sums = periodSums(months, years);
    expect(sums.y2025q1).toBe('0.6');
    expect(sums.y2025q2).toBe('3000000000000.03');
    expect(sums.y2025).toBe('9000000000000.69');
    expect(periodSums(null, years)).toEqual({});
  });
});

describe('grouped records', () => {
  const master = classifier('m', { master: true, groupedByIds: ['g2', 'g1'], primaryGroupedById: 'g1' });
  const items = indexItems([
    { classifierId: 'm', code: '01', name: 'Schools', groupedBy: [{ classifierId: 'g1', id: 'x', code: 'A', sign: null }] },
    { classifierId: 'm', code: '02', name: 'Roads', groupedBy: [] },
    { classifierId: 'g1', code: 'A', name: 'Education', groupedBy: [] },
  ] as unknown as ClassifierItem[]);

  it('offers the classifiers grouping the master, the primary first chosen, or the master alone', () => {
    const grouping = [master, classifier('g1', { displayOrder: 3 }), classifier('g2', { displayOrder: 2 })];
    expect(groupingOptions(grouping, 'm')).toMatchObject({ options: [{ id: 'g2' }, { id: 'g1' }], preselected: 'g1' });
    expect(groupingOptions([classifier('m')], 'm')).toMatchObject({ options: [{ id: 'm' }], preselected: 'm' });
    expect(groupingOptions([], null)).toEqual({ options: [], preselected: null });
  });

  it('puts each group row, with its count and exact sums, before its records and hides a collapsed group’s records', () => {
    const records = [record('r1', 'B', '0.1', { m: '01' }), record('r2', 'A', '0.2', { m: '01' }), record('r3', 'C', '5', { m: '02' })];
    const groupOf = groupOfRecord('m', 'g1', items, 'none');
    const rows = buildRows(records, { groupOf, collapsed: new Set(), years: [] });
    expect(rows.map((row) => [row.key, row.depth, row.amount, row.count])).toEqual([
      ['group:', 0, '5', 1],
      ['r3', 1, '5', 1],
      ['group:A', 0, '0.3', 2],
      ['r1', 1, '0.1', 1],
      ['r2', 1, '0.2', 1],
    ]);
    expect(rows[2]?.name).toBe('A – Education');
    expect(rows[0]?.name).toBe('none');
    const collapsed = buildRows(records, { groupOf, collapsed: new Set(['A']), years: [] });
    expect(collapsed.map((row) => row.key)).toEqual(['group:', 'r3', 'group:A']);
    expect(buildRows(records, { groupOf: groupOfRecord('m', null, items, 'none'), collapsed: new Set(), years: [] }).map((row) => row.key)).toEqual([
      'r1',
      'r2',
      'r3',
    ]);
  });

  it('adds a group up again when one of its records changed, and not when only a group was collapsed', () => {
    const years = periodYears({ year: 2025, month: 1, duration: 1 });
    const groupOf = groupOfRecord('m', 'm', items, 'none');
    const first = [record('r1', 'A', '1', { m: '01' }, ['1', ...Array(11).fill('0')]), record('r2', 'B', '2', { m: '01' })];
    expect(buildRows(first, { groupOf, collapsed: new Set(), years })[0]).toMatchObject({ amount: '3', sums: { y2025q1: '1' } });
    const changed = [{ ...record('r1', 'A', '5', { m: '01' }, ['5', ...Array(11).fill('0')]), updated_at: 'later' }, first[1] as BudgetRecord];
    expect(buildRows(changed, { groupOf, collapsed: new Set(['01']), years })[0]).toMatchObject({ amount: '7', sums: { y2025q1: '5' }, expanded: false });
  });

  it('keeps groups together after a sort: the unsaved row first, then each group with its own records in sorted order', () => {
    const row = (key: string, kind: RecordRow['kind'], groupKey: string, id: string | null = key) => ({ data: { key, id, kind, groupKey } as RecordRow });
    // As the grid sorted them by name, descending.
    const nodes = [
      row('r2', 'record', 'A'),
      row('g:B', 'group', 'B'),
      row('r1', 'record', 'B'),
      row('new-1', 'record', '', null),
      row('g:A', 'group', 'A'),
      row('r3', 'record', 'A'),
    ];
    keepGroupsTogether({ nodes: nodes as never });
    expect(nodes.map((node) => node.data.key)).toEqual(['new-1', 'g:B', 'r1', 'g:A', 'r2', 'r3']);
  });
});

describe('the record draft', () => {
  const classifiers = [classifier('m', { required: true }), classifier('o')];

  it('counts as changed only when a value differs as a number or text', () => {
    const original = draftOf({ name: 'Rent', amount: '1234.5', months: null, classifiers: { m: '01' } }, classifiers, ',');
    expect(original.amount).toBe('1234,5');
    expect(recordDraftChanged(original, { ...original, amount: '1 234,50', name: 'Rent ' }, ',')).toBe(false);
    expect(recordDraftChanged(original, { ...original, amount: '1 234,51' }, ',')).toBe(true);
    expect(recordDraftChanged(original, { ...original, 'classifier:o': 'x' }, ',')).toBe(true);
    expect(recordDraftChanged(original, { ...original, months: Array(12).fill('') }, ',')).toBe(true);
  });

  it('builds the body: typed amounts with spaces and the separator, the split giving the amount, required classifiers', () => {
    const draft = draftOf({ name: ' Rent ', amount: '', months: null, classifiers: { m: '01' } }, classifiers, ',');
    expect(parseRecordDraft({ ...draft, amount: '1 234,56' }, { classifiers, separator: ',', editing: false })).toEqual({
      success: true,
      data: { name: 'Rent', amount: '1234.56', factors: { months: null }, classifiers: { m: '01' } },
    });
    const months = ['1,1', '', '2 000', ...Array(9).fill('0')];
    const split = parseRecordDraft({ ...draft, months, 'classifier:o': '' }, { classifiers, separator: ',', editing: true });
    expect(split.success && split.data).toMatchObject({
      amount: '2001.1',
      factors: { months: ['1.1', '0', '2000', ...Array(9).fill('0')] },
      classifiers: { m: '01', o: null },
    });
    expect(monthsTotal(months, ',')).toBe('2001.1');
    expect(monthsTotal(['x'], ',')).toBeNull();

    const refused = parseRecordDraft({ ...draft, name: '', amount: '12.3.4', 'classifier:m': '' }, { classifiers, separator: ',', editing: false });
    expect(refused.success ? [] : refused.error.issues).toEqual([
      { path: ['classifier:m'], message: 'validation.requiredField' },
      { path: ['amount'], message: 'validation.amount' },
      { path: ['name'], message: 'validation.required' },
    ]);
    const badMonth = parseRecordDraft({ ...draft, months: ['abc'] }, { classifiers, separator: ',', editing: false });
    expect(badMonth.success ? [] : badMonth.error.issues).toEqual([{ path: ['months'], message: 'validation.amount' }]);
  });

  it('puts the server’s refusals on their fields', () => {
    expect(serverInvalid(new ApiError(422, 'RECORD_CLASSIFIER_ITEM_INVALID', '', [{ path: 'body.classifiers.m', message: 'x' }]))).toEqual({
      'classifier:m': 'RECORD_CLASSIFIER_ITEM_INVALID',
    });
    expect(serverInvalid(new ApiError(400, 'SCHEMA_VALIDATION_ERROR', '', [{ path: 'body.name', message: 'validation.maxLength' }]))).toEqual({
      name: 'validation.maxLength',
    });
    expect(serverInvalid(new ApiError(422, 'RECORD_FACTORS_MISMATCH'))).toEqual({ months: 'RECORD_FACTORS_MISMATCH' });
    expect(serverInvalid(new ApiError(422, 'RECORD_NAME_TOO_LONG'))).toEqual({ name: 'RECORD_NAME_TOO_LONG' });
    expect(serverInvalid(new ApiError(422, 'RECORD_FACTORS_INVALID', '', [{ path: 'body.factors.months.3', message: 'x' }]))).toEqual({
      months: 'RECORD_FACTORS_INVALID',
    });
    expect(serverInvalid(new ApiError(422, 'RECORD_DOES_NOT_MATCH_SUB_BUDGET'))).toEqual({});
  });
});

describe('bulk edit', () => {
  const classifiers = [classifier('m', { required: true }), classifier('o')];
  const ids = ['3f0c5a52-7d4c-4a43-9a53-2f1d5d0f2a10'];
  const options = { classifiers, separator: ',' as const };

  it('requires the field, and a value for the name, the amount and a required classifier', () => {
    expect(parseBulkEdit(ids, '', 'x', options)).toEqual({ success: false, invalid: { field: 'validation.required' } });
    expect(parseBulkEdit(ids, 'name', ' ', options)).toEqual({ success: false, invalid: { value: 'validation.required' } });
    expect(parseBulkEdit(ids, 'amount', '', options)).toEqual({ success: false, invalid: { value: 'validation.required' } });
    expect(parseBulkEdit(ids, 'amount', '1,2,3', options)).toEqual({ success: false, invalid: { value: 'validation.amount' } });
    expect(parseBulkEdit(ids, 'classifier:m', '', options)).toEqual({ success: false, invalid: { value: 'validation.required' } });
  });

  it('sends one field: an exact amount, or an optional classifier cleared', () => {
    expect(parseBulkEdit(ids, 'amount', '1 000,5', options)).toEqual({ success: true, body: { recordIds: ids, updates: { amount: '1000.5' } } });
    expect(parseBulkEdit(ids, 'classifier:o', '', options)).toEqual({ success: true, body: { recordIds: ids, updates: { classifiers: { o: null } } } });
  });
});

describe('records access', () => {
  it('is read-only without sub-budget update or under RESOURCE_WRITE_DISABLED; promote also needs metadata writing', () => {
    const budget = (restrictions: Array<'RESOURCE_WRITE_DISABLED' | 'METADATA_WRITE_DISABLED'> = []) => ({ permissions: { update: true, restrictions } });
    expect(recordsAccess({ permissions: { update: true } }, budget())).toEqual({ write: true, promote: true });
    expect(recordsAccess({ permissions: { update: false } }, budget())).toEqual({ write: false, promote: false });
    expect(recordsAccess({ permissions: { update: true } }, budget(['RESOURCE_WRITE_DISABLED']))).toEqual({ write: false, promote: false });
    expect(recordsAccess({ permissions: { update: true } }, budget(['METADATA_WRITE_DISABLED']))).toEqual({ write: true, promote: false });
  });
});
