import { BUDGET_LIMITS, type Document } from '@eelarve/shared';
import { queryOptions } from '@tanstack/react-query';
import { useOutletContext } from 'react-router';
import { api } from '../../api';
import { documentPath } from './paths';

/**
 * The current document, shared by every screen under /document/{documentId}: the document layout
 * loads it and hands it to its tabs (budgets, classifiers, schemes, settings).
 */
export interface DocumentContext {
  document: Document;
}

/** The document the layout loaded, for its tabs. */
export function useDocument(): Document {
  return useOutletContext<DocumentContext>().document;
}

const enc = encodeURIComponent;

/** Query keys of documents: every document query starts with `documents`, so one invalidation refreshes them all. */
export const documentKeys = {
  all: ['documents'] as const,
  list: (organizationId: string) => [...documentKeys.all, 'list', organizationId] as const,
  one: (documentId: string) => [...documentKeys.all, 'one', documentId] as const,
  /** Under `classifiers`: a classifier change refreshes the settings form's master classifier options too. */
  classifiers: (documentId: string) => ['classifiers', documentId, 'document-form'] as const,
  copyParts: () => [...documentKeys.all, 'copy-parts'] as const,
};

/** One document: a missing one is not retried (the layout says it was not found). */
export const documentQuery = (documentId: string) =>
  queryOptions({ queryKey: documentKeys.one(documentId), queryFn: () => api.get<Document>(documentPath(documentId)), retry: false });

/** The organisation's documents in their order (the sider, copy sources). */
export const documentListQuery = (organizationId: string) =>
  queryOptions({
    queryKey: documentKeys.list(organizationId),
    queryFn: () => api.get<Document[]>(`/api/organization/${enc(organizationId)}/documents`),
    enabled: organizationId !== '',
  });

/** A name cut for breadcrumbs and narrow places (the full name is its title). */
export const truncate = (text: string, max: number = BUDGET_LIMITS.displayTruncate) => (text.length > max ? `${text.slice(0, max)}…` : text);
