import type { Budget, BudgetAdminView, BudgetCopyPart, BudgetHierarchyNode } from '@eelarve/shared';
import { queryOptions } from '@tanstack/react-query';
import { api } from '../../../api';

const enc = encodeURIComponent;

export type BudgetView = Budget | BudgetAdminView;

export interface CopyScheme {
  schemeId: string;
  name: string;
  fieldName: string;
  targetSchemeId: string;
  pinnedCount: number;
}

/** Every budget query starts with `budgets`: a budget change refreshes them all. */
export const budgetKeys = {
  all: ['budgets'] as const,
  list: (documentId: string) => [...budgetKeys.all, documentId, 'list'] as const,
  hierarchy: (documentId: string) => [...budgetKeys.all, documentId, 'hierarchy'] as const,
  organization: (organizationId: string) => [...budgetKeys.all, 'organization', organizationId] as const,
  one: (budgetId: string) => [...budgetKeys.all, 'one', budgetId] as const,
  copySchemes: (budgetId: string, documentId: string) => [...budgetKeys.all, 'copy-schemes', budgetId, documentId] as const,
  copyParts: () => [...budgetKeys.all, 'copy-parts'] as const,
};

/** A document's budgets with their permissions and tags (the budget list, breadcrumbs, sum budget components). */
export const budgetListQuery = (documentId: string) =>
  queryOptions({ queryKey: budgetKeys.list(documentId), queryFn: () => api.get<BudgetView[]>(`/api/document/${enc(documentId)}/budgets?includeMeta=true`) });

/** The budgets a sum budget may add up (the document's hierarchy). */
export const budgetHierarchyQuery = (documentId: string) =>
  queryOptions({
    queryKey: budgetKeys.hierarchy(documentId),
    queryFn: () => api.get<BudgetHierarchyNode[]>(`/api/document/${enc(documentId)}/budgets/hierarchy`),
  });

/** The organisation's budgets (copy-from-existing offers them per document). */
export const organizationBudgetsQuery = (organizationId: string) =>
  queryOptions({ queryKey: budgetKeys.organization(organizationId), queryFn: () => api.get<BudgetView[]>(`/api/organization/${enc(organizationId)}/budgets`) });

/** One budget: a missing one is not retried (the layout says it was not found). */
export const budgetQuery = (budgetId: string) =>
  queryOptions({ queryKey: budgetKeys.one(budgetId), queryFn: () => api.get<BudgetView>(`/api/budget/${enc(budgetId)}`), retry: false });

/** The copy options this version can carry out (the others are offered greyed out). */
export const budgetCopyPartsQuery = () =>
  queryOptions({ queryKey: budgetKeys.copyParts(), queryFn: () => api.get<{ parts: BudgetCopyPart[] }>('/api/budget-copy/parts') });

/** The source budget's schemes as the target document has them (the copy's per-scheme choices). */
export const copySchemesQuery = (budgetId: string, targetDocumentId: string) =>
  queryOptions({
    queryKey: budgetKeys.copySchemes(budgetId, targetDocumentId),
    queryFn: () => api.get<CopyScheme[]>(`/api/budget/${enc(budgetId)}/copy-schemes?targetDocumentId=${enc(targetDocumentId)}`),
  });

/** Where a budget's name leads: common budgets to their sub-budgets, others to the report. */
export function budgetLink(documentId: string, budget: { id: string; type: Budget['type'] }): string {
  return budget.type === 'COMMON' ? `/document/${documentId}/budget/${budget.id}/sub-budgets` : `/document/${documentId}/budget/${budget.id}/report`;
}

export const isAdminView = (budget: BudgetView): budget is BudgetAdminView => 'syncEnabled' in budget;
