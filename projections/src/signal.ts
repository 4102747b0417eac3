/**
 * A counter that waiters can block on: "wake me when anything happened after version N".
 * Comparing versions instead of relying on a single callback means a wake-up that fires
 * between a reader's check and its wait is never lost.
 */
export class Signal {
  private version = 0;
  private readonly waiters = new Set<() => void>();
  /** When the last notification came (Date.now()): waiters for a quiet spell all end it at the same moment. */
  notifiedAt = Date.now();

  get current(): number {
    return this.version;
  }

  notify(): void {
    this.version++;
    this.notifiedAt = Date.now();
    for (const wake of this.waiters) wake();
    this.waiters.clear();
  }

  /** Resolves once notified after `seen`, after `timeoutMs`, or when `abort` fires. */
  wait(seen: number, timeoutMs: number, abort?: AbortSignal): Promise<void> {
    if (this.version !== seen || abort?.aborted) return Promise.resolve();
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.waiters.delete(done);
        abort?.removeEventListener('abort', done);
        resolve();
      };
      const timer = setTimeout(done, timeoutMs);
      this.waiters.add(done);
      abort?.addEventListener('abort', done, { once: true });
    });
  }
}

/** Sleeps, but returns early when `abort` fires. */
export function sleep(ms: number, abort?: AbortSignal): Promise<void> {
  return new Signal().wait(0, ms, abort);
}

/** Exponential backoff with jitter: `firstMs` (100 ms), twice that, ... capped at `maxMs`. */
export function backoffDelay(attempt: number, maxMs = 10_000, firstMs = 100): number {
  const base = Math.min(maxMs, firstMs * 2 ** Math.min(attempt, 16));
  return base / 2 + Math.random() * (base / 2);
}
