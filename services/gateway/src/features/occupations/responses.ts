import type { OccupationListRow, RoleListRow } from '@eelarve/projections/accounts/queries';
import type { Occupation } from '@eelarve/shared';

/** An occupation with its holder's name and the names of its roles (a role deleted meanwhile is left out). */
export function toOccupation(row: OccupationListRow, roleNames: ReadonlyMap<string, string>): Occupation {
  return {
    id: row.id,
    organizationId: row.organization_id,
    userId: row.user_id,
    userName: row.user_name ?? '',
    name: row.name,
    description: row.description,
    type: row.type,
    roles: row.role_ids.flatMap((id) => {
      const name = roleNames.get(id);
      return name === undefined ? [] : [{ id, name }];
    }),
  };
}

export const roleNamesOf = (roles: readonly RoleListRow[]) => new Map(roles.map((role) => [role.id, role.name]));
