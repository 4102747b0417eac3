import { randomUUID } from 'node:crypto';
import { type AssignmentChecks, type OccupationCommand, occupationDecider } from '@eelarve/domain';
import { formatPosition, type GlobalPosition } from '@eelarve/eventstore';
import { commandResultSchema, DomainError, idParamsSchema, occupationInputSchema, occupationSchema, type Privilege } from '@eelarve/shared';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { actorOf, runCommand } from '../../plugins/commands';
import type { AuthContext } from '../../types';
import { privilegesOf } from '../auth/account-queries';
import { isPlatformOrganization, organizationInScope, privilegesNotHeld, visibleTo } from '../permissions/authorize';
import { isMember } from '../users/queries';
import { dryRun } from '../users/reservations';
import { findOccupation, listOccupations, occupationUse, roleFacts } from './queries';

/** The users area (occupations, users tabs) and the roles' in-use flags read accounts. */
const READ_MODELS = ['accounts'] as const;
const tags = ['occupations'];
const viewers = { privileges: ['USER_VIEW', 'USER_ADMIN'] as Privilege[] };
const editors = { privileges: ['USER_ADMIN'] as Privilege[] };

type OccupationInput = z.output<typeof occupationInputSchema>;

const positionOf = (position: GlobalPosition | null) => (position ? formatPosition(position) : null);
/** Roles arrive as ids or `{ id }` objects (as the screens send them). */
const roleIdsOf = (input: OccupationInput) => [...new Set(input.roles.map((role) => (typeof role === 'string' ? role : role.id)))];

async function checksFor(app: FastifyInstance, organizationId: string, userId: string, roleIds: string[]): Promise<AssignmentChecks> {
  const [userIsMember, roles] = await Promise.all([isMember(app.db, organizationId, userId), roleFacts(app.db, roleIds)]);
  return { userIsMember, roles };
}

/**
 * Assigning roles hands out their privileges: the caller must hold each of them (a platform
 * administrator holds all), and IS_ADMIN goes only with occupations of the platform organisation.
 * Runs after the decider's own checks (dry run), so an unknown user or role still answers its code.
 */
async function assertMayHandOut(app: FastifyInstance, auth: AuthContext, organizationId: string, roleIds: readonly string[]): Promise<void> {
  if (roleIds.length === 0) return;
  const granted = await privilegesOf(app.db, [...roleIds]);
  if (granted.includes('IS_ADMIN') && !(await isPlatformOrganization(app, organizationId))) {
    throw new DomainError('UNSUITABLE_ROLE', 'IS_ADMIN belongs to occupations of the platform organisation only');
  }
  const notHeld = privilegesNotHeld(auth, granted);
  if (notHeld.length > 0) throw new DomainError('INSUFFICIENT_PERMISSIONS', `the roles grant privileges you do not hold: ${notHeld.join(', ')}`, { privileges: notHeld });
}

/** The roles an update hands out: all of them when the occupation goes to another user, else the new ones. */
function rolesHandedOut(occupation: { user_id: string; role_ids: string[] }, userId: string, roleIds: string[]): string[] {
  return occupation.user_id === userId ? roleIds.filter((roleId) => !occupation.role_ids.includes(roleId)) : roleIds;
}

/** An occupation of an organisation the caller may act in; any other id is "not found". */
async function visibleOccupation(app: FastifyInstance, auth: AuthContext, occupationId: string) {
  const occupation = await findOccupation(app.db, occupationId);
  if (!occupation || !visibleTo(auth, occupation.organization_id)) throw new DomainError('OCCUPATION_NOT_FOUND');
  return occupation;
}

export async function occupationRoutes(app: FastifyInstance): Promise<void> {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const execute = (request: FastifyRequest, command: OccupationCommand) => runCommand(app, occupationDecider, command, actorOf(request), READ_MODELS);

  api.get(
    '/api/organization/:id/occupations',
    { config: { access: viewers }, schema: { tags, params: idParamsSchema, response: { 200: z.array(occupationSchema) } } },
    async (request) => {
      await organizationInScope(app, request, request.params.id);
      return listOccupations(app.db, request.params.id);
    },
  );

  api.post(
    '/api/organization/:id/occupation',
    { config: { access: editors }, schema: { tags, params: idParamsSchema, body: occupationInputSchema, response: { 201: commandResultSchema } } },
    async (request, reply) => {
      const organizationId = request.params.id;
      const auth = await organizationInScope(app, request, organizationId);
      const occupationId = randomUUID();
      const { userId, name, description } = request.body;
      const roleIds = roleIdsOf(request.body);
      const command: OccupationCommand = {
        type: 'CreateOccupation',
        occupationId,
        organizationId,
        userId,
        name,
        description,
        occupationType: 'DEFAULT',
        roleIds,
        checks: await checksFor(app, organizationId, userId, roleIds),
      };
      await dryRun(app.store, occupationDecider, command);
      await assertMayHandOut(app, auth, organizationId, roleIds);
      const outcome = await execute(request, command);
      return reply.status(201).send({ id: occupationId, position: positionOf(outcome.position) });
    },
  );

  api.put(
    '/api/occupation/:id',
    { config: { access: editors }, schema: { tags, params: idParamsSchema, body: occupationInputSchema, response: { 200: commandResultSchema } } },
    async (request) => {
      const auth = request.auth;
      const occupation = await visibleOccupation(app, auth, request.params.id);
      const { userId, name, description } = request.body;
      const roleIds = roleIdsOf(request.body);
      const command: OccupationCommand = {
        type: 'UpdateOccupation',
        occupationId: occupation.id,
        userId,
        name,
        description,
        roleIds,
        checks: await checksFor(app, occupation.organization_id, userId, roleIds),
        inUse: await occupationUse(app.db, occupation.id, auth),
      };
      await dryRun(app.store, occupationDecider, command);
      await assertMayHandOut(app, auth, occupation.organization_id, rolesHandedOut(occupation, userId, roleIds));
      const outcome = await execute(request, command);
      return { id: occupation.id, position: positionOf(outcome.position) };
    },
  );

  api.delete('/api/occupation/:id', { config: { access: editors }, schema: { tags, params: idParamsSchema, response: { 200: commandResultSchema } } }, async (request) => {
    const auth = request.auth;
    const occupation = await visibleOccupation(app, auth, request.params.id);
    const outcome = await execute(request, { type: 'DeleteOccupation', occupationId: occupation.id, inUse: await occupationUse(app.db, occupation.id, auth) });
    return { id: occupation.id, position: positionOf(outcome.position) };
  });
}
