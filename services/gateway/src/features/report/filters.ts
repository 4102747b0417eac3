import type { ClassifierCondition, SubBudgetCondition, TextMatch } from '@eelarve/projections/report/queries';
import { DomainError, type ReportFilter } from '@eelarve/shared';

/**
 * The report filters of spec 3, section 3, as conditions the report's SQL applies: a disabled
 * filter counts nothing; `selectedItems` keep the chosen sub-budgets or classifier codes (none
 * chosen: all); `searchTerm`, `comboSearch` (code and name together) and `regex` keep what
 * matches; `hierarchyDepth` 1 or more picks the codes at the parent group's level. `items`,
 * `visibleItems`, `highlight`, `hierarchyMaxDepth` and `visible` are the screen's state of the
 * chip: they change no amount, and are carried only in saved views.
 */

/** A classifier of the document as filters need it: its id and the classifier grouping its items. */
export interface FilterClassifier {
  id: string;
  parentClassifierId: string | null;
}

export interface ReportConditions {
  classifiers: ClassifierCondition[];
  subBudget: SubBudgetCondition | null;
}

/** The text matches of a filter (each must hold). */
function matchesOf(filter: ReportFilter): TextMatch[] {
  const matches: TextMatch[] = [];
  if (filter.searchTerm?.trim()) matches.push({ kind: 'term', text: filter.searchTerm.trim() });
  if (filter.comboSearch?.trim()) matches.push({ kind: 'combo', text: filter.comboSearch.trim() });
  if (filter.regex) matches.push({ kind: 'regex', pattern: filter.regex });
  return matches;
}

const chosen = (filter: ReportFilter) => (filter.selectedItems && filter.selectedItems.length > 0 ? filter.selectedItems : null);

/**
 * The conditions of the enabled filters. A classifier filter names its classifier by id (the
 * MASTER_CLASSIFIER filter may leave it to the document's master classifier); one the document
 * does not have is refused.
 */
export function reportConditions(
  filters: readonly ReportFilter[],
  classifiers: ReadonlyMap<string, FilterClassifier>,
  masterClassifierId: string | null,
): ReportConditions {
  const result: ReportConditions = { classifiers: [], subBudget: null };
  filters.forEach((filter, index) => {
    if (!filter.enabled) return;
    const codes = chosen(filter);
    const matches = matchesOf(filter);
    if (filter.key.type === 'SUB_BUDGET') {
      const previous = result.subBudget ?? { ids: null, matches: [] };
      // Every enabled sub-budget filter must hold: chosen ids intersect, matches add up.
      const ids = previous.ids && codes ? previous.ids.filter((id) => codes.includes(id)) : (previous.ids ?? codes);
      result.subBudget = { ids, matches: [...previous.matches, ...matches] };
      return;
    }
    const id = filter.key.type === 'MASTER_CLASSIFIER' && !classifiers.has(filter.key.id) ? masterClassifierId : filter.key.id;
    const classifier = id ? classifiers.get(id) : undefined;
    if (!classifier) {
      throw new DomainError('CLASSIFIER_NOT_FOUND', 'a filter names a classifier the document does not have', { path: `filters.${index}.key.id` });
    }
    const parentClassifierId = (filter.hierarchyDepth ?? 0) >= 1 ? classifier.parentClassifierId : null;
    if (codes) result.classifiers.push({ classifierId: classifier.id, parentClassifierId, codes, match: null });
    for (const match of matches) result.classifiers.push({ classifierId: classifier.id, parentClassifierId, codes: null, match });
  });
  return result;
}
