import { formatPosition } from '@eelarve/eventstore';
import type { ProjectorStatus } from '@eelarve/projections/status';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';

/**
 * Projectors that parked events (their handler failed on them), as a public endpoint may show
 * them: which projector and which events, without stream names or error texts, which can carry
 * record ids and data. GET api/admin/projections has everything.
 */
function degradedProjectors(statuses: readonly ProjectorStatus[]) {
  return statuses
    .filter((status) => status.parkedCount > 0)
    .map((status) => ({
      name: status.name,
      generation: status.generation,
      role: status.role,
      parkedCount: status.parkedCount,
      parkedEvents: status.parkedEvents.map((event) => ({
        position: formatPosition(event.position),
        eventType: event.eventType,
        eventId: event.eventId,
        parkedAt: event.parkedAt.toISOString(),
      })),
    }));
}

export async function healthRoutes(app: FastifyInstance): Promise<void> {
  /** Liveness: the process answers. */
  app.get('/health', { config: { access: 'public' }, schema: { hide: true } }, async () => ({ status: 'ok' }));

  /**
   * Readiness: the database answers and the read models have caught up with the log. A projector
   * that parked events still serves everything else, so that is 200 with status `degraded` and
   * the projectors and events in `degraded`, not 503: taking the instance out of a load balancer
   * would not bring the events back (a fixed projector's rebuild does).
   */
  app.get('/ready', { config: { access: 'public' }, schema: { hide: true } }, async (_request, reply) => {
    try {
      await sql`select 1`.execute(app.db);
      const [live, statuses] = await Promise.all([app.projections.isLive(), app.projections.status()]);
      const degraded = degradedProjectors(statuses);
      if (!live) return reply.status(503).send({ status: 'catching-up', degraded });
      return reply.status(200).send({ status: degraded.length > 0 ? 'degraded' : 'ready', degraded });
    } catch {
      return reply.status(503).send({ status: 'database-unavailable' });
    }
  });
}
