import { randomUUID } from 'node:crypto';
import { createPostgresEventStore, type NewEvent, START } from '@eelarve/eventstore';
import { createKysely, createPool } from '@eelarve/postgres';
import { type Kysely, sql } from 'kysely';
import { startProjections } from './engine';
import { dropProjector } from './generations';
import { defineProjector } from './projector';
import { migrateControlSchema } from './schema';
import { countPostgresEvents } from './status';

const NAME = 'bench_catch_up';
const EVENT_TYPE = 'RecordAmountSet';
const SEED_BATCH = 5_000;
const BATCH_SIZE = 10_000;

interface AmountSet {
  month: number;
  amount: string;
  classifiers: { account: string };
}

/**
 * A reports-like read model: amounts summed per stream and month and per account and month,
 * each kept with one set-based upsert per batch (aggregated in SQL, exact numeric sums).
 */
const benchProjector = defineProjector({
  name: NAME,
  version: 1,
  eventTypes: [EVENT_TYPE],
  tables: ['bench_stream_totals', 'bench_account_totals'],
  async migrate(db) {
    await sql`create table bench_stream_totals (stream text, month int, amount numeric not null, events int not null, primary key (stream, month))`.execute(db);
    await sql`create table bench_account_totals (account text, month int, amount numeric not null, events int not null, primary key (account, month))`.execute(
      db,
    );
  },
  async handle(events, db) {
    const data = events.map((event) => event.data as AmountSet);
    const months = data.map((item) => item.month);
    const amounts = data.map((item) => item.amount);
    await upsertTotals(
      db,
      'bench_stream_totals',
      'stream',
      events.map((event) => event.streamName),
      months,
      amounts,
    );
    await upsertTotals(
      db,
      'bench_account_totals',
      'account',
      data.map((item) => item.classifiers.account),
      months,
      amounts,
    );
  },
});

async function upsertTotals(db: Kysely<unknown>, table: string, key: string, keys: string[], months: number[], amounts: string[]) {
  await sql`
    insert into ${sql.table(table)} as t (${sql.ref(key)}, month, amount, events)
    select k, m, sum(a), count(*) from unnest(${keys}::text[], ${months}::int[], ${amounts}::numeric[]) as u(k, m, a)
    group by k, m
    on conflict (${sql.ref(key)}, month) do update set amount = t.amount + excluded.amount, events = t.events + excluded.events`.execute(db);
}

function benchEvent(index: number): NewEvent {
  return {
    id: randomUUID(),
    type: EVENT_TYPE,
    data: { recordId: randomUUID(), month: (index % 12) + 1, amount: `${index % 10_000}.${index % 100}`, classifiers: { account: `${4000 + (index % 40)}` } },
    metadata: {
      correlationId: randomUUID(),
      causationId: null,
      userId: randomUUID(),
      occupationId: null,
      organizationId: null,
      occurredAt: new Date().toISOString(),
      schemaVersion: 1,
    },
  };
}

/**
 * Measures a projector catching up from position zero over a log of (at least) `eventCount`
 * events in the PostgreSQL store at `connectionString`. Tops the log up first, untimed, with
 * batched appends of record amounts; `events` is how many events the projector handled.
 */
export async function benchProjectorCatchUp(
  connectionString: string,
  eventCount: number,
  /** Called once the log is seeded, right before the timed catch-up starts (for CPU figures). */
  onSeeded?: () => void,
): Promise<{ events: number; seconds: number; eventsPerSecond: number }> {
  const pool = createPool(connectionString, { max: 4, applicationName: 'bench-projections' });
  const db = createKysely<unknown>(pool);
  const store = createPostgresEventStore({ connectionString });
  try {
    await store.migrate();
    await migrateControlSchema(db);
    await dropProjector(db, NAME);
    const existing = await countPostgresEvents(db)(START, await store.headPosition());
    for (let seeded = existing; seeded < eventCount; seeded += SEED_BATCH) {
      const events = Array.from({ length: Math.min(SEED_BATCH, eventCount - seeded) }, (_, index) => benchEvent(seeded + index));
      await store.append(`record-${randomUUID()}`, events, { expectedRevision: 'no_stream' });
    }
    const head = await store.headPosition();

    onSeeded?.();
    const started = performance.now();
    const engine = await startProjections({ pool, db, store, projectors: [benchProjector], batchSize: BATCH_SIZE });
    await engine.waitForPosition([NAME], head, 60 * 60_000);
    const seconds = (performance.now() - started) / 1000;
    const [status] = (await engine.status()).filter((row) => row.name === NAME);
    await engine.stop();
    await dropProjector(db, NAME);

    const events = status?.eventsApplied ?? 0;
    return { events, seconds, eventsPerSecond: Math.round(events / seconds) };
  } finally {
    await store.close();
    await db.destroy();
  }
}
