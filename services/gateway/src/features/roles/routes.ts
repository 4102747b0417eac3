import { randomUUID } from 'node:crypto';
import { type RoleCommand, roleDecider } from '@eelarve/domain';
import { formatPosition, type GlobalPosition } from '@eelarve/eventstore';
import { commandResultSchema, DomainError, idParamsSchema, PRIVILEGES, type Privilege, privilegeSchema, roleInputSchema, roleSchema } from '@eelarve/shared';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { actorOf, runCommand } from '../../plugins/commands';
import type { AuthContext } from '../../types';
import { isPlatformAdmin, isPlatformOrganization, organizationInScope, privilegesNotHeld, visibleTo } from '../permissions/authorize';
import { dryRun } from '../users/reservations';
import { releaseRoleNameOf, withRoleName } from './name-reservation';
import { findRole, listRoles, privilegeOption, roleAttached } from './queries';

/** The roles screen reads accounts (roles and whether occupations use them). */
const READ_MODELS = ['accounts'] as const;
const tags = ['roles'];
// User administrators read roles too: the occupation form offers them.
const viewers = { privileges: ['ROLES_VIEW', 'ROLES_ADMIN', 'USER_VIEW', 'USER_ADMIN'] as Privilege[] };
const editors = { privileges: ['ROLES_ADMIN'] as Privilege[] };
const roleParamsSchema = z.object({ orgId: z.uuid({ message: 'validation.format' }), id: z.uuid({ message: 'validation.format' }) });

const positionOf = (position: GlobalPosition | null) => (position ? formatPosition(position) : null);

interface SavedRole {
  privileges: readonly string[];
  /** Carried by an occupation: new privileges reach its user at once. */
  attached: boolean;
}

/**
 * The privileges a role is saved with. IS_ADMIN makes a platform administrator: only one may
 * grant it, and only to a role of the platform organisation (in any other organisation's role it
 * would let that organisation's user administrators make themselves platform administrators).
 * Others neither see it (GET api/privileges) nor change it, so a platform role keeps it when they
 * save the role, while a role elsewhere that carries it from before loses it. A role already in
 * use gains only privileges the caller holds: widening it hands them out.
 */
async function privilegesToSave(app: FastifyInstance, auth: AuthContext, organizationId: string, requested: Privilege[], saved?: SavedRole): Promise<Privilege[]> {
  const current = saved?.privileges ?? [];
  const added = requested.filter((privilege) => !current.includes(privilege));
  if (added.includes('IS_ADMIN') && !isPlatformAdmin(auth)) throw new DomainError('INSUFFICIENT_PERMISSIONS', 'only a platform administrator may grant IS_ADMIN');
  const platformOrganization = await isPlatformOrganization(app, organizationId);
  if (requested.includes('IS_ADMIN') && !platformOrganization) {
    throw new DomainError('UNSUITABLE_ROLE', 'IS_ADMIN belongs to roles of the platform organisation only');
  }
  const notHeld = saved?.attached ? privilegesNotHeld(auth, added) : [];
  if (notHeld.length > 0) throw new DomainError('INSUFFICIENT_PERMISSIONS', `a role in use gains only privileges you hold: ${notHeld.join(', ')}`, { privileges: notHeld });
  const keepsIsAdmin = platformOrganization && !isPlatformAdmin(auth) && current.includes('IS_ADMIN') && !requested.includes('IS_ADMIN');
  return keepsIsAdmin ? [...requested, 'IS_ADMIN'] : requested;
}

/** A role of the organisation in the path; any other id is "not found". */
async function roleInPath(app: FastifyInstance, auth: AuthContext, organizationId: string, roleId: string) {
  const role = await findRole(app.db, roleId);
  if (!role || role.organization_id !== organizationId || !visibleTo(auth, role.organization_id)) throw new DomainError('ROLE_NOT_FOUND');
  return role;
}

export async function roleRoutes(app: FastifyInstance): Promise<void> {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const execute = (request: FastifyRequest, command: RoleCommand) => runCommand(app, roleDecider, command, actorOf(request), READ_MODELS);

  api.get(
    '/api/privileges',
    { config: { access: { privileges: ['ROLES_VIEW', 'ROLES_ADMIN', 'USER_VIEW', 'USER_ADMIN'] } }, schema: { tags, response: { 200: z.array(privilegeSchema) } } },
    async (request) => {
      const platformAdmin = isPlatformAdmin(request.auth);
      return PRIVILEGES.filter((privilege) => platformAdmin || privilege !== 'IS_ADMIN').map(privilegeOption);
    },
  );

  api.get('/api/organization/:id/roles', { config: { access: viewers }, schema: { tags, params: idParamsSchema, response: { 200: z.array(roleSchema) } } }, async (request) => {
    await organizationInScope(app, request, request.params.id);
    return listRoles(app.db, request.params.id);
  });

  api.post(
    '/api/organization/:id/role',
    { config: { access: editors }, schema: { tags, params: idParamsSchema, body: roleInputSchema, response: { 201: commandResultSchema } } },
    async (request, reply) => {
      const organizationId = request.params.id;
      const auth = await organizationInScope(app, request, organizationId);
      const roleId = randomUUID();
      const { name, description } = request.body;
      const privilegeIds = await privilegesToSave(app, auth, organizationId, request.body.privilegeIds);
      const command: RoleCommand = { type: 'CreateRole', roleId, organizationId, name, description, privilegeIds, roleType: 'DEFAULT' };
      // ROLE_RESERVED before the name is claimed.
      await dryRun(app.store, roleDecider, command);
      const outcome = await withRoleName(app, { organizationId, name, roleId, actor: actorOf(request) }, () => execute(request, command));
      return reply.status(201).send({ id: roleId, position: positionOf(outcome.position) });
    },
  );

  api.put(
    '/api/organization/:orgId/role/:id',
    { config: { access: editors }, schema: { tags, params: roleParamsSchema, body: roleInputSchema, response: { 200: commandResultSchema } } },
    async (request) => {
      const { orgId: organizationId, id: roleId } = request.params;
      const auth = await organizationInScope(app, request, organizationId);
      const role = await roleInPath(app, auth, organizationId, roleId);
      const { name, description } = request.body;
      const saved = { privileges: role.privilege_ids, attached: await roleAttached(app.db, roleId) };
      const privilegeIds = await privilegesToSave(app, auth, organizationId, request.body.privilegeIds, saved);
      const command: RoleCommand = { type: 'UpdateRole', roleId, name, description, privilegeIds };
      // ROLE_NOT_MODIFIABLE / ROLE_RESERVED before the new name is claimed.
      await dryRun(app.store, roleDecider, command);
      // Claimed also when the name looks unchanged: the read model may lag behind a rename.
      const outcome = await withRoleName(app, { organizationId, name, roleId, actor: actorOf(request) }, () => execute(request, command));
      return { id: roleId, position: positionOf(outcome.position) };
    },
  );

  api.delete(
    '/api/organization/:orgId/role/:id',
    { config: { access: editors }, schema: { tags, params: roleParamsSchema, response: { 200: commandResultSchema } } },
    async (request) => {
      const { orgId: organizationId, id: roleId } = request.params;
      const auth = await organizationInScope(app, request, organizationId);
      await roleInPath(app, auth, organizationId, roleId);
      const outcome = await execute(request, { type: 'DeleteRole', roleId, attachedToOccupation: await roleAttached(app.db, roleId) });
      await releaseRoleNameOf(app, outcome, { organizationId, roleId, actor: actorOf(request) });
      return { id: roleId, position: positionOf(outcome.position) };
    },
  );
}
