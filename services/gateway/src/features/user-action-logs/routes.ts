import { userActionLogInputSchema, userActionLogSchema } from '@eelarve/shared';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { userActionLogService } from './service';

const tags = ['user-action-logs'];
const config = { access: 'occupation' as const };

/** The current occupation's recently visited report views (spec 1, section 2; spec 3, section 7). */
export async function userActionLogRoutes(app: FastifyInstance): Promise<void> {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const logs = userActionLogService(app);

  api.post(
    '/api/user-action-logs',
    { config, schema: { tags, body: userActionLogInputSchema, response: { 201: userActionLogSchema } } },
    async (request, reply) => reply.status(201).send(await logs.record(request.caller, request.body)),
  );

  api.get('/api/user-action-logs/current-occupation', { config, schema: { tags, response: { 200: z.array(userActionLogSchema) } } }, (request) =>
    logs.currentOccupation(request.caller),
  );
}
