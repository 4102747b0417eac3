import { useEffect } from 'react';

/** Spec 2, section 9: the selected resource is looked for again every 300 ms until it is rendered. */
export const SCROLL_RETRY_MS = 300;
/** After this long the list is taken not to show the resource at all, and the retries stop. */
export const SCROLL_GIVE_UP_MS = 5000;

export interface RetryTimers {
  setTimeout: (run: () => void, ms: number) => unknown;
  clearTimeout: (handle: unknown) => void;
}

const windowTimers: RetryTimers = {
  setTimeout: (run, ms) => globalThis.setTimeout(run, ms),
  clearTimeout: (handle) => globalThis.clearTimeout(handle as ReturnType<typeof globalThis.setTimeout>),
};

/**
 * Calls `find` now and then every `intervalMs` until it returns a target, which is handed to
 * `reveal` once, or until `timeoutMs` have passed. Returns a function that stops the retries.
 */
export function revealWhenReady<T>(
  find: () => T | null | undefined,
  reveal: (target: T) => void,
  {
    intervalMs = SCROLL_RETRY_MS,
    timeoutMs = SCROLL_GIVE_UP_MS,
    timers = windowTimers,
  }: { intervalMs?: number; timeoutMs?: number; timers?: RetryTimers } = {},
): () => void {
  let handle: unknown = null;
  let stopped = false;
  let waited = 0;
  const attempt = () => {
    handle = null;
    if (stopped) return;
    const target = find();
    if (target !== null && target !== undefined) {
      stopped = true;
      reveal(target);
      return;
    }
    if (waited + intervalMs > timeoutMs) return;
    waited += intervalMs;
    handle = timers.setTimeout(attempt, intervalMs);
  };
  attempt();
  return () => {
    stopped = true;
    if (handle !== null) timers.clearTimeout(handle);
  };
}

/**
 * Scrolls the element that `selector` finds (inside `container`, or the document) into view whenever
 * `key` changes (the selected resource's id), retrying every 300 ms while the list is still loading.
 * A null key does nothing.
 */
export function useScrollIntoView(key: string | null | undefined, selector: (key: string) => string, container?: { current: Element | null }): void {
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs for a new selection only; the selector is stable in meaning
  useEffect(() => {
    if (!key) return;
    return revealWhenReady(
      () => (container?.current ?? document).querySelector(selector(key)),
      (element) => element.scrollIntoView({ block: 'nearest', inline: 'nearest' }),
    );
  }, [key]);
}
