import { hasAnyPrivilege, type Me } from '@eelarve/shared';

/** Spec 3, section 6: exporting records needs DATA_VIEW and read permission on the budget. */
export function canExportRecords(me: Pick<Me, 'privileges'>, budgetPermissions: { read: boolean }): boolean {
  return hasAnyPrivilege(me.privileges, 'DATA_VIEW') && budgetPermissions.read;
}
