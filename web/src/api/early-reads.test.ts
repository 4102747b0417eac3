import { readFileSync } from 'node:fs';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { REPORT_OPENING_KEY } from '../features/report/opening-memory';
import { reportOpeningPaths } from '../features/report/opening-paths';
import { earlyReadKey } from './early-reads';

const script = readFileSync(new URL('../../public/early-reads.js', import.meta.url), 'utf8');

interface Stored {
  session: object | null;
  opening?: object;
}

/** Runs public/early-reads.js on a page at `pathname` with `stored` in localStorage; the reads it starts (key, method, body). */
function earlyReadsAt(pathname: string, { session, opening }: Stored): { key: string; method: string; body?: string }[] {
  const fetched: { path: string; method: string; body?: string }[] = [];
  const storage: Record<string, string> = {
    ...(session ? { 'eelarve.session': JSON.stringify(session) } : {}),
    ...(opening ? { [REPORT_OPENING_KEY]: JSON.stringify(opening) } : {}),
  };
  const window: Record<string, unknown> = { localStorage: { getItem: (key: string) => storage[key] ?? null }, location: { pathname } };
  const fetch = (path: string, init: { method?: string; body?: string }) => {
    fetched.push({ path, method: init.method ?? 'GET', ...(init.body ? { body: init.body } : {}) });
    return Promise.resolve(new Response('{}'));
  };
  runInNewContext(script, { window, fetch, performance, encodeURIComponent, decodeURIComponent, JSON, Map, Promise });
  const reads = window.__eelarveEarlyReads as Map<string, unknown> | undefined;
  const keys = [...(reads?.keys() ?? [])];
  expect(keys).toHaveLength(fetched.length);
  return fetched.map((read, index) => ({ key: keys[index] as string, method: read.method, ...(read.body ? { body: read.body } : {}) }));
}

const gets = (paths: string[]) => paths.map((path) => ({ key: earlyReadKey('GET', path), method: 'GET' }));

const DOCUMENT = '8d6f2a52-51a4-4c1e-9d8e-2f3c4b5a6d7e';
const BUDGET = '1b2c3d4e-5f60-4718-8293-a4b5c6d7e8f9';
const inOccupation = { session: { userId: 'u', occupationId: 'o' } };
const reportPage = `/document/${DOCUMENT}/budget/${BUDGET}/report`;
const request = { schemeId: 's', groupingClassifierId: null, filters: [], expansion: 'quarterly' };
const opening = { userId: 'u', occupationId: 'o', budgetId: BUDGET, body: JSON.stringify(request) };

describe("the page's early reads (public/early-reads.js)", () => {
  it("on the report reads the session and exactly the paths the report's queries ask", () => {
    expect(earlyReadsAt(reportPage, inOccupation)).toEqual(gets(['/api/auth/me', ...reportOpeningPaths(DOCUMENT, BUDGET)]));
  });

  it('asks the report this browser last asked on the budget, keyed as the app will ask it', () => {
    const path = `/api/budget/${BUDGET}/report`;
    const reads = earlyReadsAt(reportPage, { ...inOccupation, opening });
    expect(reads.at(-1)).toEqual({ key: earlyReadKey('POST', path, JSON.stringify(request)), method: 'POST', body: JSON.stringify(request) });
    expect(reads.slice(0, -1)).toEqual(gets(['/api/auth/me', ...reportOpeningPaths(DOCUMENT, BUDGET)]));
  });

  it("does not ask another budget's, user's or occupation's remembered report", () => {
    const plain = gets(['/api/auth/me', ...reportOpeningPaths(DOCUMENT, BUDGET)]);
    for (const other of [{ budgetId: DOCUMENT }, { userId: 'x' }, { occupationId: 'x' }])
      expect(earlyReadsAt(reportPage, { ...inOccupation, opening: { ...opening, ...other } })).toEqual(plain);
  });

  it('elsewhere reads only the session', () => {
    expect(earlyReadsAt(`/document/${DOCUMENT}/budget/${BUDGET}/sub-budgets`, { ...inOccupation, opening })).toEqual(gets(['/api/auth/me']));
  });

  it('reads nothing without a session in an occupation (such a page signs in first)', () => {
    expect(earlyReadsAt(reportPage, { session: null, opening })).toEqual([]);
    expect(earlyReadsAt(reportPage, { session: { userId: 'u', occupationId: null }, opening })).toEqual([]);
  });
});
