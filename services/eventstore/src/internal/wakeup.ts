/**
 * A level-triggered wake-up call for one waiting loop: a `wake()` that comes while nobody waits
 * is kept, so a loop that checks for work and then waits never sleeps through a signal.
 */
export class Wakeup {
  #pending = false;
  #resolve: (() => void) | null = null;

  wake(): void {
    if (this.#resolve) {
      this.#resolve();
      this.#resolve = null;
    } else {
      this.#pending = true;
    }
  }

  /** Resolves on the next (or a pending) wake-up, or after `timeoutMs` when given. */
  wait(timeoutMs?: number): Promise<void> {
    if (this.#pending) {
      this.#pending = false;
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      const timer = timeoutMs === undefined ? undefined : setTimeout(() => this.wake(), timeoutMs);
      this.#resolve = () => {
        clearTimeout(timer);
        resolve();
      };
    });
  }
}

/** Exponential backoff for reconnect attempt n (1-based): 100 ms, 200 ms, ... at most 5 s. */
export function backoffDelay(attempt: number): number {
  return Math.min(100 * 2 ** (attempt - 1), 5_000);
}
