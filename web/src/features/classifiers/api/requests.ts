import type {
  Classifier,
  ClassifierCreateInput,
  ClassifierItem,
  ClassifierItemInput,
  ClassifierItemsBulkEdit,
  ClassifierUpdateInput,
  CommandResult,
  ImportValidation,
  Scheme,
} from '@eelarve/shared';
import { api } from '../../../api';
import { ApiError, codeForStatus } from '../../../api/errors';

/** The HTTP calls of the classifiers tab (spec 2, section 7: classifiers and items); screens use the hooks of queries.ts and mutations.ts. */

export const fetchClassifiers = (documentId: string) => api.get<Classifier[]>(`/api/document/${documentId}/classifiers?includeMeta=true`);
export const createClassifier = (documentId: string, body: ClassifierCreateInput) => api.post<CommandResult>(`/api/document/${documentId}/classifier`, body);
export const updateClassifier = (id: string, body: ClassifierUpdateInput) => api.put<CommandResult>(`/api/classifier/${id}`, body);
export const deleteClassifier = (id: string) => api.delete<CommandResult>(`/api/classifier/${id}`);
export const reorderClassifiers = (documentId: string, list: { id: string; displayOrder: number }[]) =>
  api.put<CommandResult>(`/api/document/${documentId}/classifier-order`, { list });

export const fetchSchemes = (documentId: string) => api.get<Scheme[]>(`/api/document/${documentId}/schemas`);
export const fetchItems = (classifierId: string) => api.get<ClassifierItem[]>(`/api/classifier/${classifierId}/items?includeMeta=true`);
export const fetchItemsOf = (classifierIds: readonly string[]) =>
  api.get<{ classifiers: Classifier[]; list: ClassifierItem[] }>(`/api/classifier-items?classifierIds=${classifierIds.join(',')}`);
export const addItem = (classifierId: string, body: ClassifierItemInput) => api.post<CommandResult>(`/api/classifier/${classifierId}/item`, body);
export const updateItem = (classifierId: string, id: string, body: ClassifierItemInput) =>
  api.put<CommandResult>(`/api/classifier/${classifierId}/item/${id}`, body);
export const bulkEditItems = (classifierId: string, body: ClassifierItemsBulkEdit) => api.put<CommandResult>(`/api/classifier/${classifierId}/items`, body);
export const deleteItem = (classifierId: string, itemId: string) => api.delete<CommandResult>(`/api/classifier/${classifierId}/item/${itemId}`);
export const deleteItems = (classifierId: string, itemIds: string[]) => api.post<CommandResult>(`/api/classifier/${classifierId}/items/delete`, { itemIds });

export interface ImportResult {
  id: string;
  imported: number;
  skipped: { row: number; errors: { field: string; message: string }[] }[];
  alreadyDone?: boolean;
}

/** `importId` names this import attempt: a retry with it answers the first result (`alreadyDone`). */
export const importItems = (classifierId: string, documentId: string, items: Record<string, unknown>[], loose: boolean, importId: string) =>
  api.post<ImportResult>(`/api/classifier/${classifierId}/items`, { documentId, classifierId, loose, items, importId });

export const templateUrl = (classifierId: string, format: 'xlsx' | 'csv') => `/api/classifier/${classifierId}/items/template?format=${format}`;

/** Uploads an .xlsx or .csv file to be checked: every row with its values and errors. */
export async function validateImportFile(classifierId: string, file: File): Promise<ImportValidation> {
  const form = new FormData();
  form.append('file', file, file.name);
  let response: Response;
  try {
    response = await fetch(`/api/classifier/${classifierId}/items/validate`, {
      method: 'POST',
      body: form,
      credentials: 'same-origin',
      headers: { Accept: 'application/json' },
    });
  } catch (cause) {
    throw new ApiError(0, 'NETWORK_ERROR', cause instanceof Error ? cause.message : undefined);
  }
  const text = await response.text();
  let body: Record<string, unknown> | null = null;
  try {
    body = text ? (JSON.parse(text) as Record<string, unknown>) : null;
  } catch {
    body = null;
  }
  if (response.ok) return body as unknown as ImportValidation;
  throw new ApiError(
    response.status,
    codeForStatus(response.status, body?.code),
    typeof body?.message === 'string' ? body.message : response.statusText,
    body?.details,
  );
}
