import type { EventMetadata, GlobalPosition, StoredEvent } from '../types';

/** int8 and xid8 columns arrive as strings (see @eelarve/postgres), jsonb already parsed. */
export interface PositionRow {
  commit_position: string;
  prepare_position: string;
}

export interface EventRow extends PositionRow {
  event_id: string;
  stream_name: string;
  stream_revision: string;
  type: string;
  data: unknown;
  metadata: EventMetadata;
  created_at: Date;
}

export function toPosition(row: PositionRow): GlobalPosition {
  return { commit: BigInt(row.commit_position), prepare: BigInt(row.prepare_position) };
}

export function toStoredEvent(row: EventRow): StoredEvent {
  return {
    id: row.event_id,
    type: row.type,
    data: row.data,
    metadata: row.metadata,
    streamName: row.stream_name,
    revision: BigInt(row.stream_revision),
    position: toPosition(row),
    createdAt: row.created_at,
  };
}
