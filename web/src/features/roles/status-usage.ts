import type { commandResultWithWarningsSchema, ResourceStatus } from '@eelarve/shared';
import type { z } from 'zod';
import { resourceStatusName } from '../../components/ResourceStatusSelect';

/**
 * The names of the statuses whose rules name the role as an exception (spec 1, sections 4 and 6):
 * deleting the role removes it from them, and the delete confirmation says so beforehand.
 */
export function statusesUsingRole(statuses: readonly ResourceStatus[], roleId: string, uiLanguage: string, organizationLanguage: string | undefined): string[] {
  return statuses
    .filter((status) => status.rules.some((rule) => rule.overrideRoles.includes(roleId)))
    .map((status) => resourceStatusName(status, uiLanguage, organizationLanguage));
}

/** DELETE api/organization/{orgId}/role/{id}: the command's answer, with a warning when statuses used the role. */
export type RoleDeleteResult = z.infer<typeof commandResultWithWarningsSchema>;

/** Whether the delete answer says the role was taken out of status rules (the statuses on `me` changed). */
export function removedFromStatuses(result: RoleDeleteResult | undefined): boolean {
  return (result?.warnings ?? []).some((warning) => warning.code === 'ROLE_REMOVED_FROM_RESOURCE_STATUSES');
}
