import { randomUUID } from 'node:crypto';
import { type RoleCommand, roleDecider } from '@eelarve/domain';
import { findRole, listRoles, roleAttached } from '@eelarve/projections/accounts/queries';
import { DomainError, PRIVILEGES, type Privilege, type Role, type roleInputSchema } from '@eelarve/shared';
import type { FastifyInstance } from 'fastify';
import type { z } from 'zod';
import { readModels } from '../../infrastructure/database';
import type { AuthContext, Caller } from '../../types';
import { isPlatformAdmin, isPlatformOrganization, organizationInScope, privilegesNotHeld, visibleTo } from '../permissions/authorize';
import { removeRoleFromResourceStatuses } from '../resource-statuses/service';
import { dryRun } from '../users/reservations';
import { releaseRoleNameOf, withRoleName } from './name-reservation';
import { privilegeOption, toRole } from './responses';

type RoleInput = z.output<typeof roleInputSchema>;

/** The roles screen reads accounts (roles and whether occupations use them). */
const READ_MODELS = ['accounts'] as const;

interface SavedRole {
  privileges: readonly string[];
  /** Carried by an occupation: new privileges reach its user at once. */
  attached: boolean;
}

/**
 * Roles of an organisation (spec 1, section 6). The routes declare ROLES_VIEW/ROLES_ADMIN (user
 * administrators read them too); each function first keeps the caller inside their organisation.
 */
export function roleService(app: FastifyInstance) {
  const read = () => readModels(app.db);
  const run = (caller: Caller, command: RoleCommand) => app.commands.run({ decider: roleDecider, command, actor: caller.actor, readModels: READ_MODELS });

  /**
   * The privileges a role is saved with. IS_ADMIN makes a platform administrator: only one may
   * grant it, and only to a role of the platform organisation (in any other organisation's role it
   * would let that organisation's user administrators make themselves platform administrators).
   * Others neither see it (GET api/privileges) nor change it, so a platform role keeps it when they
   * save the role, while a role elsewhere that carries it from before loses it. A role already in
   * use gains only privileges the caller holds: widening it hands them out.
   */
  async function privilegesToSave(auth: AuthContext, organizationId: string, requested: Privilege[], saved?: SavedRole): Promise<Privilege[]> {
    const current = saved?.privileges ?? [];
    const added = requested.filter((privilege) => !current.includes(privilege));
    if (added.includes('IS_ADMIN') && !isPlatformAdmin(auth))
      throw new DomainError('INSUFFICIENT_PERMISSIONS', 'only a platform administrator may grant IS_ADMIN');
    const platformOrganization = await isPlatformOrganization(app, organizationId);
    if (requested.includes('IS_ADMIN') && !platformOrganization) {
      throw new DomainError('UNSUITABLE_ROLE', 'IS_ADMIN belongs to roles of the platform organisation only');
    }
    const notHeld = saved?.attached ? privilegesNotHeld(auth, added) : [];
    if (notHeld.length > 0)
      throw new DomainError('INSUFFICIENT_PERMISSIONS', `a role in use gains only privileges you hold: ${notHeld.join(', ')}`, { privileges: notHeld });
    const keepsIsAdmin = platformOrganization && !isPlatformAdmin(auth) && current.includes('IS_ADMIN') && !requested.includes('IS_ADMIN');
    return keepsIsAdmin ? [...requested, 'IS_ADMIN'] : requested;
  }

  /** A role of the organisation in the path; any other id is "not found". */
  async function roleInPath(auth: AuthContext, organizationId: string, roleId: string) {
    const role = await findRole(read(), roleId);
    if (!role || role.organization_id !== organizationId || !visibleTo(auth, role.organization_id)) throw new DomainError('ROLE_NOT_FOUND');
    return role;
  }

  /** Runs a create or rename with the name claimed, after a dry run (ROLE_RESERVED, ROLE_NOT_MODIFIABLE answer before the claim). */
  async function withName(caller: Caller, organizationId: string, command: Extract<RoleCommand, { type: 'CreateRole' | 'UpdateRole' }>) {
    await dryRun(app.store, roleDecider, command);
    // Claimed also when the name looks unchanged: the read model may lag behind a rename.
    return withRoleName(app, { organizationId, name: command.name, roleId: command.roleId, actor: caller.actor }, () => run(caller, command));
  }

  return {
    /** Platform administrators alone see (and may grant) IS_ADMIN. */
    privileges: (caller: Caller) => PRIVILEGES.filter((privilege) => isPlatformAdmin(caller.auth) || privilege !== 'IS_ADMIN').map(privilegeOption),

    async list(caller: Caller, organizationId: string): Promise<Role[]> {
      await organizationInScope(app, caller.auth, organizationId);
      return (await listRoles(read(), organizationId)).map(toRole);
    },

    async create(caller: Caller, organizationId: string, input: RoleInput) {
      await organizationInScope(app, caller.auth, organizationId);
      const privilegeIds = await privilegesToSave(caller.auth, organizationId, input.privilegeIds);
      // The id is the name claim's owner, so it is made before the command runs.
      const roleId = randomUUID();
      return withName(caller, organizationId, {
        type: 'CreateRole',
        roleId,
        organizationId,
        name: input.name,
        description: input.description,
        privilegeIds,
        roleType: 'DEFAULT',
      });
    },

    async update(caller: Caller, organizationId: string, roleId: string, input: RoleInput) {
      await organizationInScope(app, caller.auth, organizationId);
      const role = await roleInPath(caller.auth, organizationId, roleId);
      const saved = { privileges: role.privilege_ids, attached: await roleAttached(read(), roleId) };
      const privilegeIds = await privilegesToSave(caller.auth, organizationId, input.privilegeIds, saved);
      return withName(caller, organizationId, { type: 'UpdateRole', roleId, name: input.name, description: input.description, privilegeIds });
    },

    async remove(caller: Caller, organizationId: string, roleId: string) {
      await organizationInScope(app, caller.auth, organizationId);
      await roleInPath(caller.auth, organizationId, roleId);
      const result = await run(caller, { type: 'DeleteRole', roleId, attachedToOccupation: await roleAttached(read(), roleId) });
      await releaseRoleNameOf(app, result, { organizationId, roleId, actor: caller.actor });
      // A role used in statuses leaves their rules, and the answer says so (spec 1, section 6).
      const warnings = await removeRoleFromResourceStatuses(app, caller, organizationId, roleId);
      return warnings.length > 0 ? { ...result, warnings } : result;
    },
  };
}
