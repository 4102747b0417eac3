import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';

export async function healthRoutes(app: FastifyInstance): Promise<void> {
  /** Liveness: the process answers. */
  app.get('/health', { config: { access: 'public' }, schema: { hide: true } }, async () => ({ status: 'ok' }));

  /** Readiness: the database answers and the read models have caught up with the log. */
  app.get('/ready', { config: { access: 'public' }, schema: { hide: true } }, async (_request, reply) => {
    try {
      await sql`select 1`.execute(app.db);
      const live = await app.projections.isLive();
      return reply.status(live ? 200 : 503).send({ status: live ? 'ready' : 'catching-up' });
    } catch {
      return reply.status(503).send({ status: 'database-unavailable' });
    }
  });
}
