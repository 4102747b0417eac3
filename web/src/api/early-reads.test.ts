import { readFileSync } from 'node:fs';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { reportOpeningPaths } from '../features/report/opening-paths';

const script = readFileSync(new URL('../../public/early-reads.js', import.meta.url), 'utf8');

/** Runs public/early-reads.js on a page at `pathname` with `session` remembered; the paths it reads. */
function earlyReadsAt(pathname: string, session: object | null): string[] {
  const fetched: string[] = [];
  const window: Record<string, unknown> = {
    localStorage: { getItem: (key: string) => (key === 'eelarve.session' && session ? JSON.stringify(session) : null) },
    location: { pathname },
  };
  const fetch = (path: string) => {
    fetched.push(path);
    return Promise.resolve(new Response('{}'));
  };
  runInNewContext(script, { window, fetch, performance, encodeURIComponent, decodeURIComponent, JSON, Map, Promise });
  const reads = window.__eelarveEarlyReads as Map<string, unknown> | undefined;
  expect([...(reads?.keys() ?? [])]).toEqual(fetched);
  return fetched;
}

const DOCUMENT = '8d6f2a52-51a4-4c1e-9d8e-2f3c4b5a6d7e';
const BUDGET = '1b2c3d4e-5f60-4718-8293-a4b5c6d7e8f9';
const inOccupation = { userId: 'u', occupationId: 'o' };

describe("the page's early reads (public/early-reads.js)", () => {
  it("on the report reads the session and exactly the paths the report's queries ask", () => {
    const paths = earlyReadsAt(`/document/${DOCUMENT}/budget/${BUDGET}/report`, inOccupation);
    expect(paths).toEqual(['/api/auth/me', ...reportOpeningPaths(DOCUMENT, BUDGET)]);
  });

  it('elsewhere reads only the session', () => {
    expect(earlyReadsAt(`/document/${DOCUMENT}/budget/${BUDGET}/sub-budgets`, inOccupation)).toEqual(['/api/auth/me']);
  });

  it('reads nothing without a session in an occupation (such a page signs in first)', () => {
    expect(earlyReadsAt(`/document/${DOCUMENT}/budget/${BUDGET}/report`, null)).toEqual([]);
    expect(earlyReadsAt(`/document/${DOCUMENT}/budget/${BUDGET}/report`, { userId: 'u', occupationId: null })).toEqual([]);
  });
});
