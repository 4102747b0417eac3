import { createHash } from 'node:crypto';
import { occupationDecider, roleDecider } from '@eelarve/domain';
import { adminOccupationsOf, adminRoleOf, otherPlatformAdminExists } from '@eelarve/projections/accounts/queries';
import { findOrganization } from '@eelarve/projections/organizations/queries';
import { ADMIN_ROLE_NAME, type AdminChangeResponse, DomainError, PRIVILEGES } from '@eelarve/shared';
import type { FastifyInstance } from 'fastify';
import { readModels } from '../../infrastructure/database';
import type { Caller } from '../../types';
import { meOf } from '../auth/me';
import { deleteSessionsIn } from '../auth/sessions';

// The organisations list counts an organisation's occupation holders (nr_of_users).
const READ_MODELS = ['accounts', 'organizations'] as const;
const ADMIN_OCCUPATION_NAME = 'Administrator';

/** A fixed id per name: concurrent requests address the same stream, so only one of them creates it. */
function derivedId(...parts: string[]): string {
  const hex = createHash('sha256').update(parts.join(':')).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-8${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/**
 * POST/DELETE api/admin/{organizationId} (spec 1, sections 6 and 7): a platform administrator
 * gives themselves, or takes back, an ADMIN occupation in an organisation, carrying that
 * organisation's admin role (every privilege but IS_ADMIN, created on first use). The answer is
 * the caller's new `me`. The routes declare IS_ADMIN.
 */
export function adminOccupationService(app: FastifyInstance) {
  const read = () => readModels(app.db);

  async function organizationOf(organizationId: string) {
    const organization = await findOrganization(read(), organizationId);
    if (!organization) throw new DomainError('ORGANIZATION_NOT_FOUND');
    return organization;
  }

  /** The organisation's admin role; created with every privilege except IS_ADMIN when it has none yet. */
  async function ensureAdminRole(caller: Caller, organizationId: string): Promise<string> {
    const existing = await adminRoleOf(read(), organizationId);
    if (existing) return existing.id;
    const roleId = derivedId(organizationId, 'admin-role');
    const privilegeIds = PRIVILEGES.filter((privilege) => privilege !== 'IS_ADMIN');
    const command = { type: 'CreateRole' as const, roleId, organizationId, name: ADMIN_ROLE_NAME, description: '', privilegeIds, roleType: 'ADMIN' as const };
    try {
      // The occupation's command waits for the read models; this one need not.
      await app.commands.run({ decider: roleDecider, command, actor: caller.actor, readModels: [] });
    } catch (error) {
      // Created by a concurrent request (or earlier, not yet projected): the same role.
      if (!(error instanceof DomainError && error.code === 'CONCURRENT_MODIFICATION')) throw error;
    }
    return roleId;
  }

  /** Removing the admin occupation signs the caller out wherever they were using it; true when that includes this session. */
  async function endSessionsIn(caller: Caller, occupationId: string): Promise<boolean> {
    await deleteSessionsIn(app.db, caller.auth.userId, occupationId);
    return caller.auth.occupationId === occupationId;
  }

  const meWith = async (caller: Caller, occupationId: string | null, reloginRequired: boolean): Promise<AdminChangeResponse> => ({
    ...(await meOf(app, { ...caller.auth.session, occupationId })),
    reloginRequired,
  });

  return {
    async assign(caller: Caller, organizationId: string): Promise<AdminChangeResponse> {
      const { auth } = caller;
      const organization = await organizationOf(organizationId);
      if ((await adminOccupationsOf(read(), organization.id)).some((occupation) => occupation.user_id === auth.userId))
        throw new DomainError('ADMIN_ALREADY_SET');
      // "Not for organisation 1 if not already admin": the platform's administrators come from bootstrap and its roles.
      if (organization.is_platform) throw new DomainError('ORGANIZATION_UNSUITABLE', 'the platform organisation');
      const roleId = await ensureAdminRole(caller, organization.id);
      const occupationId = derivedId(organization.id, auth.userId, 'admin-occupation');
      await app.commands.run({
        decider: occupationDecider,
        command: { type: 'AssignAdmin', occupationId, organizationId: organization.id, userId: auth.userId, name: ADMIN_OCCUPATION_NAME, roleId },
        actor: caller.actor,
        readModels: READ_MODELS,
      });
      return meWith(caller, auth.occupationId, false);
    },

    /**
     * Takes the admin occupation back. `reloginRequired`: this session was using it, so it ended
     * too; the route clears the cookie and the screens send the user to /login.
     */
    async remove(caller: Caller, organizationId: string): Promise<AdminChangeResponse> {
      const { auth } = caller;
      const organization = await organizationOf(organizationId);
      const mine = (await adminOccupationsOf(read(), organization.id)).find((occupation) => occupation.user_id === auth.userId);
      if (!mine) throw new DomainError('ADMIN_NOT_SET');
      const lastPlatformAdmin = organization.is_platform && !(await otherPlatformAdminExists(read(), mine.id));
      await app.commands.run({
        decider: occupationDecider,
        command: { type: 'RemoveAdmin', occupationId: mine.id, lastPlatformAdmin },
        actor: caller.actor,
        readModels: READ_MODELS,
      });
      const reloginRequired = await endSessionsIn(caller, mine.id);
      return meWith(caller, reloginRequired ? null : auth.occupationId, reloginRequired);
    },
  };
}
