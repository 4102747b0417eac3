import { comparePositions, type EventStore, type GlobalPosition, START, type Subscription } from '@eelarve/eventstore';
import { backoffDelay, Signal, sleep } from './signal';

/** An event type nothing has: a subscription for it reads positions only, never payloads. */
const NO_EVENT_TYPE = '$projections.wake-up';

/** A stretch of the log the live subscription read: (from, to], holding events of `types` among those any projector handles. */
interface Stretch {
  from: GlobalPosition;
  to: GlobalPosition;
  types: ReadonlySet<string>;
}

/** Recent stretches kept for runners to skip over: far more than runners lag behind while live. */
const STRETCHES_KEPT = 256;

/**
 * Wake-ups for the runners of a process, with what is known of the log: how far it reaches, and
 * which event types the latest stretches hold. A runner skips (in memory) a stretch without an
 * event of its types instead of reading it, and does not read for an announcement it has already
 * read past: each append used to cost every projector one or two reads. Growth of unknown extent
 * (after a reconnect, for a switch-over) makes every runner read.
 */
export class LogGrowth {
  readonly signal = new Signal();
  private head: GlobalPosition = START;
  private unknownGrowths = 0;
  private readonly stretches: Stretch[] = [];

  /** The live subscription read the log up to `to` from `from`, finding events of `types` (of those projectors handle). */
  announced(from: GlobalPosition, to: GlobalPosition, types: ReadonlySet<string>): void {
    this.stretches.push({ from, to, types });
    if (this.stretches.length > STRETCHES_KEPT) this.stretches.shift();
    if (comparePositions(to, this.head) > 0) this.head = to;
    this.signal.notify();
  }

  /** The log may have grown, by an unknown amount. */
  grew(): void {
    this.unknownGrowths++;
    this.signal.notify();
  }

  /** Taken before a read; `beyond` compares with it. */
  mark(): number {
    return this.unknownGrowths;
  }

  /** Whether a reader that reached `position` with a read begun at `mark` may have more to read. */
  beyond(position: GlobalPosition, mark: number): boolean {
    return this.unknownGrowths !== mark || comparePositions(this.head, position) > 0;
  }

  /** How far a reader that has read up to `position` may move without reading: over announced stretches holding none of `types`. */
  skippable(position: GlobalPosition, types: readonly string[]): GlobalPosition {
    let at = position;
    for (let index = this.firstEndingAfter(position); index < this.stretches.length; index++) {
      const stretch = this.stretches[index]!;
      // A gap (the subscription restarted) or an event the reader handles: it must read.
      if (comparePositions(stretch.from, at) > 0 || types.some((type) => stretch.types.has(type))) break;
      at = stretch.to;
    }
    return at;
  }

  /** The first stretch that ends after `position` (they are in log order): every runner asks at each wake-up. */
  private firstEndingAfter(position: GlobalPosition): number {
    let low = 0;
    let high = this.stretches.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (comparePositions(this.stretches[middle]!.to, position) <= 0) low = middle + 1;
      else high = middle;
    }
    return low;
  }
}

/**
 * Turns the store's live subscription into wake-ups for the runners of this process: one
 * subscription for all projectors, whose only job is to say how the log grew (LogGrowth). Runners
 * then read from their own checkpoints, so a lost wake-up costs latency (they also poll), never events.
 */
export class Waker {
  private subscription: Subscription | undefined;
  private readonly abort = new AbortController();
  private readonly done: Promise<void>;

  constructor(
    private readonly store: EventStore,
    private readonly growth: LogGrowth,
    /** Every type a projector of this process handles: the subscription reads only those payloads. */
    private readonly eventTypes: readonly string[],
    private readonly onError: (error: unknown) => void,
  ) {
    this.done = this.run();
  }

  async stop(): Promise<void> {
    this.abort.abort();
    await this.done;
    await this.subscription?.stop();
  }

  private async run(): Promise<void> {
    for (let attempt = 0; !this.abort.signal.aborted; attempt++) {
      try {
        await this.subscribeUntilFailure();
      } catch (error) {
        if (this.abort.signal.aborted) return;
        this.onError(error);
      }
      // Appends may have gone unannounced while the subscription was down.
      this.growth.grew();
      await sleep(backoffDelay(attempt), this.abort.signal);
    }
  }

  /** Resolves when the subscription gives up (the store reconnects by itself before that). */
  private async subscribeUntilFailure(): Promise<void> {
    let from = await this.store.headPosition();
    if (this.abort.signal.aborted) return;
    await new Promise<void>((resolve, reject) => {
      this.subscription = this.store.subscribeToAll({
        fromPosition: from,
        // Without projectors, only how far the log has moved.
        eventTypes: this.eventTypes.length > 0 ? this.eventTypes : [NO_EVENT_TYPE],
        onEvents: async (events, to) => {
          this.growth.announced(from, to, new Set(events.map((event) => event.type)));
          from = to;
        },
        onError: reject,
      });
      this.abort.signal.addEventListener('abort', () => resolve(), { once: true });
    });
  }
}
