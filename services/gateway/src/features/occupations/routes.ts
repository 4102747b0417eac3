import { commandResultSchema, idParamsSchema, occupationInputSchema, occupationSchema, type Privilege } from '@eelarve/shared';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { occupationService } from './service';

const tags = ['occupations'];
const viewers = { privileges: ['USER_VIEW', 'USER_ADMIN'] as Privilege[] };
const editors = { privileges: ['USER_ADMIN'] as Privilege[] };

export async function occupationRoutes(app: FastifyInstance): Promise<void> {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const occupations = occupationService(app);

  api.get(
    '/api/organization/:id/occupations',
    { config: { access: viewers }, schema: { tags, params: idParamsSchema, response: { 200: z.array(occupationSchema) } } },
    (request) => occupations.list(request.caller, request.params.id),
  );

  api.post(
    '/api/organization/:id/occupation',
    { config: { access: editors }, schema: { tags, params: idParamsSchema, body: occupationInputSchema, response: { 201: commandResultSchema } } },
    async (request, reply) => reply.status(201).send(await occupations.create(request.caller, request.params.id, request.body)),
  );

  api.put(
    '/api/occupation/:id',
    { config: { access: editors }, schema: { tags, params: idParamsSchema, body: occupationInputSchema, response: { 200: commandResultSchema } } },
    (request) => occupations.update(request.caller, request.params.id, request.body),
  );

  api.delete(
    '/api/occupation/:id',
    { config: { access: editors }, schema: { tags, params: idParamsSchema, response: { 200: commandResultSchema } } },
    (request) => occupations.remove(request.caller, request.params.id),
  );
}
