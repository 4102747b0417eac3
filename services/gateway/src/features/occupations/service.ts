import { randomUUID } from 'node:crypto';
import { type AssignmentChecks, type OccupationCommand, occupationDecider, type RoleFact } from '@eelarve/domain';
import { findMember, findOccupation, findRoles, listOccupations, listRoles, type OccupationRow, privilegesOf } from '@eelarve/projections/accounts/queries';
import { DomainError, type Occupation, type occupationInputSchema } from '@eelarve/shared';
import type { FastifyInstance } from 'fastify';
import type { z } from 'zod';
import { readModels } from '../../infrastructure/database';
import type { AuthContext, Caller } from '../../types';
import { isPlatformOrganization, organizationInScope, privilegesNotHeld, visibleTo } from '../permissions/authorize';
import { dryRun } from '../users/reservations';
import { roleNamesOf, toOccupation } from './responses';
import { occupationUse } from './session-use';

type OccupationInput = z.output<typeof occupationInputSchema>;

/** The users area (occupations, users tabs) and the roles' in-use flags read accounts. */
// The organisations list counts an organisation's occupation holders (nr_of_users).
const READ_MODELS = ['accounts', 'organizations'] as const;

/** Roles arrive as ids or `{ id }` objects (as the screens send them). */
const roleIdsOf = (input: OccupationInput) => [...new Set(input.roles.map((role) => (typeof role === 'string' ? role : role.id)))];

/** The roles an update hands out: all of them when the occupation goes to another user, else the new ones. */
function rolesHandedOut(occupation: OccupationRow, userId: string, roleIds: string[]): string[] {
  return occupation.user_id === userId ? roleIds.filter((roleId) => !occupation.role_ids.includes(roleId)) : roleIds;
}

/**
 * Occupations (spec 1, section 6): who works in an organisation with which roles. The routes
 * declare USER_VIEW/USER_ADMIN; each function first keeps the caller inside their organisation.
 */
export function occupationService(app: FastifyInstance) {
  const read = () => readModels(app.db);
  const run = (caller: Caller, command: OccupationCommand) =>
    app.commands.run({ decider: occupationDecider, command, actor: caller.actor, readModels: READ_MODELS });

  /** The requested roles as the read models know them, for the decider's checks. */
  async function checksFor(organizationId: string, userId: string, roleIds: string[]): Promise<AssignmentChecks> {
    const [member, rows] = await Promise.all([findMember(read(), organizationId, userId), findRoles(read(), roleIds)]);
    const roles: RoleFact[] = roleIds.map((roleId) => {
      const row = rows.find((candidate) => candidate.id === roleId);
      return { roleId, role: row ? { organizationId: row.organization_id, type: row.type } : null };
    });
    return { userIsMember: Boolean(member), roles };
  }

  /**
   * Assigning roles hands out their privileges: the caller must hold each of them (a platform
   * administrator holds all), and IS_ADMIN goes only with occupations of the platform organisation.
   * Runs after the decider's own checks (dry run), so an unknown user or role still answers its code.
   */
  async function assertMayHandOut(auth: AuthContext, organizationId: string, roleIds: readonly string[]): Promise<void> {
    if (roleIds.length === 0) return;
    const granted = await privilegesOf(read(), roleIds);
    if (granted.includes('IS_ADMIN') && !(await isPlatformOrganization(app, organizationId))) {
      throw new DomainError('UNSUITABLE_ROLE', 'IS_ADMIN belongs to occupations of the platform organisation only');
    }
    const notHeld = privilegesNotHeld(auth, granted);
    if (notHeld.length > 0)
      throw new DomainError('INSUFFICIENT_PERMISSIONS', `the roles grant privileges you do not hold: ${notHeld.join(', ')}`, { privileges: notHeld });
  }

  /** An occupation of an organisation the caller may act in; any other id is "not found". */
  async function visibleOccupation(auth: AuthContext, occupationId: string): Promise<OccupationRow> {
    const occupation = await findOccupation(read(), occupationId);
    if (!occupation || !visibleTo(auth, occupation.organization_id)) throw new DomainError('OCCUPATION_NOT_FOUND');
    return occupation;
  }

  /** Decides on the stored state first (its own codes win), then checks what the roles hand out, then runs. */
  async function checkedRun(caller: Caller, organizationId: string, command: OccupationCommand, handedOut: readonly string[]) {
    await dryRun(app.store, occupationDecider, command);
    await assertMayHandOut(caller.auth, organizationId, handedOut);
    return run(caller, command);
  }

  return {
    async list(caller: Caller, organizationId: string): Promise<Occupation[]> {
      await organizationInScope(app, caller.auth, organizationId);
      const [occupations, roles] = await Promise.all([listOccupations(read(), organizationId), listRoles(read(), organizationId)]);
      const names = roleNamesOf(roles);
      return occupations.map((row) => toOccupation(row, names));
    },

    async create(caller: Caller, organizationId: string, input: OccupationInput) {
      await organizationInScope(app, caller.auth, organizationId);
      const { userId, name, description } = input;
      const roleIds = roleIdsOf(input);
      const checks = await checksFor(organizationId, userId, roleIds);
      const command: OccupationCommand = {
        type: 'CreateOccupation',
        occupationId: randomUUID(),
        organizationId,
        userId,
        name,
        description,
        occupationType: 'DEFAULT',
        roleIds,
        checks,
      };
      return checkedRun(caller, organizationId, command, roleIds);
    },

    async update(caller: Caller, occupationId: string, input: OccupationInput) {
      const occupation = await visibleOccupation(caller.auth, occupationId);
      const { userId, name, description } = input;
      const roleIds = roleIdsOf(input);
      const command: OccupationCommand = {
        type: 'UpdateOccupation',
        occupationId: occupation.id,
        userId,
        name,
        description,
        roleIds,
        checks: await checksFor(occupation.organization_id, userId, roleIds),
        inUse: await occupationUse(app.db, occupation.id, caller.auth),
      };
      return checkedRun(caller, occupation.organization_id, command, rolesHandedOut(occupation, userId, roleIds));
    },

    async remove(caller: Caller, occupationId: string) {
      const occupation = await visibleOccupation(caller.auth, occupationId);
      return run(caller, { type: 'DeleteOccupation', occupationId: occupation.id, inUse: await occupationUse(app.db, occupation.id, caller.auth) });
    },
  };
}
