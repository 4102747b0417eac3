import { describe, expect, it } from 'vitest';
import { type RetryTimers, revealWhenReady, SCROLL_RETRY_MS } from './useScrollIntoView';

/** Timers run by hand: `tick` runs what is due after `ms` more milliseconds. */
function manualTimers() {
  let now = 0;
  let next = 1;
  const pending = new Map<number, { at: number; run: () => void }>();
  const timers: RetryTimers = {
    setTimeout: (run, ms) => {
      const id = next++;
      pending.set(id, { at: now + ms, run });
      return id;
    },
    clearTimeout: (handle) => {
      pending.delete(handle as number);
    },
  };
  const tick = (ms: number) => {
    const until = now + ms;
    for (;;) {
      const due = [...pending.entries()].filter(([, timer]) => timer.at <= until).sort((a, b) => a[1].at - b[1].at)[0];
      if (!due) break;
      pending.delete(due[0]);
      now = due[1].at;
      due[1].run();
    }
    now = until;
  };
  return { timers, tick, pending: () => pending.size };
}

describe('revealWhenReady', () => {
  it('reveals at once when the target is already there', () => {
    const { timers, pending } = manualTimers();
    const revealed: string[] = [];
    revealWhenReady(
      () => 'row',
      (target) => revealed.push(target),
      { timers },
    );
    expect(revealed).toEqual(['row']);
    expect(pending()).toBe(0);
  });

  it('retries every 300 ms until the target is rendered, then reveals it once', () => {
    const { timers, tick, pending } = manualTimers();
    let rendered: string | null = null;
    let attempts = 0;
    const revealed: string[] = [];
    revealWhenReady(
      () => {
        attempts++;
        return rendered;
      },
      (target) => revealed.push(target),
      { timers },
    );
    expect(attempts).toBe(1);
    tick(SCROLL_RETRY_MS - 1);
    expect(attempts).toBe(1);
    tick(1);
    expect(attempts).toBe(2);
    tick(SCROLL_RETRY_MS);
    expect(attempts).toBe(3);
    rendered = 'row';
    tick(SCROLL_RETRY_MS);
    expect(revealed).toEqual(['row']);
    tick(10 * SCROLL_RETRY_MS);
    expect(attempts).toBe(4);
    expect(pending()).toBe(0);
  });

  it('gives up after the timeout', () => {
    const { timers, tick, pending } = manualTimers();
    let attempts = 0;
    revealWhenReady(
      () => {
        attempts++;
        return null;
      },
      () => undefined,
      { timers, timeoutMs: 1500 },
    );
    tick(60_000);
    expect(attempts).toBe(1 + 1500 / SCROLL_RETRY_MS);
    expect(pending()).toBe(0);
  });

  it('stops when cancelled', () => {
    const { timers, tick, pending } = manualTimers();
    let attempts = 0;
    const cancel = revealWhenReady(
      () => {
        attempts++;
        return null;
      },
      () => undefined,
      { timers },
    );
    tick(SCROLL_RETRY_MS);
    cancel();
    tick(10 * SCROLL_RETRY_MS);
    expect(attempts).toBe(2);
    expect(pending()).toBe(0);
  });
});
