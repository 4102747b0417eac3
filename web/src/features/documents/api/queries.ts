import type { DocumentCopyPart } from '@eelarve/shared';
import { queryOptions } from '@tanstack/react-query';
import { api } from '../../../api';
import { documentKeys } from '../../../app/document/current-document';

const enc = encodeURIComponent;

/** A classifier as the document forms need it (master classifier options). */
export interface ClassifierOption {
  id: string;
  name: string;
  required: boolean;
  groupingId: string | null;
  isInUseSchema: boolean;
}

/** The copy options the server can carry out now. */
export const documentCopyPartsQuery = () =>
  queryOptions({ queryKey: documentKeys.copyParts(), queryFn: () => api.get<{ parts: DocumentCopyPart[] }>('/api/document-copy/parts') });

/** The document's classifiers, for the settings form's master classifier choice. */
export const documentClassifiersQuery = (documentId: string) =>
  queryOptions({ queryKey: documentKeys.classifiers(documentId), queryFn: () => api.get<ClassifierOption[]>(`/api/document/${enc(documentId)}/classifiers`) });

export const REMEMBERED_DOCUMENT_KEY = ['user-settings', 'OCCUPATION_DOCUMENT'] as const;
export type RememberedDocument = { type: string; settings: { rememberedDocumentId?: string } };

/** The document the user had open last (user setting OCCUPATION_DOCUMENT). */
export const rememberedDocumentQuery = () =>
  queryOptions({
    queryKey: REMEMBERED_DOCUMENT_KEY,
    queryFn: () => api.get<RememberedDocument>('/api/user-settings?type=OCCUPATION_DOCUMENT'),
    staleTime: Number.POSITIVE_INFINITY,
  });
