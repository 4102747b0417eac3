import type { RecordStoredEvent } from '@eelarve/shared';
import { formatPosition } from '@eelarve/eventstore';
import type { StoredVersion } from './versions';

/**
 * One stored event of a record's streams as auditors see it (GET .../record/{id}/events): its
 * id, stream, revision and global position, its data and its metadata with the names of the user
 * and occupation. An import chunk holds up to 500 records: only this record's row of it is shown.
 */
export function toStoredEvent({ stored, event }: StoredVersion, names: { users: Map<string, string>; occupations: Map<string, string> }): RecordStoredEvent {
  const { metadata } = stored;
  return {
    eventId: stored.id,
    streamName: stored.streamName,
    revision: stored.revision.toString(),
    position: formatPosition(stored.position),
    type: stored.type,
    data: event.data,
    metadata: {
      correlationId: metadata.correlationId,
      causationId: metadata.causationId,
      userId: metadata.userId,
      userName: metadata.userId ? (names.users.get(metadata.userId) ?? null) : null,
      occupationId: metadata.occupationId,
      occupationName: metadata.occupationId ? (names.occupations.get(metadata.occupationId) ?? null) : null,
      occurredAt: metadata.occurredAt,
    },
    storedAt: stored.createdAt.toISOString(),
  };
}
