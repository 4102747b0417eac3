import type { CommandResult, Document, DocumentCopyPart, DocumentCreatedResult, DocumentInput, Task } from '@eelarve/shared';
import { FINAL_TASK_STATUSES } from '@eelarve/shared';
import type { QueryClient } from '@tanstack/react-query';
import { api } from '../../api';

const enc = encodeURIComponent;

/** A classifier as the document forms need it (master classifier options). */
export interface ClassifierOption {
  id: string;
  name: string;
  required: boolean;
  groupingId: string | null;
  isInUseSchema: boolean;
}

export const documentKeys = {
  all: ['documents'] as const,
  list: (organizationId: string) => [...documentKeys.all, 'list', organizationId] as const,
  one: (documentId: string) => [...documentKeys.all, 'one', documentId] as const,
  classifiers: (documentId: string) => ['classifiers', documentId, 'document-form'] as const,
  copyParts: () => [...documentKeys.all, 'copy-parts'] as const,
};

export const fetchDocuments = (organizationId: string) => api.get<Document[]>(`/api/organization/${enc(organizationId)}/documents`);
/** The copy options the server can carry out now. */
export const fetchCopyParts = () => api.get<{ parts: DocumentCopyPart[] }>('/api/document-copy/parts');
export const fetchDocument = (documentId: string) => api.get<Document>(`/api/document/${enc(documentId)}`);
export const createDocument = (organizationId: string, body: DocumentInput) =>
  api.post<DocumentCreatedResult>(`/api/organization/${enc(organizationId)}/document`, body);
export const updateDocument = (documentId: string, body: DocumentInput) => api.put<CommandResult>(`/api/document/${enc(documentId)}`, body);
export const deleteDocument = (documentId: string) => api.delete<CommandResult>(`/api/document/${enc(documentId)}`);
export const fetchDocumentClassifiers = (documentId: string) => api.get<ClassifierOption[]>(`/api/document/${enc(documentId)}/classifiers`);
export const fetchTask = (taskId: string) => api.get<Task>(`/api/task/${enc(taskId)}`);

/** Order values count down from the list's length (spec 2, section 3). */
export function orderList(ids: readonly string[]): { id: string; order: number }[] {
  return ids.map((id, index) => ({ id, order: ids.length - index }));
}

export const reorderDocuments = (organizationId: string, ids: readonly string[]) =>
  api.put<CommandResult>(`/api/organization/${enc(organizationId)}/documents/order`, { organizationId, list: orderList(ids) });

export const fetchRememberedDocument = () =>
  api.get<{ type: string; settings: { rememberedDocumentId?: string } }>('/api/user-settings?type=OCCUPATION_DOCUMENT');
export const rememberDocument = (documentId: string) =>
  api.put('/api/user-settings', { type: 'OCCUPATION_DOCUMENT', settings: { rememberedDocumentId: documentId } });

export const isFinalTask = (task: Task) => FINAL_TASK_STATUSES.includes(task.status);

/** After a document changed: the sider, the document and what hangs under it. */
export async function refreshDocuments(queryClient: QueryClient): Promise<void> {
  await Promise.all([
    queryClient.invalidateQueries({ queryKey: documentKeys.all }),
    queryClient.invalidateQueries({ queryKey: ['budgets'] }),
    queryClient.invalidateQueries({ queryKey: ['classifiers'] }),
    queryClient.invalidateQueries({ queryKey: ['schemes'] }),
  ]);
}
