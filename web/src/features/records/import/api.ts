import type { BudgetRecord, ImportPreview, ImportRow, ImportStatus, ImportStatusAnswer } from '@eelarve/shared';
import { api } from '../../../api';
import type { ImportErrorReport } from './error-report';

/** The record import calls (spec 3, section 7): a budget's or one sub-budget's. */
const enc = encodeURIComponent;

/** Where the rows go: a budget, or one sub-budget of it. */
export interface ImportTarget {
  budgetId: string;
  subBudgetId: string | null;
}

const base = ({ budgetId, subBudgetId }: ImportTarget) =>
  subBudgetId ? `/api/budget/${enc(budgetId)}/sub-budget/${enc(subBudgetId)}` : `/api/budget/${enc(budgetId)}`;

export interface ImportStarted {
  id: string;
  status: ImportStatus;
}

/** POST .../records: the rows gzip-compressed, with the source's name and this attempt's id (a retry answers the same import). */
export const startImport = (target: ImportTarget, list: ImportRow[], importId: string, originResourceName: string) =>
  api.post<ImportStarted>(`${base(target)}/records?${new URLSearchParams({ originResourceName }).toString()}`, { list, importId }, { gzip: true });

/** Beyond the spec: what the rows would change, per sub-budget of each scheme, before they are sent. */
export const previewImport = (target: ImportTarget, list: ImportRow[]) => api.post<ImportPreview>(`${base(target)}/records/preview`, { list }, { gzip: true });

/** The latest import of the budget (or sub-budget). */
export const fetchImportStatus = (target: ImportTarget) => api.get<ImportStatusAnswer>(`${base(target)}/import/status`);

/** The latest finished import of a budget (spec 3, section 7: GET .../import/report). */
export const fetchImportReport = (budgetId: string) => api.get<ImportStatusAnswer>(`/api/budget/${enc(budgetId)}/import/report`);

/** The error rows of the budget's latest finished import (GET .../import/error). */
export const fetchImportErrorReport = (budgetId: string) => api.get<ImportErrorReport>(`/api/budget/${enc(budgetId)}/import/error`);

/** A whole budget's records (import from another budget). */
export const fetchBudgetRecords = async (budgetId: string) => {
  const answer = await api.get<BudgetRecord[] | { list: BudgetRecord[] }>(`/api/budget/${enc(budgetId)}/records?include-comments=false`);
  return Array.isArray(answer) ? answer : answer.list;
};

/** A budget of the document as the source list needs it. */
export interface SourceBudget {
  id: string;
  name: string;
  permissions: { read: boolean; restrictions: readonly string[] };
}

/** The document's budgets (import from another budget offers those the caller can read). */
export const fetchDocumentBudgets = (documentId: string) => api.get<SourceBudget[]>(`/api/document/${enc(documentId)}/budgets`);

/** Readable: a read grant and no READ_DISABLED status rule. */
export const isReadable = (budget: SourceBudget) => budget.permissions.read && !budget.permissions.restrictions.includes('READ_DISABLED');
