import type { CodeSettings, DisplayMode, GroupedByRef } from '@eelarve/shared';
import type { DomainEvent } from '../decider';

/**
 * A classifier and all its items live in one stream (`classifier-<id>`): the item rules (unique
 * codes, codes against the code settings, length bounds against existing codes) are decided on
 * one consistent state, and an import of 20,000 items is a single event and a single append.
 */
interface ClassifierRef {
  classifierId: string;
  documentId: string;
  organizationId: string;
}

export interface ClassifierDefinition {
  name: string;
  itemName: string;
  fieldName: string;
  description: string;
  required: boolean;
  itemCanChangeSign: boolean;
  primary: boolean;
  primaryGroupedById: string | null;
  displayOrder: number;
  displayMode: DisplayMode;
  codeSettings: CodeSettings;
}

export interface ClassifierItemData {
  id: string;
  code: string;
  name: string;
  description: string;
  sign: 1 | -1 | null;
  unselectable: boolean;
  groupedBy: GroupedByRef[];
}

export type ClassifierCreated = DomainEvent<'ClassifierCreated', ClassifierRef & ClassifierDefinition & { groupingId: string | null }>;
export type ClassifierUpdated = DomainEvent<'ClassifierUpdated', ClassifierRef & ClassifierDefinition>;
export type ClassifierDeleted = DomainEvent<'ClassifierDeleted', ClassifierRef>;
/** One item added on its own, or every row of an import. */
export type ClassifierItemsAdded = DomainEvent<'ClassifierItemsAdded', ClassifierRef & { items: ClassifierItemData[] }>;
/** Each listed item as it is after the edit (single or bulk edit). */
export type ClassifierItemsUpdated = DomainEvent<'ClassifierItemsUpdated', ClassifierRef & { items: ClassifierItemData[] }>;
export type ClassifierItemsDeleted = DomainEvent<'ClassifierItemsDeleted', ClassifierRef & { itemIds: string[] }>;

export type ClassifierEvent =
  | ClassifierCreated
  | ClassifierUpdated
  | ClassifierDeleted
  | ClassifierItemsAdded
  | ClassifierItemsUpdated
  | ClassifierItemsDeleted;

export const CLASSIFIER_EVENT_TYPES = [
  'ClassifierCreated',
  'ClassifierUpdated',
  'ClassifierDeleted',
  'ClassifierItemsAdded',
  'ClassifierItemsUpdated',
  'ClassifierItemsDeleted',
] as const satisfies readonly ClassifierEvent['type'][];

/** The display order of a document's classifiers (stream `classifierorder-<documentId>`). */
export type ClassifiersReordered = DomainEvent<'ClassifiersReordered', { documentId: string; list: { id: string; displayOrder: number }[] }>;
export const CLASSIFIER_ORDER_EVENT_TYPES = ['ClassifiersReordered'] as const;
