import type { RoleListRow } from '@eelarve/projections/accounts/queries';
import type { Privilege, Role } from '@eelarve/shared';

/** Privileges are listed by id; the screens translate the name (`privilege.<ID>`). */
export const privilegeOption = (id: Privilege) => ({ id, name: id });

export function toRole(row: RoleListRow): Role {
  return {
    id: row.id,
    organizationId: row.organization_id,
    name: row.name,
    description: row.description,
    privileges: (row.privilege_ids as Privilege[]).map(privilegeOption),
    type: row.type,
    inUse: row.in_use,
  };
}
