import {
  type AllStreamResolvedEvent,
  type AllStreamSubscription,
  type EventStoreDBClient,
  eventTypeFilter,
  excludeSystemEvents,
  type Filter,
} from '@eventstore/db-client';
import { backoffDelay, Wakeup } from '../internal/wakeup';
import { type GlobalPosition, START, type StoredEvent, type SubscribeOptions, type Subscription } from '../types';
import { isSystemEvent, toReadPosition, toStoredEvent } from './mapping';

const DEFAULT_BATCH_SIZE = 1000;

/** Thrown by the delivery loop when the consumer's own handler failed: that ends the subscription. */
class HandlerError extends Error {
  constructor(readonly failure: unknown) {
    super('subscription handler failed');
  }
}

function escapeRegex(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

function filterFor(eventTypes: readonly string[] | undefined): Filter {
  if (!eventTypes) return excludeSystemEvents();
  // Exact names: a prefix filter would also pass `RecordCreatedV2` for `RecordCreated`.
  return eventTypeFilter({ regex: `^(?:${eventTypes.map(escapeRegex).join('|')})$` });
}

/**
 * A catch-up subscription to $all that outlives its gRPC stream: when the stream fails or ends
 * (the client does not resubscribe by itself), it subscribes again after the last event the
 * consumer finished with, so nothing is delivered twice or skipped.
 */
export class EventStoreDbSubscription implements Subscription {
  readonly #client: EventStoreDBClient;
  readonly #options: SubscribeOptions;
  readonly #batchSize: number;
  readonly #wakeup = new Wakeup();
  readonly #done: Promise<void>;
  #position: GlobalPosition;
  #stream: AllStreamSubscription | null = null;
  /** Reconnects since events last flowed, for the backoff. */
  #failures = 0;
  #stopped = false;

  constructor(client: EventStoreDBClient, options: SubscribeOptions) {
    this.#client = client;
    this.#options = options;
    this.#batchSize = options.maxBatchSize ?? DEFAULT_BATCH_SIZE;
    this.#position = options.fromPosition ?? START;
    this.#done = this.#run();
  }

  get done(): Promise<void> {
    return this.#done;
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    this.#wakeup.wake();
    await this.#closeStream();
    await this.#done;
  }

  async #run(): Promise<void> {
    while (!this.#stopped) {
      let failure: unknown;
      try {
        await this.#consume();
        failure = new Error('the $all subscription ended unexpectedly');
      } catch (error) {
        if (error instanceof HandlerError) return this.#fail(error.failure);
        failure = error;
      }
      await this.#closeStream();
      if (this.#stopped) return;
      this.#failures += 1;
      this.#options.onReconnect?.(failure, this.#failures);
      await this.#wakeup.wait(backoffDelay(this.#failures));
    }
  }

  /** Delivers events of one gRPC stream in batches until it fails or ends. */
  async #consume(): Promise<void> {
    const stream = this.#client.subscribeToAll({
      fromPosition: toReadPosition(this.#position),
      filter: filterFor(this.#options.eventTypes),
    });
    this.#stream = stream;
    const queue: AllStreamResolvedEvent[] = [];
    let caughtUp = false;
    let ended: unknown = null;
    stream.on('data', (resolved: AllStreamResolvedEvent) => {
      queue.push(resolved);
      // Backpressure: stop reading while the consumer is a few batches behind.
      if (queue.length >= 2 * this.#batchSize) stream.pause();
      this.#wakeup.wake();
    });
    stream.on('caughtUp', () => {
      caughtUp = true;
      this.#wakeup.wake();
    });
    stream.on('error', (error) => {
      ended = error;
      this.#wakeup.wake();
    });
    stream.on('end', () => {
      ended ??= new Error('the $all subscription ended');
      this.#wakeup.wake();
    });
    while (!this.#stopped) {
      if (queue.length > 0) {
        await this.#deliver(queue.splice(0, this.#batchSize));
        if (queue.length < this.#batchSize) stream.resume();
        continue;
      }
      // Told only once the buffered events before the caught-up message are all delivered.
      if (caughtUp && stream.readableLength === 0) {
        caughtUp = false;
        this.#options.onCaughtUp?.(this.#position);
      }
      if (ended) throw ended;
      await this.#wakeup.wait();
    }
  }

  async #deliver(batch: AllStreamResolvedEvent[]): Promise<void> {
    const events = batch.map(toStoredEvent).filter((event): event is StoredEvent => event !== null);
    const last = events.at(-1);
    if (!last) return;
    const wanted = events.filter((event) => this.#wanted(event.type));
    try {
      await this.#options.onEvents(wanted, last.position);
    } catch (error) {
      throw new HandlerError(error);
    }
    this.#position = last.position;
    this.#failures = 0;
  }

  /** The server filters already; this guards the contract should a filter be looser. */
  #wanted(type: string): boolean {
    const { eventTypes } = this.#options;
    return eventTypes ? eventTypes.includes(type) : !isSystemEvent(type);
  }

  async #closeStream(): Promise<void> {
    const stream = this.#stream;
    this.#stream = null;
    if (!stream) return;
    await stream.unsubscribe().catch(() => {});
    stream.destroy();
  }

  #fail(error: unknown): void {
    this.#stopped = true;
    void this.#closeStream();
    if (this.#options.onError) this.#options.onError(error);
    else console.error('event store subscription stopped', error);
  }
}
