import type { DomainEvent } from '../decider';

/**
 * A resource grant of one occupation (spec 1, sections 3 and 6): read and update on the
 * organisation, a document, a budget, or a sub-budget as seen from a budget (sub-budgets belong to
 * the document's schemes, so a sub-budget grant names its budget too). In a document's stream,
 * `budgetId: null` is the document itself; in the organisation stream both ids are null.
 * `read: false, update: false` removes the grant.
 */
export interface ResourceGrant {
  budgetId: string | null;
  subBudgetId: string | null;
  read: boolean;
  update: boolean;
}

interface GrantScope {
  occupationId: string;
  organizationId: string;
  /** Null: the organisation-level stream of the occupation. */
  documentId: string | null;
}

/** Single and bulk changes (the header toggle): only the grants that changed. */
export type ResourcePermissionsSet = DomainEvent<'ResourcePermissionsSet', GrantScope & { grants: ResourceGrant[] }>;
/** Copied from another occupation: the stream's grants are exactly `grants` afterwards. */
export type ResourcePermissionsReplaced = DomainEvent<'ResourcePermissionsReplaced', GrantScope & { grants: ResourceGrant[]; copiedFromOccupationId: string }>;

export type ResourcePermissionEvent = ResourcePermissionsSet | ResourcePermissionsReplaced;
export const RESOURCE_PERMISSION_EVENT_TYPES = [
  'ResourcePermissionsSet',
  'ResourcePermissionsReplaced',
] as const satisfies readonly ResourcePermissionEvent['type'][];
