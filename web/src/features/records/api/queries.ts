import { queryOptions } from '@tanstack/react-query';
import { fetchClassifierItems, fetchClassifiers, fetchRecordHistory, fetchRecords, fetchSchemes, fetchSchemeSubBudgets, type SubBudgetRef } from './requests';

/** Every records query starts with `records` and the budget: a change of one budget's records refreshes them. */
export const recordKeys = {
  all: ['records'] as const,
  budget: (budgetId: string) => ['records', budgetId] as const,
  list: ({ budgetId, subBudgetId, schemeId }: SubBudgetRef) => ['records', budgetId, 'sub-budget', subBudgetId, schemeId ?? ''] as const,
  history: (ref: SubBudgetRef, recordId: string) => [...recordKeys.list(ref), 'history', recordId] as const,
  subBudgets: (budgetId: string, schemeId: string) => ['records', budgetId, 'scheme-sub-budgets', schemeId] as const,
  classifiers: (documentId: string) => ['records', 'classifiers', documentId] as const,
  schemes: (documentId: string) => ['records', 'schemes', documentId] as const,
  items: (classifierIds: readonly string[]) => ['records', 'classifier-items', [...classifierIds].sort().join(',')] as const,
};

/** The records of one sub-budget. */
export const recordsQuery = (ref: SubBudgetRef) => queryOptions({ queryKey: recordKeys.list(ref), queryFn: () => fetchRecords(ref) });

/** A record's versions, oldest first. */
export const recordHistoryQuery = (ref: SubBudgetRef, recordId: string) =>
  queryOptions({ queryKey: recordKeys.history(ref, recordId), queryFn: () => fetchRecordHistory(ref, recordId) });

/** The budget's sub-budgets of the scheme (the one shown is found among them). */
export const schemeSubBudgetsQuery = (budgetId: string, schemeId: string) =>
  queryOptions({ queryKey: recordKeys.subBudgets(budgetId, schemeId), queryFn: () => fetchSchemeSubBudgets(budgetId, schemeId), retry: false });

/** The document's classifiers: the table's columns. Without the privilege to read them the codes are shown. */
export const classifiersQuery = (documentId: string) =>
  queryOptions({ queryKey: recordKeys.classifiers(documentId), queryFn: () => fetchClassifiers(documentId), retry: false });

/** The classifiers' items: names, the grouping values and the selects' options. */
export const classifierItemsQuery = (classifierIds: readonly string[]) =>
  queryOptions({
    queryKey: recordKeys.items(classifierIds),
    queryFn: () => fetchClassifierItems(classifierIds),
    enabled: classifierIds.length > 0,
    retry: false,
  });

/** The document's schemes. */
export const schemesQuery = (documentId: string) => queryOptions({ queryKey: recordKeys.schemes(documentId), queryFn: () => fetchSchemes(documentId) });
