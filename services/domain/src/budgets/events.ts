import type { DomainEvent } from '../decider';

/** Budget types (spec 2, section 3); the type is fixed after creation (section 4). */
export const BUDGET_TYPES = ['COMMON', 'SUM_BUDGET', 'MONITORING'] as const;
export type BudgetType = (typeof BUDGET_TYPES)[number];

/** What a new budget copied from an existing one (spec 2, Budget form: copy from existing). */
export interface BudgetCopyChoice {
  sourceBudgetId: string;
  /** Copy the source budget's permissions (needs USER_ADMIN); applied once permissions exist. */
  copyPermissions: boolean;
  /** Per matching scheme of the source budget. */
  schemes: { schemeId: string; copyPinnedPreselections: boolean; copySubBudgetPermissions: boolean; copyComments: boolean }[];
}

export interface BudgetFields {
  name: string;
  description: string;
  tags: string[];
  resourceStatusId: string | null;
  /** Component budgets of a SUM_BUDGET; empty for the other types. */
  sumBudgetComponentIds: string[];
  /** MONITORING only (set by a platform administrator), else null. */
  gwUrl: string | null;
  erpUrl: string | null;
}

export type BudgetCreated = DomainEvent<
  'BudgetCreated',
  BudgetFields & {
    budgetId: string;
    documentId: string;
    organizationId: string;
    type: BudgetType;
    createdAt: string;
    copiedFrom?: BudgetCopyChoice | null;
  }
>;
export type BudgetUpdated = DomainEvent<'BudgetUpdated', Omit<BudgetFields, 'tags'> & { budgetId: string; documentId: string; organizationId: string }>;
export type BudgetTagsSet = DomainEvent<'BudgetTagsSet', { budgetId: string; documentId: string; organizationId: string; tags: string[] }>;
/** Automatic synchronisation of a monitoring budget on or off (IS_ADMIN, spec 1 section 7). */
export type BudgetSyncSet = DomainEvent<'BudgetSyncSet', { budgetId: string; documentId: string; organizationId: string; enabled: boolean }>;
/** A new import API key was issued; the key itself lives (encrypted) in an operational table. */
export type BudgetApiKeyIssued = DomainEvent<'BudgetApiKeyIssued', { budgetId: string; documentId: string; organizationId: string; issuedAt: string }>;
export type BudgetDeleted = DomainEvent<'BudgetDeleted', { budgetId: string; documentId: string; organizationId: string }>;
/** Order values count down from the list's length (spec 2, section 3): the highest comes first. */
export type BudgetsReordered = DomainEvent<'BudgetsReordered', { documentId: string; list: { id: string; order: number }[] }>;

export type BudgetEvent = BudgetCreated | BudgetUpdated | BudgetTagsSet | BudgetSyncSet | BudgetApiKeyIssued | BudgetDeleted;
export type BudgetOrderEvent = BudgetsReordered;
export const BUDGET_EVENT_TYPES = [
  'BudgetCreated',
  'BudgetUpdated',
  'BudgetTagsSet',
  'BudgetSyncSet',
  'BudgetApiKeyIssued',
  'BudgetDeleted',
] as const satisfies readonly BudgetEvent['type'][];
export const BUDGET_ORDER_EVENT_TYPES = ['BudgetsReordered'] as const satisfies readonly BudgetOrderEvent['type'][];
