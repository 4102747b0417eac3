import { createTestDatabase, type TestDatabase } from '@eelarve/postgres/testing/test-database';
import fc from 'fast-check';
import pg from 'pg';
import { to as copyTo } from 'pg-copy-streams';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createPool, type Pool } from '@eelarve/postgres';
import { IdempotencyConflictError, WrongExpectedRevisionError } from '../src/errors';
import { createPostgresEventStore, type PostgresEventStore } from '../src/postgres';
import { type CopyPage, CopyPageReader, RecentParses } from '../src/postgres/rows';
import { APPEND_ALL, APPEND_SQL, appendValues, readAllCopySql } from '../src/postgres/sql';
import { comparePositions, type GlobalPosition, type NewEvent, type ReadAllResult, START } from '../src/types';
import {
  describeEventStoreContract,
  everyField,
  newEvent,
  newEvents,
  newStream,
  type OpenAppend,
  readAllAfter,
  sleep,
  waitFor,
  waitUntilVisible,
} from './contract';
import { poolNamingStatements } from './statement-names';
import { startTcpProxy } from './tcp-proxy';

/** Opens a transaction that appends through the store's own function and commits on demand. */
async function beginSlowAppend(url: string, stream: string, events: NewEvent[]): Promise<OpenAppend> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  await client.query('begin');
  await client.query(APPEND_SQL, appendValues([{ stream, events, expectedRevision: 'no_stream' }]));
  return {
    async commit() {
      await client.query('commit');
      await client.end();
    },
  };
}

/** What a database restart does to clients: every other connection to the database dies. */
async function terminateBackends(url: string): Promise<void> {
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  try {
    await admin.query('select pg_terminate_backend(pid) from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()');
  } finally {
    await admin.end();
  }
}

/** A pool that tells `seen` of each connection checked out of it (the store reads pages of $all on one of their own). */
function poolSeeingCheckouts(url: string, seen: () => void): Pool {
  const pool = createPool(url);
  const connect = pool.connect.bind(pool) as (...args: unknown[]) => unknown;
  (pool as unknown as { connect: typeof connect }).connect = (...args) => {
    seen();
    return connect(...args);
  };
  return pool;
}

/**
 * A store whose page reads are counted (each checks a connection out of its pool), and a reader
 * of $all from the start that notes the count after each page (`pauseMs` after it, when given).
 */
function storeCountingPageReads(url: string, readAheadMaxChars: number) {
  let pageReads = 0;
  let counting = false;
  const pool = poolSeeingCheckouts(url, () => {
    if (counting) pageReads += 1;
  });
  const store = createPostgresEventStore({ pool, readAheadMaxChars });
  return {
    store,
    async readAllCounting(maxCount: number, pauseMs = 0): Promise<{ pages: ReadAllResult[]; readsAfterEachPage: number[] }> {
      const pages: ReadAllResult[] = [];
      const readsAfterEachPage: number[] = [];
      let from = START;
      counting = true;
      for (;;) {
        const page = await store.readAll({ fromPosition: from, maxCount });
        if (pauseMs > 0) await sleep(pauseMs);
        pages.push(page);
        readsAfterEachPage.push(pageReads);
        from = page.nextPosition;
        if (page.isEnd) return { pages, readsAfterEachPage };
      }
    },
    async close(): Promise<void> {
      await store.close();
      await pool.end();
    },
  };
}

async function migratedStore(url: string): Promise<PostgresEventStore> {
  const store = createPostgresEventStore({ connectionString: url, pollIntervalMs: 100 });
  await store.migrate();
  return store;
}

describeEventStoreContract('PostgresEventStore', async () => {
  const database = await createTestDatabase('eventstore');
  const store = await migratedStore(database.url);
  return {
    store,
    async cleanup() {
      await store.close();
      await database.drop();
    },
    restartDatabase: () => terminateBackends(database.url),
    beginSlowAppend: (stream, events) => beginSlowAppend(database.url, stream, events),
  };
});

describe('PostgresEventStore specifics', () => {
  let database: TestDatabase;
  let store: PostgresEventStore;

  beforeEach(async () => {
    database = await createTestDatabase('eventstore');
    store = await migratedStore(database.url);
  });

  afterEach(async () => {
    await store.close();
    await database.drop();
  });

  it('migrates repeatedly without harm', async () => {
    await store.migrate();
    await store.append(newStream(), [newEvent()], { expectedRevision: 'no_stream' });
  });

  it('refuses event ids stored in another stream', async () => {
    const events = newEvents(2);
    await store.append(newStream(), events, { expectedRevision: 'no_stream' });
    await expect(store.append(newStream(), events, { expectedRevision: 'any' })).rejects.toBeInstanceOf(IdempotencyConflictError);
  });

  it('appends a group by one plain statement, and through append_events only when an append of it does not simply go through', async () => {
    const statements: string[] = [];
    const pool = poolNamingStatements(database.url, (name) => statements.push(name));
    const counted = createPostgresEventStore({ pool });
    try {
      const [stream, other] = [newStream(), newStream()];
      const events = newEvents(2);
      await Promise.all([
        counted.append(stream, events, { expectedRevision: 'no_stream' }),
        counted.append(other, newEvents(1), { expectedRevision: 'no_stream' }),
      ]);
      expect(statements).toEqual([APPEND_ALL.created.name]);

      // A stale append, and a retry (stale, its ids stored), undo the plain statement, and
      // append_events answers.
      statements.length = 0;
      await expect(counted.append(stream, newEvents(1), { expectedRevision: 0n })).rejects.toBeInstanceOf(WrongExpectedRevisionError);
      expect(statements).toEqual([APPEND_ALL.oneEach.name, 'eventstore_append']);
      await expect(counted.append(stream, events, { expectedRevision: 'no_stream' })).resolves.toMatchObject({ nextExpectedRevision: 1n });
      expect(statements).toEqual([APPEND_ALL.oneEach.name, 'eventstore_append', APPEND_ALL.created.name, 'eventstore_append']);
      // Neither left a claimed revision behind.
      statements.length = 0;
      await expect(counted.append(stream, newEvents(1), { expectedRevision: 1n })).resolves.toMatchObject({ nextExpectedRevision: 2n });
      expect((await counted.readStream(stream)).map((event) => event.revision)).toEqual([0n, 1n, 2n]);

      // Streams that exist and streams made by the group, each kind claimed its own way, in one statement.
      const made = newStream();
      const [existing, anyRevision, created] = await Promise.all([
        counted.append(stream, newEvents(2), { expectedRevision: 2n }),
        counted.append(other, newEvents(1), { expectedRevision: 'any' }),
        counted.append(made, newEvents(1), { expectedRevision: 'no_stream' }),
      ]);
      expect(statements).toEqual([APPEND_ALL.oneEach.name, 'eventstore_read_stream_forwards', APPEND_ALL.mixed.name]);
      expect([existing.nextExpectedRevision, anyRevision.nextExpectedRevision, created.nextExpectedRevision]).toEqual([4n, 1n, 0n]);
      const stored = [...(await counted.readStream(stream)).slice(-2), ...(await counted.readStream(other)).slice(-1), ...(await counted.readStream(made))];
      expect(stored.map((event) => event.revision)).toEqual([3n, 4n, 1n, 0n]);
      // Positions in the order the appends came, each append's result that of its last event.
      expect([existing.position, anyRevision.position, created.position]).toEqual([stored[1]!.position, stored[2]!.position, stored[3]!.position]);
      expect(comparePositions(stored[0]!.position, stored[1]!.position)).toBe(-1);

      // One event to each stream that exists: the one-each form; more to one of them: the existing form.
      statements.length = 0;
      const [first, second] = await Promise.all([
        counted.append(stream, newEvents(1), { expectedRevision: 4n }),
        counted.append(made, newEvents(1), { expectedRevision: 'stream_exists' }),
      ]);
      await expect(counted.append(other, newEvents(2), { expectedRevision: 1n })).resolves.toMatchObject({ nextExpectedRevision: 3n });
      expect(statements).toEqual([APPEND_ALL.oneEach.name, APPEND_ALL.existing.name]);
      expect([first.nextExpectedRevision, second.nextExpectedRevision]).toEqual([5n, 1n]);
      const [onStream, onMade] = [(await counted.readStream(stream)).at(-1)!, (await counted.readStream(made)).at(-1)!];
      expect([onStream.revision, onMade.revision]).toEqual([5n, 1n]);
      expect([first.position, second.position]).toEqual([onStream.position, onMade.position]);
      expect(comparePositions(first.position, second.position)).toBe(-1);
    } finally {
      await counted.close();
      await pool.end();
    }
  });

  it('reads every field from $all as from the stream, whatever characters names, types and payloads hold', async () => {
    const before = await store.headPosition();
    const odd = `Tüüp 'single' "double" \\ back\tslash, 🙂`;
    const stream = newStream(`tähestik-ÕÄÖÜ-'"\\-🙂`);
    const events = [
      newEvent(odd, { text: 'line\nbreak\ttab \\ "quote" \u0001 ☃ 🙂', amount: '1234567890.12', nested: { list: [1, null, true] } }),
      newEvent('Other', { index: 1 }),
    ];
    const { position } = await store.append(stream, events, { expectedRevision: 'no_stream' });
    await waitUntilVisible(store, position);
    const fromStream = everyField(await store.readStream(stream));
    expect(everyField(await readAllAfter(store, before))).toEqual(fromStream);
    // The type filter is written into the COPY's text: each type an escaped literal of its own.
    const filtered = await store.readAll({ fromPosition: before, eventTypes: [odd, "x') or true or ('"] });
    expect(everyField(filtered.events)).toEqual([fromStream[0]]);
    expect(filtered.nextPosition).toEqual(position);
    expect((await store.readAll({ fromPosition: before, eventTypes: [] })).events).toEqual([]);
  });

  it('refuses an event holding U+0000 or a lone surrogate, alone or in a group, and keeps the text of their escapes', async () => {
    const stream = newStream();
    const before = await store.headPosition();
    for (const text of ['nul \u0000 here', 'lone \ud800 high', 'lone \udfff low']) {
      await expect(store.append(stream, [newEvent('Bad', { text })], { expectedRevision: 'any' })).rejects.toBeInstanceOf(RangeError);
    }
    // In a group of several appends, only the culprit fails.
    const [good, bad] = await Promise.allSettled([
      store.append(newStream(), [newEvent('Good', { index: 1 })], { expectedRevision: 'no_stream' }),
      store.append(newStream(), [newEvent('Bad', { nested: { key: '\u0000' } })], { expectedRevision: 'no_stream' }),
    ]);
    expect(good.status).toBe('fulfilled');
    expect(bad).toMatchObject({ status: 'rejected', reason: expect.any(RangeError) });
    // The escapes' own text (a backslash before u0000), a surrogate pair and other control characters are stored as written.
    const kept = { text: '\\u0000 \\\\u0000 \\ud800 🙂 \u0001', '\u0001key': 'ok' };
    const { position } = await store.append(stream, [newEvent('Kept', kept)], { expectedRevision: 'any' });
    await waitUntilVisible(store, position);
    const read = await readAllAfter(store, before);
    expect(read.map((event) => event.type)).toEqual(['Good', 'Kept']);
    expect(read[1]!.data).toEqual(kept);
  });
  it('parses a big payload once for all its readers, each reading it by its own page, and a small one for each', async () => {
    const before = await store.headPosition();
    const rows = Array.from({ length: 2_000 }, (_, index) => ({ recordId: `r-${index}`, name: `Rida ${index}`, amount: '1234.56' }));
    const { position } = await store.append(newStream(), [newEvent('Chunk', { rows }), newEvent('Small', { index: 1 })], { expectedRevision: 'no_stream' });
    await waitUntilVisible(store, position);
    const all = await store.readAll({ fromPosition: before });
    const chunks = await store.readAll({ fromPosition: before, eventTypes: ['Chunk'] });
    const smalls = await store.readAll({ fromPosition: before, eventTypes: ['Small', 'Other'] });
    expect(all.events.map((event) => event.type)).toEqual(['Chunk', 'Small']);
    expect(chunks.events[0]).not.toBe(all.events[0]);
    expect(chunks.events[0]!.data).toBe(all.events[0]!.data);
    expect(chunks.events[0]!.data).toEqual({ rows });
    expect(smalls.events[0]!.data).toEqual(all.events[1]!.data);
    expect(smalls.events[0]!.data).not.toBe(all.events[1]!.data);
  });

  it('reads pages of $all ahead by one statement, as many as fit its bound, and none after a page of big events', async () => {
    // Two small events hold some 570 characters of data and metadata (two such pages fit the
    // bound, three do not), two big ones some 3,600.
    const counted = storeCountingPageReads(database.url, 1_200);
    try {
      const big = () => newEvent('Big', { text: 'x'.repeat(1_500) });
      await counted.store.append(newStream(), newEvents(4), { expectedRevision: 'no_stream' });
      const { position } = await counted.store.append(newStream(), [big(), big(), big(), big()], { expectedRevision: 'no_stream' });
      await waitUntilVisible(counted.store, position);
      const { pages, readsAfterEachPage } = await counted.readAllCounting(2);
      expect(pages.map((page) => page.events.map((event) => event.type))).toEqual([
        ['TestEvent', 'TestEvent'],
        ['TestEvent', 'TestEvent'],
        ['Big', 'Big'],
        ['Big', 'Big'],
        [],
      ]);
      // The first small page: the next two pages (two like it fit the bound) by one COPY. The
      // second is there. The third, the last of that read, is big: nothing more is read ahead,
      // so the fourth and the empty end are read when asked for.
      expect(readsAfterEachPage).toEqual([2, 2, 2, 3, 4]);
    } finally {
      await counted.close();
    }
  });

  it('starts the next statement ahead as soon as the reader takes the first page of the one before', async () => {
    // Two pages of two small events fit the bound (see the test before), so each statement ahead reads two.
    const counted = storeCountingPageReads(database.url, 1_200);
    try {
      const { position } = await counted.store.append(newStream(), newEvents(12), { expectedRevision: 'no_stream' });
      await waitUntilVisible(counted.store, position);
      // Each count 50 ms after its page: a statement started for the page just taken is counted by then.
      const { readsAfterEachPage } = await counted.readAllCounting(2, 50);
      // The first page is read alone, and pages 2-3 ahead at once. Taking page 2, the first of
      // its statement, starts 4-5's; taking 4 starts 6-7's, which finds one page and the end,
      // so the empty end is read when asked for. (Started only at the last page of a statement,
      // as before, the counts were 2, 2, 3, 3, 4, 4, 5.)
      expect(readsAfterEachPage).toEqual([2, 3, 3, 4, 4, 4, 5]);
    } finally {
      await counted.close();
    }
  });

  it('reads the same pages from a binary COPY however its chunks are cut', async () => {
    const before = await store.headPosition();
    const types = ['Small', 'Big', 'Other'];
    const events = Array.from({ length: 9 }, (_, index) => newEvent(types[index % 3], { index, text: 'ü'.repeat(index % 3 === 1 ? 700 : 3) }));
    const { position } = await store.append(newStream(), events, { expectedRevision: 'no_stream' });
    await waitUntilVisible(store, position);
    const client = new pg.Client({ connectionString: database.url });
    await client.connect();
    const chunks: Buffer[] = [];
    try {
      for await (const chunk of client.query(copyTo(readAllCopySql(before, 100, ['Small', 'Big'])))) chunks.push(chunk as Buffer);
    } finally {
      await client.end();
    }
    const bytes = Buffer.concat(chunks);
    // Each chunk read as it comes (the store gathers 256 KB first, more than this whole COPY).
    const pagesOf = (cuts: number[]) => {
      const reader = new CopyPageReader(4, new RecentParses(), 1);
      const pages: CopyPage[] = [];
      let at = 0;
      for (const cut of [...cuts, bytes.length]) {
        pages.push(...reader.push(bytes.subarray(at, cut)));
        at = cut;
      }
      pages.push(...reader.end());
      return pages.map(({ events, rows, last, payloadBytes }) => ({ events: events.map((event) => event.toJSON()), rows, last, payloadBytes }));
    };
    const whole = pagesOf([]);
    // 9 rows in pages of 4: two full pages and the one the COPY ended in; the Other rows come without their payload.
    expect(whole.map((page) => page.rows)).toEqual([4, 4, 1]);
    expect(whole.flatMap((page) => page.events.map((event) => event.data))).toEqual(
      events.filter((event) => event.type !== 'Other').map((event) => event.data),
    );
    expect(whole.at(-1)!.last).toEqual(position);
    fc.assert(
      fc.property(fc.uniqueArray(fc.integer({ min: 1, max: bytes.length - 1 }), { maxLength: 40 }), (cuts) => {
        expect(pagesOf(cuts.sort((a, b) => a - b))).toEqual(whole);
      }),
      { numRuns: 300 },
    );
    // Every single byte a chunk of its own, which cuts each length field too.
    expect(pagesOf(Array.from({ length: bytes.length - 1 }, (_, index) => index + 1))).toEqual(whole);
  });

  it('fails only the culprit when another transaction stores the same event id first', async () => {
    const contested = newEvent();
    const open = await beginSlowAppend(database.url, newStream(), [contested]);
    const bystanders = Array.from({ length: 5 }, () => [newStream(), [newEvent()]] as const);
    // One group: it waits on the open transaction's event id, then only the culprit is refused.
    const appends = Promise.allSettled([
      store.append(newStream(), [contested], { expectedRevision: 'no_stream' }),
      ...bystanders.map(([stream, events]) => store.append(stream, events, { expectedRevision: 'no_stream' })),
    ]);
    await sleep(200);
    await open.commit();
    const [culprit, ...rest] = await appends;

    expect((culprit as PromiseRejectedResult).reason).toBeInstanceOf(IdempotencyConflictError);
    expect(rest.every((outcome) => outcome.status === 'fulfilled')).toBe(true);
    for (const [stream, events] of bystanders) expect((await store.readStream(stream)).map((event) => event.id)).toEqual([events[0]!.id]);
  });

  it('answers a retry that waited for the original append to commit as the original', async () => {
    const stream = newStream();
    const events = newEvents(3);
    // The original holds the stream's lock; the retry (a client that lost its connection) waits on it.
    const open = await beginSlowAppend(database.url, stream, events);
    const retry = store.append(stream, events, { expectedRevision: 'no_stream' });
    await sleep(200);
    await open.commit();

    const stored = await store.readStream(stream);
    await expect(retry).resolves.toEqual({ nextExpectedRevision: 2n, position: stored.at(-1)!.position });
    expect(stored.map((event) => event.id)).toEqual(events.map((event) => event.id));
  });

  it('hands a filtered subscription the position past events it skipped, for checkpoints', async () => {
    const result = await store.append(newStream(), newEvents(20, 'Unwanted'), { expectedRevision: 'no_stream' });
    await waitUntilVisible(store, result.position);
    let reached: GlobalPosition | null = null;
    const subscription = store.subscribeToAll({
      eventTypes: ['Wanted'],
      maxBatchSize: 7,
      onEvents: async (events, nextPosition) => {
        expect(events).toEqual([]);
        reached = nextPosition;
      },
    });
    await waitFor(() => reached !== null && comparePositions(reached, result.position) === 0, 'the checkpoint position');
    await subscription.stop();
  });

  it('reconnects a subscription whose connections drop, resuming after the last delivered event', async () => {
    const proxy = await startTcpProxy(database.url);
    const proxied = createPostgresEventStore({ connectionString: proxy.url, pollIntervalMs: 50 });
    try {
      const stream = newStream();
      const before = newEvents(3);
      await proxied.append(stream, before, { expectedRevision: 'no_stream' });
      const received: string[] = [];
      let reconnects = 0;
      const subscription = proxied.subscribeToAll({
        onEvents: async (events) => {
          received.push(...events.map((event) => event.id));
        },
        onReconnect: () => {
          reconnects += 1;
        },
      });
      await waitFor(() => received.length === 3, 'events before the outage');

      await proxy.interrupt(1_000);
      const after = newEvents(3);
      await proxied.append(stream, after, { expectedRevision: 2n });
      await waitFor(() => received.length >= 6, 'events after the outage');
      await subscription.stop();

      expect(reconnects).toBeGreaterThan(0);
      expect(received).toEqual([...before, ...after].map((event) => event.id));
    } finally {
      await proxied.close();
      await proxy.close();
    }
  });
});
