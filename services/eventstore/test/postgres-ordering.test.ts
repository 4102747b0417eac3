import { createTestDatabase, type TestDatabase } from '@eelarve/postgres/testing/test-database';
import pg from 'pg';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createPostgresEventStore, type PostgresEventStore } from '../src/postgres';
import { APPEND_SQL, appendValues } from '../src/postgres/sql';
import { START } from '../src/types';
import { newEvents, newStream, readAllAfter, waitFor } from './contract';

/**
 * A transaction that appends one event to `stream` by append_events and stays open. Not by the
 * plain statement: that one never waits for a stream's lock, and would leave a busy stream alone.
 */
async function openAppend(url: string, stream: string) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  await client.query('begin');
  const appended = client.query(APPEND_SQL, appendValues([{ stream, events: newEvents(1), expectedRevision: 'any' }]));
  return {
    appended,
    async commit() {
      await appended;
      await client.query('commit');
      await client.end();
    },
  };
}

async function appendByFunction(url: string, streams: string[]): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(APPEND_SQL, appendValues(streams.map((stream) => ({ stream, events: newEvents(1), expectedRevision: 'any' as const }))));
  } finally {
    await client.end();
  }
}

async function lockWaiters(url: string): Promise<number> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ waiting: number }>('select count(*)::int as waiting from pg_locks where not granted');
    return rows[0]!.waiting;
  } finally {
    await client.end();
  }
}

describe('PostgresEventStore global order under concurrent appends', () => {
  let database: TestDatabase;
  let store: PostgresEventStore;

  beforeEach(async () => {
    database = await createTestDatabase('eventstore');
    store = createPostgresEventStore({ connectionString: database.url });
    await store.migrate();
  });

  afterEach(async () => {
    await store.close();
    await database.drop();
  });

  // The store (its plain statement leaves a group with a busy stream to append_events, which
  // then waits for the locks), and append_events called directly.
  const groupWriters: Array<[string, (url: string, streams: string[]) => Promise<unknown>]> = [
    ['the store', (_url, streams) => Promise.all(streams.map((stream) => store.append(stream, newEvents(1), { expectedRevision: 'any' })))],
    ['append_events', (url, streams) => appendByFunction(url, streams)],
  ];

  it.each(groupWriters)("shows each stream's revisions in order in $all when a group written by %s waits on a stream midway", async (_name, writeGroup) => {
    // Claimed in name order: first, then held, then contested.
    const [first, held, contested] = [newStream('a'), newStream('b'), newStream('c')];
    for (const stream of [first, held, contested]) await store.append(stream, newEvents(1), { expectedRevision: 'no_stream' });

    // A writer of `held` alone keeps its transaction open, so the group stops there (after
    // writing `first`, unless it takes its locks first).
    const holder = await openAppend(database.url, held);
    await holder.appended;
    const group = writeGroup(database.url, [first, held, contested]);
    await waitFor(async () => (await lockWaiters(database.url)) >= 1, 'the group to wait for the held stream');

    // Meanwhile a writer of `contested` alone appends to it, which the group has not reached yet.
    const rival = await openAppend(database.url, contested);
    let rivalDone = false;
    void rival.appended.then(() => {
      rivalDone = true;
    });
    await waitFor(async () => rivalDone || (await lockWaiters(database.url)) >= 2, 'the rival to append or wait');
    await holder.commit();
    await rival.commit();
    await group;

    const all = await readAllAfter(store, START);
    for (const stream of [first, held, contested]) {
      const revisions = all.filter((event) => event.streamName === stream).map((event) => event.revision);
      expect(revisions, stream).toEqual(stream === first ? [0n, 1n] : [0n, 1n, 2n]);
    }
  });

  it('keeps every stream in order in $all, without deadlocks, when two stores append overlapping groups at once', async () => {
    const streams = ['a', 'b', 'c', 'd', 'e'].map((category) => newStream(category));
    const other = createPostgresEventStore({ connectionString: database.url });
    try {
      // Each store's batcher makes groups of whatever streams arrive together.
      const appendRandomly = async (writer: PostgresEventStore) => {
        for (let round = 0; round < 20; round++) {
          const picked = streams.filter(() => Math.random() < 0.6);
          await Promise.all(picked.map((stream) => writer.append(stream, newEvents(1), { expectedRevision: 'any' })));
        }
      };
      await Promise.all([appendRandomly(store), appendRandomly(other), appendRandomly(store), appendRandomly(other)]);
    } finally {
      await other.close();
    }

    const all = await readAllAfter(store, START);
    for (const stream of streams) {
      const revisions = all.filter((event) => event.streamName === stream).map((event) => event.revision);
      expect(revisions, stream).toEqual(revisions.map((_, index) => BigInt(index)));
    }
  });

  it('appends a group of a thousand streams, a lock each, on the server as configured', async () => {
    const streams = Array.from({ length: 1000 }, () => newStream());
    const results = await Promise.all(streams.map((stream) => store.append(stream, newEvents(1), { expectedRevision: 'no_stream' })));
    expect(results.every((result) => result.nextExpectedRevision === 0n)).toBe(true);
  });
});
