import pg from 'pg';
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

/** The elements of an int8 array's text ({1,2,3}): numbers are never quoted. */
export function bigintElements(text: string): bigint[] {
  return text.length <= 2 ? [] : text.slice(1, -1).split(',').map(BigInt);
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

/**
 * A row of a $all page as an array (READ_ALL_SQL's columns in order): no object per row, and
 * data, metadata and created_at as text, for LazyStoredEvent to parse when asked.
 */
export type PageRow = [
  eventId: string,
  streamName: string,
  streamRevision: string,
  type: string,
  createdAt: string,
  commitPosition: string,
  preparePosition: string,
  data: string | null,
  metadata: string | null,
];

export const PAGE_ROW_TYPE = 3;
export const PAGE_ROW_COMMIT = 5;
export const PAGE_ROW_PREPARE = 6;

export function pagePosition(row: PageRow): GlobalPosition {
  return { commit: BigInt(row[PAGE_ROW_COMMIT]), prepare: BigInt(row[PAGE_ROW_PREPARE]) };
}

const parseTimestamp = pg.types.getTypeParser(pg.types.builtins.TIMESTAMPTZ, 'text') as (text: string) => Date;

/**
 * A stored event of a $all page whose data, metadata and creation time are parsed on first
 * access. Projectors catching up read millions of events and most look at few of those fields:
 * parsing them all up front cost more than the rest of the read, and a third of it in garbage
 * collection. The fields are accessors on the class, so a spread copy (`{ ...event }`) lacks
 * them: use the fields by name, or toJSON().
 */
export class LazyStoredEvent implements StoredEvent {
  id: string;
  type: string;
  streamName: string;
  #row: PageRow | null;
  #revision: bigint | undefined;
  #position: GlobalPosition | undefined;
  #dataText: string | null;
  #data: unknown;
  #metadataText: string | null;
  #metadata: EventMetadata | undefined;
  #createdAtText: string | null;
  #createdAt: Date | undefined;

  constructor(row: PageRow) {
    this.id = row[0];
    this.streamName = row[1];
    this.type = row[PAGE_ROW_TYPE];
    this.#row = row;
    this.#createdAtText = row[4];
    this.#dataText = row[7];
    this.#metadataText = row[8];
  }

  get revision(): bigint {
    this.#revision ??= BigInt(this.#row![2]);
    return this.#revision;
  }

  set revision(value: bigint) {
    this.#revision = value;
  }

  get position(): GlobalPosition {
    this.#position ??= pagePosition(this.#row!);
    return this.#position;
  }

  set position(value: GlobalPosition) {
    this.#position = value;
  }

  get data(): unknown {
    if (this.#dataText !== null) {
      this.#data = JSON.parse(this.#dataText);
      this.#dataText = null;
    }
    return this.#data;
  }

  set data(value: unknown) {
    this.#data = value;
    this.#dataText = null;
  }

  get metadata(): EventMetadata {
    if (this.#metadataText !== null) {
      this.#metadata = JSON.parse(this.#metadataText) as EventMetadata;
      this.#metadataText = null;
    }
    return this.#metadata!;
  }

  set metadata(value: EventMetadata) {
    this.#metadata = value;
    this.#metadataText = null;
  }

  get createdAt(): Date {
    if (this.#createdAtText !== null) {
      this.#createdAt = parseTimestamp(this.#createdAtText);
      this.#createdAtText = null;
    }
    return this.#createdAt!;
  }

  set createdAt(value: Date) {
    this.#createdAt = value;
    this.#createdAtText = null;
  }

  /** The event as a plain object, every field parsed. */
  toJSON(): StoredEvent {
    const { id, type, data, metadata, streamName, revision, position, createdAt } = this;
    return { id, type, data, metadata, streamName, revision, position, createdAt };
  }
}
