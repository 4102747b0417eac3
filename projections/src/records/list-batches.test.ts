import { constants } from 'node:buffer';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { newId, type ProjectorSpec, projectorSpec } from '../../test/given-events';
import { accountsProjector } from '../accounts/projector';
import { recordsProjector } from './projector';
import { budgetRecordsWhere, listRowsBytes, recordsJsonBatches, recordsJsonBytes } from './queries';

let spec: ProjectorSpec;
beforeEach(async () => {
  spec = await projectorSpec([recordsProjector, accountsProjector] as never);
});
afterEach(async () => spec.close());

/**
 * The heap a batch leaves reachable, garbage collected first: heapUsed alone also counts the
 * batches already dropped but not yet collected, which depends on when V8 collects, not on what
 * the list holds.
 */
function retainedHeap(): number {
  setFlagsFromString('--expose_gc');
  (runInNewContext('gc') as () => void)();
  return process.memoryUsage().heapUsed;
}

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
    const heapBefore = retainedHeap();
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
      peakHeap = Math.max(peakHeap, retainedHeap());
    }
    expect(records).toBe(count);
    expect(characters).toBeGreaterThan(constants.MAX_STRING_LENGTH);
    // A batch is ~5 MB of text (with its rows and the batch read ahead, ~15 MB reachable); the
    // whole list held at once would be more than 600 MB.
    expect(peakHeap - heapBefore).toBeLessThan(100 * 1024 * 1024);
  }, 300_000);

  it('writes a batch as bytes: a free first byte, then the same JSON as the texts, commas between, changers known and unknown', async () => {
    const budgetId = newId();
    const userId = newId();
    await sql`insert into read.users (id, organization_id, name, email, registered_at, updated_at, has_password, mfa_added, has_personal_code)
              values (${userId}::uuid, gen_random_uuid(), ${'Jüri "JJ" Õun 😀'}, 'juri@example.com', now(), now(), true, false, false)`.execute(spec.db);
    await givenRecords(budgetId, 25, 3);
    await sql`update read.records set updated_by_user_id = ${userId}::uuid,
                list_json = '{"name":"' || name || ' šž €","pad":"\\u00e4"}' where budget_id = ${budgetId}::uuid and name like '%1'`.execute(spec.db);
    const texts: string[] = [];
    for await (const batch of recordsJsonBatches(spec.read, budgetRecordsWhere(budgetId), 10)) texts.push(...batch);
    const batches: Buffer[] = [];
    for await (const bytes of recordsJsonBytes(spec.read, budgetRecordsWhere(budgetId), 10)) batches.push(bytes);
    expect(batches.map((bytes) => bytes.subarray(1).toString().split('},{').length)).toEqual([10, 10, 5]);
    expect(`[${batches.map((bytes) => bytes.subarray(1).toString()).join(',')}]`).toBe(`[${texts.join(',')}]`);
    const named = texts.map((text) => JSON.parse(text) as { name: string; user_name: string }).filter((record) => record.user_name !== '');
    expect(named.map((record) => record.user_name)).toEqual(['Jüri "JJ" Õun 😀', 'Jüri "JJ" Õun 😀', 'Jüri "JJ" Õun 😀']);
    expect(named[0]?.name).toBe('Rida 000001 šž €');
  });

  it('writes each distinct changer once and every record without its stored closing brace', () => {
    const rows = [
      { list_json: '{"a":"õ"}', tail: ',"user_name":"Mari"}' },
      { list_json: '{"b":1}', tail: null },
      { list_json: '{"c":"😀"}', tail: ',"user_name":"Mari"}' },
    ];
    const bytes = listRowsBytes(rows);
    expect(bytes.subarray(1).toString()).toBe('{"a":"õ","user_name":"Mari"},{"b":1,"user_name":""},{"c":"😀","user_name":"Mari"}');
  });
});
