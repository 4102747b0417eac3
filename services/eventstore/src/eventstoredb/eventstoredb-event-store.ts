import {
  BACKWARDS,
  END,
  EventStoreDBClient,
  FORWARDS,
  NO_STREAM,
  type ResolvedEvent,
  START as START_REVISION,
  StreamNotFoundError,
  WrongExpectedVersionError,
} from '@eventstore/db-client';
import { IdempotencyConflictError, WrongExpectedRevisionError } from '../errors';
import {
  type AppendResult,
  comparePositions,
  type EventStore,
  type ExpectedRevision,
  type GlobalPosition,
  type NewEvent,
  type ReadAllOptions,
  type ReadAllResult,
  type ReadStreamOptions,
  START,
  type StoredEvent,
  type SubscribeOptions,
  type Subscription,
} from '../types';
import { isSystemEvent, toEventData, toExpectedRevision, toReadPosition, toStoredEvent } from './mapping';
import { EventStoreDbSubscription } from './subscription';

const DEFAULT_PAGE_SIZE = 1000;
const HEAD_PAGE_SIZE = 32;

export class EventStoreDbEventStore implements EventStore {
  readonly #client: EventStoreDBClient;
  readonly #subscriptions = new Set<EventStoreDbSubscription>();

  constructor(client: EventStoreDBClient) {
    this.#client = client;
  }

  async append(stream: string, events: readonly NewEvent[], options: { expectedRevision: ExpectedRevision }): Promise<AppendResult> {
    if (events.length === 0) throw new RangeError(`stream ${stream}: an append needs at least one event`);
    const { expectedRevision } = options;
    try {
      const result = await this.#client.appendToStream(stream, events.map(toEventData), {
        expectedRevision: toExpectedRevision(expectedRevision),
      });
      const position = result.position ?? (await this.#positionOf(stream, result.nextExpectedRevision));
      return { nextExpectedRevision: result.nextExpectedRevision, position };
    } catch (error) {
      if (!(error instanceof WrongExpectedVersionError)) throw error;
      return this.#resolveConflict(stream, events, expectedRevision, error);
    }
  }

  async readStream(stream: string, options: ReadStreamOptions = {}): Promise<StoredEvent[]> {
    const backwards = options.direction === 'backwards';
    const read = this.#client.readStream(stream, {
      direction: backwards ? BACKWARDS : FORWARDS,
      fromRevision: options.fromRevision ?? (backwards ? END : START_REVISION),
      maxCount: options.maxCount,
    });
    try {
      return await collect(read);
    } catch (error) {
      if (error instanceof StreamNotFoundError) return [];
      throw error;
    }
  }

  /**
   * This client version cannot filter reads of $all on the server, so the page is filtered here:
   * maxCount bounds the events scanned, as in the PostgreSQL store.
   */
  async readAll(options: ReadAllOptions = {}): Promise<ReadAllResult> {
    const { fromPosition = START, maxCount = DEFAULT_PAGE_SIZE, eventTypes } = options;
    const wanted = eventTypes && new Set(eventTypes);
    // A read from a position includes the event at it; one more makes up for skipping that one.
    const requested = maxCount + 1;
    const events: StoredEvent[] = [];
    let nextPosition = fromPosition;
    let received = 0;
    let scanned = 0;
    for await (const resolved of this.#client.readAll({ fromPosition: toReadPosition(fromPosition), maxCount: requested })) {
      received += 1;
      const event = toStoredEvent(resolved);
      if (!event || scanned === maxCount || comparePositions(event.position, fromPosition) <= 0) continue;
      scanned += 1;
      nextPosition = event.position;
      if (!isSystemEvent(event.type) && (!wanted || wanted.has(event.type))) events.push(event);
    }
    return { events, nextPosition, isEnd: received < requested };
  }

  async headPosition(): Promise<GlobalPosition> {
    // The newest entries of $all are often system events (statistics), which readers never see.
    let from: GlobalPosition | typeof END = END;
    for (;;) {
      const page = await collect(this.#client.readAll({ direction: BACKWARDS, fromPosition: from, maxCount: HEAD_PAGE_SIZE }));
      const newest = page.find((event) => !isSystemEvent(event.type));
      if (newest) return newest.position;
      const oldest = page.at(-1);
      if (!oldest || page.length < HEAD_PAGE_SIZE) return START;
      from = oldest.position;
    }
  }

  subscribeToAll(options: SubscribeOptions): Subscription {
    const subscription = new EventStoreDbSubscription(this.#client, options);
    this.#subscriptions.add(subscription);
    void subscription.done.then(() => this.#subscriptions.delete(subscription));
    return subscription;
  }

  async close(): Promise<void> {
    await Promise.all([...this.#subscriptions].map((subscription) => subscription.stop()));
    await this.#client.dispose();
  }

  async #positionOf(stream: string, revision: bigint): Promise<GlobalPosition> {
    const [event] = await this.readStream(stream, { fromRevision: revision, maxCount: 1 });
    return event?.position ?? START;
  }

  /**
   * EventStoreDB answers a retry whose ids only partly match the stored append with a wrong
   * expected version. Reading what follows the expected revision tells the cases apart.
   */
  async #resolveConflict(stream: string, events: readonly NewEvent[], expected: ExpectedRevision, error: WrongExpectedVersionError): Promise<AppendResult> {
    const firstRevision = expected === 'no_stream' ? 0n : typeof expected === 'bigint' ? expected + 1n : null;
    if (firstRevision !== null && error.actualVersion !== NO_STREAM) {
      const stored = await this.readStream(stream, { fromRevision: firstRevision, maxCount: events.length });
      const ids = new Set(events.map((event) => event.id));
      const last = stored.at(-1);
      if (last && stored.length === events.length && stored.every((event, index) => event.id === events[index]!.id)) {
        return { nextExpectedRevision: last.revision, position: last.position };
      }
      if (stored.some((event) => ids.has(event.id))) throw new IdempotencyConflictError(stream);
    }
    throw new WrongExpectedRevisionError(stream, expected, error.actualVersion);
  }
}

/** Reads a whole (bounded) read to its end, which also releases its gRPC call. */
async function collect(read: AsyncIterable<ResolvedEvent>): Promise<StoredEvent[]> {
  const events: StoredEvent[] = [];
  for await (const resolved of read) {
    const event = toStoredEvent(resolved);
    if (event) events.push(event);
  }
  return events;
}

export type EventStoreDbConfig = { connectionString: string } | { client: EventStoreDBClient };

export function createEventStoreDbEventStore(config: EventStoreDbConfig): EventStoreDbEventStore {
  const client = 'client' in config ? config.client : EventStoreDBClient.connectionString(config.connectionString);
  return new EventStoreDbEventStore(client);
}
