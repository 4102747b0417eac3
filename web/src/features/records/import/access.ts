import { restricts, type StatusPermissions } from '../../../components/status-lock/status-lock';

/** Spec 3, section 6: the import menu needs budget write permission and no RESOURCE_WRITE_DISABLED. */
export function canImportRecords(permissions: StatusPermissions): boolean {
  return permissions.update && !restricts(permissions, 'RESOURCE_WRITE_DISABLED');
}
