import http, { type IncomingHttpHeaders } from 'node:http';
import { comparePositions, parsePosition } from '@eelarve/eventstore';
import { type ReportResponse, reportSumsByKey } from '@eelarve/shared';
import { accountsFixture, PASSWORD } from '@eelarve/testing/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Client, login } from './helpers';
import { created, type RecordsWorld, recordsWorld } from './records-world';

/**
 * Live reports (issue 12, point 8) through real HTTP on a real PostgreSQL: a report's change
 * stream says `changed` within 2 s of another user's edit of its budget, with a position the
 * report then answers from; nothing for other budgets; the report's read access first; a bounded
 * number of streams per user; streams end cleanly when the client leaves or the server closes.
 */

let world: RecordsWorld;
let base: string;
let serverClosed = false;

interface ServerEvent {
  event: string;
  data: string;
}

interface Followed {
  status: number;
  headers: IncomingHttpHeaders;
  /** The error code of a refused stream. */
  code: string | undefined;
  events: ServerEvent[];
  comments: string[];
  /** Resolves when the stream has ended, by either side. */
  ended: Promise<void>;
  close(): void;
}

/**
 * Opens a report's change stream as a browser's EventSource would, on a connection of its own
 * (no keep-alive pool, so closing it closes the socket), and collects what arrives.
 */
function follow(client: Client | null, budgetId: string): Promise<Followed> {
  const headers: Record<string, string> = { accept: 'text/event-stream', 'accept-encoding': 'br, gzip, deflate' };
  if (client) headers.cookie = client.cookie;
  return new Promise((resolve, reject) => {
    const request = http.get(`${base}/api/budget/${budgetId}/report/changes`, { headers, agent: false }, (response) => {
      const events: ServerEvent[] = [];
      const comments: string[] = [];
      let buffered = '';
      const ended = new Promise<void>((done) => response.on('close', () => done()));
      const followed: Followed = {
        status: response.statusCode ?? 0,
        headers: response.headers,
        code: undefined,
        events,
        comments,
        ended,
        close: () => request.destroy(),
      };
      response.setEncoding('utf8');
      if (followed.status !== 200) {
        response.on('data', (text: string) => (buffered += text));
        response.on('end', () => resolve({ ...followed, code: (JSON.parse(buffered) as { code?: string }).code }));
        return;
      }
      response.on('data', (text: string) => {
        buffered += text;
        for (let end = buffered.indexOf('\n\n'); end >= 0; end = buffered.indexOf('\n\n')) {
          const lines = buffered.slice(0, end).split('\n');
          buffered = buffered.slice(end + 2);
          comments.push(...lines.filter((line) => line.startsWith(':')).map((line) => line.slice(1).trim()));
          const field = (name: string) => lines.find((line) => line.startsWith(`${name}: `))?.slice(name.length + 2);
          const event = field('event');
          if (event) events.push({ event, data: field('data') ?? '' });
        }
      });
      response.on('error', () => {});
      resolve(followed);
    });
    request.on('error', (error) => {
      if (!request.destroyed || !(error as { code?: string }).code?.startsWith('ECONNRESET')) reject(error);
    });
  });
}

async function waitUntil(check: () => boolean, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return true;
}

const changes = (stream: Followed) =>
  stream.events.filter((event) => event.event === 'changed').map((event) => JSON.parse(event.data) as { budgetId: string; position: string });

async function addRecord(client: Client, budgetId: string, amount: string): Promise<{ id: string; position: string }> {
  const response = await client.request({
    method: 'POST',
    url: `/api/budget/${budgetId}/sub-budget/${world.education}/record`,
    payload: { name: 'Rida', amount, classifiers: { konto: '4500' } },
  });
  const id = await created(response);
  return { id, position: (response.json() as { position: string }).position };
}

async function reportTotal(client: Client, budgetId: string, after: string): Promise<string | null> {
  const response = await client.request({ method: 'POST', url: `/api/budget/${budgetId}/report`, payload: { schemeId: world.schemeId, after } });
  expect(response.statusCode, response.body).toBe(200);
  return reportSumsByKey(response.json() as ReportResponse).total.sums.base ?? null;
}

beforeAll(async () => {
  world = await recordsWorld();
  // The world serves through inject(); this suite speaks real HTTP to the same app.
  await world.server.app.listen({ port: 0, host: '127.0.0.1' });
  const address = world.server.app.server.address();
  base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
});
afterAll(async () => {
  if (!serverClosed) await world?.server.close();
});

describe('a report change stream', () => {
  it("says `changed` within 2 s of another user's edit of the budget, with a position the report answers from, and nothing for another budget", async () => {
    const budgetId = await world.budget();
    const otherBudgetId = await world.budget();
    const watching = await follow(world.reader.client, budgetId);
    const elsewhere = await follow(world.reader.client, otherBudgetId);
    expect(watching.status).toBe(200);
    expect(watching.headers['content-type']).toMatch(/^text\/event-stream/);
    // Compression would hold events back; the security headers still apply.
    expect(watching.headers['content-encoding']).toBeUndefined();
    expect(watching.headers['x-content-type-options']).toBe('nosniff');
    expect(await waitUntil(() => watching.comments.includes('connected'), 2_000)).toBe(true);

    const started = Date.now();
    const edit = await addRecord(world.editor.client, budgetId, '123.45');
    expect(await waitUntil(() => changes(watching).length > 0, 2_000)).toBe(true);
    expect(Date.now() - started).toBeLessThan(2_000);
    const [change] = changes(watching);
    expect(change?.budgetId).toBe(budgetId);
    expect(comparePositions(parsePosition(change!.position)!, parsePosition(edit.position)!)).toBeGreaterThanOrEqual(0);
    expect(await reportTotal(world.reader.client, budgetId, change!.position)).toBe('123.45');

    // An edit and a deletion of the record: each announced in turn.
    const edited = await world.editor.client.request({
      method: 'PUT',
      url: `/api/budget/${budgetId}/sub-budget/${world.education}/record/${edit.id}`,
      payload: { name: 'Rida', amount: '200' },
    });
    expect(edited.statusCode, edited.body).toBe(200);
    expect(await waitUntil(() => changes(watching).length > 1, 2_000)).toBe(true);
    expect(await reportTotal(world.reader.client, budgetId, changes(watching)[1]!.position)).toBe('200');

    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(changes(elsewhere)).toEqual([]);
    watching.close();
    elsewhere.close();
    await Promise.all([watching.ended, elsewhere.ended]);
  });

  it('coalesces a burst of edits into a few announcements, the last one covering them all', async () => {
    const budgetId = await world.budget();
    const watching = await follow(world.reader.client, budgetId);
    const editors = await world.editors(4);
    const edits = await Promise.all(Array.from({ length: 8 }, (_, index) => addRecord(editors[index % 4]!.client, budgetId, `${index + 1}`)));
    const newest = edits
      .map((edit) => parsePosition(edit.position)!)
      .sort(comparePositions)
      .at(-1)!;
    const covered = () => changes(watching).some((change) => comparePositions(parsePosition(change.position)!, newest) >= 0);
    expect(await waitUntil(covered, 3_000)).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 600));
    // Eight edits within a few hundred milliseconds: one announcement per 300 ms at most.
    expect(changes(watching).length).toBeLessThanOrEqual(4);
    expect(await reportTotal(world.reader.client, budgetId, changes(watching).at(-1)!.position)).toBe('36');
    watching.close();
  });

  it("asks for the report's read access first", async () => {
    const budgetId = await world.budget();
    const anonymous = await follow(null, budgetId);
    expect(anonymous.status).toBe(401);
    const outsider = await follow(world.outsider.client, budgetId);
    expect(outsider.status).toBe(404);
    expect(outsider.code).toBe('BUDGET_NOT_FOUND');
    const accounts = accountsFixture(world.server.app, world.admin);
    const stranger = await accounts.member(world.organizationId, ['DATA_VIEW']);
    const ungranted = await follow(await login(world.server.app, stranger.email, PASSWORD), budgetId);
    expect(ungranted.status).toBe(403);
    expect(ungranted.code).toBe('INSUFFICIENT_PERMISSIONS');
    const malformed = await follow(world.reader.client, 'not-a-budget');
    expect(malformed.status).toBe(400);
  });

  it('holds at most 4 streams per user and frees a place when a client leaves', async () => {
    const budgetId = await world.budget();
    const [member] = await world.editors(1);
    const open = await Promise.all(Array.from({ length: 4 }, () => follow(member!.client, budgetId)));
    expect(open.map((stream) => stream.status)).toEqual([200, 200, 200, 200]);
    const refused = await follow(member!.client, budgetId);
    expect(refused.status).toBe(429);
    expect(refused.code).toBe('LIVE_REPORT_STREAMS_EXCEEDED');
    // Another user is not counted against this one.
    const other = await follow(world.reader.client, budgetId);
    expect(other.status).toBe(200);

    open[0]!.close();
    await open[0]!.ended;
    let again: Followed | undefined;
    // The server sees the client leave once the socket closes: a new stream is let in shortly after.
    for (let attempt = 0; attempt < 20 && again?.status !== 200; attempt++) {
      if (again) await new Promise((resolve) => setTimeout(resolve, 50));
      again = await follow(member!.client, budgetId);
    }
    expect(again?.status).toBe(200);
    for (const stream of [...open.slice(1), other, again!]) stream.close();
  });

  it('ends open streams when the server closes', async () => {
    const budgetId = await world.budget();
    const watching = await follow(world.reader.client, budgetId);
    expect(watching.status).toBe(200);
    let ended = false;
    void watching.ended.then(() => {
      ended = true;
    });
    serverClosed = true;
    const closing = world.server.close();
    expect(await waitUntil(() => ended, 5_000)).toBe(true);
    await closing;
  });
});
