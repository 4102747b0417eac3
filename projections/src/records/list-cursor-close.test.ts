import { sql } from 'kysely';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { newId, type ProjectorSpec, projectorSpec } from '../../test/given-events';
import { accountsProjector } from '../accounts/projector';
import type { ReadDatabase } from '../read-models';
import { recordsProjector } from './projector';
import { budgetRecordsWhere, recordsJsonBatches } from './queries';

let spec: ProjectorSpec;
beforeEach(async () => {
  spec = await projectorSpec([recordsProjector, accountsProjector] as never);
});
afterEach(async () => spec.close());

/** The cursors open in the transaction asking (pg_cursors shows only the session's own). */
async function openCursors(db: ReadDatabase): Promise<string[]> {
  const { rows } = await sql<{ name: string }>`select name from pg_cursors`.execute(db);
  return rows.map((row) => row.name);
}

it("closes its cursor inside a caller's transaction when the reader stops early, and the transaction goes on", async () => {
  const budgetId = newId();
  await sql`
    insert into read.records (id, budget_id, document_id, organization_id, name, amount, classifiers, promoted, created_at, updated_at,
                              origin_stream, origin_revision, list_json)
    select gen_random_uuid(), ${budgetId}::uuid, gen_random_uuid(), gen_random_uuid(), 'Rida ' || n, 1, '{}', false, now(), now(), 'record-x', 0, '{"n":1}'
      from generate_series(1, 30) n`.execute(spec.db);
  await spec.read.transaction().execute(async (transaction) => {
    for await (const batch of recordsJsonBatches(transaction, budgetRecordsWhere(budgetId), 10)) {
      expect(await openCursors(transaction)).toHaveLength(1);
      expect(batch).toHaveLength(10);
      break;
    }
    expect(await openCursors(transaction)).toEqual([]);
    // Still usable: the early stop neither failed nor ended the caller's transaction.
    const { rows } = await sql<{ one: number }>`select 1 as one`.execute(transaction);
    expect(rows).toEqual([{ one: 1 }]);
  });
});
