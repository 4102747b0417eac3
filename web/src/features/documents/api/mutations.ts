import type { CommandResult, Document, DocumentCreatedResult, DocumentInput } from '@eelarve/shared';
import { type QueryClient, useMutation, useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { api } from '../../../api';
import { orderList } from '../../../api/order';
import { documentKeys } from '../../../app/document/current-document';
import { useToasts } from '../../../components/Toasts';
import { REMEMBERED_DOCUMENT_KEY, type RememberedDocument } from './queries';

const enc = encodeURIComponent;

/** After a document changed: the sider, the document and what hangs under it. */
export async function refreshDocuments(queryClient: QueryClient): Promise<void> {
  await Promise.all([
    queryClient.invalidateQueries({ queryKey: documentKeys.all }),
    queryClient.invalidateQueries({ queryKey: ['budgets'] }),
    queryClient.invalidateQueries({ queryKey: ['classifiers'] }),
    queryClient.invalidateQueries({ queryKey: ['schemes'] }),
  ]);
}

/** Creates a document in the organisation (document null) or updates it; everything under documents is refreshed before `onSaved`. */
export function useSaveDocument(
  organizationId: string,
  document: Document | null,
  { onSaved, onError }: { onSaved: (result: DocumentCreatedResult | CommandResult) => void; onError: (error: Error) => void },
) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (payload: DocumentInput) =>
      document
        ? api.put<CommandResult>(`/api/document/${enc(document.id)}`, payload)
        : api.post<DocumentCreatedResult>(`/api/organization/${enc(organizationId)}/document`, payload),
    onSuccess: async (result) => {
      await refreshDocuments(queryClient);
      onSaved(result);
    },
    onError,
  });
}

/** Deletes the document; `onDeleted` runs first (leave its pages), then everything under documents is refreshed. */
export function useDeleteDocument(documentId: string, { onDeleted, onError }: { onDeleted: () => void; onError: (error: Error) => void }) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => api.delete<CommandResult>(`/api/document/${enc(documentId)}`),
    onSuccess: async () => {
      onDeleted();
      await refreshDocuments(queryClient);
    },
    onError,
  });
}

/** Stores the dragged order of the organisation's documents; `onSettled` runs after the list was refreshed. */
export function useReorderDocuments(organizationId: string, { onError, onSettled }: { onError: () => void; onSettled: () => void }) {
  const queryClient = useQueryClient();
  const { showError } = useToasts();
  return useMutation({
    mutationFn: (ids: string[]) => api.put<CommandResult>(`/api/organization/${enc(organizationId)}/documents/order`, { organizationId, list: orderList(ids) }),
    onError: (error) => {
      onError();
      showError(error);
    },
    onSettled: async () => {
      await queryClient.invalidateQueries({ queryKey: documentKeys.list(organizationId) });
      onSettled();
    },
  });
}

/** Remembers the open document as the user's setting; a failure is left unsaid (it is only a convenience). */
export function useRememberDocument(): (documentId: string) => void {
  const queryClient = useQueryClient();
  return useCallback(
    (documentId: string) => {
      api
        .put('/api/user-settings', { type: 'OCCUPATION_DOCUMENT', settings: { rememberedDocumentId: documentId } })
        .then(() =>
          queryClient.setQueryData<RememberedDocument>(REMEMBERED_DOCUMENT_KEY, {
            type: 'OCCUPATION_DOCUMENT',
            settings: { rememberedDocumentId: documentId },
          }),
        )
        .catch(() => undefined);
    },
    [queryClient],
  );
}
