import type { EventStore, Subscription } from '@eelarve/eventstore';
import { backoffDelay, type Signal, sleep } from './signal';

/** An event type nothing has: the subscription then reads positions only, never payloads. */
const NO_EVENT_TYPE = '$projections.wake-up';

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
    private readonly signal: Signal,
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
      this.signal.notify();
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
        // With the filter, a call carries no events, only that the log moved past fromPosition.
        onEvents: async () => this.signal.notify(),
        onError: reject,
      });
      this.abort.signal.addEventListener('abort', () => resolve(), { once: true });
    });
  }
}
