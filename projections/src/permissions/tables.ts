/**
 * Explicit resource grants, one row per occupation and resource (spec 1, section 3, Permission).
 * The chain is in the row (document, budget, sub-budget as seen from its budget), so what a
 * resource inherits is found by key, without walking the resource tree: the effective read
 * model (read, update, inheritedRead, inheritedUpdate) is these rows folded down the chain by
 * the queries in queries.ts, in SQL for list filters. A removed grant has no row; update implies
 * read, so `read` is true on every row.
 *
 * Resource-status flags (READ_DISABLED, RESOURCE_WRITE_DISABLED, METADATA_WRITE_DISABLED,
 * METADATA_READ_DISABLED, COMMENT_READ_DISABLED) are per resource, not per occupation: they come
 * from the statuses of the document and the budget and are folded in per caller (exemptions by
 * privilege or role) by features/permissions/authorize.ts, never stored here.
 */
export interface ResourcePermissionsTable {
  occupation_id: string;
  /** `documentId/budgetId/subBudgetId`, empty where absent: '//' is the organisation grant. */
  resource_key: string;
  organization_id: string;
  document_id: string | null;
  budget_id: string | null;
  sub_budget_id: string | null;
  read: boolean;
  update: boolean;
}

export interface PermissionsReadModel {
  resource_permissions: ResourcePermissionsTable;
}
