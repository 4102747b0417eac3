import { sql } from 'kysely';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { newId, type ProjectorSpec, projectorSpec } from '../test/given-events';
import { accountsProjector } from './accounts/projector';
import { vacuumEventLog, vacuumReadModels } from './maintenance';
import { recordsProjector } from './records/projector';

let spec: ProjectorSpec;
beforeEach(async () => {
  spec = await projectorSpec([recordsProjector, accountsProjector] as never);
});
afterEach(async () => spec.close());

/** Manual vacuums and analyzes of the active records generation's tables, as the server counts them. */
async function maintenanceCounts(): Promise<Record<string, { vacuums: number; analyzes: number }>> {
  const { rows } = await sql<{ relname: string; vacuums: string; analyzes: string }>`
    select t.relname, t.vacuum_count as vacuums, t.analyze_count as analyzes from pg_stat_user_tables t
      join projections.checkpoints c on c.schema_name = t.schemaname and c.role = 'active' and c.projector = 'records'`.execute(spec.db);
  return Object.fromEntries(rows.map((row) => [row.relname, { vacuums: Number(row.vacuums), analyzes: Number(row.analyzes) }]));
}

it("vacuums and analyzes the named projectors' active tables, outside any transaction, and names them", async () => {
  await sql`
    insert into read.records (id, budget_id, document_id, organization_id, name, amount, classifiers, promoted, created_at, updated_at,
                              origin_stream, origin_revision, list_json)
    select gen_random_uuid(), ${newId()}::uuid, gen_random_uuid(), gen_random_uuid(), 'Rida ' || n, 1, '{}', false, now(), now(), 'record-x', 0, '{"n":1}'
      from generate_series(1, 500) n`.execute(spec.db);
  expect((await maintenanceCounts()).records).toEqual({ vacuums: 0, analyzes: 0 });

  const vacuumed = await vacuumReadModels(spec.db, ['records']);

  expect(vacuumed.map((name) => name.split('.')[1]).sort()).toEqual(['record_combinations', 'record_tombstones', 'records']);
  await expect.poll(async () => (await maintenanceCounts()).records).toEqual({ vacuums: 1, analyzes: 1 });
  const { rows } = await sql<{ n_ins_since_vacuum: string }>`
    select n_ins_since_vacuum from pg_stat_user_tables where relname = 'records' and schemaname = ${vacuumed[0]!.split('.')[0]!}`.execute(spec.db);
  // Nothing left for autovacuum's insert threshold to take up.
  expect(Number(rows[0]?.n_ins_since_vacuum)).toBe(0);
  expect(await vacuumReadModels(spec.db, [])).toEqual([]);
  expect(await vacuumReadModels(spec.db, ['no-such-projector'])).toEqual([]);
});

it("vacuums the event store's events (an import's chunk events) when this database holds them", async () => {
  const counts = async () => {
    const { rows } = await sql<{ vacuums: string; inserted: string }>`
      select vacuum_count as vacuums, n_ins_since_vacuum as inserted from pg_stat_user_tables where schemaname = 'eventstore' and relname = 'events'`.execute(
      spec.db,
    );
    return rows[0] ? { vacuums: Number(rows[0].vacuums), inserted: Number(rows[0].inserted) } : undefined;
  };
  await spec.given({ stream: `unrelated-${newId()}`, type: 'SomethingHappened', data: { memo: 'x'.repeat(5_000) } });
  // The statistics reach the counts a moment after the insert.
  await expect.poll(async () => (await counts())?.inserted).toBeGreaterThan(0);
  const before = await counts();

  expect(await vacuumEventLog(spec.db)).toBe(true);

  await expect.poll(async () => (await counts())?.vacuums).toBe(before!.vacuums + 1);
  expect((await counts())?.inserted).toBe(0);
});

it('does nothing where the events are stored elsewhere (no eventstore.events table)', async () => {
  await sql`alter table eventstore.events rename to events_elsewhere`.execute(spec.db);
  expect(await vacuumEventLog(spec.db)).toBe(false);
});
