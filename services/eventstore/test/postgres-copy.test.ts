import type { Pool } from '@eelarve/postgres';
import { createTestDatabase, type TestDatabase } from '@eelarve/postgres/testing/test-database';
import pg from 'pg';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { IdempotencyConflictError, WrongExpectedRevisionError } from '../src/errors';
import { createPostgresEventStore, type PostgresEventStore } from '../src/postgres';
import { APPEND_SQL, appendValues, CLAIM_FOR_COPY, COPY_APPENDED, COPY_MIN_CHARS } from '../src/postgres/sql';
import { comparePositions, type NewEvent, START } from '../src/types';
import { everyField, newEvent, newEvents, newStream, readAllAfter, waitFor, waitUntilVisible } from './contract';
import { poolNamingStatements } from './statement-names';

/** Events in a big append: together their data passes COPY_MIN_CHARS. */
const BIG = 40;
const PAD = 'x'.repeat(Math.ceil(COPY_MIN_CHARS / BIG));

/** A big append's events, each padded to its share of COPY_MIN_CHARS. */
function bigEvents(count = BIG): NewEvent[] {
  return Array.from({ length: count }, (_, index) => newEvent('Big', { index, pad: PAD }));
}

/**
 * An append alone in its group whose events' data and metadata reach COPY_MIN_CHARS goes in by
 * COPY in a transaction of its own; anything but a clean claim leaves it to append_events, as a
 * refused group is.
 */
describe('PostgresEventStore big appends by COPY', () => {
  let database: TestDatabase;
  let pool: Pool;
  let store: PostgresEventStore;
  const statements: string[] = [];

  beforeEach(async () => {
    database = await createTestDatabase('eventstore');
    pool = poolNamingStatements(database.url, (name) => statements.push(name));
    store = createPostgresEventStore({ pool });
    await store.migrate();
    statements.length = 0;
  });

  afterEach(async () => {
    await store.close();
    await pool.end();
    await database.drop();
  });

  const COPIED = [CLAIM_FOR_COPY.name, COPY_APPENDED.name];

  it('writes every event of a big append in order, with its revisions and positions, and answers its last', async () => {
    const stream = newStream();
    const events = bigEvents();
    const result = await store.append(stream, events, { expectedRevision: 'no_stream' });
    expect(statements).toEqual(COPIED);
    expect(result.nextExpectedRevision).toBe(BigInt(BIG - 1));

    const stored = await store.readStream(stream);
    expect(stored.map((event) => event.id)).toEqual(events.map((event) => event.id));
    expect(stored.map((event) => event.revision)).toEqual(events.map((_, index) => BigInt(index)));
    expect(stored.map((event) => event.data)).toEqual(events.map((event) => event.data));
    expect(stored.at(-1)!.position).toEqual(result.position);
    for (let index = 1; index < stored.length; index++) expect(comparePositions(stored[index - 1]!.position, stored[index]!.position)).toBe(-1);

    // A second one after it, by its revision, continues the stream.
    const more = bigEvents();
    await expect(store.append(stream, more, { expectedRevision: result.nextExpectedRevision })).resolves.toMatchObject({
      nextExpectedRevision: BigInt(2 * BIG - 1),
    });
    expect((await store.readStream(stream, { fromRevision: BigInt(BIG) })).map((event) => event.id)).toEqual(more.map((event) => event.id));
  });

  it('copies names, types and payloads of any characters as they were, to the stream and to $all', async () => {
    const stream = newStream(`tab\there-new\nline-back\\slash-'"-🙂`);
    const odd = `Tüüp \t "double" \\ back\r\nslash 🙂`;
    const events = Array.from({ length: BIG }, (_, index) =>
      index % 2
        ? newEvent(odd, { text: `line\nbreak\ttab \\ "quote" \u0001 ☃ 🙂 ${index}`, path: 'C:\\dir\\n', amount: '1234567890.12', pad: PAD })
        : newEvent('Plain', { index, pad: PAD }),
    );
    const { position } = await store.append(stream, events, { expectedRevision: 'any' });
    expect(statements).toEqual(COPIED);
    await waitUntilVisible(store, position);
    const fromStream = everyField(await store.readStream(stream));
    expect(fromStream.map(({ id, type, data, metadata, streamName }) => ({ id, type, data, metadata, streamName }))).toEqual(
      events.map(({ id, type, data, metadata }) => ({ id, type, data, metadata, streamName: stream })),
    );
    const fromAll = everyField((await readAllAfter(store, START)).filter((event) => event.streamName === stream));
    expect(fromAll).toEqual(fromStream);
  });

  it('refuses a big append whose expectation does not hold, through append_events, writing nothing', async () => {
    const stream = newStream();
    await store.append(stream, newEvents(1), { expectedRevision: 'no_stream' });
    statements.length = 0;
    for (const expectedRevision of ['no_stream', 5n] as const) {
      await expect(store.append(stream, bigEvents(), { expectedRevision })).rejects.toBeInstanceOf(WrongExpectedRevisionError);
    }
    await expect(store.append(newStream(), bigEvents(), { expectedRevision: 'stream_exists' })).rejects.toMatchObject({ actual: 'no_stream' });
    expect(statements).toEqual([...Array(3).fill([CLAIM_FOR_COPY.name, 'eventstore_append'])].flat());
    expect(await store.readStream(stream)).toHaveLength(1);
    // Nothing claimed stays: the next append finds the stream where it was.
    await expect(store.append(stream, bigEvents(), { expectedRevision: 0n })).resolves.toMatchObject({ nextExpectedRevision: BigInt(BIG) });
  });

  it('answers a retried big append as the original, and refuses its ids on another stream', async () => {
    const stream = newStream();
    const events = bigEvents();
    const original = await store.append(stream, events, { expectedRevision: 'any' });
    statements.length = 0;
    // The retry claims (any expectation holds), its COPY meets the stored ids, and append_events answers.
    await expect(store.append(stream, events, { expectedRevision: 'any' })).resolves.toEqual(original);
    expect(statements).toEqual([CLAIM_FOR_COPY.name, 'eventstore_append']);
    await expect(store.append(newStream(), events, { expectedRevision: 'no_stream' })).rejects.toBeInstanceOf(IdempotencyConflictError);
    expect(await store.readStream(stream)).toHaveLength(BIG);
    expect((await pool.query('select revision from eventstore.streams where stream_name = $1', [stream])).rows).toEqual([{ revision: String(BIG - 1) }]);
  });

  it('leaves a big append to a busy stream to append_events, which writes it once the stream is free', async () => {
    const stream = newStream();
    await store.append(stream, newEvents(1), { expectedRevision: 'no_stream' });
    // Another writer holds the stream's lock in an open transaction.
    const holder = new pg.Client({ connectionString: database.url });
    await holder.connect();
    await holder.query('begin');
    await holder.query(APPEND_SQL, appendValues([{ stream, events: newEvents(1), expectedRevision: 0n }]));
    statements.length = 0;
    const big = store.append(stream, bigEvents(), { expectedRevision: 1n });
    await waitFor(() => statements.includes('eventstore_append'), 'the big append to go to append_events');
    expect(statements).toEqual([CLAIM_FOR_COPY.name, 'eventstore_append']);
    await holder.query('commit');
    await holder.end();
    await expect(big).resolves.toMatchObject({ nextExpectedRevision: BigInt(BIG + 1) });
    expect(await store.readStream(stream)).toHaveLength(BIG + 2);
  });
});
