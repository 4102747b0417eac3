import { compileReportRegex, type ReportFilter, type ReportRowByKey } from '@eelarve/shared';

/**
 * The report's filters (spec 3, section 3 "Report filter"): one chip per filter the scheme offers,
 * the sub-budgets, the master classifier and every other classifier of the document. A chip shows
 * when its filter is `visible` (the filter visibility menu); a hidden filter counts nothing. The
 * chips stand in `filtersOrder` (keys `<type>:<id>`), which dragging changes.
 */

export type FilterType = ReportFilter['key']['type'];

export interface FilterDefinition {
  key: { id: string; type: FilterType };
}

export const filterKeyOf = (key: ReportFilter['key']) => `${key.type}:${key.id}`;

/** The filters a scheme offers; only the sub-budgets and the master classifier show at first. */
export function filterDefinitions(schemeId: string, masterClassifierId: string | null, classifierIds: readonly string[]): FilterDefinition[] {
  return [
    { key: { id: schemeId, type: 'SUB_BUDGET' } },
    ...(masterClassifierId ? [{ key: { id: masterClassifierId, type: 'MASTER_CLASSIFIER' as const } }] : []),
    ...classifierIds.filter((id) => id !== masterClassifierId).map((id) => ({ key: { id, type: 'CLASSIFIER' as const } })),
  ];
}

const shownAtFirst = (type: FilterType) => type !== 'CLASSIFIER';

export function emptyFilter(definition: FilterDefinition): ReportFilter {
  const visible = shownAtFirst(definition.key.type);
  return { key: definition.key, enabled: visible, visible, selectedItems: [], searchTerm: '' };
}

/**
 * The screen's filters: one per definition, the saved one where there is (a filter saved for
 * another scheme's sub-budgets or a classifier no longer offered is dropped), in the saved order.
 */
export function mergeFilters(definitions: readonly FilterDefinition[], saved: readonly ReportFilter[], order: readonly string[]): ReportFilter[] {
  const savedByKey = new Map(saved.map((filter) => [filterKeyOf(filter.key), filter]));
  const filters = definitions.map((definition) => {
    const key = filterKeyOf(definition.key);
    // The sub-budget filter of another scheme keeps its visibility, not its selection.
    const sameKey = savedByKey.get(key);
    const otherScheme = definition.key.type === 'SUB_BUDGET' ? saved.find((filter) => filter.key.type === 'SUB_BUDGET') : undefined;
    if (sameKey) return sameKey;
    if (otherScheme) return { ...emptyFilter(definition), visible: otherScheme.visible, enabled: otherScheme.visible };
    return emptyFilter(definition);
  });
  const rank = (filter: ReportFilter) => {
    const index = order.indexOf(filterKeyOf(filter.key));
    const typeIndex = order.findIndex((key) => filter.key.type === 'SUB_BUDGET' && key.startsWith('SUB_BUDGET:'));
    return index >= 0 ? index : typeIndex >= 0 ? typeIndex : order.length;
  };
  return filters
    .map((filter, index) => ({ filter, index }))
    .sort((a, b) => rank(a.filter) - rank(b.filter) || a.index - b.index)
    .map(({ filter }) => filter);
}

const choosesSomething = (filter: ReportFilter) =>
  (filter.selectedItems?.length ?? 0) > 0 || [filter.searchTerm, filter.comboSearch, filter.regex].some((text) => (text ?? '').trim() !== '');

/** The filters that change the report: shown, enabled, choosing something, and filtering (a highlighting chip keeps every row). */
export function activeFilters(filters: readonly ReportFilter[]): ReportFilter[] {
  return filters.filter((filter) => filter.visible && filter.enabled && !filter.highlight && choosesSomething(filter));
}

/** The chips that highlight what they choose instead of filtering it out. */
export function highlightingFilters(filters: readonly ReportFilter[]): ReportFilter[] {
  return filters.filter((filter) => filter.visible && filter.enabled && filter.highlight === true && choosesSomething(filter));
}

/** Whether a row is on the filter's level: a sub-budget for SUB_BUDGET, an item or group of the filter's classifier otherwise. */
function ownStep(row: ReportRowByKey, filter: ReportFilter) {
  const step = row.extra.path.at(-1);
  if (!step) return undefined;
  if (filter.key.type === 'SUB_BUDGET') return step.type === 'SUB_BUDGET' ? step : undefined;
  return step.type === 'CLASSIFIER' && step.id === filter.key.id ? step : undefined;
}

/**
 * The rows a highlighting chip picks out, among the rows the server sent (the server filters only
 * for chips that do not highlight): rows of the chip's level whose value is selected (if any is)
 * and whose code or name match its search term, combined search and regex (those given), as the server's
 * filter would choose them.
 * A chip of a classifier the report is not grouped by has no rows of its level to mark.
 */
export function matchingRows(rows: readonly ReportRowByKey[], filters: readonly ReportFilter[]): Set<string> {
  const matched = new Set<string>();
  for (const filter of highlightingFilters(filters)) {
    const selected = new Set(filter.selectedItems ?? []);
    const matches = textMatches(filter);
    for (const row of rows) {
      const step = ownStep(row, filter);
      if (!step || step.value === null) continue;
      if (selected.size > 0 && !selected.has(step.value)) continue;
      // A row's value is its sub-budget id or item code; an item row's text is 'code name': the server's filter reads code and name.
      const code = step.value;
      const name = row.text.startsWith(`${code} `) ? row.text.slice(code.length + 1) : row.text;
      if (matches.every((match) => match(code, name))) matched.add(row.key);
    }
  }
  return matched;
}

type RowMatch = (code: string, name: string) => boolean;

/** The chip's search term, combined search and regex as the server applies them (services/gateway/src/features/report/filters.ts). */
function textMatches(filter: ReportFilter): RowMatch[] {
  const matches: RowMatch[] = [];
  const term = (filter.searchTerm ?? '').trim().toLowerCase();
  if (term) matches.push((code, name) => code.toLowerCase().includes(term) || name.toLowerCase().includes(term));
  const combo = (filter.comboSearch ?? '').trim().toLowerCase();
  if (combo) matches.push((code, name) => `${code} ${name}`.toLowerCase().includes(combo));
  const regex = filter.regex ? compileReportRegex(filter.regex) : undefined;
  if (regex) matches.push((code, name) => regex.test(code) || regex.test(name));
  return matches;
}

export function updateFilter(filters: readonly ReportFilter[], key: string, change: Partial<ReportFilter>): ReportFilter[] {
  return filters.map((filter) => (filterKeyOf(filter.key) === key ? { ...filter, ...change } : filter));
}

/** Shows or hides a chip; a hidden filter is switched off with it. */
export function setVisible(filters: readonly ReportFilter[], key: string, visible: boolean): ReportFilter[] {
  return updateFilter(filters, key, { visible, enabled: visible });
}

/** Moves the chip `from` to the place of `to` (dragging one chip onto another). */
export function moveFilter(filters: readonly ReportFilter[], from: string, to: string): ReportFilter[] {
  const fromIndex = filters.findIndex((filter) => filterKeyOf(filter.key) === from);
  const toIndex = filters.findIndex((filter) => filterKeyOf(filter.key) === to);
  if (fromIndex < 0 || toIndex < 0 || fromIndex === toIndex) return [...filters];
  const moved = [...filters];
  const [filter] = moved.splice(fromIndex, 1);
  moved.splice(toIndex, 0, filter as ReportFilter);
  return moved;
}

/** An item's text in a chip's list: code and name. */
export function itemMatches(item: { code: string; name: string }, term: string): boolean {
  const needle = term.trim().toLowerCase();
  return needle === '' || `${item.code} ${item.name}`.toLowerCase().includes(needle);
}
