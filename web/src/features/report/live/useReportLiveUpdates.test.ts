import { describe, expect, it } from 'vitest';
import { type ChangeSource, followReportChanges, MAX_RETRY_MS, type ReportChange, reportChangesUrl, retryDelay } from './useReportLiveUpdates';

/** An EventSource stand-in the test drives: open, deliver events, fail. */
class FakeSource implements ChangeSource {
  readyState = 0;
  onopen: ((event: Event) => void) | null = null;
  onerror: ((event: Event) => void) | null = null;
  closed = false;
  private readonly listeners: ((event: MessageEvent<string>) => void)[] = [];

  constructor(readonly url: string) {}

  addEventListener(_type: 'changed', listener: (event: MessageEvent<string>) => void): void {
    this.listeners.push(listener);
  }
  close(): void {
    this.closed = true;
    this.readyState = 2;
  }
  opened(): void {
    this.readyState = 1;
    this.onopen?.(new Event('open'));
  }
  changed(data: string): void {
    for (const listener of this.listeners) listener({ data } as MessageEvent<string>);
  }
  failed(closed: boolean): void {
    this.readyState = closed ? 2 : 0;
    this.onerror?.(new Event('error'));
  }
}

function harness() {
  const sources: FakeSource[] = [];
  const timers = new Map<number, { ms: number; run: () => void }>();
  let next = 1;
  const changes: ReportChange[] = [];
  const stop = followReportChanges('b-1', (change) => changes.push(change), {
    open: (url) => {
      const source = new FakeSource(url);
      sources.push(source);
      return source;
    },
    timers: {
      setTimeout: (run, ms) => {
        timers.set(next, { ms, run });
        return next++;
      },
      clearTimeout: (handle) => timers.delete(handle as number),
    },
  });
  const runTimers = () => {
    const due = [...timers.entries()];
    timers.clear();
    for (const [, timer] of due) timer.run();
  };
  return { sources, timers, changes, stop, runTimers, latest: () => sources.at(-1) as FakeSource };
}

describe('followReportChanges', () => {
  it("opens the budget's change stream and hands on each `changed` event's budget and position", () => {
    const { sources, changes, latest } = harness();
    expect(sources.map((source) => source.url)).toEqual([reportChangesUrl('b-1')]);
    expect(reportChangesUrl('b-1')).toBe('/api/budget/b-1/report/changes');
    latest().opened();
    latest().changed(JSON.stringify({ budgetId: 'b-1', position: '12/3' }));
    latest().changed('not json');
    latest().changed(JSON.stringify({ budgetId: 'b-1' }));
    expect(changes).toEqual([{ budgetId: 'b-1', position: '12/3' }]);
  });

  it('leaves a dropped connection to the browser’s own retry, and reconnects with growing delays once it gives up', () => {
    const { sources, timers, runTimers, latest } = harness();
    latest().failed(false);
    expect(timers.size).toBe(0);
    latest().failed(true);
    expect(sources[0]!.closed).toBe(true);
    const first = [...timers.values()][0]!.ms;
    runTimers();
    expect(sources).toHaveLength(2);
    latest().failed(true);
    const second = [...timers.values()][0]!.ms;
    expect(second).toBeGreaterThan(first / 2);
    runTimers();
    // An opened stream starts the delays over.
    latest().opened();
    latest().failed(true);
    expect([...timers.values()][0]!.ms).toBeLessThanOrEqual(1_000);
  });

  it('closes the stream and cancels a pending reconnect when stopped, and reports nothing after', () => {
    const { sources, timers, changes, stop, latest } = harness();
    latest().failed(true);
    expect(timers.size).toBe(1);
    stop();
    expect(timers.size).toBe(0);
    expect(sources.every((source) => source.closed)).toBe(true);
    latest().changed(JSON.stringify({ budgetId: 'b-1', position: '1/1' }));
    expect(changes).toEqual([]);
  });
});

describe('retryDelay', () => {
  it('doubles from 1 s up to 30 s, with at most half of it jitter', () => {
    expect([0, 1, 2, 3].map((attempt) => retryDelay(attempt, () => 1))).toEqual([1_000, 2_000, 4_000, 8_000]);
    expect(retryDelay(0, () => 0)).toBe(500);
    expect(retryDelay(20, () => 1)).toBe(MAX_RETRY_MS);
  });
});
