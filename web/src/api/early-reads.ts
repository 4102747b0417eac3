/**
 * Reads the page started before the app's code loaded (public/early-reads.js, a small script
 * index.html lists first): the app's first request for one of them (the same path, and for a POST
 * the same body text) takes the response in flight instead of asking again. On the report the app's code takes ~0.4 s to load and run, and
 * the reads the report's request is computed from are answered by then.
 */
interface EarlyRead {
  response: Promise<Response>;
  startedAt: number;
}

declare global {
  interface Window {
    __eelarveEarlyReads?: Map<string, EarlyRead>;
  }
}

/** An answer older than this is not used: the page went elsewhere first, and it may be stale. */
const EARLY_READ_LIFETIME_MS = 10_000;

/** How public/early-reads.js keys a read: a GET by its path, a POST by its path and JSON body text. */
export const earlyReadKey = (method: 'GET' | 'POST', path: string, body?: string) => (method === 'GET' ? path : `POST ${path} ${body ?? ''}`);

/** The early response for a read, taken once; undefined when none was started (or it is too old). */
export function takeEarlyRead(key: string): Promise<Response> | undefined {
  const reads = typeof window === 'undefined' ? undefined : window.__eelarveEarlyReads;
  const read = reads?.get(key);
  if (!read) return undefined;
  reads?.delete(key);
  return performance.now() - read.startedAt <= EARLY_READ_LIFETIME_MS ? read.response : undefined;
}
