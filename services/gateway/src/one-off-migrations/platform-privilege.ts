import { roleDecider } from '@eelarve/domain';
import { rolesWithIsAdminOutsidePlatform } from '@eelarve/projections/accounts/queries';
import type { Privilege } from '@eelarve/shared';
import type { FastifyInstance } from 'fastify';
import type { CommandActor } from '../infrastructure/commands';
import { readModels } from '../infrastructure/database';
import type { OneOffReport } from './runner';

/** The screens that show roles read accounts. */
const READ_MODELS = ['accounts'] as const;

/**
 * Takes IS_ADMIN out of roles outside the platform organisation (issue 8, finding 3). Older
 * versions let a platform administrator put it into a customer role, and that organisation's
 * user administrators could then make themselves platform administrators. Sign-in ignores it
 * there already; this removes it from the roles themselves, through their own command, and
 * reports each role. The admin role (type ADMIN) cannot be edited: it is reported, not changed
 * (the product never gives it IS_ADMIN outside the platform).
 */
export async function stripPlatformPrivilegeOutsidePlatform(app: FastifyInstance, actor: CommandActor): Promise<OneOffReport> {
  const roles = await rolesWithIsAdminOutsidePlatform(readModels(app.db));
  const repaired = [];
  for (const role of roles) {
    const stripped = role.type !== 'ADMIN';
    if (stripped) {
      const privilegeIds = role.privilege_ids.filter((privilege) => privilege !== 'IS_ADMIN') as Privilege[];
      const command = { type: 'UpdateRole' as const, roleId: role.id, name: role.name, description: role.description, privilegeIds };
      await app.commands.run({ decider: roleDecider, command, actor, readModels: READ_MODELS });
    }
    repaired.push({ roleId: role.id, organizationId: role.organization_id, name: role.name, stripped });
  }
  return { found: roles.length, roles: repaired };
}
