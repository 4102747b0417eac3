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
 * data, metadata and the place as text, for LazyStoredEvent to parse when asked.
 */
export type PageRow = [eventId: string, streamName: string, type: string, place: PagePlace, data: string | null, metadata: string | null];

/**
 * `<commit> <prepare> <revision> <created at>`: numbers have no spaces, so the first three
 * spaces end them and the rest (which has a space of its own) is the creation time.
 */
type PagePlace = string;

export const PAGE_ROW_TYPE = 2;
const PAGE_ROW_PLACE = 3;
const PAGE_ROW_DATA = 4;
const PAGE_ROW_METADATA = 5;

/** The place's part `index` (0 commit, 1 prepare, 2 revision, 3 the creation time to its end). */
function placePart(place: PagePlace, index: number): string {
  let start = 0;
  for (let part = 0; part < index; part++) start = place.indexOf(' ', start) + 1;
  return index === 3 ? place.slice(start) : place.slice(start, place.indexOf(' ', start));
}

export function pagePosition(row: PageRow): GlobalPosition {
  const place = row[PAGE_ROW_PLACE];
  return { commit: BigInt(placePart(place, 0)), prepare: BigInt(placePart(place, 1)) };
}

/** The characters of a row's data and metadata text (none for a row of a type not asked for). */
export function pagePayloadChars(row: PageRow): number {
  return (row[PAGE_ROW_DATA]?.length ?? 0) + (row[PAGE_ROW_METADATA]?.length ?? 0);
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
  #createdAtParsed = false;
  #createdAt: Date | undefined;

  constructor(row: PageRow) {
    this.id = row[0];
    this.streamName = row[1];
    this.type = row[PAGE_ROW_TYPE];
    this.#row = row;
    this.#dataText = row[PAGE_ROW_DATA];
    this.#metadataText = row[PAGE_ROW_METADATA];
  }

  get revision(): bigint {
    this.#revision ??= BigInt(placePart(this.#row![PAGE_ROW_PLACE], 2));
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
    if (!this.#createdAtParsed) {
      this.#createdAt = parseTimestamp(placePart(this.#row![PAGE_ROW_PLACE], 3));
      this.#createdAtParsed = true;
    }
    return this.#createdAt!;
  }

  set createdAt(value: Date) {
    this.#createdAt = value;
    this.#createdAtParsed = true;
  }

  /** The event as a plain object, every field parsed. */
  toJSON(): StoredEvent {
    const { id, type, data, metadata, streamName, revision, position, createdAt } = this;
    return { id, type, data, metadata, streamName, revision, position, createdAt };
  }
}
