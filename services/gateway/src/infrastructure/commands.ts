import { randomUUID } from 'node:crypto';
import { type Decider, type DomainEvent, foldEvents } from '@eelarve/domain';
import { type EventMetadata, type EventStore, type GlobalPosition, WrongExpectedRevisionError } from '@eelarve/eventstore';
import { DomainError } from '@eelarve/shared';

/** Who runs a command and why: copied into every event's metadata. */
export interface CommandActor {
  correlationId: string;
  causationId?: string | null;
  userId: string | null;
  occupationId: string | null;
  organizationId: string | null;
}

export interface CommandOutcome<Event> {
  events: Event[];
  /** Global position of the last event written; null when the command changed nothing. */
  position: GlobalPosition | null;
}

const MAX_ATTEMPTS = 4;
const SCHEMA_VERSION = 1;

export function eventMetadata(actor: CommandActor, now: Date): EventMetadata {
  return {
    correlationId: actor.correlationId,
    causationId: actor.causationId ?? null,
    userId: actor.userId,
    occupationId: actor.occupationId,
    organizationId: actor.organizationId,
    occurredAt: now.toISOString(),
    schemaVersion: SCHEMA_VERSION,
  };
}

/**
 * Loads the aggregate's stream, lets the decider decide, and appends at the revision it read.
 * When another writer got there first the command is decided again on the fresh state, so a
 * rule is always checked against what is really stored.
 */
export async function executeCommand<Command, Event extends DomainEvent, State>(
  store: EventStore,
  decider: Decider<Command, Event, State>,
  command: Command,
  actor: CommandActor,
  options: { eventIds?: string[]; now?: Date } = {},
): Promise<CommandOutcome<Event>> {
  const stream = decider.streamName(command);
  for (let attempt = 1; ; attempt++) {
    const stored = await store.readStream(stream);
    const state = foldEvents(decider, stored as unknown as Event[]);
    const events = decider.decide(command, state);
    if (events.length === 0) return { events, position: null };
    const metadata = eventMetadata(actor, options.now ?? new Date());
    const toAppend = events.map((event, index) => ({ id: options.eventIds?.[index] ?? randomUUID(), type: event.type, data: event.data, metadata }));
    const last = stored.at(-1);
    try {
      const result = await store.append(stream, toAppend, { expectedRevision: last ? last.revision : 'no_stream' });
      return { events, position: result.position };
    } catch (error) {
      if (!(error instanceof WrongExpectedRevisionError) || attempt >= MAX_ATTEMPTS) {
        if (error instanceof WrongExpectedRevisionError) throw new DomainError('CONCURRENT_MODIFICATION');
        throw error;
      }
    }
  }
}
