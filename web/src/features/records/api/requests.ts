import type { BudgetRecord, Classifier, ClassifierItem, CommandResult, RecordHistoryEntry, RecordInput, Scheme, SubBudget } from '@eelarve/shared';
import { api } from '../../../api';
import type { BulkEditBody } from '../model/bulk-edit';

/** The HTTP calls of the records screen (spec 3, section 7); screens use the hooks of queries.ts and mutations.ts. */
const enc = encodeURIComponent;

/** The base of a sub-budget's record calls: /api/budget/{b}/sub-budget/{s}. */
export interface SubBudgetRef {
  budgetId: string;
  /** A sub-budget's id, or UNFIT_SUB_BUDGET with `schemeId`. */
  subBudgetId: string;
  schemeId?: string;
}

/** The scheme's row of records that fit none of its sub-budgets (spec 2: the -2 row). */
export const UNFIT_SUB_BUDGET = '-2';

const base = ({ budgetId, subBudgetId }: SubBudgetRef) => `/api/budget/${enc(budgetId)}/sub-budget/${enc(subBudgetId)}`;
/** The unfit row names its scheme in the query. */
const query = ({ subBudgetId, schemeId }: SubBudgetRef) => (subBudgetId === UNFIT_SUB_BUDGET && schemeId ? `?schemaId=${enc(schemeId)}` : '');
const at = (ref: SubBudgetRef, path: string) => `${base(ref)}${path}${query(ref)}`;

export const fetchRecords = (ref: SubBudgetRef) => api.get<BudgetRecord[]>(at(ref, '/records'));
export const createRecord = (ref: SubBudgetRef, body: RecordInput & { duplicatedFrom?: string }) => api.post<CommandResult>(at(ref, '/record'), body);
export const updateRecord = (ref: SubBudgetRef, recordId: string, body: RecordInput) => api.put<CommandResult>(at(ref, `/record/${enc(recordId)}`), body);
export const promoteRecord = (ref: SubBudgetRef, recordId: string) => api.post<CommandResult>(at(ref, `/record/${enc(recordId)}/promote`), {});
export const deleteRecord = (ref: SubBudgetRef, recordId: string) => api.delete<CommandResult>(at(ref, `/record/${enc(recordId)}`));
export const deleteRecords = (ref: SubBudgetRef, recordIds: string[]) => api.post<CommandResult>(at(ref, '/records-delete'), { recordIds });
export const bulkEditRecords = (ref: SubBudgetRef, body: BulkEditBody) => api.post<CommandResult>(at(ref, '/records-bulk-edit'), body);
export const fetchRecordHistory = (ref: SubBudgetRef, recordId: string) => api.get<RecordHistoryEntry[]>(at(ref, `/record/${enc(recordId)}/history`));
export const revertRecordChange = (ref: SubBudgetRef, recordId: string, eventId: string) =>
  api.post<CommandResult>(at(ref, `/record/${enc(recordId)}/revert`), { eventId });

/** The sub-budgets of the budget in a scheme, with the caller's grants on each (the screen's header and access). */
export const fetchSchemeSubBudgets = (budgetId: string, schemeId: string) =>
  api.get<SubBudget[]>(`/api/budget/${enc(budgetId)}/schema/${enc(schemeId)}/sub-budgets`);
/** The document's schemes (which classifiers a scheme has: an import into the sub-budget needs them). */
export const fetchSchemes = (documentId: string) => api.get<Scheme[]>(`/api/document/${enc(documentId)}/schemas`);
export const fetchClassifiers = (documentId: string) => api.get<Classifier[]>(`/api/document/${enc(documentId)}/classifiers?includeMeta=false`);
export const fetchClassifierItems = (classifierIds: readonly string[]) =>
  api.get<{ classifiers: Classifier[]; list: ClassifierItem[] }>(`/api/classifier-items?classifierIds=${enc(classifierIds.join(','))}`);
