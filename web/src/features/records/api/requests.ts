import type { BudgetRecord, Classifier, ClassifierItem, CommandResult, RecordHistoryEntry, RecordInput, SubBudget } from '@eelarve/shared';
import { api } from '../../../api';
import type { BulkEditBody } from '../model/bulk-edit';

/** The HTTP calls of the records screen (spec 3, section 7); screens use the hooks of queries.ts and mutations.ts. */
const enc = encodeURIComponent;

/** The base of a sub-budget's record calls: /api/budget/{b}/sub-budget/{s}. */
export interface SubBudgetRef {
  budgetId: string;
  subBudgetId: string;
}

const base = ({ budgetId, subBudgetId }: SubBudgetRef) => `/api/budget/${enc(budgetId)}/sub-budget/${enc(subBudgetId)}`;

/** A list answer may come bare or as `{ list }`. */
const listOf = <T>(answer: T[] | { list: T[] }): T[] => (Array.isArray(answer) ? answer : answer.list);

export const fetchRecords = async (ref: SubBudgetRef) => listOf(await api.get<BudgetRecord[] | { list: BudgetRecord[] }>(`${base(ref)}/records`));
export const createRecord = (ref: SubBudgetRef, body: RecordInput & { duplicatedFrom?: string }) => api.post<CommandResult>(`${base(ref)}/record`, body);
export const updateRecord = (ref: SubBudgetRef, recordId: string, body: RecordInput) => api.put<CommandResult>(`${base(ref)}/record/${enc(recordId)}`, body);
export const promoteRecord = (ref: SubBudgetRef, recordId: string) => api.post<CommandResult>(`${base(ref)}/record/${enc(recordId)}/promote`, {});
export const deleteRecord = (ref: SubBudgetRef, recordId: string) => api.delete<CommandResult>(`${base(ref)}/record/${enc(recordId)}`);
export const deleteRecords = (ref: SubBudgetRef, recordIds: string[]) => api.post<CommandResult>(`${base(ref)}/records-delete`, { recordIds });
export const bulkEditRecords = (ref: SubBudgetRef, body: BulkEditBody) => api.post<CommandResult>(`${base(ref)}/records-bulk-edit`, body);
export const fetchRecordHistory = async (ref: SubBudgetRef, recordId: string) =>
  listOf(await api.get<RecordHistoryEntry[] | { list: RecordHistoryEntry[] }>(`${base(ref)}/record/${enc(recordId)}/history`));
export const revertRecordChange = (ref: SubBudgetRef, recordId: string, eventId: string) =>
  api.post<CommandResult>(`${base(ref)}/record/${enc(recordId)}/revert`, { eventId });

/** The sub-budgets of the budget in a scheme, with the caller's grants on each (the screen's header and access). */
export const fetchSchemeSubBudgets = (budgetId: string, schemeId: string) => api.get<SubBudget[]>(`/api/budget/${enc(budgetId)}/schema/${enc(schemeId)}/sub-budgets`);
export const fetchClassifiers = (documentId: string) => api.get<Classifier[]>(`/api/document/${enc(documentId)}/classifiers?includeMeta=false`);
export const fetchClassifierItems = (classifierIds: readonly string[]) =>
  api.get<{ classifiers: Classifier[]; list: ClassifierItem[] }>(`/api/classifier-items?classifierIds=${enc(classifierIds.join(','))}`);
