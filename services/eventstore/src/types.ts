/**
 * The event store contract (DESIGN.md section 2). Two adapters implement it: PostgreSQL (the
 * embedded default) and EventStoreDB. One contract test suite runs against both.
 */

export interface EventMetadata {
  correlationId: string;
  causationId: string | null;
  userId: string | null;
  occupationId: string | null;
  organizationId: string | null;
  /** ISO-8601 timestamp of when the command that produced the event ran. */
  occurredAt: string;
  schemaVersion: number;
}

/** An event as a writer hands it to the store. */
export interface NewEvent<Type extends string = string, Data = unknown> {
  id: string; // uuid, the idempotency key
  type: Type;
  data: Data;
  metadata: EventMetadata;
}

/**
 * A place in the global log. Both adapters order $all by (commit, prepare): for PostgreSQL,
 * commit is the writing transaction's id and prepare the row's sequence number; for
 * EventStoreDB they are its own commit and prepare positions. Compare with `comparePositions`.
 */
export interface GlobalPosition {
  commit: bigint;
  prepare: bigint;
}

export const START: GlobalPosition = Object.freeze({ commit: -1n, prepare: -1n });

export interface StoredEvent<Type extends string = string, Data = unknown> extends NewEvent<Type, Data> {
  streamName: string;
  /** 0-based revision of the event within its stream. */
  revision: bigint;
  position: GlobalPosition;
  /** When the store persisted it. */
  createdAt: Date;
}

/** `no_stream`: the stream must not exist; `stream_exists`: it must; `any`: no check; bigint: the stream's current revision. */
export type ExpectedRevision = 'no_stream' | 'stream_exists' | 'any' | bigint;

export interface AppendResult {
  /** Revision of the last event now in the stream. */
  nextExpectedRevision: bigint;
  /** Global position of the last event written. */
  position: GlobalPosition;
}

export interface ReadStreamOptions {
  fromRevision?: bigint | 'start' | 'end';
  direction?: 'forwards' | 'backwards';
  maxCount?: number;
}

export interface ReadAllOptions {
  /** Exclusive: events strictly after this position. Defaults to the start. */
  fromPosition?: GlobalPosition;
  /**
   * How many events of the log one read scans at most (default 1000). With `eventTypes` the
   * page can hold fewer events, even none, while `nextPosition` still moves on.
   */
  maxCount?: number;
  /** Only events of these types (the position still advances over the others). */
  eventTypes?: readonly string[];
}

export interface ReadAllResult {
  events: StoredEvent[];
  /**
   * Where the next read continues from. With a type filter it can be past the last returned
   * event, so a consumer can checkpoint progress over events it does not handle.
   */
  nextPosition: GlobalPosition;
  /** True when the read reached the current end of the log. */
  isEnd: boolean;
  /** Characters of the returned events' data and metadata, where the store counts them (a reader sizes its next page by it). */
  payloadChars?: number;
}

export interface SubscribeOptions {
  /** Exclusive start, usually a stored checkpoint. */
  fromPosition?: GlobalPosition;
  eventTypes?: readonly string[];
  maxBatchSize?: number;
  /**
   * Receives events in global order. The subscription waits for the returned promise before
   * delivering more; a thrown error stops the subscription (onError is told). With `eventTypes`
   * a call can carry no events but a `nextPosition` past skipped ones, worth checkpointing.
   */
  onEvents(events: StoredEvent[], nextPosition: GlobalPosition): Promise<void>;
  /** Called when a subscription has caught up with the log (and again after each catch-up). */
  onCaughtUp?(position: GlobalPosition): void;
  /** A connection failure the subscription recovers from by itself, resuming from its last position. */
  onReconnect?(error: unknown, attempt: number): void;
  onError?(error: unknown): void;
}

export interface Subscription {
  /** Resolves once the subscription has stopped and delivers nothing more. */
  stop(): Promise<void>;
}

export interface EventStore {
  /** Appends at least one event, all or nothing. */
  append(stream: string, events: readonly NewEvent[], options: { expectedRevision: ExpectedRevision }): Promise<AppendResult>;
  /** Events of one stream; an empty list when the stream does not exist. */
  readStream(stream: string, options?: ReadStreamOptions): Promise<StoredEvent[]>;
  readAll(options?: ReadAllOptions): Promise<ReadAllResult>;
  /** The position of the newest event visible to readers of $all (START when empty). */
  headPosition(): Promise<GlobalPosition>;
  subscribeToAll(options: SubscribeOptions): Subscription;
  close(): Promise<void>;
}

export function comparePositions(a: GlobalPosition, b: GlobalPosition): number {
  if (a.commit !== b.commit) return a.commit < b.commit ? -1 : 1;
  if (a.prepare !== b.prepare) return a.prepare < b.prepare ? -1 : 1;
  return 0;
}

/** Positions cross process and HTTP boundaries as `commit/prepare` strings. */
export function formatPosition(position: GlobalPosition): string {
  return `${position.commit}/${position.prepare}`;
}

export function parsePosition(text: string): GlobalPosition | null {
  const match = /^(-?\d+)\/(-?\d+)$/.exec(text);
  if (!match) return null;
  return { commit: BigInt(match[1]!), prepare: BigInt(match[2]!) };
}
