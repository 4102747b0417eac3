import type { ReportRowByKey } from '@eelarve/shared';

/**
 * The report tree comes from the server as flattened rows (parents before their children); the
 * grid shows a row when every ancestor is expanded. Expanded rows are kept by key, so they stay
 * open across new answers (another filter, another column, a live refresh).
 */
export function visibleRows(rows: readonly ReportRowByKey[], expanded: ReadonlySet<string>): ReportRowByKey[] {
  const shown = new Set<string>();
  const result: ReportRowByKey[] = [];
  for (const row of rows) {
    if (row.parentKey === null || (shown.has(row.parentKey) && expanded.has(row.parentKey))) {
      shown.add(row.key);
      result.push(row);
    }
  }
  return result;
}

export function toggled(expanded: ReadonlySet<string>, key: string): Set<string> {
  const next = new Set(expanded);
  if (next.has(key)) next.delete(key);
  else next.add(key);
  return next;
}

/**
 * The rows whose sums differ from the previous answer of the same columns (a new answer of other
 * columns highlights nothing: everything would differ).
 */
export function changedRows(previous: readonly ReportRowByKey[] | undefined, next: readonly ReportRowByKey[]): string[] {
  if (!previous) return [];
  const before = new Map(previous.map((row) => [row.key, row.sums]));
  const columnsOf = (sums: Record<string, string | null>) => Object.keys(sums).sort().join(',');
  const first = previous[0];
  const nextFirst = next[0];
  if (first && nextFirst && columnsOf(first.sums) !== columnsOf(nextFirst.sums)) return [];
  return next
    .filter((row) => {
      const sums = before.get(row.key);
      return sums !== undefined && Object.entries(row.sums).some(([key, value]) => sums[key] !== value);
    })
    .map((row) => row.key);
}
