import { hasAnyPrivilege, type Me, type ResourceStatusRuleType } from '@eelarve/shared';

/** The records route needs DATA_VIEW (spec 3, section 2). */
export const canViewRecords = (me: Me) => hasAnyPrivilege(me.privileges, 'DATA_VIEW');

/** What the records screen lets the user do (spec 3, section 6). */
export interface RecordsAccess {
  /** Add, edit, duplicate, delete and bulk edit records. */
  write: boolean;
  /** Toggle a record's promoted flag. */
  promote: boolean;
}

/**
 * The table is read-only without update on the sub-budget or when the budget's (or document's)
 * status disables writing its data; promoting also needs metadata writing not disabled.
 */
export function recordsAccess(
  subBudget: { permissions?: { update: boolean } } | undefined,
  budget: { permissions: { update: boolean; restrictions?: readonly ResourceStatusRuleType[] } } | undefined,
): RecordsAccess {
  const restrictions = budget?.permissions.restrictions ?? [];
  const update = subBudget?.permissions?.update ?? budget?.permissions.update ?? false;
  const write = update && !restrictions.includes('RESOURCE_WRITE_DISABLED');
  return { write, promote: write && !restrictions.includes('METADATA_WRITE_DISABLED') };
}
