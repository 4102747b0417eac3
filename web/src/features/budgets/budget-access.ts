import type { Budget, ResourceStatusRuleType } from '@eelarve/shared';

/**
 * What the budget list lets the caller do with a budget: its grants (read, update) less what the
 * rules of the document's and the budget's statuses in force for the caller refuse (spec 2,
 * sections 2 and 6; the gateway's permissions/authorize.ts decides the same on every call).
 */
type Permissions = Budget['permissions'];

const restricted = (permissions: Permissions, ...rules: ResourceStatusRuleType[]) => rules.some((rule) => permissions.restrictions.includes(rule));

/** Opened from its name: a read grant and no READ_DISABLED (otherwise the name is plain text). */
export const canOpenBudget = (permissions: Permissions): boolean => permissions.read && !restricted(permissions, 'READ_DISABLED');

/** Tags are settings: an update grant and no METADATA_WRITE_DISABLED. */
export const canTagBudget = (permissions: Permissions): boolean => permissions.update && !restricted(permissions, 'METADATA_WRITE_DISABLED');

/** The edit form: an update grant; a locked budget's form still changes its status. */
export const canEditBudget = (permissions: Permissions): boolean => permissions.update;

/** Deleting changes its data: an update grant and neither READ_DISABLED nor RESOURCE_WRITE_DISABLED. */
export const canDeleteBudget = (permissions: Permissions): boolean =>
  permissions.update && !restricted(permissions, 'READ_DISABLED', 'RESOURCE_WRITE_DISABLED');

/** Why an action is greyed out: no update grant, or a status that refuses it. */
export const budgetLockReason = (permissions: Permissions): 'budgets.notEditable' | 'error.ACTION_DISALLOWED_DUE_TO_STATUS' =>
  permissions.update ? 'error.ACTION_DISALLOWED_DUE_TO_STATUS' : 'budgets.notEditable';
