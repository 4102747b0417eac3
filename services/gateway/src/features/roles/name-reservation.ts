import { foldEvents, normaliseRoleName, type RoleEvent, roleDecider, roleStream } from '@eelarve/domain';
import { DomainError } from '@eelarve/shared';
import type { FastifyInstance } from 'fastify';
import type { CommandActor } from '../../infrastructure/commands';
import { readModels } from '../../infrastructure/database';
import { release, reservationStream, reserve } from '../users/reservations';

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

const streamOf = (claim: Pick<RoleNameClaim, 'organizationId' | 'name'>) => reservationStream('rolename', `${claim.organizationId}:${normaliseRoleName(claim.name)}`);

async function roleHoldsName(app: FastifyInstance, roleId: string, name: string): Promise<boolean> {
  const state = foldEvents(roleDecider, (await app.store.readStream(roleStream(roleId))) as unknown as RoleEvent[]);
  return state.status === 'active' && normaliseRoleName(state.name) === normaliseRoleName(name);
}

/** Roles made without a claim (bootstrap, admin roles) are found in the read model and confirmed by their stream. */
async function assertNoUnclaimedHolder(app: FastifyInstance, claim: RoleNameClaim): Promise<void> {
  const rows = await readModels(app.db)
    .selectFrom('roles')
    .select('id')
    .where('organization_id', '=', claim.organizationId)
    .where((eb) => eb(eb.fn('lower', [eb.fn('btrim', ['name'])]), '=', normaliseRoleName(claim.name)))
    .where('id', '!=', claim.roleId)
    .execute();
  for (const row of rows) {
    if (await roleHoldsName(app, row.id, claim.name)) throw new DomainError('ROLE_NAME_NOT_UNIQUE');
  }
}

/** Claims the name for the role, or throws ROLE_NAME_NOT_UNIQUE; a no-op if the role holds it already. */
export async function reserveRoleName(app: FastifyInstance, claim: RoleNameClaim): Promise<void> {
  await assertNoUnclaimedHolder(app, claim);
  await reserve(app.store, {
    stream: streamOf(claim),
    ownerId: claim.roleId,
    actor: claim.actor,
    conflict: 'ROLE_NAME_NOT_UNIQUE',
    holds: (ownerId) => roleHoldsName(app, ownerId, claim.name),
  });
}

export async function releaseRoleName(app: FastifyInstance, claim: RoleNameClaim): Promise<void> {
  await release(app.store, { stream: streamOf(claim), ownerId: claim.roleId, actor: claim.actor });
}
