import { constants } from 'node:buffer';
import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { newId, type ProjectorSpec, projectorSpec } from '../../test/given-events';
import { accountsProjector } from '../accounts/projector';
import { recordsProjector } from './projector';
import { budgetRecordsWhere, recordsJsonBatches } from './queries';

let spec: ProjectorSpec;
beforeEach(async () => {
  spec = await projectorSpec([recordsProjector, accountsProjector] as never);
});
afterEach(async () => spec.close());

/**
 * Rows put straight into the read model (the projector's own specs cover how events make them):
 * `count` records of a budget named 'Rida <n>' whose stored list JSON is padded to `padding`
 * characters, so a few thousand rows make a list of any size quickly.
 */
async function givenRecords(budgetId: string, count: number, padding: number): Promise<void> {
  await sql`
    insert into read.records (id, budget_id, document_id, organization_id, name, amount, classifiers, promoted, created_at, updated_at,
                              origin_stream, origin_revision, list_json)
    select gen_random_uuid(), ${budgetId}::uuid, gen_random_uuid(), gen_random_uuid(), 'Rida ' || lpad(n::text, 6, '0'), 1, '{}', false, now(), now(),
           'record-x', 0, '{"name":"Rida ' || lpad(n::text, 6, '0') || '","pad":"' || repeat('x', ${padding}) || '"}'
      from generate_series(1, ${count}) n`.execute(spec.db);
}

describe('records lists in batches', () => {
  it('reads a list in batches of its cursor, by name, each record with its last changer put before its closing brace', async () => {
    const budgetId = newId();
    await givenRecords(budgetId, 25, 3);
    const batches: string[][] = [];
    for await (const batch of recordsJsonBatches(spec.read, budgetRecordsWhere(budgetId), 10)) batches.push(batch);
    expect(batches.map((batch) => batch.length)).toEqual([10, 10, 5]);
    const records = batches.flat().map((text) => JSON.parse(text) as { name: string; pad: string; user_name: string });
    expect(records.map((record) => record.name)).toEqual(Array.from({ length: 25 }, (_, n) => `Rida ${String(n + 1).padStart(6, '0')}`));
    expect(records[0]).toEqual({ name: 'Rida 000001', pad: 'xxx', user_name: '' });
  });

  it('answers no batch for a list without records, and closes its cursor when the reader stops early', async () => {
    const budgetId = newId();
    const none: string[][] = [];
    for await (const batch of recordsJsonBatches(spec.read, budgetRecordsWhere(newId()), 10)) none.push(batch);
    expect(none).toEqual([]);
    await givenRecords(budgetId, 30, 3);
    for await (const batch of recordsJsonBatches(spec.read, budgetRecordsWhere(budgetId), 10)) {
      expect(batch).toHaveLength(10);
      break;
    }
    // The transaction ended with the iteration: nothing of the list is left open on the server.
    const { rows } = await sql<{ open: number }>`
      select count(*)::int as open from pg_stat_activity
       where datname = current_database() and state like 'idle in transaction%' and query like 'fetch %records_list%'`.execute(spec.db);
    expect(rows[0]?.open).toBe(0);
  });

  it('streams a list far larger than a JavaScript string can hold, never holding more than a batch', async () => {
    // 6,000 records of ~100,000 characters: ~600 MB of JSON, beyond V8's longest string (2^29 - 24 characters).
    const budgetId = newId();
    const [count, padding] = [6_000, 100_000];
    await givenRecords(budgetId, count, padding);
    const heapBefore = process.memoryUsage().heapUsed;
    let [characters, records, peakHeap] = [0, 0, 0];
    let lastName = '';
    for await (const batch of recordsJsonBatches(spec.read, budgetRecordsWhere(budgetId), 50)) {
      for (const text of batch) {
        characters += text.length + 1;
        const name = text.slice(9, 20);
        expect(name > lastName).toBe(true);
        lastName = name;
      }
      records += batch.length;
      peakHeap = Math.max(peakHeap, process.memoryUsage().heapUsed);
    }
    expect(records).toBe(count);
    expect(characters).toBeGreaterThan(constants.MAX_STRING_LENGTH);
    // A batch is ~5 MB of text; the whole list held at once would be more than 600 MB.
    expect(peakHeap - heapBefore).toBeLessThan(200 * 1024 * 1024);
  }, 300_000);
});
