import {
  commandResultSchema,
  commandResultWithWarningsSchema,
  idParamsSchema,
  type Privilege,
  privilegeSchema,
  roleInputSchema,
  roleSchema,
} from '@eelarve/shared';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { roleService } from './service';

const tags = ['roles'];
// User administrators read roles too (the occupation form offers them), and so do status
// viewers and administrators (a status rule's exceptions name default-type roles; spec 1, section 3).
const viewers = { privileges: ['ROLES_VIEW', 'ROLES_ADMIN', 'USER_VIEW', 'USER_ADMIN', 'STATUS_VIEW', 'STATUS_ADMIN'] as Privilege[] };
const editors = { privileges: ['ROLES_ADMIN'] as Privilege[] };
const roleParamsSchema = z.object({ orgId: z.uuid({ message: 'validation.format' }), id: z.uuid({ message: 'validation.format' }) });

export async function roleRoutes(app: FastifyInstance): Promise<void> {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const roles = roleService(app);

  api.get('/api/privileges', { config: { access: viewers }, schema: { tags, response: { 200: z.array(privilegeSchema) } } }, (request) =>
    roles.privileges(request.caller),
  );

  api.get(
    '/api/organization/:id/roles',
    { config: { access: viewers }, schema: { tags, params: idParamsSchema, response: { 200: z.array(roleSchema) } } },
    (request) => roles.list(request.caller, request.params.id),
  );

  api.post(
    '/api/organization/:id/role',
    { config: { access: editors }, schema: { tags, params: idParamsSchema, body: roleInputSchema, response: { 201: commandResultSchema } } },
    async (request, reply) => reply.status(201).send(await roles.create(request.caller, request.params.id, request.body)),
  );

  api.put(
    '/api/organization/:orgId/role/:id',
    { config: { access: editors }, schema: { tags, params: roleParamsSchema, body: roleInputSchema, response: { 200: commandResultSchema } } },
    (request) => roles.update(request.caller, request.params.orgId, request.params.id, request.body),
  );

  api.delete(
    '/api/organization/:orgId/role/:id',
    { config: { access: editors }, schema: { tags, params: roleParamsSchema, response: { 200: commandResultWithWarningsSchema } } },
    (request) => roles.remove(request.caller, request.params.orgId, request.params.id),
  );
}
