import type { DomainEvent } from '../decider';

/**
 * Records (budget lines; issue 11). Each record made on a screen has its own stream
 * (`record-<recordId>`), so people editing different lines of one budget never collide
 * (docs/architecture.md, "Streams for concurrent editing").
 *
 * An import is all or nothing, and the store appends atomically only to one stream: every record
 * of one import is born in `RecordsImported` events of the import's own stream
 * (`record-import-<importId>`), a chunk of rows per event, all appended at once. A record born
 * there keeps its later changes in `record-<recordId>`; its state is the row of the chunk followed
 * by the events of its own stream (`recordOrigin` on the command).
 *
 * Amounts are canonical decimal strings (shared/src/decimal.ts); `classifiers` maps a classifier
 * id to an item code; `months` is one amount per month of the document period, or null.
 */
export interface RecordValues {
  name: string;
  amount: string;
  months: string[] | null;
  /** Classifier id → item code. */
  classifiers: Record<string, string>;
}

export interface RecordRef {
  recordId: string;
  budgetId: string;
  documentId: string;
  organizationId: string;
}

export type RecordCreated = DomainEvent<
  'RecordCreated',
  RecordRef & RecordValues & { promoted: boolean /** Set when the record was made as a copy of another. */; duplicatedFrom: string | null }
>;
/** The full new values (history compares versions); `revertedEventId` when it undid an earlier change. */
export type RecordUpdated = DomainEvent<'RecordUpdated', RecordRef & RecordValues & { revertedEventId: string | null }>;
export type RecordPromotionSet = DomainEvent<'RecordPromotionSet', RecordRef & { promoted: boolean; revertedEventId: string | null }>;
export type RecordDeleted = DomainEvent<'RecordDeleted', RecordRef>;
/** A deleted record brought back by reverting its deletion. */
export type RecordRestored = DomainEvent<'RecordRestored', RecordRef & RecordValues & { promoted: boolean; revertedEventId: string }>;

export type RecordEvent = RecordCreated | RecordUpdated | RecordPromotionSet | RecordDeleted | RecordRestored;

export interface ImportedRecord extends RecordValues {
  recordId: string;
}

/** One chunk of an import (at most RECORDS_PER_IMPORT_CHUNK rows), in `record-import-<importId>`. */
export type RecordsImported = DomainEvent<
  'RecordsImported',
  {
    importId: string;
    budgetId: string;
    documentId: string;
    organizationId: string;
    /** 0-based chunk number within the import. */
    chunk: number;
    /** The file's or source budget's name (spec: originResourceName). */
    originResourceName: string;
    records: ImportedRecord[];
  }
>;

export const RECORDS_PER_IMPORT_CHUNK = 500;

export const recordStreamName = (recordId: string) => `record-${recordId}`;
export const recordImportStreamName = (importId: string) => `record-import-${importId}`;
