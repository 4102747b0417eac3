import type { EventMetadata, GlobalPosition, StoredEvent } from '../types';

/** int8 and xid8 columns arrive as strings (see @eelarve/postgres), json already parsed. */
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

/** PostgreSQL's epoch (2000-01-01 UTC) in Unix milliseconds: binary timestamps count microseconds from it. */
const POSTGRES_EPOCH_MS = 946_684_800_000;
/** A binary COPY stream's header: its signature, then flags and the length of an extension area. */
const COPY_SIGNATURE = Buffer.from('PGCOPY\n\xff\r\n\0', 'latin1');
const COPY_HEADER_BYTES = COPY_SIGNATURE.length + 8;
/** readAllCopySql's columns: commit, prepare, revision, created at, event id, stream, type, data, metadata. */
const PAGE_COLUMNS = 9;
/**
 * Offsets in a row of the fixed-width columns' values, past the row's field count (2 bytes) and
 * each field's length (4 bytes): xid8, int8 and timestamptz are 8 bytes, uuid 16.
 */
const AT_COMMIT = 6;
const AT_PREPARE = 18;
const AT_REVISION = 30;
const AT_CREATED = 42;
const AT_ID = 54;
/** The first variable-width field's length: the stream name's. */
const AT_STREAM_LENGTH = 70;

/** A page of $all as parsed from its binary COPY (readAllCopySql). */
export interface CopyPage {
  /** The rows' events, but for rows of types not asked for (their data came as NULL). */
  events: LazyStoredEvent[];
  /** Rows read, asked for or not. */
  rows: number;
  /** The position of the last row, asked for or not; null for no rows. */
  last: GlobalPosition | null;
  /** Bytes of the events' data and metadata (UTF-8: characters, for ASCII text). */
  payloadBytes: number;
}

/**
 * The pages of one binary COPY of $all (readAllCopySql), `pageRows` rows each, read as its
 * chunks arrive: a page is handed out as soon as its last row has come, so a reader works on
 * it while the server still sends the rest. Each event keeps the bytes and its offsets, and
 * turns them into values when they are first asked for. Nothing is decoded here but the type:
 * binary COPY sends lengths before values, so finding the fields costs a few integer reads per
 * row, where text rows cost the client a string per column and the server a text form of
 * every number and time. A row cut by a chunk's end waits for the next chunk (the two are
 * joined, so an event's bytes are one buffer).
 */
export class CopyPageReader {
  readonly #pageRows: number;
  readonly #recentParses: RecentParses;
  readonly #parseBytes: number;
  /** Chunks not read yet: they are joined and read once they hold PARSE_BYTES (see push). */
  #pending: Buffer[] = [];
  #pendingBytes = 0;
  /** The bytes after the last whole row read, until the next chunks complete them. */
  #rest: Buffer | null = null;
  #headerRead = false;
  #ended = false;
  #page: CopyPage = emptyPage();
  /** The page's last row so far, whose position becomes the page's end once it is complete. */
  #lastRow: { bytes: Buffer; at: number } | null = null;

  /** `parseBytes`: pending bytes that make a read (tests read every chunk as it comes). */
  constructor(pageRows: number, recentParses: RecentParses, parseBytes = PARSE_BYTES) {
    this.#pageRows = pageRows;
    this.#recentParses = recentParses;
    this.#parseBytes = parseBytes;
  }

  /**
   * The pages this chunk completed, in order. Chunks are read a few hundred kilobytes at a
   * time, joined into one buffer: a reader that keeps up gets chunks of a few kilobytes, and
   * joining each with the row cut at the last one's end made a buffer per chunk (their
   * allocations and collection cost more than the rest of the reading).
   */
  push(chunk: Buffer): CopyPage[] {
    if (this.#ended) throw new Error('a $all COPY sent bytes after its end');
    this.#pending.push(chunk);
    this.#pendingBytes += chunk.length;
    // At least as many bytes as the cut row holds already, so one big event is joined O(n) times, not O(n²).
    return this.#pendingBytes < Math.max(this.#parseBytes, this.#rest?.length ?? 0) ? [] : this.#readPending();
  }

  /**
   * The pages the chunks not read yet complete, the last of them the page the COPY ended in:
   * fewer rows than a page holds when the COPY ended early, none when it ended on a page's end.
   * Throws when the COPY's end did not come.
   */
  end(): CopyPage[] {
    const pages = this.#readPending();
    if (!this.#ended) throw new Error('a $all COPY ended without its trailer');
    pages.push(this.#takePage());
    return pages;
  }

  #readPending(): CopyPage[] {
    if (this.#rest) this.#pending.unshift(this.#rest);
    const bytes = this.#pending.length === 1 ? this.#pending[0]! : Buffer.concat(this.#pending);
    this.#pending = [];
    this.#pendingBytes = 0;
    this.#rest = null;
    if (this.#ended) return [];
    let at = 0;
    if (!this.#headerRead) {
      at = headerEnd(bytes);
      if (at < 0) {
        this.#rest = bytes;
        return [];
      }
      this.#headerRead = true;
    }
    const completed: CopyPage[] = [];
    for (;;) {
      if (at + 2 > bytes.length) break;
      const fields = bytes.readInt16BE(at);
      if (fields === -1) {
        this.#ended = true;
        break;
      }
      if (fields !== PAGE_COLUMNS) throw new Error(`a $all row has ${fields} columns, not ${PAGE_COLUMNS}`);
      // The variable-width fields' lengths, each checked to be there before it is read.
      const streamLengthAt = at + AT_STREAM_LENGTH;
      const typeLengthAt = fieldEnd(bytes, streamLengthAt);
      const dataLengthAt = fieldEnd(bytes, typeLengthAt);
      const metadataLengthAt = fieldEnd(bytes, dataLengthAt);
      const rowEnd = fieldEnd(bytes, metadataLengthAt);
      if (rowEnd < 0 || rowEnd > bytes.length) break;
      this.#addRow(bytes, at, typeLengthAt + 4, dataLengthAt, metadataLengthAt);
      at = rowEnd;
      if (this.#page.rows === this.#pageRows) completed.push(this.#takePage());
    }
    if (!this.#ended && at < bytes.length) this.#rest = bytes.subarray(at);
    return completed;
  }

  #takePage(): CopyPage {
    const page = this.#page;
    if (this.#lastRow) page.last = rowPosition(this.#lastRow.bytes, this.#lastRow.at);
    this.#page = emptyPage();
    this.#lastRow = null;
    return page;
  }

  #addRow(bytes: Buffer, row: number, typeAt: number, dataLengthAt: number, metadataLengthAt: number): void {
    const page = this.#page;
    page.rows += 1;
    if (this.#lastRow?.bytes === bytes) this.#lastRow.at = row;
    else this.#lastRow = { bytes, at: row };
    const dataLength = bytes.readInt32BE(dataLengthAt);
    // NULL data: a row of a type not asked for, which only moves the page's end on.
    if (dataLength < 0) return;
    page.events.push(new LazyStoredEvent(bytes, row, typeAt, dataLengthAt, metadataLengthAt, this.#recentParses));
    page.payloadBytes += dataLength + bytes.readInt32BE(metadataLengthAt);
  }
}

/** Bytes of COPY output read at once (CopyPageReader.push): some 500 ordinary events. */
const PARSE_BYTES = 256 * 1024;

function emptyPage(): CopyPage {
  return { events: [], rows: 0, last: null, payloadBytes: 0 };
}

/** Where a binary COPY's rows start, past its header; -1 while the header has not all come. */
function headerEnd(bytes: Buffer): number {
  if (bytes.length < COPY_HEADER_BYTES) return -1;
  if (!bytes.subarray(0, COPY_SIGNATURE.length).equals(COPY_SIGNATURE)) throw new Error('a $all page did not start as binary COPY output');
  const end = COPY_HEADER_BYTES + bytes.readUInt32BE(COPY_SIGNATURE.length + 4);
  return end <= bytes.length ? end : -1;
}

/** The end of the field whose length is at `lengthAt` (NULL: no bytes); -1 when its length has not come, or `lengthAt` is -1. */
function fieldEnd(bytes: Buffer, lengthAt: number): number {
  if (lengthAt < 0 || lengthAt + 4 > bytes.length) return -1;
  return lengthAt + 4 + Math.max(bytes.readInt32BE(lengthAt), 0);
}

function rowPosition(page: Buffer, row: number): GlobalPosition {
  return { commit: page.readBigUInt64BE(row + AT_COMMIT), prepare: page.readBigInt64BE(row + AT_PREPARE) };
}

/** jsonb's binary form: a version byte, then the text. */
const JSONB_VERSION = 1;

/**
 * A json value's text: its binary form is the text itself. A log not yet migrated to json
 * (migration 007) sends jsonb, whose version byte no JSON text starts with: it is skipped.
 */
function jsonText(page: Buffer, lengthAt: number): string {
  const start = lengthAt + 4;
  const end = start + page.readInt32BE(lengthAt);
  return page.toString('utf8', page[start] === JSONB_VERSION ? start + 1 : start, end);
}

/** A uuid's text form from its 16 bytes. */
function uuidText(page: Buffer, at: number): string {
  const hex = page.toString('hex', at, at + 16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** Payloads from this many bytes are parsed once per store, whoever reads them (RecentParses). */
const SHARED_PARSE_MIN_BYTES = 64 * 1024;
/** Bytes of JSON the parsed payloads kept stand for: a projector's page (runner.ts, PAGE_TARGET_CHARS). */
const SHARED_PARSE_MAX_BYTES = 32_000_000;
/** Kept payloads are let go this long after the last one was parsed, so an import's rows do not stay in memory. */
const SHARED_PARSE_KEEP_MS = 10_000;

/**
 * Big payloads parsed lately by one store's readers, by their event's position in its log. The readers of
 * $all in one process read an import's chunks one after another: in the gateway the live report
 * hub, the records projector and the documents projector (which yields to records) each parsed
 * every 150 KB chunk of 500 records, 30 MB of JSON per 100,000-row import three times over on the
 * thread that answers requests. Now the first parses it and the others take its value: events are
 * read-only to their readers, who share it. Bounded by bytes, oldest first out, and emptied a
 * little after the last parse.
 */
export class RecentParses {
  readonly #parsed = new Map<string, { value: unknown; bytes: number }>();
  #bytes = 0;
  #release: ReturnType<typeof setTimeout> | null = null;

  /** The payload at `at` (a length, then the text) of the event at `key`, parsed once while it is kept. */
  parse(key: string, page: Buffer, at: number): unknown {
    const kept = this.#parsed.get(key);
    if (kept) return kept.value;
    const value = JSON.parse(jsonText(page, at));
    const bytes = page.readInt32BE(at);
    this.#parsed.set(key, { value, bytes });
    this.#bytes += bytes;
    for (const [oldest, entry] of this.#parsed) {
      if (this.#bytes <= SHARED_PARSE_MAX_BYTES) break;
      this.#parsed.delete(oldest);
      this.#bytes -= entry.bytes;
    }
    this.#releaseLater();
    return value;
  }

  #releaseLater(): void {
    if (this.#release) clearTimeout(this.#release);
    this.#release = setTimeout(() => {
      this.#parsed.clear();
      this.#bytes = 0;
      this.#release = null;
    }, SHARED_PARSE_KEEP_MS);
    this.#release.unref();
  }
}

/** An event's position as a map key: the bytes of its commit and prepare positions (and the length field between them). */
const positionKey = (page: Buffer, row: number) => page.toString('latin1', row + AT_COMMIT, row + AT_PREPARE + 8);

/**
 * A stored event of a $all page, read from the page's bytes when a field is first asked for.
 * Projectors catching up read millions of events and most look at few of their fields:
 * parsing them all up front cost more than the rest of the read, and a third of it in garbage
 * collection. The fields are accessors on the class, so a spread copy (`{ ...event }`) lacks
 * them: use the fields by name, or toJSON(). An event holds its page's buffer while it lives.
 */
export class LazyStoredEvent implements StoredEvent {
  type: string;
  readonly #page: Buffer;
  readonly #recentParses: RecentParses;
  readonly #row: number;
  readonly #dataLengthAt: number;
  readonly #metadataLengthAt: number;
  #id: string | undefined;
  #streamName: string | undefined;
  #revision: bigint | undefined;
  #position: GlobalPosition | undefined;
  #dataParsed = false;
  #data: unknown;
  #metadata: EventMetadata | undefined;
  #createdAt: Date | undefined;

  constructor(page: Buffer, row: number, typeAt: number, dataLengthAt: number, metadataLengthAt: number, recentParses: RecentParses) {
    this.#recentParses = recentParses;
    this.#page = page;
    this.#row = row;
    this.#dataLengthAt = dataLengthAt;
    this.#metadataLengthAt = metadataLengthAt;
    this.type = page.toString('utf8', typeAt, dataLengthAt);
  }

  get id(): string {
    this.#id ??= uuidText(this.#page, this.#row + AT_ID);
    return this.#id;
  }

  set id(value: string) {
    this.#id = value;
  }

  get streamName(): string {
    this.#streamName ??= this.#page.toString(
      'utf8',
      this.#row + AT_STREAM_LENGTH + 4,
      this.#row + AT_STREAM_LENGTH + 4 + this.#page.readInt32BE(this.#row + AT_STREAM_LENGTH),
    );
    return this.#streamName;
  }

  set streamName(value: string) {
    this.#streamName = value;
  }

  get revision(): bigint {
    this.#revision ??= this.#page.readBigInt64BE(this.#row + AT_REVISION);
    return this.#revision;
  }

  set revision(value: bigint) {
    this.#revision = value;
  }

  get position(): GlobalPosition {
    this.#position ??= rowPosition(this.#page, this.#row);
    return this.#position;
  }

  set position(value: GlobalPosition) {
    this.#position = value;
  }

  /** Big payloads (an import's chunks) are parsed once per store: see RecentParses. Read-only. */
  get data(): unknown {
    if (!this.#dataParsed) {
      const big = this.#page.readInt32BE(this.#dataLengthAt) >= SHARED_PARSE_MIN_BYTES;
      this.#data = big
        ? this.#recentParses.parse(positionKey(this.#page, this.#row), this.#page, this.#dataLengthAt)
        : JSON.parse(jsonText(this.#page, this.#dataLengthAt));
      this.#dataParsed = true;
    }
    return this.#data;
  }

  set data(value: unknown) {
    this.#data = value;
    this.#dataParsed = true;
  }

  get metadata(): EventMetadata {
    this.#metadata ??= JSON.parse(jsonText(this.#page, this.#metadataLengthAt)) as EventMetadata;
    return this.#metadata;
  }

  set metadata(value: EventMetadata) {
    this.#metadata = value;
  }

  /** Microseconds since 2000 to a Date, truncated to the millisecond as the driver's text parser does. */
  get createdAt(): Date {
    this.#createdAt ??= new Date(POSTGRES_EPOCH_MS + Math.floor(Number(this.#page.readBigInt64BE(this.#row + AT_CREATED)) / 1000));
    return this.#createdAt;
  }

  set createdAt(value: Date) {
    this.#createdAt = value;
  }

  /** The event as a plain object, every field parsed. */
  toJSON(): StoredEvent {
    const { id, type, data, metadata, streamName, revision, position, createdAt } = this;
    return { id, type, data, metadata, streamName, revision, position, createdAt };
  }
}
