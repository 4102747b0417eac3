import {
  commandResultSchema,
  idParamsSchema,
  storedSettingCreateSchema,
  storedSettingSchema,
  storedSettingsOrderSchema,
  storedSettingsQuerySchema,
  storedSettingUpdateSchema,
} from '@eelarve/shared';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { storedSettingsService } from './service';
import './copy-step';

const tags = ['stored-settings'];
/** Settings belong to a user in an occupation; the service checks the document and budget. */
const config = { access: 'occupation' as const };

/** Saved report views and column sets (spec 3, section 7). */
export async function storedSettingsRoutes(app: FastifyInstance): Promise<void> {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const settings = storedSettingsService(app);

  api.get(
    '/api/stored-settings',
    { config, schema: { tags, querystring: storedSettingsQuerySchema, response: { 200: z.array(storedSettingSchema) } } },
    (request) => settings.list(request.caller, request.query),
  );

  api.get('/api/stored-setting/:id', { config, schema: { tags, params: idParamsSchema, response: { 200: storedSettingSchema } } }, (request) =>
    settings.get(request.caller, request.params.id),
  );

  api.post(
    '/api/stored-settings',
    { config, schema: { tags, body: storedSettingCreateSchema, response: { 201: commandResultSchema } } },
    async (request, reply) => reply.status(201).send(await settings.create(request.caller, request.body)),
  );

  api.put('/api/stored-settings', { config, schema: { tags, body: storedSettingUpdateSchema, response: { 200: commandResultSchema } } }, (request) =>
    settings.update(request.caller, request.body),
  );

  api.delete('/api/stored-settings/:id', { config, schema: { tags, params: idParamsSchema, response: { 200: commandResultSchema } } }, (request) =>
    settings.remove(request.caller, request.params.id),
  );

  api.post('/api/stored-settings/order', { config, schema: { tags, body: storedSettingsOrderSchema, response: { 200: commandResultSchema } } }, (request) =>
    settings.order(request.caller, request.body),
  );

  // Personal to general (userId null): update permission on the document (spec 3, section 6).
  api.post('/api/stored-settings/:id/promote', { config, schema: { tags, params: idParamsSchema, response: { 200: commandResultSchema } } }, (request) =>
    settings.promote(request.caller, request.params.id),
  );
}
