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

export interface Readiness {
  statusCode: 200 | 503;
  body: { status: 'ready' | 'degraded' | 'catching-up' | 'database-unavailable'; degraded?: ReturnType<typeof degradedProjectors> };
}

export function healthService(app: FastifyInstance) {
  return {
    /**
     * The database answers and the read models have caught up with the log. A projector that
     * parked events still serves everything else, so that is 200 with status `degraded` and the
     * projectors and events in `degraded`, not 503: taking the instance out of a load balancer
     * would not bring the events back (a fixed projector's rebuild does).
     */
    async readiness(): Promise<Readiness> {
      try {
        await sql`select 1`.execute(app.db);
        const [live, statuses] = await Promise.all([app.projections.isLive(), app.projections.status()]);
        const degraded = degradedProjectors(statuses);
        if (!live) return { statusCode: 503, body: { status: 'catching-up', degraded } };
        return { statusCode: 200, body: { status: degraded.length > 0 ? 'degraded' : 'ready', degraded } };
      } catch {
        return { statusCode: 503, body: { status: 'database-unavailable' } };
      }
    },
  };
}
