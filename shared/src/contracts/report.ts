import Decimal from 'decimal.js';
import { z } from 'zod';
import { uuid } from '../validation';
import {
  CALC_COLUMN_OPERATIONS,
  calcColumnSchema,
  comparisonBudgetSchema,
  REPORT_COLUMN_EXPANSIONS,
  REPORT_FILTERS_MAX,
  reportFilterSchema,
  reportMomentSchema,
  reportPeriodSchema,
} from './stored-settings';

/**
 * The budget report (issue 12, points 1, 2 and 7; spec 3, sections 2, 3 and 5): POST
 * /api/budget/{budgetId}/report computes the report of one budget on the server in exact decimals
 * and answers the tree as flattened rows (DESIGN.md, section 5), each with its sums in the order of the answer's columns
 * as canonical decimal strings. Filters, comparison budgets and calculated columns are the saved
 * view's and column set's own shapes (stored-settings.ts), so a saved setting is a request as it is.
 *
 * Columns: the base column (key `base`, the path's budget, optionally over a period), then the
 * comparison columns in order (another budget of the document, or with `copy` the base budget
 * again, each with its own period and optionally as of a past moment), a sum budget's component
 * budgets (`componentColumns`, keys `component:<budgetId>`), then the calculated columns. With a
 * quarterly or monthly expansion every sum column also gets one sub-column per quarter or month of
 * its period (`<key>:<yyyy-mm>` of the first month, `parentKey` the column's key).
 *
 * Months: an amount with a monthly split counts in the months it names; an amount without a split
 * belongs to the whole document period only (a column without a period), never to a part of it.
 */

export const REPORT_BASE_COLUMN_KEY = 'base';
/** A report compares at most this many budgets side by side, and computes at most this many columns. */
export const REPORT_COMPARISONS_MAX = 10;
export const REPORT_CALC_COLUMNS_MAX = 20;
/** The saved column set's expansions are the request's: one list (stored-settings.ts). */
export const REPORT_EXPANSIONS = REPORT_COLUMN_EXPANSIONS;
/** Calculated results below this in absolute value are 0 (spec 3, sections 5 and 9). */
export const REPORT_ZERO_TOLERANCE = '0.001';
/** Decimal places of a calculated percentage. */
export const REPORT_PERCENT_PLACES = 6;

const columnKey = z
  .string()
  .regex(/^[A-Za-z0-9_-]{1,64}$/, { message: 'validation.format' })
  .refine((key) => key !== REPORT_BASE_COLUMN_KEY, { message: 'validation.unique' });
const operandKey = z.string().regex(/^[A-Za-z0-9_:-]{1,128}$/, { message: 'validation.format' });
const moment = reportMomentSchema;

export const reportComparisonSchema = comparisonBudgetSchema.extend({
  key: columnKey,
  /** The budget as it stood at this moment (ISO time); absent: as it stands. */
  asOf: moment.nullish(),
});
export type ReportComparison = z.infer<typeof reportComparisonSchema>;

export const reportCalcColumnSchema = calcColumnSchema.extend({ id: columnKey, firstOperand: operandKey, secondOperand: operandKey });

export const reportRequestSchema = z.object({
  schemeId: uuid,
  /** The classifier whose items (and their parent groups, if its items are grouped) split each sub-budget. */
  groupingClassifierId: uuid.nullish(),
  filters: z.array(reportFilterSchema).max(REPORT_FILTERS_MAX, { message: 'validation.max' }).default([]),
  /** The base column's period (within the document period); absent: the whole period. */
  basePeriod: reportPeriodSchema.nullish(),
  comparisons: z.array(reportComparisonSchema).max(REPORT_COMPARISONS_MAX, { message: 'validation.max' }).default([]),
  calcColumns: z.array(reportCalcColumnSchema).max(REPORT_CALC_COLUMNS_MAX, { message: 'validation.max' }).default([]),
  expansion: z.enum(REPORT_EXPANSIONS, { message: 'validation.allowedValues' }).default('none'),
  /** The whole report as the budget stood at this moment (issue 12, point 7). */
  asOf: moment.nullish(),
  /** A sum budget's component budgets as extra columns. */
  componentColumns: z.boolean().default(false),
  /** The position a command answered: the report waits (bounded) until it includes that change. */
  after: z.string().max(64, { message: 'validation.max' }).nullish(),
});
export type ReportRequest = z.input<typeof reportRequestSchema>;
export type ReportRequestParsed = z.output<typeof reportRequestSchema>;

export const REPORT_ROW_TYPES = [
  'TOTAL',
  'SUB_BUDGET',
  /** A sub-budget the caller reads but may not change (no update grant, or a status locks it). */
  'DISABLED_SUB_BUDGET',
  /** Records fitting no sub-budget of the scheme (spec 2, the -2 row). */
  'UNFIT',
  /** A parent group of the grouping classifier's items. */
  'CLASSIFIER_GROUP',
  'CLASSIFIER_ITEM',
  'PROMOTED_RECORD',
] as const;
export type ReportRowType = (typeof REPORT_ROW_TYPES)[number];

/** One step of a row's path from the top: the filter it sets (SUB_BUDGET or a classifier's id) and its value. */
export const reportPathStepSchema = z.object({
  type: z.enum(['SUB_BUDGET', 'CLASSIFIER', 'RECORD']),
  /** The classifier's id for a CLASSIFIER step. */
  id: z.string().nullable(),
  /** Null: records without a value for the classifier. */
  value: z.string().nullable(),
});

export const reportRowSchema = z.object({
  key: z.string(),
  parentKey: z.string().nullable(),
  text: z.string(),
  depth: z.int(),
  type: z.enum(REPORT_ROW_TYPES),
  /** The value a filter on this row's level takes to show only it (sub-budget id, item code, record id). */
  filterValue: z.string().nullable(),
  /**
   * The row's value in each of the answer's `columns`, in their order: a canonical decimal string;
   * null where a calculation has no value (a percentage of 0). A list, not an object by column key:
   * the keys of 25 columns repeated in 5,600 rows were a third of the answer's bytes.
   */
  sums: z.array(z.string().nullable()),
  hasChildren: z.boolean(),
  extra: z.object({
    path: z.array(reportPathStepSchema),
    /** A parent group's item codes. */
    paths: z.array(z.string()).optional(),
  }),
});
export type ReportRow = z.infer<typeof reportRowSchema>;

export const reportColumnSchema = z.object({
  key: z.string(),
  kind: z.enum(['SUM', 'CALCULATED']),
  /** The column an expansion sub-column belongs to. */
  parentKey: z.string().nullable(),
  budgetId: z.uuid().nullable(),
  budgetName: z.string().nullable(),
  copy: z.boolean(),
  period: reportPeriodSchema.nullable(),
  asOf: z.string().nullable(),
  operation: z.enum(CALC_COLUMN_OPERATIONS).nullable(),
  firstOperand: z.string().nullable(),
  secondOperand: z.string().nullable(),
});
export type ReportColumn = z.infer<typeof reportColumnSchema>;

export const reportResponseSchema = z.object({
  budgetId: z.uuid(),
  schemeId: z.uuid(),
  groupingClassifierId: z.uuid().nullable(),
  asOf: z.string().nullable(),
  /** The document period: first month (ISO date) and months. */
  period: reportPeriodSchema,
  columns: z.array(reportColumnSchema),
  total: reportRowSchema,
  rows: z.array(reportRowSchema),
});
export type ReportResponse = z.infer<typeof reportResponseSchema>;

/** A row with its sums by column key, as a screen or a test reads them. */
export type ReportRowByKey = Omit<ReportRow, 'sums'> & { sums: Record<string, string | null> };
export type ReportByKey = Omit<ReportResponse, 'total' | 'rows'> & { total: ReportRowByKey; rows: ReportRowByKey[] };

/** The answer with each row's sums keyed by their columns' keys. */
export function reportSumsByKey(report: ReportResponse): ReportByKey {
  const keys = report.columns.map((column) => column.key);
  const byKey = (row: ReportRow): ReportRowByKey => {
    const sums: Record<string, string | null> = {};
    for (const [index, key] of keys.entries()) sums[key] = row.sums[index] ?? null;
    return { ...row, sums };
  };
  return { ...report, total: byKey(report.total), rows: report.rows.map(byKey) };
}

const Exact = Decimal.clone({ precision: 64, rounding: Decimal.ROUND_HALF_UP, toExpNeg: -64, toExpPos: 64 });
const tolerance = new Exact(REPORT_ZERO_TOLERANCE);

/**
 * A calculated column's value from two sums (canonical decimal strings): percent (first as a
 * percentage of second; none of 0), minus or plus; exact, a percentage to 6 decimals, and 0 below
 * the 0.001 tolerance in absolute value.
 */
export function calculatedValue(first: string | null, second: string | null, operation: (typeof CALC_COLUMN_OPERATIONS)[number]): string | null {
  if (first === null || second === null) return null;
  const [a, b] = [new Exact(first), new Exact(second)];
  let result: Decimal;
  if (operation === 'percent') {
    if (b.isZero()) return null;
    result = a.div(b).times(100).toDecimalPlaces(REPORT_PERCENT_PLACES);
  } else result = operation === 'minus' ? a.minus(b) : a.plus(b);
  if (result.abs().lt(tolerance)) return '0';
  return result.toFixed();
}
