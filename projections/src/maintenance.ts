import { type Kysely, sql } from 'kysely';
import type { AnyDb } from './projector';

/**
 * VACUUM (ANALYZE) of the active generation's tables of the named projectors, for work that has
 * just filled them in bulk (an import of 100,000 rows). Left to autovacuum, the fresh rows are
 * taken up up to a minute later at its throttled pace, for tens of seconds in which every read of
 * those tables slows (a 10,000-record list: p50 209 ms against 81 ms settled, after a budget of a
 * million records was built); run at once and unthrottled, it takes about a second per 100,000
 * rows and leaves autovacuum nothing to do. Runs outside a transaction (as VACUUM must); a
 * concurrent autovacuum of the same table gives way to it, and a concurrent VACUUM is waited for.
 * Answers the tables it vacuumed.
 */
export async function vacuumReadModels(db: Kysely<AnyDb>, projectors: readonly string[]): Promise<string[]> {
  if (projectors.length === 0) return [];
  const { rows } = await sql<{ schema_name: string; tables: string[] }>`
    select schema_name, tables from projections.checkpoints where role = 'active' and projector = any(${[...projectors]}::text[])
     order by projector`.execute(db);
  const tables = rows.flatMap((row) => row.tables.map((table) => ({ schema: row.schema_name, table })));
  if (tables.length === 0) return [];
  await sql`VACUUM (ANALYZE) ${sql.join(tables.map(({ schema, table }) => sql.id(schema, table)))}`.execute(db);
  return tables.map(({ schema, table }) => `${schema}.${table}`);
}

/**
 * VACUUM of the PostgreSQL event store's events, when this database holds them: an import's chunk
 * events (about 20 MB per 100,000 rows, kept in the table's TOAST) are inserted in bulk, and
 * autovacuum's pass for inserted rows came minutes later, over the whole TOAST, in the middle of
 * whatever ran then (a records list measured during it, p95 208 ms). Run at once, it takes only
 * the pages new since the last one (the visibility map skips the rest). Answers whether it ran.
 */
export async function vacuumEventLog(db: Kysely<AnyDb>): Promise<boolean> {
  const { rows } = await sql<{ present: boolean }>`select to_regclass('eventstore.events') is not null as present`.execute(db);
  if (!rows[0]?.present) return false;
  await sql`VACUUM eventstore.events`.execute(db);
  return true;
}
