import { comparePositions, type GlobalPosition } from '@eelarve/eventstore';
import { type Kysely, sql, type Transaction } from 'kysely';
import { type Checkpoint, CheckpointMovedError, type GenerationKey, type GenerationRole, control, loadCheckpoints } from './checkpoints';
import { deleteParkedEvents, markParkedReplayed } from './parked';
import type { Projector } from './projector';
import { generationSchema, READ_SCHEMA } from './schema';

/** Scopes a transaction to one generation: kysely queries via withSchema, raw SQL via search_path. */
export async function scopeToSchema(trx: Transaction<unknown>, schema: string): Promise<Kysely<unknown>> {
  await sql`select set_config('search_path', ${`${schema}, public`}, true)`.execute(trx);
  return trx.withSchema(schema);
}

/**
 * Opens a projector's batch in one round trip: advances the generation's checkpoint from `from`
 * to `to` (first, so a competing writer blocks on the row, then finds it moved), scopes the
 * transaction to the generation (scopeToSchema), and lets its commit return before the WAL
 * reaches the disk: the tables and the checkpoint commit together and are redone from the
 * durable log after a crash.
 */
export async function openBatch(
  trx: Transaction<unknown>,
  key: GenerationKey,
  schema: string,
  from: GlobalPosition,
  to: GlobalPosition,
  applied: number,
): Promise<Kysely<unknown>> {
  const { rows } = await sql<{ advanced: number }>`
    with advanced as (
      update projections.checkpoints
      set position_commit = ${to.commit.toString()}, position_prepare = ${to.prepare.toString()},
        events_applied = events_applied + ${applied}, last_error = null, updated_at = now()
      where projector = ${key.projector} and generation = ${key.generation}
        and position_commit = ${from.commit.toString()} and position_prepare = ${from.prepare.toString()}
      returning 1)
    select (select count(*) from advanced)::int as advanced,
      set_config('search_path', ${`${schema}, public`}, true), set_config('synchronous_commit', 'off', true)`.execute(trx);
  if (rows[0]?.advanced !== 1) throw new CheckpointMovedError(key);
  return trx.withSchema(schema);
}

/**
 * Creates a generation in one transaction: schema, tables, checkpoint row and, for the first
 * generation of a projector, its read views. A failure leaves nothing behind.
 */
export async function createGeneration(db: Kysely<unknown>, projector: Projector, role: GenerationRole): Promise<Checkpoint> {
  const generation = await db.transaction().execute(async (trx) => {
    const generation = await nextGeneration(trx, projector.name);
    const schema = generationSchema(projector.name, generation);
    await sql`create schema ${sql.id(schema)}`.execute(trx);
    await projector.migrate(await scopeToSchema(trx, schema));
    await assertTablesExist(trx, projector, schema);
    await control(trx)
      .insertInto('projections.checkpoints')
      .values({ projector: projector.name, generation, schema_name: schema, version: projector.version, tables: [...projector.tables], role })
      .execute();
    if (role === 'active') await pointReadViews(trx, [], projector.tables, schema);
    return generation;
  });
  const created = (await loadCheckpoints(db, projector.name)).find((row) => row.generation === generation);
  return created!;
}

async function nextGeneration(trx: Transaction<unknown>, projector: string): Promise<number> {
  const row = await control(trx)
    .selectFrom('projections.checkpoints')
    .select((eb) => eb.fn.max('generation').as('last'))
    .where('projector', '=', projector)
    .executeTakeFirst();
  return (row?.last ?? 0) + 1;
}

async function assertTablesExist(trx: Transaction<unknown>, projector: Projector, schema: string): Promise<void> {
  const { rows } = await sql<{ table_name: string }>`
    select table_name from information_schema.tables where table_schema = ${schema}`.execute(trx);
  const created = new Set(rows.map((row) => row.table_name));
  const missing = projector.tables.filter((table) => !created.has(table));
  if (missing.length > 0) throw new Error(`projector ${projector.name}: migrate did not create ${missing.join(', ')}`);
}

/** Replaces the read views of `oldTables` with views of `newTables` in `schema`. */
async function pointReadViews(trx: Transaction<unknown>, oldTables: readonly string[], newTables: readonly string[], schema: string) {
  for (const table of new Set([...oldTables, ...newTables])) {
    await sql`drop view if exists ${sql.id(READ_SCHEMA, table)}`.execute(trx);
  }
  for (const table of newTables) {
    await sql`create view ${sql.id(READ_SCHEMA, table)} as select * from ${sql.id(schema, table)}`.execute(trx);
  }
}

/**
 * How long the switch may wait for the views' locks. While it waits, new queries of those views
 * queue behind it, so it gives up early (a long-running reader holds them) and is retried.
 */
const SWITCH_LOCK_TIMEOUT = '1s';
const LOCK_NOT_AVAILABLE = '55P03';

/**
 * Makes the building generation the active one: in one transaction the read views move to its
 * tables, the old checkpoint row goes and the old generation's parked events are marked replayed, so a query sees either the old or the new generation,
 * never a mix. Returns false, changing nothing, when the new generation is behind the old one
 * (a reader's own recent write would disappear for a moment) or the views are busy.
 */
export async function switchOver(db: Kysely<unknown>, projector: string, building: number): Promise<boolean> {
  try {
    return await db.transaction().execute(async (trx) => {
      await sql`select set_config('lock_timeout', ${SWITCH_LOCK_TIMEOUT}, true)`.execute(trx);
      const rows = await loadCheckpoints(trx, projector, true);
      const next = rows.find((row) => row.generation === building && row.role === 'building');
      const current = rows.find((row) => row.role === 'active');
      if (!next || !current) return false;
      if (comparePositions(next.position, current.position) < 0) return false;
      await control(trx).deleteFrom('projections.checkpoints').where('projector', '=', projector).where('generation', '=', current.generation).execute();
      // The new generation replayed the whole log, parked events included; it parked again what it still fails on.
      await markParkedReplayed(trx, current);
      await control(trx)
        .updateTable('projections.checkpoints')
        .set({ role: 'active', rebuild_requested: false, updated_at: sql<Date>`now()` })
        .where('projector', '=', projector)
        .where('generation', '=', building)
        .execute();
      await pointReadViews(trx, current.tables, next.tables, next.schemaName);
      return true;
    });
  } catch (error) {
    if ((error as { code?: string }).code === LOCK_NOT_AVAILABLE) return false;
    throw error;
  }
}

/** Removes a generation that is not serving reads: its checkpoint row and its schema. */
export async function dropGeneration(db: Kysely<unknown>, projector: string, generation: number): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await control(trx)
      .deleteFrom('projections.checkpoints')
      .where('projector', '=', projector)
      .where('generation', '=', generation)
      .where('role', '=', 'building')
      .execute();
    await deleteParkedEvents(trx, projector, generation);
    await sql`drop schema if exists ${sql.id(generationSchema(projector, generation))} cascade`.execute(trx);
  });
}

/**
 * Drops schemas of generations that no checkpoint row refers to: the old generation after a
 * switch-over, or leftovers of a crash. Waits at most `lock_timeout` for readers still using
 * them; a schema left behind is dropped on a later call.
 */
export async function dropOrphanSchemas(db: Kysely<unknown>, projector: string): Promise<void> {
  const { rows } = await sql<{ nspname: string }>`
    select nspname from pg_namespace n
    where nspname ~ ${`^rm_${projector}_g[0-9]+$`}
      and not exists (select 1 from projections.checkpoints c where c.schema_name = n.nspname)`.execute(db);
  for (const { nspname } of rows) {
    await db.transaction().execute(async (trx) => {
      await sql`select set_config('lock_timeout', '5s', true)`.execute(trx);
      await sql`drop schema if exists ${sql.id(nspname)} cascade`.execute(trx);
    });
  }
}

/** Removes every trace of a projector: its read views, generations and checkpoints. */
export async function dropProjector(db: Kysely<unknown>, projector: string): Promise<void> {
  const rows = await loadCheckpoints(db, projector);
  await db.transaction().execute(async (trx) => {
    for (const table of new Set(rows.flatMap((row) => row.tables))) {
      await sql`drop view if exists ${sql.id(READ_SCHEMA, table)}`.execute(trx);
    }
    await control(trx).deleteFrom('projections.checkpoints').where('projector', '=', projector).execute();
    await deleteParkedEvents(trx, projector);
  });
  await dropOrphanSchemas(db, projector);
}
