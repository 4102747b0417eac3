import { useEffect, useRef } from 'react';

/** What the server's `changed` event carries: the budget whose records changed and the log position to pass to the report as `after`. */
export interface ReportChange {
  budgetId: string;
  position: string;
}

/** The part of EventSource this uses, so tests can hand in their own. */
export interface ChangeSource {
  readonly readyState: number;
  onopen: ((event: Event) => void) | null;
  onerror: ((event: Event) => void) | null;
  addEventListener(type: 'changed', listener: (event: MessageEvent<string>) => void): void;
  close(): void;
}

export interface FollowOptions {
  open?: (url: string) => ChangeSource;
  timers?: { setTimeout(run: () => void, ms: number): unknown; clearTimeout(handle: unknown): void };
}

/** EventSource.CLOSED: the browser gave up (an error answer such as 403 or 429, or the server went away) and will not retry by itself. */
const CLOSED = 2;
export const FIRST_RETRY_MS = 1_000;
export const MAX_RETRY_MS = 30_000;

export const reportChangesUrl = (budgetId: string) => `/api/budget/${encodeURIComponent(budgetId)}/report/changes`;

/** 1 s, 2 s, 4 s … at most 30 s between attempts, with jitter so many pages do not come back at once. */
export function retryDelay(attempt: number, random: () => number = Math.random): number {
  const base = Math.min(MAX_RETRY_MS, FIRST_RETRY_MS * 2 ** attempt);
  return base / 2 + random() * (base / 2);
}

/**
 * Follows a budget's report changes until the returned stop is called. The browser's EventSource
 * retries a dropped connection itself; when it gives up (readyState CLOSED), this opens a new one
 * after a growing delay, and an opened stream resets the delay.
 */
export function followReportChanges(budgetId: string, onChanged: (change: ReportChange) => void, options: FollowOptions = {}): () => void {
  const open = options.open ?? ((url: string) => new EventSource(url) as ChangeSource);
  const timers = options.timers ?? {
    setTimeout: (run: () => void, ms: number) => window.setTimeout(run, ms),
    clearTimeout: (handle: unknown) => window.clearTimeout(handle as number),
  };
  let source: ChangeSource | undefined;
  let retry: unknown;
  let attempt = 0;
  let stopped = false;

  const connect = () => {
    retry = undefined;
    if (stopped) return;
    const current = open(reportChangesUrl(budgetId));
    source = current;
    current.onopen = () => {
      attempt = 0;
    };
    current.onerror = () => {
      if (current.readyState !== CLOSED || stopped) return;
      current.close();
      retry = timers.setTimeout(connect, retryDelay(attempt++));
    };
    current.addEventListener('changed', (event) => {
      const change = parseChange(event.data);
      if (change && !stopped) onChanged(change);
    });
  };
  connect();
  return () => {
    stopped = true;
    if (retry !== undefined) timers.clearTimeout(retry);
    source?.close();
  };
}

function parseChange(data: string): ReportChange | null {
  try {
    const value = JSON.parse(data) as Partial<ReportChange>;
    return typeof value.budgetId === 'string' && typeof value.position === 'string' ? { budgetId: value.budgetId, position: value.position } : null;
  } catch {
    return null;
  }
}

/**
 * Live reports (issue 12, point 8): while the report of `budgetId` is shown (and `enabled`),
 * calls `onChanged` whenever records of the budget change, so the screen refetches the report
 * with `after: change.position` and keeps its expanded rows and scroll. Closes on unmount.
 */
export function useReportLiveUpdates(budgetId: string | undefined, onChanged: (change: ReportChange) => void, enabled = true): void {
  // The latest callback, so a new closure each render does not reopen the stream.
  const callback = useRef(onChanged);
  callback.current = onChanged;
  useEffect(() => {
    if (!budgetId || !enabled || typeof EventSource === 'undefined') return;
    return followReportChanges(budgetId, (change) => callback.current(change));
  }, [budgetId, enabled]);
}
