import type { ClassifierPreselections, SchemeClassifier } from '@eelarve/shared';
import type { DomainEvent } from '../decider';

/**
 * Schemes, their sub-budgets, the sub-budgets' classifier preselections and the budgets' pinned
 * sub-budgets of one document live in one stream (`document-schemes-<documentId>`): the rules
 * that span them (unique scheme names, the last scheme, a scheme with sub-budgets, unique value
 * combinations) are then decided on one consistent state, also under concurrent requests, and a
 * bulk import is a single append.
 */
interface DocumentRef {
  documentId: string;
  organizationId: string;
}

export interface SchemeDefinition {
  name: string;
  fieldName: string;
  description: string;
  displayOrder: number;
  classifierList: SchemeClassifier[];
}

export interface NewSubBudget {
  subBudgetId: string;
  name: string;
  /** Classifier id → item code. */
  classifiers: Record<string, string>;
  preselections: ClassifierPreselections;
}

export type SchemeCreated = DomainEvent<'SchemeCreated', DocumentRef & SchemeDefinition & { schemeId: string }>;
export type SchemeUpdated = DomainEvent<'SchemeUpdated', DocumentRef & SchemeDefinition & { schemeId: string }>;
export type SchemeDeleted = DomainEvent<'SchemeDeleted', DocumentRef & { schemeId: string }>;
export type SchemesReordered = DomainEvent<'SchemesReordered', DocumentRef & { list: { id: string; displayOrder: number }[] }>;
/** One sub-budget made on its own, or every row of an import. */
export type SubBudgetsAdded = DomainEvent<'SubBudgetsAdded', DocumentRef & { schemeId: string; subBudgets: NewSubBudget[] }>;
export type SubBudgetUpdated = DomainEvent<
  'SubBudgetUpdated',
  DocumentRef & { schemeId: string; subBudgetId: string; name: string; classifiers: Record<string, string> }
>;
export type SubBudgetsDeleted = DomainEvent<'SubBudgetsDeleted', DocumentRef & { schemeId: string; subBudgetIds: string[] }>;
/** Replaces the preselections of each listed sub-budget. */
export type ClassifierPreselectionsSet = DomainEvent<
  'ClassifierPreselectionsSet',
  DocumentRef & { schemeId: string; list: { subBudgetId: string; preselections: ClassifierPreselections }[] }
>;
/** The budget's pinned sub-budgets of the scheme, replacing the previous list. */
export type SubBudgetsPinned = DomainEvent<'SubBudgetsPinned', DocumentRef & { schemeId: string; budgetId: string; pinned: string[] }>;

export type SchemeEvent =
  | SchemeCreated
  | SchemeUpdated
  | SchemeDeleted
  | SchemesReordered
  | SubBudgetsAdded
  | SubBudgetUpdated
  | SubBudgetsDeleted
  | ClassifierPreselectionsSet
  | SubBudgetsPinned;

export const SCHEME_EVENT_TYPES = [
  'SchemeCreated',
  'SchemeUpdated',
  'SchemeDeleted',
  'SchemesReordered',
  'SubBudgetsAdded',
  'SubBudgetUpdated',
  'SubBudgetsDeleted',
  'ClassifierPreselectionsSet',
  'SubBudgetsPinned',
] as const satisfies readonly SchemeEvent['type'][];
