import type { FastifyInstance } from 'fastify';
import { healthService } from './service';

export async function healthRoutes(app: FastifyInstance): Promise<void> {
  const health = healthService(app);

  /** Liveness: the process answers. */
  app.get('/health', { config: { access: 'public' }, schema: { hide: true } }, async () => ({ status: 'ok' }));

  /** Readiness: 200 ready or degraded (parked events), 503 while catching up or without a database. */
  app.get('/ready', { config: { access: 'public' }, schema: { hide: true } }, async (_request, reply) => {
    const { statusCode, body } = await health.readiness();
    return reply.status(statusCode).send(body);
  });
}
