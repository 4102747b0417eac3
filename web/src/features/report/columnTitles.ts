import type { ReportColumn } from '@eelarve/shared';
import type { IntlShape } from 'react-intl';
import { periodRange } from './model/period';

/** A column period as the header shows it: MM.yyyy, or MM.yyyy–MM.yyyy over several months. */
export function periodLabel(period: { start: string; duration: number }): string {
  const show = (month: string) => `${month.slice(5, 7)}.${month.slice(0, 4)}`;
  const [first, last] = periodRange(period);
  return first === last ? show(first) : `${show(first)}–${show(last)}`;
}

/**
 * Each column's header text: the budget's name (a copy of the base said so) with its period and,
 * for a column as of another moment than the report's own, that moment; an expansion sub-column
 * its quarter or month; a calculated column its operation on its operands.
 */
export function columnTitles(
  columns: readonly ReportColumn[],
  baseName: string,
  intl: IntlShape,
  moments: { label: (iso: string) => string; reportAsOf: string | null } = { label: (iso) => iso, reportAsOf: null },
): Map<string, string> {
  const sameMoment = (a: string | null, b: string | null) => (a === null || b === null ? a === b : new Date(a).getTime() === new Date(b).getTime());
  const titles = new Map<string, string>();
  const sumTitle = (column: ReportColumn) => {
    if (column.parentKey !== null && column.period) return periodLabel(column.period);
    const name = column.budgetName ?? baseName;
    const named = column.copy ? intl.formatMessage({ id: 'report.column.copy' }, { name }) : name;
    const title = column.period ? `${named} ${periodLabel(column.period)}` : named;
    if (column.asOf === null || sameMoment(column.asOf, moments.reportAsOf)) return title;
    return intl.formatMessage({ id: 'report.column.asOf' }, { title, moment: moments.label(column.asOf) });
  };
  for (const column of columns) if (column.kind === 'SUM') titles.set(column.key, sumTitle(column));
  const operand = (key: string | null) => {
    if (!key) return '';
    const column = columns.find((candidate) => candidate.key === key);
    const parent = column?.parentKey ? titles.get(column.parentKey) : undefined;
    return parent ? `${parent} ${titles.get(key) ?? key}` : (titles.get(key) ?? key);
  };
  for (const column of columns) {
    if (column.kind !== 'CALCULATED' || !column.operation) continue;
    titles.set(
      column.key,
      intl.formatMessage({ id: `report.column.calc.${column.operation}` }, { first: operand(column.firstOperand), second: operand(column.secondOperand) }),
    );
  }
  return titles;
}
