import { createKysely, createPool, migrate } from '@eelarve/postgres';
import { createTestDatabase } from '@eelarve/postgres/testing/test-database';
import { describe, expect, it } from 'vitest';
import { WrongExpectedRevisionError } from '../src/errors';
import { createPostgresEventStore } from '../src/postgres';
import { migrations } from '../src/postgres/schema';
import { APPEND_SQL, appendValues } from '../src/postgres/sql';
import type { NewEvent } from '../src/types';
import { everyField, newEvents, newStream, readAllAfter } from './contract';

/** How the first version of the store called its append_events (migration 001): with each append's first event. */
const FIRST_APPEND_SQL = `
select append_index, outcome from eventstore.append_events($1::text[], $2::text[], $3::int[], $4::int[], $5::uuid[], $6::text[], $7::jsonb, $8::jsonb)`;

function firstAppendValues(appends: Array<{ stream: string; events: NewEvent[]; expected: string }>): unknown[] {
  const events = appends.flatMap((append) => append.events);
  let next = 1;
  const starts = appends.map((append) => {
    const start = next;
    next += append.events.length;
    return start;
  });
  return [
    appends.map((append) => append.stream),
    appends.map((append) => append.expected),
    starts,
    appends.map((append) => append.events.length),
    events.map((event) => event.id),
    events.map((event) => event.type),
    JSON.stringify(events.map((event) => event.data)),
    JSON.stringify(events.map((event) => event.metadata)),
  ];
}

describe('PostgresEventStore upgrade', () => {
  it('upgrades a store left by migration 002 to the one-statement append, its revisions and retries intact', async () => {
    const database = await createTestDatabase('eventstore');
    const pool = createPool(database.url);
    const store = createPostgresEventStore({ pool });
    try {
      await migrate(createKysely(pool), 'eventstore', {
        '001_events': migrations['001_events']!,
        '002_numbered_streams_set_based_append': migrations['002_numbered_streams_set_based_append']!,
      });
      const stream = newStream();
      const events = newEvents(2);
      // Written by 002's append_events, as the previous version of the store did.
      await pool.query(APPEND_SQL, appendValues([{ stream, events, expectedRevision: 'no_stream' }]));

      await store.migrate();

      await expect(store.append(stream, events, { expectedRevision: 'no_stream' })).resolves.toMatchObject({ nextExpectedRevision: 1n });
      await expect(store.append(stream, newEvents(1), { expectedRevision: 0n })).rejects.toBeInstanceOf(WrongExpectedRevisionError);
      await expect(store.append(stream, newEvents(1), { expectedRevision: 1n })).resolves.toMatchObject({ nextExpectedRevision: 2n });
      expect((await store.readStream(stream)).map((event) => event.revision)).toEqual([0n, 1n, 2n]);
    } finally {
      await store.close();
      await pool.end();
      await database.drop();
    }
  });

  it('upgrades a store made by the first schema in place, keeping its events, positions and revisions', async () => {
    const database = await createTestDatabase('eventstore');
    const pool = createPool(database.url);
    const store = createPostgresEventStore({ pool });
    try {
      // The store as the first version left it, written by that version's function.
      await migrate(createKysely(pool), 'eventstore', { '001_events': migrations['001_events']! });
      const [first, second] = [newStream(), newStream()];
      const [firstEvents, secondEvents, laterEvents] = [newEvents(3), newEvents(2), newEvents(2)];
      const appended = await pool.query<{ outcome: string }>(
        FIRST_APPEND_SQL,
        firstAppendValues([
          { stream: first, events: firstEvents, expected: 'no_stream' },
          { stream: second, events: secondEvents, expected: 'no_stream' },
        ]),
      );
      await pool.query(FIRST_APPEND_SQL, firstAppendValues([{ stream: first, events: laterEvents, expected: '2' }]));
      expect(appended.rows.map((row) => row.outcome)).toEqual(['appended', 'appended']);
      const before = everyField(await readAllAfter(store, { commit: -1n, prepare: -1n }));

      await store.migrate();

      expect(everyField(await readAllAfter(store, { commit: -1n, prepare: -1n }))).toEqual(before);
      expect(await store.readStream(first)).toEqual(before.filter((event) => event.streamName === first));
      expect(await store.readStream(second, { direction: 'backwards' })).toEqual(before.filter((event) => event.streamName === second).reverse());
      // Revisions carry on, and a retry of an old append answers as the original did.
      await expect(store.append(first, newEvents(1), { expectedRevision: 4n })).resolves.toMatchObject({ nextExpectedRevision: 5n });
      await expect(store.append(second, newEvents(1), { expectedRevision: 0n })).rejects.toBeInstanceOf(WrongExpectedRevisionError);
      const lastOfSecond = before.filter((event) => event.streamName === second).at(-1)!;
      await expect(store.append(second, secondEvents, { expectedRevision: 'no_stream' })).resolves.toEqual({
        nextExpectedRevision: 1n,
        position: lastOfSecond.position,
      });
      expect((await store.readStream(first)).map((event) => event.revision)).toEqual([0n, 1n, 2n, 3n, 4n, 5n]);
    } finally {
      await store.close();
      await pool.end();
      await database.drop();
    }
  });

  it('takes the stream rows at revision -1 that refused first appends left under migration 004 for no stream', async () => {
    const database = await createTestDatabase('eventstore');
    const pool = createPool(database.url);
    const store = createPostgresEventStore({ pool });
    try {
      const upTo004 = Object.fromEntries(Object.entries(migrations).filter(([name]) => name < '005'));
      await migrate(createKysely(pool), 'eventstore', upTo004);
      const [refused, retried] = [newStream(), newStream()];
      const stored = newEvents(1);
      const first = await pool.query<{ outcome: string }>(
        APPEND_SQL,
        appendValues([
          { stream: refused, events: newEvents(1), expectedRevision: 0n },
          { stream: retried, events: stored, expectedRevision: 'no_stream' },
        ]),
      );
      expect(first.rows.map((row) => row.outcome).sort()).toEqual(['appended', 'wrong_expected_revision']);
      expect((await pool.query('select revision from eventstore.streams where stream_name = $1', [refused])).rows).toEqual([{ revision: '-1' }]);

      await store.migrate();

      // The retry in the group sends it through append_events.
      const outcomes = await Promise.all([
        store.append(retried, stored, { expectedRevision: 'no_stream' }),
        store.append(refused, newEvents(1), { expectedRevision: 'no_stream' }),
      ]);
      expect(outcomes.map((outcome) => outcome.nextExpectedRevision)).toEqual([0n, 0n]);
      expect((await store.readStream(refused)).map((event) => event.revision)).toEqual([0n]);
    } finally {
      await store.close();
      await pool.end();
      await database.drop();
    }
  });
});
