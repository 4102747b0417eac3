import type { ReportSumColumn } from '@eelarve/projections/report/queries';
import { DomainError, REPORT_BASE_COLUMN_KEY, type ReportColumn, type ReportRequestParsed } from '@eelarve/shared';

/**
 * The report's columns (spec 3, section 2, report columns): each sum column over a range of the
 * document period's months, split into quarter or month sub-columns when the report is expanded.
 */

export interface DocumentPeriod {
  year: number;
  /** 1-12. */
  month: number;
  months: number;
}

/** A sum column as the service plans it: where its amounts come from and which months count. */
export interface PlannedSumColumn {
  column: ReportColumn;
  /** Indexes of the sources (budget now or as of a moment) the column adds up. */
  sources: number[];
  months: { from: number; to: number } | null;
}

const pad = (value: number) => String(value).padStart(2, '0');

/** The ISO date of the first day of the period's nth month (1-based). */
export function monthStart(period: DocumentPeriod, month: number): string {
  const index = period.year * 12 + (period.month - 1) + (month - 1);
  return `${Math.floor(index / 12)}-${pad((index % 12) + 1)}-01`;
}

/** A column's period as months of the document period; outside the document period it is refused. */
export function periodMonths(period: DocumentPeriod, chosen: { start: string; duration: number } | null | undefined, path: string) {
  if (!chosen) return null;
  const [year, month] = chosen.start.split('-').map(Number) as [number, number];
  const from = (year - period.year) * 12 + (month - period.month) + 1;
  const to = from + chosen.duration - 1;
  if (from < 1 || to > period.months) {
    throw new DomainError('SCHEMA_VALIDATION_ERROR', 'a column period lies outside the document period', [{ path, message: 'periodOutsideDocument' }]);
  }
  return { from, to };
}

/** Quarter or month sub-columns of a sum column's months (the whole period without one). */
function expansionOf(planned: PlannedSumColumn, period: DocumentPeriod, expansion: ReportRequestParsed['expansion']): PlannedSumColumn[] {
  if (expansion === 'none') return [];
  const step = expansion === 'quarterly' ? 3 : 1;
  const { from, to } = planned.months ?? { from: 1, to: period.months };
  const parts: PlannedSumColumn[] = [];
  for (let first = from; first <= to; first += step) {
    const last = Math.min(first + step - 1, to);
    const start = monthStart(period, first);
    parts.push({
      sources: planned.sources,
      months: { from: first, to: last },
      column: {
        ...planned.column,
        key: `${planned.column.key}:${start.slice(0, 7)}`,
        parentKey: planned.column.key,
        period: { start, duration: last - first + 1 },
      },
    });
  }
  return parts;
}

/** Every sum column followed by its sub-columns, in the order shown. */
export function expandedColumns(planned: readonly PlannedSumColumn[], period: DocumentPeriod, expansion: ReportRequestParsed['expansion']): PlannedSumColumn[] {
  return planned.flatMap((column) => [column, ...expansionOf(column, period, expansion)]);
}

export const querySumColumns = (planned: readonly PlannedSumColumn[]): ReportSumColumn[] =>
  planned.map(({ column, sources, months }) => ({ key: column.key, sources, months }));

export const sumColumn = (fields: Partial<ReportColumn> & Pick<ReportColumn, 'key' | 'budgetId' | 'budgetName'>): ReportColumn => ({
  kind: 'SUM',
  parentKey: null,
  copy: false,
  period: null,
  asOf: null,
  operation: null,
  firstOperand: null,
  secondOperand: null,
  ...fields,
});

/**
 * The calculated columns, each over two columns already known (sum columns, their sub-columns, or
 * calculated columns before it), with sub-columns pairing the operands' sub-columns when both are
 * expanded alike.
 */
export function calculatedColumns(request: ReportRequestParsed, sums: readonly ReportColumn[]): ReportColumn[] {
  const known = new Map(sums.map((column) => [column.key, column]));
  const subColumns = (key: string) => [...known.values()].filter((column) => column.parentKey === key);
  const result: ReportColumn[] = [];
  request.calcColumns.forEach((calc, index) => {
    if (known.has(calc.id)) throw invalidOperand(index, 'id', 'validation.unique');
    if (!known.has(calc.firstOperand)) throw invalidOperand(index, 'firstOperand', 'validation.invalid');
    if (!known.has(calc.secondOperand)) throw invalidOperand(index, 'secondOperand', 'validation.invalid');
    const column: ReportColumn = {
      ...sumColumn({ key: calc.id, budgetId: null, budgetName: null }),
      kind: 'CALCULATED',
      operation: calc.operation,
      firstOperand: calc.firstOperand,
      secondOperand: calc.secondOperand,
    };
    const [firsts, seconds] = [subColumns(calc.firstOperand), subColumns(calc.secondOperand)];
    const parts =
      firsts.length > 0 && firsts.length === seconds.length
        ? firsts.map((first, part) => ({
            ...column,
            key: `${calc.id}:${first.key.slice(calc.firstOperand.length + 1)}`,
            parentKey: calc.id,
            period: first.period,
            firstOperand: first.key,
            secondOperand: (seconds[part] as ReportColumn).key,
          }))
        : [];
    for (const added of [column, ...parts]) {
      known.set(added.key, added);
      result.push(added);
    }
  });
  return result;
}

function invalidOperand(index: number, field: string, message: string): DomainError {
  return new DomainError('SCHEMA_VALIDATION_ERROR', 'a calculated column names an unknown column', [{ path: `calcColumns.${index}.${field}`, message }]);
}

export const BASE_KEY = REPORT_BASE_COLUMN_KEY;
