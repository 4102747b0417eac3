import type { Budget, Classifier, ClassifierItem, SubBudget } from '@eelarve/shared';
import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { type RecordsAccess, recordsAccess } from './access';
import { classifierItemsQuery, classifiersQuery, recordsQuery, schemeSubBudgetsQuery, schemesQuery } from './api/queries';
import { type SubBudgetRef, UNFIT_SUB_BUDGET } from './api/requests';
import { type ItemIndex, indexItems } from './model/grouping';

/** The selectable items of each classifier, by code (the options of the row's selects). */
function selectableItems(items: readonly ClassifierItem[]): Map<string, ClassifierItem[]> {
  const byClassifier = new Map<string, ClassifierItem[]>();
  for (const item of items) {
    if (item.unselectable) continue;
    const list = byClassifier.get(item.classifierId);
    if (list) list.push(item);
    else byClassifier.set(item.classifierId, [item]);
  }
  for (const list of byClassifier.values()) list.sort((a, b) => a.code.localeCompare(b.code));
  return byClassifier;
}

/** Where the records are: a sub-budget, or the scheme's unfit row. */
export type Place = Pick<SubBudget, 'name' | 'classifiers' | 'permissions'>;

/** The sub-budget's value of a classifier (its values are keyed by classifier id or field name). */
function subBudgetValue(subBudget: Place, classifier: Classifier): string {
  return subBudget.classifiers[classifier.id] ?? subBudget.classifiers[classifier.fieldName] ?? '';
}

/**
 * What the records screen reads: the sub-budget (found among the budget's sub-budgets of the
 * scheme, with the caller's grants), the document's classifiers and their items, and the records.
 * Records carry the values of the classifiers that are not grouping ones; those the sub-budget
 * fixes are shown in the header, the others are the table's columns.
 */
export function useRecordsData({
  budget,
  schemeId,
  subBudgetId,
  documentId,
  unfitName,
}: {
  budget: Budget;
  schemeId: string;
  subBudgetId: string;
  documentId: string;
  /** The name of the scheme's row of records that fit none of its sub-budgets. */
  unfitName: string;
}) {
  const ref: SubBudgetRef = useMemo(() => ({ budgetId: budget.id, subBudgetId, schemeId }), [budget.id, subBudgetId, schemeId]);
  const subBudgets = useQuery(schemeSubBudgetsQuery(budget.id, schemeId));
  const subBudget = useMemo<Place | undefined>(() => {
    // The unfit row (-2) is no sub-budget: its records are only viewed (they belong nowhere to be edited).
    if (subBudgetId === UNFIT_SUB_BUDGET) return subBudgets.data ? { name: unfitName, classifiers: {}, permissions: { read: true, update: false } } : undefined;
    return subBudgets.data?.find((candidate) => candidate.id === subBudgetId);
  }, [subBudgetId, subBudgets.data, unfitName]);
  const records = useQuery({ ...recordsQuery(ref), enabled: subBudget !== undefined });
  const classifiersAnswer = useQuery(classifiersQuery(documentId));
  const scheme = useQuery(schemesQuery(documentId)).data?.find((candidate) => candidate.id === schemeId);
  const all = classifiersAnswer.data;
  const itemsAnswer = useQuery(classifierItemsQuery(useMemo(() => (all ?? []).map((classifier) => classifier.id), [all])));

  const derived = useMemo(() => {
    const recordClassifiers = (all ?? []).filter((classifier) => classifier.groupingId === null).sort((a, b) => a.displayOrder - b.displayOrder);
    const fixed: Record<string, string> = {};
    const header: Array<{ classifier: Classifier; code: string }> = [];
    for (const classifier of recordClassifiers) {
      const code = subBudget ? subBudgetValue(subBudget, classifier) : '';
      if (code === '') continue;
      fixed[classifier.id] = code;
      header.push({ classifier, code });
    }
    const columns = recordClassifiers.filter((classifier) => fixed[classifier.id] === undefined);
    const itemList = itemsAnswer.data?.list ?? [];
    return {
      columns,
      fixed,
      header,
      items: indexItems(itemList) as ItemIndex,
      options: selectableItems(itemList),
      required: new Set(columns.filter((classifier) => classifier.required).map((classifier) => classifier.id)),
    };
  }, [all, subBudget, itemsAnswer.data]);

  // Editing needs the classifiers (their required flags and items); without them the table is read-only.
  const access: RecordsAccess = useMemo(() => {
    const granted = recordsAccess(subBudget, budget);
    return all ? granted : { write: false, promote: granted.promote };
  }, [subBudget, budget, all]);

  return { ref, subBudgets, subBudget, scheme, records, classifiersAnswer, access, ...derived };
}
