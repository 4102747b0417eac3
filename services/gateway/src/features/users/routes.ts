import { commandResultSchema, idParamsSchema, type Privilege, userInputSchema, userNameSchema, userSchema } from '@eelarve/shared';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { userService } from './service';

const tags = ['users'];
const viewers = { privileges: ['USER_VIEW', 'USER_ADMIN'] as Privilege[] };
const editors = { privileges: ['USER_ADMIN'] as Privilege[] };
const platformAdmins = { privileges: ['IS_ADMIN'] as Privilege[] };
const userParamsSchema = z.object({ id: z.uuid({ message: 'validation.format' }), userId: z.uuid({ message: 'validation.format' }) });

export async function userRoutes(app: FastifyInstance): Promise<void> {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const users = userService(app);

  api.get(
    '/api/organization/:id/users',
    { config: { access: viewers }, schema: { tags, params: idParamsSchema, response: { 200: z.array(userSchema) } } },
    (request) => users.list(request.caller, request.params.id),
  );

  api.get(
    '/api/organization/:id/user-names',
    { config: { access: viewers }, schema: { tags, params: idParamsSchema, response: { 200: z.array(userNameSchema) } } },
    (request) => users.names(request.caller, request.params.id),
  );

  api.post(
    '/api/organization/:id/user',
    { config: { access: editors }, schema: { tags, params: idParamsSchema, body: userInputSchema, response: { 201: commandResultSchema } } },
    async (request, reply) => reply.status(201).send(await users.create(request.caller, request.params.id, request.body)),
  );

  api.put(
    '/api/organization/:id/user/:userId',
    { config: { access: editors }, schema: { tags, params: userParamsSchema, body: userInputSchema, response: { 200: commandResultSchema } } },
    (request) => users.update(request.caller, request.params.id, request.params.userId, request.body),
  );

  api.delete(
    '/api/organization/:id/user/:userId',
    { config: { access: editors }, schema: { tags, params: userParamsSchema, response: { 200: commandResultSchema } } },
    (request) => users.remove(request.caller, request.params.id, request.params.userId),
  );

  api.post(
    '/api/admin/user/:id/remove-auth-methods',
    { config: { access: platformAdmins }, schema: { tags, params: idParamsSchema, response: { 200: commandResultSchema } } },
    (request) => users.removeAuthMethods(request.caller, request.params.id),
  );
}
