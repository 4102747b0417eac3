import type { AppendResult } from '../types';
import { isTransientError } from './pg-errors';
import type { AppendRequest } from './sql';

/** Writes a group of appends in one transaction: per append, its result or its own error. */
export type GroupWriter = (appends: readonly AppendRequest[]) => Promise<Array<AppendResult | Error>>;

interface Pending extends AppendRequest {
  resolve(result: AppendResult): void;
  reject(error: unknown): void;
}

export interface AppendBatcherOptions {
  /** Groups written at the same time; further appends queue up and go together in the next group. */
  maxGroupsInFlight: number;
  /** A group stops growing at this many events; an append this large goes alone, at once. */
  maxGroupEvents: number;
}

/**
 * Group commit for appends: every commit costs the server a round trip, a transaction and a
 * WAL flush, so appends that arrive while others are being written share the next ones. Each
 * append stays all or nothing on its own, and each caller waits for the commit of its group.
 */
export class AppendBatcher {
  readonly #write: GroupWriter;
  readonly #options: AppendBatcherOptions;
  readonly #queue: Pending[] = [];
  #inFlight = 0;
  #flushScheduled = false;

  constructor(write: GroupWriter, options: AppendBatcherOptions) {
    this.#write = write;
    this.#options = options;
  }

  append(request: AppendRequest): Promise<AppendResult> {
    return new Promise((resolve, reject) => {
      const pending = { ...request, resolve, reject };
      // A group's worth of events gains nothing from company and would hold up the small
      // appends behind it, so it goes at once in a transaction of its own.
      if (request.events.length >= this.#options.maxGroupEvents) {
        void this.#settle([pending]);
        return;
      }
      this.#queue.push(pending);
      this.#scheduleFlush();
    });
  }

  /**
   * Flushes once the current burst of callbacks has run: callers woken by a finished group
   * append their next events right away, and those should travel together, not one ahead.
   */
  #scheduleFlush(): void {
    if (this.#flushScheduled) return;
    this.#flushScheduled = true;
    setImmediate(() => {
      this.#flushScheduled = false;
      this.#flush();
    });
  }

  #flush(): void {
    while (this.#inFlight < this.#options.maxGroupsInFlight && this.#queue.length > 0) {
      const group = this.#takeGroup();
      this.#inFlight += 1;
      void this.#settle(group).finally(() => {
        this.#inFlight -= 1;
        this.#scheduleFlush();
      });
    }
  }

  /**
   * The oldest queued appends up to the event limit, each stream once: append_events claims
   * all streams of a group in one statement, and a later append to a stream waits for the next
   * group (so appends to one stream still go in the order they came).
   */
  #takeGroup(): Pending[] {
    const group: Pending[] = [];
    const streams = new Set<string>();
    const waiting: Pending[] = [];
    let events = 0;
    let index = 0;
    for (; index < this.#queue.length; index++) {
      const pending = this.#queue[index]!;
      if (streams.has(pending.stream)) {
        waiting.push(pending);
        continue;
      }
      if (events + pending.events.length > this.#options.maxGroupEvents) break;
      events += pending.events.length;
      streams.add(pending.stream);
      group.push(pending);
    }
    this.#queue.splice(0, index, ...waiting);
    return group;
  }

  async #settle(group: Pending[]): Promise<void> {
    let outcomes: Array<AppendResult | Error>;
    try {
      outcomes = await this.#write(group);
    } catch (error) {
      // One append can fail the whole transaction (the database refusing one append's values):
      // alone, each of the others goes through and the culprit gets its own error.
      if (group.length > 1 && !isTransientError(error)) {
        await Promise.all(group.map((pending) => this.#settle([pending])));
      } else {
        for (const pending of group) pending.reject(error);
      }
      return;
    }
    group.forEach((pending, index) => {
      const outcome = outcomes[index]!;
      if (outcome instanceof Error) pending.reject(outcome);
      else pending.resolve(outcome);
    });
  }
}
