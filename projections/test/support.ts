import { randomUUID } from 'node:crypto';
import { createPostgresEventStore, type GlobalPosition, type NewEvent, type PostgresEventStore } from '@eelarve/eventstore';
import { createKysely, createPool, type Pool } from '@eelarve/postgres';
import { adminDatabaseUrl, createTestDatabase, sharedTemplate, type TestDatabase } from '@eelarve/postgres/testing/test-database';
import { type Kysely, sql } from 'kysely';
import pg from 'pg';

export interface Harness {
  database: TestDatabase;
  pool: Pool;
  db: Kysely<unknown>;
  store: PostgresEventStore;
  close(): Promise<void>;
}

/** An empty event store, migrated once per run: each harness clones it instead of migrating its own. */
const migratedEventStore = () =>
  sharedTemplate('eventstore', async (url) => {
    const store = createPostgresEventStore({ connectionString: url });
    await store.migrate();
    await store.close();
  });

/** A fresh database with the event store migrated, plus a pool and kysely for the engine. */
export async function createHarness(): Promise<Harness> {
  const database = await createTestDatabase('proj', { template: await migratedEventStore() });
  const pool = createPool(database.url, { max: 20 });
  const store = createPostgresEventStore({ connectionString: database.url, pollIntervalMs: 200 });
  const db = createKysely<unknown>(pool);
  return {
    database,
    pool,
    db,
    store,
    async close() {
      await store.close();
      await db.destroy();
      await database.drop();
    },
  };
}

export function newEvent(type: string, data: unknown): NewEvent {
  return {
    id: randomUUID(),
    type,
    data,
    metadata: {
      correlationId: randomUUID(),
      causationId: null,
      userId: null,
      occupationId: null,
      organizationId: null,
      occurredAt: new Date().toISOString(),
      schemaVersion: 1,
    },
  };
}

/** Appends `count` deposits of 1.10 (and a Noise event every 5th) spread over `accounts` streams. */
export async function appendDeposits(store: PostgresEventStore, count: number, accounts = 5, offset = 0): Promise<GlobalPosition> {
  let last: GlobalPosition | undefined;
  for (let index = offset; index < offset + count; index++) {
    const stream = `account-${index % accounts}`;
    const events = [newEvent('Deposited', { amount: '1.10', index })];
    if (index % 5 === 0) events.push(newEvent('Noise', { index }));
    last = (await store.append(stream, events, { expectedRevision: 'any' })).position;
  }
  return last!;
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export async function waitFor(condition: () => boolean | Promise<boolean>, what: string, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(20);
  }
}

/** The full contents of a table (or view), in a stable order, for equality checks. */
export async function tableContents(db: Kysely<unknown>, schema: string, table: string): Promise<unknown[]> {
  const { rows } = await sql`select * from ${sql.id(schema, table)} order by 1, 2, 3`.execute(db);
  return rows;
}

/** Ends every connection to the database, as a database restart would. */
export async function terminateBackends(database: string): Promise<number> {
  const admin = new pg.Client({ connectionString: adminDatabaseUrl() });
  await admin.connect();
  try {
    const { rowCount } = await admin.query('select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()', [database]);
    return rowCount ?? 0;
  } finally {
    await admin.end();
  }
}
