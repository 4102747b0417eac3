import { randomUUID } from 'node:crypto';
import { normaliseEmail, type UserCommand, userDecider } from '@eelarve/domain';
import { formatPosition, type GlobalPosition } from '@eelarve/eventstore';
import { commandResultSchema, DomainError, idParamsSchema, type Privilege, userInputSchema, userNameSchema, userSchema } from '@eelarve/shared';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { actorOf, runCommand } from '../../plugins/commands';
import type { AuthContext } from '../../types';
import { findUser } from '../auth/account-queries';
import { sendRegistrationConfirmation } from '../registration/confirmation';
import { actsAsOrganizationAdmin, isPlatformAdmin, organizationInScope } from '../permissions/authorize';
import { clearAuthMethods } from './auth-methods';
import { notifyOwner } from '../mail/notify-owner';
import { authMethodsRemovedMail } from '../mail/templates';
import { releaseEmailOf, withEmail } from './email-reservation';
import { findMember, heldOccupations, listUserNames, listUsers } from './queries';
import { dryRun } from './reservations';

/** The users screen reads accounts; the organisations list shows the number of users. */
const READ_MODELS = ['accounts', 'organizations'] as const;
const tags = ['users'];
const viewers = { privileges: ['USER_VIEW', 'USER_ADMIN'] as Privilege[] };
const editors = { privileges: ['USER_ADMIN'] as Privilege[] };
const userParamsSchema = z.object({ id: z.uuid({ message: 'validation.format' }), userId: z.uuid({ message: 'validation.format' }) });

const positionOf = (position: GlobalPosition | null) => (position ? formatPosition(position) : null);

/** Only an administrator may change a user's e-mail (spec 1, section 5). */
async function mayChangeEmail(app: FastifyInstance, auth: AuthContext, organizationId: string): Promise<boolean> {
  return isPlatformAdmin(auth) || (await actsAsOrganizationAdmin(app, auth, organizationId));
}

/** A user of this organisation that it may edit or delete: 404 for strangers, UNSUITABLE_USER for visiting members. */
async function ownUser(app: FastifyInstance, organizationId: string, userId: string) {
  const user = await findMember(app.db, organizationId, userId);
  if (!user) throw new DomainError('USER_NOT_FOUND');
  if (user.organization_id !== organizationId) throw new DomainError('UNSUITABLE_USER', 'the user was registered in another organisation');
  return user;
}

export async function userRoutes(app: FastifyInstance): Promise<void> {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const execute = (request: FastifyRequest, command: UserCommand) => runCommand(app, userDecider, command, actorOf(request), READ_MODELS);

  api.get('/api/organization/:id/users', { config: { access: viewers }, schema: { tags, params: idParamsSchema, response: { 200: z.array(userSchema) } } }, async (request) => {
    await organizationInScope(app, request, request.params.id);
    return listUsers(app.db, request.params.id);
  });

  api.get('/api/organization/:id/user-names', { config: { access: viewers }, schema: { tags, params: idParamsSchema, response: { 200: z.array(userNameSchema) } } }, async (request) => {
    await organizationInScope(app, request, request.params.id);
    return listUserNames(app.db, request.params.id);
  });

  api.post(
    '/api/organization/:id/user',
    { config: { access: editors }, schema: { tags, params: idParamsSchema, body: userInputSchema, response: { 201: commandResultSchema } } },
    async (request, reply) => {
      const organizationId = request.params.id;
      await organizationInScope(app, request, organizationId);
      const userId = randomUUID();
      const { name, email } = request.body;
      const command: UserCommand = { type: 'RegisterUser', userId, organizationId, name, email, now: new Date() };
      const outcome = await withEmail(app, { email, userId, actor: actorOf(request) }, () => execute(request, command));
      await sendRegistrationConfirmation(app, { userId, email: normaliseEmail(email), name, organizationId });
      return reply.status(201).send({ id: userId, position: positionOf(outcome.position) });
    },
  );

  api.put(
    '/api/organization/:id/user/:userId',
    { config: { access: editors }, schema: { tags, params: userParamsSchema, body: userInputSchema, response: { 200: commandResultSchema } } },
    async (request) => {
      const { id: organizationId, userId } = request.params;
      const auth = await organizationInScope(app, request, organizationId);
      const user = await ownUser(app, organizationId, userId);
      const emailChanges = normaliseEmail(request.body.email) !== user.email;
      if (emailChanges && !(await mayChangeEmail(app, auth, organizationId))) {
        throw new DomainError('INSUFFICIENT_PERMISSIONS', 'only an administrator may change a user’s e-mail');
      }
      const { admin } = await heldOccupations(app.db, userId);
      const command: UserCommand = { type: 'UpdateUser', userId, name: request.body.name, email: request.body.email, holdsAdminOccupation: admin };
      // USER_NOT_MODIFIABLE and friends before the e-mail is claimed.
      await dryRun(app.store, userDecider, command);
      // Claimed also when the address looks unchanged: the read model may lag behind a change.
      const outcome = await withEmail(app, { email: request.body.email, userId, actor: actorOf(request) }, () => execute(request, command));
      return { id: userId, position: positionOf(outcome.position) };
    },
  );

  api.delete(
    '/api/organization/:id/user/:userId',
    { config: { access: editors }, schema: { tags, params: userParamsSchema, response: { 200: commandResultSchema } } },
    async (request) => {
      const { id: organizationId, userId } = request.params;
      await organizationInScope(app, request, organizationId);
      await ownUser(app, organizationId, userId);
      const held = await heldOccupations(app.db, userId);
      const outcome = await execute(request, { type: 'DeleteUser', userId, holdsOccupation: held.any, holdsAdminOccupation: held.admin });
      await releaseEmailOf(app, outcome, { userId, actor: actorOf(request) });
      await clearAuthMethods(app.db, userId);
      return { id: userId, position: positionOf(outcome.position) };
    },
  );

  api.post(
    '/api/admin/user/:id/remove-auth-methods',
    { config: { access: { privileges: ['IS_ADMIN'] } }, schema: { tags, params: idParamsSchema, response: { 200: commandResultSchema } } },
    async (request) => {
      const userId = request.params.id;
      // Spec 1, section 6: not one's own (the administrator would lock themselves out).
      if (request.auth.userId === userId) throw new DomainError('UNSUITABLE_USER', 'not your own authentication methods');
      if (!(await findUser(app.db, userId))) throw new DomainError('USER_NOT_FOUND');
      // The event first: a failure after it only leaves rows that a repeated call removes.
      const outcome = await execute(request, { type: 'RemoveAuthMethods', userId });
      await clearAuthMethods(app.db, userId);
      await notifyOwner(app, userId, authMethodsRemovedMail);
      return { id: userId, position: positionOf(outcome.position) };
    },
  );
}
