import { formatPosition } from '@eelarve/eventstore';
import type { ParkedEvent } from '@eelarve/projections/parked';
import type { ProjectorStatus } from '@eelarve/projections/status';
import { DomainError } from '@eelarve/shared';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { Caller } from '../../types';

function parkedEventBody(event: ParkedEvent) {
  return {
    position: formatPosition(event.position),
    streamName: event.streamName,
    eventId: event.eventId,
    eventType: event.eventType,
    error: event.error,
    attempts: event.attempts,
    firstFailedAt: event.firstFailedAt.toISOString(),
    parkedAt: event.parkedAt.toISOString(),
  };
}

function statusBody(status: ProjectorStatus) {
  return {
    ...status,
    position: formatPosition(status.position),
    head: formatPosition(status.head),
    parkedEvents: status.parkedEvents.map(parkedEventBody),
    updatedAt: status.updatedAt.toISOString(),
  };
}

/**
 * Projection status (with parked events) and rebuilds for platform administrators (DESIGN.md
 * section 3). The routes declare IS_ADMIN; the authorisation module checks it before these run.
 */
export function projectionAdminService(app: FastifyInstance) {
  return {
    status: async (_caller: Caller) => (await app.projections.status()).map(statusBody),

    /** Starts a rebuild in the background; progress shows in the status. */
    rebuild(_caller: Caller, name: string, log: FastifyBaseLogger): { name: string; status: 'started' } {
      if (!app.projections.projectorNames().includes(name)) throw new DomainError('OBJECT_NOT_FOUND', `no projector ${name}`);
      app.projections.rebuild(name).catch((error) => log.error({ err: error, projector: name }, 'rebuild failed'));
      return { name, status: 'started' };
    },
  };
}
