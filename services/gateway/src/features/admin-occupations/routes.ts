import { adminChangeResponseSchema, idParamsSchema } from '@eelarve/shared';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { clearSessionCookie } from '../auth/login-flow';
import { adminOccupationService } from './service';

const access = { privileges: ['IS_ADMIN' as const] };
const tags = ['administration'];

export async function adminOccupationRoutes(app: FastifyInstance): Promise<void> {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const admins = adminOccupationService(app);
  const schema = { tags, params: idParamsSchema, response: { 200: adminChangeResponseSchema } };

  api.post('/api/admin/:id', { config: { access }, schema }, (request) => admins.assign(request.caller, request.params.id));

  api.delete('/api/admin/:id', { config: { access }, schema }, async (request, reply) => {
    const answer = await admins.remove(request.caller, request.params.id);
    // This session ended with the occupation: its cookie goes too.
    if (answer.reloginRequired) clearSessionCookie(app, reply);
    return answer;
  });
}
