import { foldEvents, normaliseRoleName, type RoleEvent, type RoleState, roleDecider, roleStream } from '@eelarve/domain';
import { otherRolesNamed } from '@eelarve/projections/accounts/queries';
import { DomainError } from '@eelarve/shared';
import type { FastifyInstance } from 'fastify';
import type { CommandActor } from '../../infrastructure/commands';
import { readModels } from '../../infrastructure/database';
import { reservationStream, settle, type UniqueValueKind, withClaim } from '../users/reservations';

/**
 * Role names are unique within an organisation, case-insensitively (spec 1, section 5), also
 * under concurrent requests: a reservation stream per (organisation, lower-case name).
 */
export interface RoleNameClaim {
  organizationId: string;
  name: string;
  roleId: string;
  actor: CommandActor;
}

export async function roleState(app: FastifyInstance, roleId: string): Promise<RoleState> {
  return foldEvents(roleDecider, (await app.store.readStream(roleStream(roleId))) as unknown as RoleEvent[]);
}

const nameOf = (state: RoleState | undefined) => (state?.status === 'active' ? state.name : null);

export function roleNames(app: FastifyInstance, organizationId: string): UniqueValueKind {
  const carries = async (roleId: string, name: string) => {
    const held = nameOf(await roleState(app, roleId));
    return held !== null && normaliseRoleName(held) === normaliseRoleName(name);
  };
  return {
    stream: (name) => reservationStream('rolename', `${organizationId}:${normaliseRoleName(name)}`),
    conflict: 'ROLE_NAME_NOT_UNIQUE',
    carries,
    // Roles made without a claim (bootstrap, admin roles) are found in the read model and confirmed by their stream.
    async assertNoUnclaimedHolder(name, roleId) {
      for (const holder of await otherRolesNamed(readModels(app.db), organizationId, normaliseRoleName(name), roleId)) {
        if (await carries(holder, name)) throw new DomainError('ROLE_NAME_NOT_UNIQUE');
      }
    },
  };
}

/**
 * Runs the role's command (create or rename) with the name claimed: ROLE_NAME_NOT_UNIQUE if
 * another role holds it; afterwards the name the role carried before is released.
 */
export function withRoleName<Outcome extends { before?: RoleState }>(
  app: FastifyInstance,
  claim: RoleNameClaim,
  work: () => Promise<Outcome>,
): Promise<Outcome> {
  return withClaim(
    app.store,
    roleNames(app, claim.organizationId),
    { value: claim.name, ownerId: claim.roleId, actor: claim.actor, formerValue: nameOf },
    work,
  );
}

/** After a delete: releases the name the role carried when the delete was decided. */
export async function releaseRoleNameOf(app: FastifyInstance, outcome: { before?: RoleState }, claim: Omit<RoleNameClaim, 'name'>): Promise<void> {
  const name = nameOf(outcome.before);
  if (name !== null) await settle(app.store, roleNames(app, claim.organizationId), { value: name, ownerId: claim.roleId, actor: claim.actor });
}
