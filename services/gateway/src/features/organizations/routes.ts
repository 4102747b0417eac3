import { commandResultSchema, idParamsSchema, organizationInputSchema, organizationListSchema } from '@eelarve/shared';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { organizationService } from './service';

const access = { privileges: ['IS_ADMIN' as const] };
const tags = ['organizations'];

export async function organizationRoutes(app: FastifyInstance): Promise<void> {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const organizations = organizationService(app);

  api.get('/api/organizations', { config: { access }, schema: { tags, response: { 200: organizationListSchema } } }, (request) =>
    organizations.list(request.caller),
  );

  api.post(
    '/api/organization',
    { config: { access }, schema: { tags, body: organizationInputSchema, response: { 201: commandResultSchema } } },
    async (request, reply) => reply.status(201).send(await organizations.create(request.caller, request.body)),
  );

  api.put(
    '/api/organization/:id',
    { config: { access }, schema: { tags, params: idParamsSchema, body: organizationInputSchema, response: { 200: commandResultSchema } } },
    (request) => organizations.update(request.caller, request.params.id, request.body),
  );

  api.delete('/api/organization/:id', { config: { access }, schema: { tags, params: idParamsSchema, response: { 200: commandResultSchema } } }, (request) =>
    organizations.remove(request.caller, request.params.id),
  );
}
