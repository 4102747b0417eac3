import { commandResultSchema, idParamsSchema, type Privilege, resourceStatusInputSchema, resourceStatusSchema } from '@eelarve/shared';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { resourceStatusService } from './service';

const tags = ['resource-statuses'];
const viewers = { privileges: ['STATUS_VIEW', 'STATUS_ADMIN'] as Privilege[] };
const editors = { privileges: ['STATUS_ADMIN'] as Privilege[] };

export async function resourceStatusRoutes(app: FastifyInstance): Promise<void> {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const statuses = resourceStatusService(app);

  api.get('/api/resource-statuses', { config: { access: viewers }, schema: { tags, response: { 200: z.array(resourceStatusSchema) } } }, (request) =>
    statuses.list(request.caller),
  );

  api.post(
    '/api/resource-statuses',
    { config: { access: editors }, schema: { tags, body: resourceStatusInputSchema, response: { 201: commandResultSchema } } },
    async (request, reply) => reply.status(201).send(await statuses.create(request.caller, request.body)),
  );

  api.put(
    '/api/resource-status/:id',
    { config: { access: editors }, schema: { tags, params: idParamsSchema, body: resourceStatusInputSchema, response: { 200: commandResultSchema } } },
    (request) => statuses.update(request.caller, request.params.id, request.body),
  );

  // "Reset to defaults" of a read-only status (spec 1, section 4): name, description and icon of the default with the same rules.
  api.post(
    '/api/resource-status/:id/reset',
    { config: { access: editors }, schema: { tags, params: idParamsSchema, response: { 200: commandResultSchema } } },
    (request) => statuses.reset(request.caller, request.params.id),
  );

  api.delete(
    '/api/resource-status/:id',
    { config: { access: editors }, schema: { tags, params: idParamsSchema, response: { 200: commandResultSchema } } },
    (request) => statuses.remove(request.caller, request.params.id),
  );
}
