import {
  ANY,
  type AppendExpectedRevision,
  type EventData,
  type JSONType,
  NO_STREAM,
  type Position,
  type ResolvedEvent,
  START as ESDB_START,
  STREAM_EXISTS,
} from '@eventstore/db-client';
import type { EventMetadata, ExpectedRevision, GlobalPosition, NewEvent, StoredEvent } from '../types';

export function toEventData(event: NewEvent): EventData {
  return {
    id: event.id, // the event id doubles as EventStoreDB's idempotency key
    contentType: 'application/json',
    type: event.type,
    data: (event.data ?? null) as JSONType,
    metadata: event.metadata as unknown as JSONType,
  };
}

export function toExpectedRevision(expected: ExpectedRevision): AppendExpectedRevision {
  switch (expected) {
    case 'no_stream':
      return NO_STREAM;
    case 'stream_exists':
      return STREAM_EXISTS;
    case 'any':
      return ANY;
    default:
      return expected;
  }
}

/** Our START (before everything) is EventStoreDB's `start`; any other position passes through. */
export function toReadPosition(position: GlobalPosition): Position | typeof ESDB_START {
  return position.commit < 0n ? ESDB_START : position;
}

/** System events (`$`-types: stats, metadata, projections) are not part of the domain log. */
export function isSystemEvent(type: string): boolean {
  return type.startsWith('$');
}

/** Null for link-only entries, which carry no event of their own. */
export function toStoredEvent(resolved: ResolvedEvent): StoredEvent | null {
  const recorded = resolved.event;
  if (!recorded) return null;
  const commit = resolved.commitPosition ?? -1n;
  return {
    id: recorded.id,
    type: recorded.type,
    data: recorded.data,
    metadata: recorded.metadata as unknown as EventMetadata,
    streamName: recorded.streamId,
    revision: recorded.revision,
    // Servers before 22.6 leave the position out of stream reads; the commit position is then all we have.
    position: recorded.position ?? { commit, prepare: commit },
    createdAt: recorded.created,
  };
}
