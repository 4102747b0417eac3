import {
  type CALC_COLUMN_OPERATIONS,
  REPORT_BASE_COLUMN_KEY,
  type REPORT_COLUMN_EXPANSIONS,
  type ReportColumn,
  type ReportColumnsSettings,
  type ReportComparison,
} from '@eelarve/shared';

/**
 * The report's columns as the screen keeps them (spec 3, section 2 "Report columns"): the base
 * budget's column (always first, never removed), comparison budgets (another budget, or a copy of
 * the base over a period), calculated columns, each over an optional period, in the order the user
 * moved them, the quarterly or monthly expansion and a sum budget's component columns. A
 * comparison's key is its place in the list (`cmp1`, `cmp2`, ...): a saved column set stores the
 * comparisons without keys, so the keys must follow from the order alone.
 */

export type CalcOperation = (typeof CALC_COLUMN_OPERATIONS)[number];
export type Expansion = (typeof REPORT_COLUMN_EXPANSIONS)[number];

export interface ReportPeriod {
  /** The first month's first day, yyyy-MM-01. */
  start: string;
  /** Months. */
  duration: number;
}

export interface ComparisonColumn {
  budgetId: string;
  copy: boolean;
  period: ReportPeriod | null;
  /** The budget as it stood at this moment (ISO time); null: as it stands. */
  asOf: string | null;
}

export interface CalcColumn {
  id: string;
  firstOperand: string;
  secondOperand: string;
  operation: CalcOperation;
}

export interface ColumnsState {
  basePeriod: ReportPeriod | null;
  comparisons: ComparisonColumn[];
  calcColumns: CalcColumn[];
  /** Column keys in the order shown; the base first. */
  order: string[];
  expansion: Expansion;
  /** A sum budget's component budgets as extra columns. */
  componentColumns: boolean;
}

export const EMPTY_COLUMNS: ColumnsState = {
  basePeriod: null,
  comparisons: [],
  calcColumns: [],
  order: [REPORT_BASE_COLUMN_KEY],
  expansion: 'none',
  componentColumns: false,
};

export const comparisonKey = (index: number) => `cmp${index + 1}`;

/** Keys of every column the state has, in order: the saved order first, then any it does not name. */
export function orderedKeys(state: ColumnsState): string[] {
  const all = [REPORT_BASE_COLUMN_KEY, ...state.comparisons.map((_, index) => comparisonKey(index)), ...state.calcColumns.map((calc) => calc.id)];
  const known = new Set(all);
  const ordered = state.order.filter((key) => known.has(key) && key !== REPORT_BASE_COLUMN_KEY);
  return [REPORT_BASE_COLUMN_KEY, ...ordered, ...all.filter((key) => key !== REPORT_BASE_COLUMN_KEY && !ordered.includes(key))];
}

export function addComparison(state: ColumnsState, comparison: ComparisonColumn): ColumnsState {
  const comparisons = [...state.comparisons, comparison];
  return { ...state, comparisons, order: [...orderedKeys(state), comparisonKey(comparisons.length - 1)] };
}

/** A calculated column with the next free id. */
export function addCalcColumn(state: ColumnsState, calc: Omit<CalcColumn, 'id'>): ColumnsState {
  const taken = new Set(state.calcColumns.map((column) => column.id));
  let number = state.calcColumns.length + 1;
  while (taken.has(`calc${number}`)) number += 1;
  const id = `calc${number}`;
  return { ...state, calcColumns: [...state.calcColumns, { id, ...calc }], order: [...orderedKeys(state), id] };
}

/** An operand names a column (or one of its expansion sub-columns, `<key>:<yyyy-mm>`). */
const operandColumn = (operand: string) => operand.split(':')[0] ?? operand;

/**
 * Removes a column; the base stays. Removing a comparison renumbers the later ones (their keys are
 * their places) in the order and in the calculated columns' operands; a calculated column that
 * used a removed column goes with it.
 */
export function removeColumn(state: ColumnsState, key: string): ColumnsState {
  if (key === REPORT_BASE_COLUMN_KEY) return state;
  const removedIndex = state.comparisons.findIndex((_, index) => comparisonKey(index) === key);
  const rename = (column: string): string | null => {
    if (column === key) return null;
    if (removedIndex < 0) return column;
    const match = /^cmp(\d+)$/.exec(column);
    if (!match) return column;
    const index = Number(match[1]) - 1;
    return index > removedIndex ? comparisonKey(index - 1) : column;
  };
  const renameOperand = (operand: string): string | null => {
    const column = rename(operandColumn(operand));
    return column === null ? null : `${column}${operand.slice(operandColumn(operand).length)}`;
  };
  const calcColumns: CalcColumn[] = [];
  const removedCalcs = new Set<string>();
  for (const calc of state.calcColumns) {
    const first = renameOperand(calc.firstOperand);
    const second = renameOperand(calc.secondOperand);
    if (
      calc.id === key ||
      first === null ||
      second === null ||
      removedCalcs.has(operandColumn(calc.firstOperand)) ||
      removedCalcs.has(operandColumn(calc.secondOperand))
    ) {
      removedCalcs.add(calc.id);
      continue;
    }
    calcColumns.push({ ...calc, firstOperand: first, secondOperand: second });
  }
  const order = orderedKeys(state)
    .filter((column) => !removedCalcs.has(column))
    .map(rename)
    .filter((column): column is string => column !== null);
  return { ...state, comparisons: state.comparisons.filter((_, index) => index !== removedIndex), calcColumns, order };
}

/** Moves a column one place left (-1) or right (+1); the base column and the first place stay put. */
export function moveColumn(state: ColumnsState, key: string, step: -1 | 1): ColumnsState {
  const order = orderedKeys(state);
  const from = order.indexOf(key);
  const to = from + step;
  if (key === REPORT_BASE_COLUMN_KEY || from < 1 || to < 1 || to >= order.length) return state;
  const moved = [...order];
  [moved[from], moved[to]] = [moved[to] as string, moved[from] as string];
  return { ...state, order: moved };
}

export function canMove(state: ColumnsState, key: string, step: -1 | 1): boolean {
  return moveColumn(state, key, step) !== state;
}

/** Sets (or with null removes) a sum column's period. */
export function setPeriod(state: ColumnsState, key: string, period: ReportPeriod | null): ColumnsState {
  if (key === REPORT_BASE_COLUMN_KEY) return { ...state, basePeriod: period };
  return {
    ...state,
    comparisons: state.comparisons.map((comparison, index) => (comparisonKey(index) === key ? { ...comparison, period } : comparison)),
  };
}

export function periodOf(state: ColumnsState, key: string): ReportPeriod | null {
  if (key === REPORT_BASE_COLUMN_KEY) return state.basePeriod;
  return state.comparisons.find((_, index) => comparisonKey(index) === key)?.period ?? null;
}

/** The request's comparisons, keyed by place. */
export function requestComparisons(state: ColumnsState): ReportComparison[] {
  return state.comparisons.map((comparison, index) => ({
    key: comparisonKey(index),
    budgetId: comparison.budgetId,
    copy: comparison.copy,
    ...(comparison.period ? { period: comparison.period } : {}),
    ...(comparison.asOf ? { asOf: comparison.asOf } : {}),
  }));
}

/**
 * A saved column set (type REPORT_COLUMNS) of the state, and back: every part of the columns, so
 * choosing a saved set gives the same columns. A set saved before the base period, expansion and
 * component columns were kept reads as none of them.
 */
export function columnsSettingsOf(state: ColumnsState): ReportColumnsSettings {
  return {
    reportColumns: orderedKeys(state),
    comparisonBudgetIds: state.comparisons.map((comparison) => ({
      budgetId: comparison.budgetId,
      copy: comparison.copy,
      period: comparison.period,
      asOf: comparison.asOf,
    })),
    calcColumns: state.calcColumns,
    basePeriod: state.basePeriod,
    expansion: state.expansion,
    componentColumns: state.componentColumns,
  };
}

export function columnsOfSettings(settings: Partial<ReportColumnsSettings> | undefined): ColumnsState {
  const comparisons = (settings?.comparisonBudgetIds ?? []).map((comparison) => ({
    budgetId: comparison.budgetId,
    copy: comparison.copy ?? false,
    period: comparison.period ?? null,
    asOf: comparison.asOf ?? null,
  }));
  const calcColumns = (settings?.calcColumns ?? []).map((calc) => ({ ...calc, operation: calc.operation ?? 'percent' }));
  const state: ColumnsState = {
    basePeriod: settings?.basePeriod ?? null,
    comparisons,
    calcColumns,
    order: settings?.reportColumns ?? [],
    expansion: settings?.expansion ?? 'none',
    componentColumns: settings?.componentColumns ?? false,
  };
  return { ...state, order: orderedKeys(state) };
}

/**
 * The server's columns in the screen's order: each top column where the order puts it, with its
 * expansion sub-columns (quarters or months) right after it; columns the order does not know (a
 * sum budget's component columns) after the ordered ones.
 */
export function displayColumns(columns: readonly ReportColumn[], state: ColumnsState): ReportColumn[] {
  const top = columns.filter((column) => column.parentKey === null);
  const rank = new Map(orderedKeys(state).map((key, index) => [key, index]));
  const sorted = [...top].sort((a, b) => (rank.get(a.key) ?? rank.size) - (rank.get(b.key) ?? rank.size));
  return sorted.flatMap((column) => [column, ...columns.filter((sub) => sub.parentKey === column.key)]);
}

/** The sum columns an operand may name (top columns and their sub-columns). */
export function operandColumns(columns: readonly ReportColumn[]): ReportColumn[] {
  return columns.filter((column) => column.kind === 'SUM');
}

export const isComponentKey = (key: string) => key.startsWith('component:');
/** The column an operand names: a component column's key holds a colon of its own (`component:<budgetId>[:<yyyy-mm>]`). */
const operandTopColumn = (operand: string) => (isComponentKey(operand) ? operand.split(':').slice(0, 2).join(':') : operandColumn(operand));

/** Shows or hides a sum budget's component columns; hiding them drops the calculated columns that used one (operands are sum columns only). */
export function setComponentColumns(state: ColumnsState, componentColumns: boolean): ColumnsState {
  if (componentColumns) return { ...state, componentColumns };
  const onComponent = (calc: CalcColumn) => isComponentKey(calc.firstOperand) || isComponentKey(calc.secondOperand);
  const dropped = new Set(state.calcColumns.filter(onComponent).map((calc) => calc.id));
  return {
    ...state,
    componentColumns,
    calcColumns: state.calcColumns.filter((calc) => !dropped.has(calc.id)),
    order: state.order.filter((key) => !dropped.has(key)),
  };
}

/**
 * Sets the quarterly or monthly expansion. A calculation on a sub-column (a quarter or month) goes
 * when the expansion changes: the same key would name a month where it named a quarter, or nothing.
 */
export function setExpansion(state: ColumnsState, expansion: Expansion): ColumnsState {
  if (expansion === state.expansion) return state;
  const onSubColumn = (operand: string) => operand !== operandTopColumn(operand);
  const dropped = new Set(state.calcColumns.filter((calc) => onSubColumn(calc.firstOperand) || onSubColumn(calc.secondOperand)).map((calc) => calc.id));
  return {
    ...state,
    expansion,
    calcColumns: state.calcColumns.filter((calc) => !dropped.has(calc.id)),
    order: state.order.filter((key) => !dropped.has(key)),
  };
}
