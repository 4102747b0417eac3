import { queryOptions } from '@tanstack/react-query';
import {
  fetchBudget,
  fetchBudgetSubBudgets,
  fetchClassifierItems,
  fetchClassifiers,
  fetchPreselections,
  fetchRememberedScheme,
  fetchSchemes,
  fetchSubBudgets,
} from './requests';

/** Every scheme query starts with `schemes`: a document change refreshes them all. */
export const schemeKeys = {
  all: ['schemes'] as const,
  list: (documentId: string) => ['schemes', 'document', documentId] as const,
  subBudgets: (schemeId: string) => ['schemes', 'sub-budgets', schemeId] as const,
  budgetSubBudgets: (budgetId: string, schemeId: string) => ['schemes', 'budget-sub-budgets', budgetId, schemeId] as const,
  preselections: (subBudgetId: string) => ['schemes', 'preselections', subBudgetId] as const,
  schemePreselections: (schemeId: string) => ['schemes', 'scheme-preselections', schemeId] as const,
  classifiers: (documentId: string) => ['schemes', 'classifiers', documentId] as const,
  items: (classifierIds: readonly string[]) => ['schemes', 'classifier-items', [...classifierIds].sort().join(',')] as const,
  budget: (budgetId: string) => ['schemes', 'budget', budgetId] as const,
  budgetScheme: (budgetId: string) => ['schemes', 'budget-scheme-setting', budgetId] as const,
};

export const schemeListQuery = (documentId: string) =>
  queryOptions({ queryKey: schemeKeys.list(documentId), queryFn: () => fetchSchemes(documentId), enabled: documentId !== '' });

/** The document's classifiers (names for the scheme and sub-budget columns). */
export const schemeClassifiersQuery = (documentId: string) =>
  queryOptions({ queryKey: schemeKeys.classifiers(documentId), queryFn: () => fetchClassifiers(documentId), enabled: documentId !== '' });

/** The items of the scheme's classifiers (the sub-budgets' values and their names). */
export const classifierItemsQuery = (classifierIds: readonly string[]) =>
  queryOptions({ queryKey: schemeKeys.items(classifierIds), queryFn: () => fetchClassifierItems(classifierIds), enabled: classifierIds.length > 0 });

export const subBudgetsQuery = (schemeId: string) =>
  queryOptions({ queryKey: schemeKeys.subBudgets(schemeId), queryFn: () => fetchSubBudgets(schemeId), enabled: schemeId !== '' });

export const preselectionsQuery = (subBudgetId: string) =>
  queryOptions({ queryKey: schemeKeys.preselections(subBudgetId), queryFn: () => fetchPreselections(subBudgetId) });

/** The budget of a sub-budgets tab (its type and whether the user may pin). */
export const schemeBudgetQuery = (budgetId: string) =>
  queryOptions({ queryKey: schemeKeys.budget(budgetId), queryFn: () => fetchBudget(budgetId), enabled: budgetId !== '' });

/** A common budget's sub-budgets of one scheme, with their pins and record counts. */
export const budgetSubBudgetsQuery = (budgetId: string, schemeId: string | null) =>
  queryOptions({
    queryKey: schemeKeys.budgetSubBudgets(budgetId, schemeId ?? ''),
    queryFn: () => fetchBudgetSubBudgets(budgetId, schemeId ?? ''),
    enabled: schemeId !== null,
  });

/** The scheme the user last had open on a budget's sub-budgets tab (user setting BUDGET_SCHEME). */
export const rememberedSchemeQuery = (budgetId: string) =>
  queryOptions({ queryKey: schemeKeys.budgetScheme(budgetId), queryFn: () => fetchRememberedScheme(budgetId), enabled: budgetId !== '', retry: false });
