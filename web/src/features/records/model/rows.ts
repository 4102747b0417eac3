import { type BudgetRecord, compareAmounts, sumAmounts } from '@eelarve/shared';
import type { IRowNode, PostSortRowsParams } from 'ag-grid-community';
import type { InlineEditRow } from '../../../grid/inline-edit';
import { type PeriodYear, periodSums } from './period';

/**
 * The records table's rows (DESIGN.md, section 5: AG Grid Community has no row grouping): the
 * records flattened under one group row per value of the grouping classifier, each group row
 * carrying its records' count and exact sums (shared `sumAmounts`), collapsible.
 */
export interface RecordRow extends InlineEditRow {
  kind: 'record' | 'group';
  /** 0 for group rows (and records when nothing groups them), 1 for records in a group. */
  depth: number;
  /** The group the row belongs to ('' when records are not grouped). */
  groupKey: string;
  /** The saved record (null for group rows and the unsaved row). */
  record: BudgetRecord | null;
  /** A record's name, or the group's label. */
  name: string;
  amount: string;
  months: string[] | null;
  /** Classifier id → item code. */
  classifiers: Record<string, string>;
  promoted: boolean;
  /** Year and quarter sums by column key (`y2025`, `y2025q3`). */
  sums: Record<string, string>;
  /** Records in a group. */
  count: number;
  expanded: boolean;
}

/** Where a record falls: a group key and its label, or null when records are not grouped. */
export type GroupOf = (record: BudgetRecord) => { key: string; label: string } | null;

/**
 * A record's year and quarter sums, kept per record object and period: a search, a collapsed group
 * or another grouping builds the rows again, but a record's sums change only with the record.
 */
const sumsOfRecord = new WeakMap<BudgetRecord, { years: readonly PeriodYear[]; sums: Record<string, string> }>();

function recordSums(record: BudgetRecord, years: readonly PeriodYear[]): Record<string, string> {
  const known = sumsOfRecord.get(record);
  if (known?.years === years) return known.sums;
  const sums = periodSums(record.factors.months, years);
  sumsOfRecord.set(record, { years, sums });
  return sums;
}

export function recordRow(record: BudgetRecord, years: readonly PeriodYear[], group: { key: string } | null): RecordRow {
  return {
    key: record.id,
    id: record.id,
    kind: 'record',
    depth: group ? 1 : 0,
    groupKey: group?.key ?? '',
    record,
    name: record.name,
    amount: record.amount,
    months: record.factors.months,
    classifiers: record.classifiers,
    promoted: record.extra.promoted,
    sums: recordSums(record, years),
    count: 1,
    expanded: true,
  };
}

/** The row of a not yet saved (new or duplicated) record. */
export function unsavedRow(key: string, values: Pick<RecordRow, 'name' | 'amount' | 'months' | 'classifiers'>, years: readonly PeriodYear[]): RecordRow {
  return {
    ...values,
    key,
    id: null,
    kind: 'record',
    depth: 0,
    groupKey: '',
    record: null,
    promoted: false,
    sums: periodSums(values.months, years),
    count: 1,
    expanded: true,
  };
}

/** Exact sums of rows: the amount and every year and quarter column. */
export function sumRows(rows: readonly Pick<RecordRow, 'amount' | 'sums'>[], years: readonly PeriodYear[]): { amount: string; sums: Record<string, string> } {
  const keys = years.flatMap((year) => [year.key, ...year.quarters.map((quarter) => quarter.key)]);
  const sums: Record<string, string> = {};
  for (const key of keys) {
    const values = rows.flatMap((row) => (row.sums[key] === undefined ? [] : [row.sums[key]]));
    if (values.length > 0) sums[key] = sumAmounts(values);
  }
  return { amount: sumAmounts(rows.map((row) => row.amount)), sums };
}

type GroupTotals = ReturnType<typeof sumRows>;

/**
 * The exact sums of the last rows built, by group and the records in it: collapsing or expanding
 * a group builds the rows again with the same groups, whose sums need not be added up again.
 */
let totalsBefore = new Map<string, GroupTotals>();

function groupTotals(key: string, members: readonly RecordRow[], years: readonly PeriodYear[], totalsNow: Map<string, GroupTotals>): GroupTotals {
  const signature = `${years.map((year) => year.key).join(',')}|${key}|${members.map((row) => `${row.key}:${row.amount}:${row.record?.updated_at ?? ''}`).join(',')}`;
  const totals = totalsBefore.get(signature) ?? sumRows(members, years);
  totalsNow.set(signature, totals);
  return totals;
}

/**
 * The grid's rows: without grouping the records as they are; with it, one group row per group
 * (ordered by its label) followed by its records unless the group is collapsed.
 */
export function buildRows(
  records: readonly BudgetRecord[],
  { groupOf, collapsed, years }: { groupOf: GroupOf; collapsed: ReadonlySet<string>; years: readonly PeriodYear[] },
): RecordRow[] {
  const groups = new Map<string, { label: string; rows: RecordRow[] }>();
  const ungrouped: RecordRow[] = [];
  for (const record of records) {
    const group = groupOf(record);
    const row = recordRow(record, years, group);
    if (!group) {
      ungrouped.push(row);
      continue;
    }
    const entry = groups.get(group.key) ?? { label: group.label, rows: [] };
    entry.rows.push(row);
    groups.set(group.key, entry);
  }
  const ordered = [...groups.entries()].sort(([a], [b]) => a.localeCompare(b));
  const rows: RecordRow[] = [...ungrouped];
  const totalsNow = new Map<string, GroupTotals>();
  for (const [key, { label, rows: members }] of ordered) {
    const expanded = !collapsed.has(key);
    const totals = groupTotals(key, members, years, totalsNow);
    rows.push({
      key: `group:${key}`,
      id: `group:${key}`,
      kind: 'group',
      depth: 0,
      groupKey: key,
      record: null,
      name: label,
      amount: totals.amount,
      months: null,
      classifiers: {},
      promoted: false,
      sums: totals.sums,
      count: members.length,
      expanded,
    });
    if (expanded) rows.push(...members);
  }
  totalsBefore = totalsNow;
  return rows;
}

/**
 * After the grid sorted all rows (`postSortRows`): the unsaved row first, then each group row in
 * its sorted place followed by its own records in their sorted order, so sorting keeps groups.
 */
export function keepGroupsTogether({ nodes }: Pick<PostSortRowsParams<RecordRow>, 'nodes'>): void {
  const unsaved: IRowNode<RecordRow>[] = [];
  const loose: IRowNode<RecordRow>[] = [];
  const groupNodes: IRowNode<RecordRow>[] = [];
  const members = new Map<string, IRowNode<RecordRow>[]>();
  for (const node of nodes) {
    const row = node.data;
    if (!row || row.id === null) unsaved.push(node);
    else if (row.kind === 'group') groupNodes.push(node);
    else if (row.groupKey === '') loose.push(node);
    else {
      const list = members.get(row.groupKey);
      if (list) list.push(node);
      else members.set(row.groupKey, [node]);
    }
  }
  const ordered = [...unsaved, ...loose, ...groupNodes.flatMap((group) => [group, ...(members.get(group.data?.groupKey ?? '') ?? [])])];
  nodes.splice(0, nodes.length, ...ordered);
}

/** Amount columns sort by exact value (empty last). */
export function compareOptionalAmounts(a: string | null | undefined, b: string | null | undefined): number {
  if (a == null || a === '') return b == null || b === '' ? 0 : 1;
  if (b == null || b === '') return -1;
  return compareAmounts(a, b);
}
