import { backoffDelay, Wakeup } from '../internal/wakeup';
import { comparePositions, type GlobalPosition, type ReadAllResult, START, type SubscribeOptions, type Subscription } from '../types';
import { isTransientError } from './pg-errors';

export type PageReader = (from: GlobalPosition) => Promise<ReadAllResult>;

/**
 * Reads $all page by page from its position and, once caught up, sleeps until woken (an append
 * was announced) or the poll interval passes. The position only moves after `onEvents` has
 * finished, so a failure anywhere resumes exactly where delivery stopped.
 */
export class PollingSubscription implements Subscription {
  readonly #readPage: PageReader;
  readonly #options: SubscribeOptions;
  readonly #pollIntervalMs: number;
  readonly #wakeup = new Wakeup();
  readonly #done: Promise<void>;
  #stopped = false;

  constructor(readPage: PageReader, options: SubscribeOptions, pollIntervalMs: number) {
    this.#readPage = readPage;
    this.#options = options;
    this.#pollIntervalMs = pollIntervalMs;
    this.#done = this.#run();
  }

  /** Resolves when the loop has ended, whatever ended it. */
  get done(): Promise<void> {
    return this.#done;
  }

  wake(): void {
    this.#wakeup.wake();
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    this.#wakeup.wake();
    await this.#done;
  }

  async #run(): Promise<void> {
    let position = this.#options.fromPosition ?? START;
    let failures = 0;
    let caughtUp = false;
    while (!this.#stopped) {
      let page: ReadAllResult;
      try {
        page = await this.#readPage(position);
        failures = 0;
      } catch (error) {
        if (!isTransientError(error)) return this.#fail(error);
        failures += 1;
        this.#options.onReconnect?.(error, failures);
        await this.#wakeup.wait(backoffDelay(failures));
        continue;
      }
      if (this.#stopped) return;
      if (comparePositions(page.nextPosition, position) > 0) {
        try {
          await this.#options.onEvents(page.events, page.nextPosition);
        } catch (error) {
          return this.#fail(error);
        }
        position = page.nextPosition;
      }
      if (!page.isEnd) {
        caughtUp = false;
        continue;
      }
      if (!caughtUp) {
        caughtUp = true;
        this.#options.onCaughtUp?.(position);
      }
      await this.#wakeup.wait(this.#pollIntervalMs);
    }
  }

  #fail(error: unknown): void {
    this.#stopped = true;
    if (this.#options.onError) this.#options.onError(error);
    else console.error('event store subscription stopped', error);
  }
}
