import type { Classifier, ClassifierItem, ClassifierPreselections, Scheme, SchemeInput, SubBudget, SubBudgetImportRow } from '@eelarve/shared';
import { api, apiRequest } from '../../../api';

/** The HTTP calls of the schemes tab and of a budget's sub-budgets tab (spec 2, section 7); screens use the hooks of queries.ts and mutations.ts. */
export type CommandResult = { id: string; position: string | null };
export type ImportType = 'SUB_BUDGETS_WITH_PRESELECTIONS' | 'PRESELECTIONS_ONLY';

export const fetchSchemes = (documentId: string) => api.get<Scheme[]>(`/api/document/${documentId}/schemas`);
export const createScheme = (documentId: string, body: SchemeInput) => api.post<CommandResult>(`/api/document/${documentId}/schema`, body);
export const updateScheme = (schemeId: string, body: SchemeInput) => api.put<CommandResult>(`/api/schema/${schemeId}`, body);
export const deleteScheme = (schemeId: string) => api.delete<CommandResult>(`/api/schema/${schemeId}`);
export const reorderSchemes = (documentId: string, list: Array<{ id: string; displayOrder: number }>) =>
  api.put<CommandResult>(`/api/document/${documentId}/schema-display-order`, list);

export const fetchClassifiers = (documentId: string) => api.get<Classifier[]>(`/api/document/${documentId}/classifiers?includeMeta=false`);
export const fetchClassifierItems = (classifierIds: readonly string[]) =>
  api.get<{ classifiers: Classifier[]; list: ClassifierItem[] }>(`/api/classifier-items?classifierIds=${encodeURIComponent(classifierIds.join(','))}`);

export const fetchSubBudgets = (schemeId: string) => api.get<SubBudget[]>(`/api/schema/${schemeId}/sub-budgets`);
export type SubBudgetPayload = { name: string; classifiers: Record<string, string> };
export const createSubBudget = (schemeId: string, body: SubBudgetPayload) => api.post<CommandResult>(`/api/schema/${schemeId}/sub-budget`, body);
export const updateSubBudget = (schemeId: string, subBudgetId: string, body: SubBudgetPayload) =>
  api.put<CommandResult>(`/api/schema/${schemeId}/sub-budget/${subBudgetId}`, body);
export const deleteSubBudget = (schemeId: string, subBudgetId: string) => api.delete<CommandResult>(`/api/schema/${schemeId}/sub-budget/${subBudgetId}`);
export const deleteSubBudgets = (schemeId: string, ids: string[]) =>
  apiRequest<CommandResult>(`/api/schema/${schemeId}/sub-budgets`, { method: 'DELETE', body: { ids } });
/** `importId` names this import attempt: a retry with it answers the first result (`alreadyDone`). */
export const importSubBudgets = (schemeId: string, importType: ImportType, list: SubBudgetImportRow[], importId: string) =>
  api.post<{ imported: number; position: string | null; alreadyDone?: boolean }>(`/api/schema/${schemeId}/sub-budgets/import`, { importType, list, importId });

export const fetchPreselections = (subBudgetId: string) =>
  api.get<{ subBudgetId: string; preselections: ClassifierPreselections }>(`/api/sub-budget/${subBudgetId}/classifier-preselections`);
export const savePreselections = (subBudgetId: string, preselections: ClassifierPreselections) =>
  api.put<CommandResult>(`/api/sub-budget/${subBudgetId}/classifier-preselections`, { preselections });
export const fetchSchemePreselections = (schemeId: string) =>
  api.get<Array<{ subBudgetId: string; preselections: ClassifierPreselections }>>(`/api/schema/${schemeId}/classifier-preselections`);

export const fetchBudget = (budgetId: string) =>
  api.get<{ id: string; documentId: string; name: string; type: string; permissions: { read: boolean; update: boolean } }>(`/api/budget/${budgetId}`);
export const fetchBudgetSubBudgets = (budgetId: string, schemeId: string) => api.get<SubBudget[]>(`/api/budget/${budgetId}/schema/${schemeId}/sub-budgets`);
export const saveBudgetPins = (budgetId: string, schemeId: string, pinned: string[], confirmed?: boolean) =>
  api.put<CommandResult>(`/api/budget/${budgetId}/schema/${schemeId}/settings`, confirmed ? { pinned, confirmed } : { pinned });

export const fetchRememberedScheme = async (budgetId: string): Promise<string | null> => {
  const result = await api.get<{ settings: Record<string, unknown> }>(`/api/user-settings?type=BUDGET_SCHEME&budgetId=${budgetId}`);
  const value = result.settings.schemeId;
  return typeof value === 'string' ? value : null;
};
export const rememberScheme = (budgetId: string, schemeId: string) =>
  api.put(`/api/user-settings`, { type: 'BUDGET_SCHEME', budgetId, settings: { schemeId } });
