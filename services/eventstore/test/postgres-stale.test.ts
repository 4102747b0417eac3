import { createPool, type Pool } from '@eelarve/postgres';
import { createTestDatabase, type TestDatabase } from '@eelarve/postgres/testing/test-database';
import pg from 'pg';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { IdempotencyConflictError, WrongExpectedRevisionError } from '../src/errors';
import { createPostgresEventStore, type PostgresEventStore } from '../src/postgres';
import { APPEND_ALL, APPEND_SQL, appendAllQuery, appendValues, GROUP_REFUSED } from '../src/postgres/sql';
import type { NewEvent } from '../src/types';
import { newEvents, newStream, sleep } from './contract';
import { poolNamingStatements } from './statement-names';

/**
 * A writer that lost a race learns it without waiting for the stream's current writer to commit
 * (issue 11, point 10): the plain statement only tries the stream locks, and append_events,
 * which then answers, compares expected revisions with the committed ones before it locks. Each
 * test holds a stream's locks in an open transaction; an append that waited for them would show
 * up in pg_locks as a waiter, and the test says so instead of hanging.
 */

/** A transaction that appends to `stream` by the plain statement and stays open, holding its locks. */
async function holdStream(url: string, stream: string) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  await client.query('begin');
  const { text, values } = appendAllQuery([{ stream, events: newEvents(1), expectedRevision: 'any' }]);
  await client.query(text, values);
  return {
    async commit() {
      await client.query('commit');
      await client.end();
    },
  };
}

/** What `work` settled with, or 'waited for a lock' once some session waits for one first. */
async function settledWithoutLockWait<T>(pool: Pool, work: Promise<T>): Promise<{ value: T } | { error: unknown } | 'waited for a lock'> {
  let settled: { value: T } | { error: unknown } | undefined;
  void work.then(
    (value) => {
      settled = { value };
    },
    (error: unknown) => {
      settled = { error };
    },
  );
  for (;;) {
    if (settled) return settled;
    const { rows } = await pool.query<{ waiting: number }>('select count(*)::int as waiting from pg_locks where not granted');
    if (settled) return settled;
    if (rows[0]!.waiting > 0) return 'waited for a lock';
    await sleep(5);
  }
}

interface AppendEventsRow {
  append_index: number;
  outcome: string;
  last_revision: string;
  commit_position: string | null;
  prepare_position: string | null;
}

describe('PostgresEventStore refuses a stale expected revision without waiting for any lock', () => {
  let database: TestDatabase;
  let pool: Pool;
  let counting: Pool;
  let store: PostgresEventStore;
  const statements: string[] = [];

  beforeEach(async () => {
    database = await createTestDatabase('eventstore');
    pool = createPool(database.url);
    // The store's statements by name, to tell how many round trips an append took.
    counting = poolNamingStatements(database.url, (name) => statements.push(name));
    store = createPostgresEventStore({ pool: counting });
    await store.migrate();
  });

  afterEach(async () => {
    await store.close();
    await counting.end();
    await pool.end();
    await database.drop();
  });

  /** A stream at revision 0 whose next append is held open by another transaction. */
  async function heldStream(): Promise<{ stream: string; first: NewEvent[]; holder: Awaited<ReturnType<typeof holdStream>> }> {
    const stream = newStream();
    const first = newEvents(1);
    await store.append(stream, first, { expectedRevision: 'no_stream' });
    return { stream, first, holder: await holdStream(database.url, stream) };
  }

  it("answers the store's stale append while the stream's writer has not committed: the busy stream sends it to append_events", async () => {
    const { stream, holder } = await heldStream();
    try {
      for (const expectedRevision of ['no_stream', 5n] as const) {
        statements.length = 0;
        const outcome = await settledWithoutLockWait(pool, store.append(stream, newEvents(1), { expectedRevision }));
        expect(outcome).toEqual({ error: expect.any(WrongExpectedRevisionError) });
        expect((outcome as { error: WrongExpectedRevisionError }).error.actual).toBe(0n);
        const plain = expectedRevision === 'no_stream' ? APPEND_ALL.created : APPEND_ALL.oneEach;
        expect(statements).toEqual([plain.name, 'eventstore_append']);
      }
    } finally {
      await holder.commit();
    }
    await expect(store.append(stream, newEvents(1), { expectedRevision: 1n })).resolves.toMatchObject({ nextExpectedRevision: 2n });
  });

  it('writes the rest of a group with a busy stream, whose stale append append_events refuses', async () => {
    const { stream, holder } = await heldStream();
    const fresh = newStream();
    try {
      statements.length = 0;
      const outcomes = await settledWithoutLockWait(
        pool,
        Promise.allSettled([
          store.append(stream, newEvents(1), { expectedRevision: 'no_stream' }),
          store.append(fresh, newEvents(2), { expectedRevision: 'no_stream' }),
        ]),
      );
      expect(outcomes).toEqual({
        value: [
          { status: 'rejected', reason: expect.any(WrongExpectedRevisionError) },
          { status: 'fulfilled', value: expect.objectContaining({ nextExpectedRevision: 1n }) },
        ],
      });
      expect(statements).toEqual([APPEND_ALL.created.name, 'eventstore_append']);
    } finally {
      await holder.commit();
    }
    expect((await store.readStream(fresh)).map((event) => event.revision)).toEqual([0n, 1n]);
    expect((await store.readStream(stream)).map((event) => event.revision)).toEqual([0n, 1n]);
  });

  it('lets the plain statement leave a group with a busy stream to append_events, writing nothing, and refuse a stale one once the stream is free', async () => {
    const { stream, first, holder } = await heldStream();
    const fresh = newStream();
    const group = appendAllQuery([
      { stream: fresh, events: newEvents(1), expectedRevision: 'no_stream' },
      { stream, events: first, expectedRevision: 'no_stream' },
    ]);
    expect(group.name).toBe(APPEND_ALL.created.name);
    try {
      const busy = await settledWithoutLockWait(pool, pool.query(group.text, group.values));
      expect(busy).toEqual({ value: expect.objectContaining({ rows: [expect.objectContaining({ commit_position: null, positions: null })] }) });
      expect(await store.readStream(fresh)).toEqual([]);
    } finally {
      await holder.commit();
    }
    // Free now, the stream is at revision 1: the stale append (a retry, as it happens) undoes the statement.
    await expect(pool.query(group.text, group.values)).rejects.toMatchObject({ code: GROUP_REFUSED });
    expect(await store.readStream(fresh)).toEqual([]);
  });

  it('answers stale appends in append_events without a lock, retries as the original, and appends the rest of the group', async () => {
    const { stream, first, holder } = await heldStream();
    const [original] = await store.readStream(stream);
    const fresh = newStream();
    let rows: AppendEventsRow[];
    try {
      const group = appendValues([
        { stream, events: newEvents(1), expectedRevision: 'no_stream' },
        { stream: fresh, events: newEvents(2), expectedRevision: 'no_stream' },
        { stream, events: first, expectedRevision: 'no_stream' },
      ]);
      // The same stream twice in one group only works for appends answered before the claims.
      const outcome = await settledWithoutLockWait(pool, pool.query<AppendEventsRow>(APPEND_SQL, group));
      expect(outcome).toHaveProperty('value');
      rows = (outcome as { value: pg.QueryResult<AppendEventsRow> }).value.rows;
    } finally {
      await holder.commit();
    }
    const byIndex = new Map(rows.map((row) => [row.append_index, row]));
    expect(byIndex.get(1)).toMatchObject({ outcome: 'wrong_expected_revision', last_revision: '0', commit_position: null });
    expect(byIndex.get(2)).toMatchObject({ outcome: 'appended', last_revision: '1' });
    expect(byIndex.get(3)).toMatchObject({
      outcome: 'retried',
      last_revision: '0',
      commit_position: original!.position.commit.toString(),
      prepare_position: original!.position.prepare.toString(),
    });
    expect((await store.readStream(fresh)).map((event) => event.revision)).toEqual([0n, 1n]);
  });

  /** A stream whose row is at revision -1, no stream, as an idempotency conflict on a new stream leaves it. */
  async function streamRowWithoutEvents(): Promise<string> {
    const owned = newEvents(1);
    await store.append(newStream(), owned, { expectedRevision: 'no_stream' });
    const stream = newStream();
    await expect(store.append(stream, [...owned, ...newEvents(1)], { expectedRevision: 'no_stream' })).rejects.toBeInstanceOf(IdempotencyConflictError);
    const { rows } = await pool.query('select revision from eventstore.streams where stream_name = $1', [stream]);
    expect(rows).toEqual([{ revision: '-1' }]);
    return stream;
  }

  it('takes a stream row at revision -1 for no stream in append_events, as the plain statement does', async () => {
    const alone = await streamRowWithoutEvents();
    const [noStream, exists, numbered, any] = [
      await streamRowWithoutEvents(),
      await streamRowWithoutEvents(),
      await streamRowWithoutEvents(),
      await streamRowWithoutEvents(),
    ];
    // Every append of the group holds: append_events passes it whole to the locking body.
    const single = await pool.query<AppendEventsRow>(APPEND_SQL, appendValues([{ stream: alone, events: newEvents(1), expectedRevision: 'no_stream' }]));
    expect(single.rows).toMatchObject([{ append_index: 1, outcome: 'appended', last_revision: '0' }]);
    // Some do not: append_events answers those itself and passes on the rest.
    const { rows } = await pool.query<AppendEventsRow>(
      APPEND_SQL,
      appendValues([
        { stream: noStream, events: newEvents(2), expectedRevision: 'no_stream' },
        { stream: exists, events: newEvents(1), expectedRevision: 'stream_exists' },
        { stream: numbered, events: newEvents(1), expectedRevision: 0n },
        { stream: any, events: newEvents(1), expectedRevision: 'any' },
      ]),
    );
    expect(rows.sort((a, b) => a.append_index - b.append_index)).toMatchObject([
      { append_index: 1, outcome: 'appended', last_revision: '1' },
      { append_index: 2, outcome: 'wrong_expected_revision', last_revision: '-1', commit_position: null },
      { append_index: 3, outcome: 'wrong_expected_revision', last_revision: '-1', commit_position: null },
      { append_index: 4, outcome: 'appended', last_revision: '0' },
    ]);
    expect((await store.readStream(noStream)).map((event) => event.revision)).toEqual([0n, 1n]);
    expect(await store.readStream(exists)).toEqual([]);
  });

  it("takes a stream row at revision -1 for no stream in the store's appends, by either statement", async () => {
    const retried = newStream();
    const stored = newEvents(1);
    await store.append(retried, stored, { expectedRevision: 'no_stream' });
    const [noStream, exists] = [await streamRowWithoutEvents(), await streamRowWithoutEvents()];
    statements.length = 0;
    // The retry in the group sends it to append_events.
    const outcomes = await Promise.allSettled([
      store.append(retried, stored, { expectedRevision: 'no_stream' }),
      store.append(noStream, newEvents(1), { expectedRevision: 'no_stream' }),
      store.append(exists, newEvents(1), { expectedRevision: 'stream_exists' }),
    ]);
    expect(statements).toEqual([APPEND_ALL.mixed.name, 'eventstore_append']);
    expect(outcomes).toEqual([
      { status: 'fulfilled', value: expect.objectContaining({ nextExpectedRevision: 0n }) },
      { status: 'fulfilled', value: expect.objectContaining({ nextExpectedRevision: 0n }) },
      { status: 'rejected', reason: expect.objectContaining({ name: 'WrongExpectedRevisionError', actual: 'no_stream' }) },
    ]);

    // Alone, by the plain statement.
    const [plainNoStream, plainExists] = [await streamRowWithoutEvents(), await streamRowWithoutEvents()];
    statements.length = 0;
    await expect(store.append(plainNoStream, newEvents(1), { expectedRevision: 'no_stream' })).resolves.toMatchObject({ nextExpectedRevision: 0n });
    await expect(store.append(plainExists, newEvents(1), { expectedRevision: 'stream_exists' })).rejects.toMatchObject({ actual: 'no_stream' });
    // The refused one by append_events, which the plain statement leaves it to.
    expect(statements).toEqual([APPEND_ALL.created.name, APPEND_ALL.oneEach.name, 'eventstore_append']);
  });
});
