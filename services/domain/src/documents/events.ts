import type { DomainEvent } from '../decider';

/** A budget period: start year and month and a duration of 1 to 5 years (spec 2, sections 1 and 9). */
export interface DocumentPeriod {
  year: number;
  month: number;
  duration: number;
}

/** The settings a document carries (spec 2, section 3), as every create and update event records them. */
export interface DocumentSettings {
  name: string;
  description: string;
  period: DocumentPeriod;
  recordAmountKey: string;
  allowCommentingWithReadPermissions: boolean;
  resourceStatusId: string | null;
}

export type DocumentCreated = DomainEvent<
  'DocumentCreated',
  DocumentSettings & {
    documentId: string;
    organizationId: string;
    createdAt: string;
    /** Set when the document was made as a copy of another one (the copy task fills in the rest). */
    copiedFromDocumentId?: string | null;
  }
>;
export type DocumentUpdated = DomainEvent<
  'DocumentUpdated',
  DocumentSettings & { documentId: string; organizationId: string; masterClassifierId: string | null }
>;
export type DocumentDeleted = DomainEvent<'DocumentDeleted', { documentId: string; organizationId: string }>;
/** Order values count down from the list's length (spec 2, section 3): the highest comes first. */
export type DocumentsReordered = DomainEvent<'DocumentsReordered', { organizationId: string; list: { id: string; order: number }[] }>;

export type DocumentEvent = DocumentCreated | DocumentUpdated | DocumentDeleted;
export type DocumentOrderEvent = DocumentsReordered;
export const DOCUMENT_EVENT_TYPES = ['DocumentCreated', 'DocumentUpdated', 'DocumentDeleted'] as const satisfies readonly DocumentEvent['type'][];
export const DOCUMENT_ORDER_EVENT_TYPES = ['DocumentsReordered'] as const satisfies readonly DocumentOrderEvent['type'][];
