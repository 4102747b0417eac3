import { comparePositions, type EventStore, type GlobalPosition, START, type Subscription } from '@eelarve/eventstore';
import { backoffDelay, Signal, sleep } from './signal';

/** An event type nothing has: the subscription then reads positions only, never payloads. */
const NO_EVENT_TYPE = '$projections.wake-up';

/**
 * Wake-ups for the runners of a process, with what is known of the log's end. An append's
 * position (from the live subscription, or from a command waiting for its write) lets a runner
 * that has already read past it skip a read: each append used to cost every projector two reads,
 * one per source of the same news. Growth of unknown extent (after a reconnect, for a
 * switch-over) makes every runner read.
 */
export class LogGrowth {
  readonly signal = new Signal();
  private head: GlobalPosition = START;
  private unknownGrowths = 0;

  /** The log holds events up to `position`. */
  reached(position: GlobalPosition): void {
    if (comparePositions(position, this.head) > 0) this.head = position;
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
}

/**
 * Turns the store's live subscription into wake-ups for the runners of this process: one
 * subscription for all projectors, whose only job is to say "the log grew". Runners then read
 * from their own checkpoints, so a lost wake-up costs latency (they also poll), never events.
 */
export class Waker {
  private subscription: Subscription | undefined;
  private readonly abort = new AbortController();
  private readonly done: Promise<void>;

  constructor(
    private readonly store: EventStore,
    private readonly growth: LogGrowth,
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
    const fromPosition = await this.store.headPosition();
    if (this.abort.signal.aborted) return;
    await new Promise<void>((resolve, reject) => {
      this.subscription = this.store.subscribeToAll({
        fromPosition,
        eventTypes: [NO_EVENT_TYPE],
        // With the filter, a call carries no events, only how far the log has moved.
        onEvents: async (_events, nextPosition) => this.growth.reached(nextPosition),
        onError: reject,
      });
      this.abort.signal.addEventListener('abort', () => resolve(), { once: true });
    });
  }
}
