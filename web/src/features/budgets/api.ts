import type { Budget, BudgetAdminView, BudgetCopyPart, BudgetHierarchyNode, BudgetInput, CommandResult } from '@eelarve/shared';
import { api } from '../../api';
import { orderList } from '../documents/api';

const enc = encodeURIComponent;

export type BudgetView = Budget | BudgetAdminView;

export interface CopyScheme {
  schemeId: string;
  name: string;
  fieldName: string;
  targetSchemeId: string;
  pinnedCount: number;
}

export const budgetKeys = {
  all: ['budgets'] as const,
  list: (documentId: string) => [...budgetKeys.all, documentId, 'list'] as const,
  hierarchy: (documentId: string) => [...budgetKeys.all, documentId, 'hierarchy'] as const,
  organization: (organizationId: string) => [...budgetKeys.all, 'organization', organizationId] as const,
  one: (budgetId: string) => [...budgetKeys.all, 'one', budgetId] as const,
  copySchemes: (budgetId: string, documentId: string) => [...budgetKeys.all, 'copy-schemes', budgetId, documentId] as const,
  copyParts: () => [...budgetKeys.all, 'copy-parts'] as const,
};

export const fetchBudgets = (documentId: string) => api.get<BudgetView[]>(`/api/document/${enc(documentId)}/budgets?includeMeta=true`);
export const fetchHierarchy = (documentId: string) => api.get<BudgetHierarchyNode[]>(`/api/document/${enc(documentId)}/budgets/hierarchy`);
/** The organisation's budgets (copy-from-existing offers them per document). */
export const fetchOrganizationBudgets = (organizationId: string) => api.get<BudgetView[]>(`/api/organization/${enc(organizationId)}/budgets`);
export const fetchBudget = (budgetId: string) => api.get<BudgetView>(`/api/budget/${enc(budgetId)}`);
export const createBudget = (documentId: string, body: BudgetInput) => api.post<CommandResult>(`/api/document/${enc(documentId)}/budget`, body);
export const updateBudget = (budgetId: string, body: BudgetInput) => api.put<CommandResult>(`/api/budget/${enc(budgetId)}`, body);
export const deleteBudget = (budgetId: string) => api.delete<CommandResult>(`/api/budget/${enc(budgetId)}`);
export const updateBudgetTags = (budgetId: string, tags: string[]) => api.put<CommandResult>(`/api/budget/${enc(budgetId)}/tags`, { tags });
export const reorderBudgets = (documentId: string, ids: readonly string[]) =>
  api.put<CommandResult>(`/api/document/${enc(documentId)}/budgets/order`, { documentId, list: orderList(ids) });
export const setBudgetSync = (budgetId: string, enabled: boolean) => api.put<CommandResult>(`/api/admin/budgets/${enc(budgetId)}/sync`, { enabled });
export const fetchApiKey = (budgetId: string) => api.get<{ apiKey: string }>(`/api/budget/${enc(budgetId)}/api-key`);
/** The copy options this version can carry out (the others are offered greyed out). */
export const fetchCopyParts = () => api.get<{ parts: BudgetCopyPart[] }>('/api/budget-copy/parts');
export const fetchCopySchemes = (budgetId: string, targetDocumentId: string) =>
  api.get<CopyScheme[]>(`/api/budget/${enc(budgetId)}/copy-schemes?targetDocumentId=${enc(targetDocumentId)}`);

/** Where a budget's name leads: common budgets to their sub-budgets, others to the report. */
export function budgetLink(documentId: string, budget: { id: string; type: Budget['type'] }): string {
  return budget.type === 'COMMON' ? `/document/${documentId}/budget/${budget.id}/sub-budgets` : `/document/${documentId}/budget/${budget.id}/report`;
}

export const isAdminView = (budget: BudgetView): budget is BudgetAdminView => 'syncEnabled' in budget;
