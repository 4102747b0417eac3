import { type ReportAggregateRow, type ReportQuery, reportLevels, UNFIT_ROW } from '@eelarve/projections/report/queries';
import type { ReportColumn, ReportRow, ReportRowType } from '@eelarve/shared';
import { exactCalculatedValue } from './calculations';

/**
 * The aggregated rows as the report's flattened tree (DESIGN.md, section 5): a key made of the
 * row's path, its parent's key, depth, type, the value a filter takes to show it, the path of
 * filter values from the top, and the calculated columns computed from its sums in exact decimals.
 */

type Level = ReturnType<typeof reportLevels>[number];

interface Step {
  level: Level;
  key: string;
  path: ReportRow['extra']['path'][number];
}

function stepsOf(row: ReportAggregateRow, levels: readonly Level[], groupingClassifierId: string | null, parentClassifierId: string | null): Step[] {
  return levels.slice(0, row.level).map((level) => {
    switch (level) {
      case 'sub':
        return { level, key: `s:${row.sub_budget_id}`, path: { type: 'SUB_BUDGET', id: null, value: row.sub_budget_id } };
      case 'parent':
        return { level, key: `g:${row.parent_code ?? ''}`, path: { type: 'CLASSIFIER', id: parentClassifierId, value: row.parent_code } };
      case 'item':
        return { level, key: `i:${row.item_code ?? ''}`, path: { type: 'CLASSIFIER', id: groupingClassifierId, value: row.item_code } };
      default:
        return { level, key: `r:${row.record_id}`, path: { type: 'RECORD', id: null, value: row.record_id } };
    }
  });
}

const labelled = (code: string | null, name: string | null) => (code === null ? '' : name ? `${code} ${name}` : code);

function typeOf(row: ReportAggregateRow, level: Level | undefined, updatable: (subBudgetId: string) => boolean): ReportRowType {
  switch (level) {
    case undefined:
      return 'TOTAL';
    case 'sub':
      if (row.sub_budget_id === UNFIT_ROW) return 'UNFIT';
      return updatable(row.sub_budget_id as string) ? 'SUB_BUDGET' : 'DISABLED_SUB_BUDGET';
    case 'parent':
      return 'CLASSIFIER_GROUP';
    case 'item':
      return 'CLASSIFIER_ITEM';
    case 'rec':
      return 'PROMOTED_RECORD';
  }
}

function textOf(row: ReportAggregateRow, level: Level | undefined): string {
  switch (level) {
    case undefined:
      return '';
    case 'sub':
      return row.sub_budget_name ?? '';
    case 'parent':
      return labelled(row.parent_code, row.parent_name);
    case 'item':
      return labelled(row.item_code, row.item_name);
    case 'rec':
      return row.record_name ?? '';
  }
}

/** Where a calculated column's operands are among a row's values (sums, then the calculated values before it); -1: none. */
interface Calculation {
  first: number;
  second: number;
  operation: NonNullable<ReportColumn['operation']>;
}

/** The calculated columns' operands as positions, found once per report rather than by key in every row. */
function calculationsOf(sumKeys: readonly string[], calculated: readonly ReportColumn[]): Calculation[] {
  const keys = [...sumKeys, ...calculated.map((column) => column.key)];
  // A calculation reads the sums and the calculated values before it (a later one has no value yet: null).
  return calculated.map((column, index) => {
    const known = keys.slice(0, sumKeys.length + index);
    return {
      first: known.indexOf(column.firstOperand as string),
      second: known.indexOf(column.secondOperand as string),
      operation: column.operation ?? 'percent',
    };
  });
}

/** A row's sums followed by its calculated values, in the columns' order (the answer's `sums`). */
function valuesOf(sums: readonly string[], calculations: readonly Calculation[]): (string | null)[] {
  const values: (string | null)[] = [...sums];
  for (const { first, second, operation } of calculations) values.push(exactCalculatedValue(values[first] ?? null, values[second] ?? null, operation));
  return values;
}

export interface FlattenOptions {
  grouping: ReportQuery['grouping'];
  /** The sum columns' keys, in the order of the aggregates' sums. */
  sumKeys: readonly string[];
  calculated: readonly ReportColumn[];
  updatable: (subBudgetId: string) => boolean;
}

/** The total and the rows in tree order, each group before its children. */
export function flattenReport(aggregates: readonly ReportAggregateRow[], options: FlattenOptions): { total: ReportRow; rows: ReportRow[] } {
  const levels = reportLevels(options.grouping);
  const calculations = calculationsOf(options.sumKeys, options.calculated);
  const rows = aggregates.map((aggregate): ReportRow => {
    const steps = stepsOf(aggregate, levels, options.grouping?.classifierId ?? null, options.grouping?.parentClassifierId ?? null);
    const level = steps.at(-1)?.level;
    const keys = steps.map((step) => step.key);
    return {
      key: keys.length === 0 ? 'total' : keys.join('/'),
      parentKey: keys.length <= 1 ? null : keys.slice(0, -1).join('/'),
      text: textOf(aggregate, level),
      depth: Math.max(steps.length - 1, 0),
      type: typeOf(aggregate, level, options.updatable),
      filterValue: steps.at(-1)?.path.value ?? null,
      sums: valuesOf(aggregate.sums, calculations),
      hasChildren: false,
      extra: { path: steps.map((step) => step.path), ...(level === 'parent' ? { paths: [] } : {}) },
    };
  });
  const byKey = new Map(rows.map((row) => [row.key, row]));
  for (const [index, row] of rows.entries()) {
    row.hasChildren = rows[index + 1]?.parentKey === row.key;
    // A parent group's paths: the item codes of its rows.
    const parent = row.type === 'CLASSIFIER_ITEM' && row.parentKey ? byKey.get(row.parentKey) : undefined;
    if (parent?.type === 'CLASSIFIER_GROUP' && row.filterValue !== null) parent.extra.paths?.push(row.filterValue);
  }
  const [total, ...tree] = rows;
  return { total: total as ReportRow, rows: tree };
}
