import type { RecordEvent, RecordsImported } from '@eelarve/domain';
import type { StoredEvent } from '@eelarve/eventstore';
import { AMOUNT_SQL_TYPE } from '@eelarve/shared';
import { type Kysely, sql } from 'kysely';
import { defineProjector } from '../projector';
import type { RecordsReadModel } from './tables';

type Db = Kysely<RecordsReadModel>;

const RECORD_EVENT_TYPES = [
  'RecordCreated',
  'RecordUpdated',
  'RecordPromotionSet',
  'RecordDeleted',
  'RecordRestored',
] as const satisfies readonly RecordEvent['type'][];

/** Who changed a record and when: from the event's metadata. */
function changeOf(stored: StoredEvent) {
  return {
    at: stored.metadata.occurredAt ?? stored.createdAt.toISOString(),
    userId: stored.metadata.userId ?? null,
    occupationId: stored.metadata.occupationId ?? null,
  };
}

const amount = (value: string) => sql`${value}::${sql.raw(AMOUNT_SQL_TYPE)}`;
const months = (value: readonly string[] | null) => (value === null ? sql`null` : sql`${value}::numeric[]`);

/**
 * Every row of consecutive import chunks in one statement: the rows travel as one JSON text and
 * are unpacked by PostgreSQL. A chunk applied twice changes nothing (ON CONFLICT DO NOTHING).
 */
async function insertImported(db: Db, chunks: StoredEvent[]): Promise<void> {
  const rows = chunks.flatMap((stored) => {
    const data = (stored as unknown as RecordsImported & StoredEvent).data;
    const change = changeOf(stored);
    return data.records.map((record) => ({
      id: record.recordId,
      budget_id: data.budgetId,
      document_id: data.documentId,
      organization_id: data.organizationId,
      name: record.name,
      amount: record.amount,
      months: record.months,
      classifiers: record.classifiers,
      at: change.at,
      user_id: change.userId,
      occupation_id: change.occupationId,
      origin_stream: stored.streamName,
      origin_revision: stored.revision.toString(),
      import_id: data.importId,
    }));
  });
  if (rows.length === 0) return;
  await sql`
    INSERT INTO records (id, budget_id, document_id, organization_id, name, amount, months, classifiers, promoted, created_at, updated_at,
                         updated_by_user_id, updated_by_occupation_id, origin_stream, origin_revision, import_id)
    SELECT r.id, r.budget_id, r.document_id, r.organization_id, r.name, r.amount::${sql.raw(AMOUNT_SQL_TYPE)},
           CASE WHEN jsonb_typeof(r.months) = 'array'
                THEN ARRAY(SELECT m.value::numeric FROM jsonb_array_elements_text(r.months) WITH ORDINALITY AS m(value, n) ORDER BY m.n)
           END,
           r.classifiers, false, r.at, r.at, r.user_id, r.occupation_id, r.origin_stream, r.origin_revision, r.import_id
      FROM jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) AS r(id uuid, budget_id uuid, document_id uuid, organization_id uuid, name text, amount text,
           months jsonb, classifiers jsonb, at timestamptz, user_id uuid, occupation_id uuid, origin_stream text, origin_revision bigint, import_id uuid)
    ON CONFLICT (id) DO NOTHING`.execute(db);
}

async function applyRecord(db: Db, stored: StoredEvent): Promise<void> {
  const event = stored as unknown as RecordEvent;
  const { at, userId, occupationId } = changeOf(stored);
  switch (event.type) {
    case 'RecordCreated': {
      const d = event.data;
      await sql`
        INSERT INTO records (id, budget_id, document_id, organization_id, name, amount, months, classifiers, promoted, created_at, updated_at,
                             updated_by_user_id, updated_by_occupation_id, origin_stream, origin_revision, import_id)
        VALUES (${d.recordId}, ${d.budgetId}, ${d.documentId}, ${d.organizationId}, ${d.name}, ${amount(d.amount)}, ${months(d.months)},
                ${JSON.stringify(d.classifiers)}::jsonb, ${d.promoted}, ${at}, ${at}, ${userId}, ${occupationId}, ${stored.streamName}, ${stored.revision.toString()}, null)
        ON CONFLICT (id) DO NOTHING`.execute(db);
      return;
    }
    case 'RecordUpdated': {
      const d = event.data;
      await sql`
        UPDATE records SET name = ${d.name}, amount = ${amount(d.amount)}, months = ${months(d.months)}, classifiers = ${JSON.stringify(d.classifiers)}::jsonb,
               updated_at = ${at}, updated_by_user_id = ${userId}, updated_by_occupation_id = ${occupationId}
         WHERE id = ${d.recordId}`.execute(db);
      return;
    }
    case 'RecordPromotionSet':
      await sql`
        UPDATE records SET promoted = ${event.data.promoted}, updated_at = ${at}, updated_by_user_id = ${userId}, updated_by_occupation_id = ${occupationId}
         WHERE id = ${event.data.recordId}`.execute(db);
      return;
    case 'RecordDeleted':
      // Its origin stays known: an imported record's history and restoration need its chunk row.
      await sql`
        WITH gone AS (DELETE FROM records WHERE id = ${event.data.recordId} RETURNING id, budget_id, document_id, organization_id, created_at, origin_stream, origin_revision, import_id)
        INSERT INTO record_tombstones (id, budget_id, document_id, organization_id, created_at, origin_stream, origin_revision, import_id)
        SELECT * FROM gone
        ON CONFLICT (id) DO NOTHING`.execute(db);
      return;
    case 'RecordRestored': {
      const d = event.data;
      await sql`
        WITH tomb AS (DELETE FROM record_tombstones WHERE id = ${d.recordId} RETURNING created_at, origin_stream, origin_revision, import_id)
        INSERT INTO records (id, budget_id, document_id, organization_id, name, amount, months, classifiers, promoted, created_at, updated_at,
                             updated_by_user_id, updated_by_occupation_id, origin_stream, origin_revision, import_id)
        SELECT ${d.recordId}::uuid, ${d.budgetId}::uuid, ${d.documentId}::uuid, ${d.organizationId}::uuid, ${d.name}::text, ${amount(d.amount)}, ${months(d.months)},
               ${JSON.stringify(d.classifiers)}::jsonb, ${d.promoted}::boolean, coalesce(tomb.created_at, ${at}::timestamptz), ${at}::timestamptz,
               ${userId}::uuid, ${occupationId}::uuid,
               coalesce(tomb.origin_stream, ${stored.streamName}), coalesce(tomb.origin_revision, ${stored.revision.toString()}), tomb.import_id
          FROM (VALUES (1)) AS one LEFT JOIN tomb ON true
        ON CONFLICT (id) DO NOTHING`.execute(db);
      return;
    }
  }
}

/** A deleted budget, document or organisation takes its records with it. */
async function deleteOwned(db: Db, column: 'budget_id' | 'document_id' | 'organization_id', id: string): Promise<void> {
  await db.deleteFrom('records').where(column, '=', id).execute();
  await db.deleteFrom('record_tombstones').where(column, '=', id).execute();
}

const RECORD_TYPES = new Set<string>(RECORD_EVENT_TYPES);
/** 10 chunks of 500 rows: a few MB of JSON per statement, whatever the import's size. */
const CHUNKS_PER_STATEMENT = 10;

/** Records of every budget (issue 11): the records screen, sub-budget counts and the -2 row read them. */
export const recordsProjector = defineProjector<RecordsReadModel>({
  name: 'records',
  version: 2,
  eventTypes: [...RECORD_EVENT_TYPES, 'RecordsImported', 'BudgetDeleted', 'DocumentDeleted', 'OrganizationDeleted'],
  tables: ['records', 'record_tombstones'],
  async migrate(db) {
    await db.schema
      .createTable('records')
      .addColumn('id', 'uuid', (col) => col.primaryKey())
      .addColumn('budget_id', 'uuid', (col) => col.notNull())
      .addColumn('document_id', 'uuid', (col) => col.notNull())
      .addColumn('organization_id', 'uuid', (col) => col.notNull())
      .addColumn('name', 'text', (col) => col.notNull())
      .addColumn('amount', sql.raw(AMOUNT_SQL_TYPE), (col) => col.notNull())
      // Unconstrained numeric keeps each month as the canonical text it was written with ('0.1', not
      // '0.100000'): lists render `months::text[]` with no per-element work (the decider already
      // holds every month to the amount limits).
      .addColumn('months', sql.raw('numeric[]'))
      .addColumn('classifiers', 'jsonb', (col) => col.notNull())
      .addColumn('promoted', 'boolean', (col) => col.notNull())
      .addColumn('created_at', 'timestamptz', (col) => col.notNull())
      .addColumn('updated_at', 'timestamptz', (col) => col.notNull())
      .addColumn('updated_by_user_id', 'uuid')
      .addColumn('updated_by_occupation_id', 'uuid')
      .addColumn('origin_stream', 'text', (col) => col.notNull())
      .addColumn('origin_revision', 'bigint', (col) => col.notNull())
      .addColumn('import_id', 'uuid')
      .execute();
    // A budget's records by name (lists and keyset pages) and its deletion.
    await db.schema.createIndex('records_budget_name').on('records').columns(['budget_id', 'name', 'id']).execute();
    // A sub-budget's records: containment of its classifier values (jsonb_path_ops: small, fast for @>).
    await sql`CREATE INDEX records_classifiers ON records USING gin (classifiers jsonb_path_ops)`.execute(db);
    await db.schema.createIndex('records_document').on('records').column('document_id').execute();
    await db.schema
      .createTable('record_tombstones')
      .addColumn('id', 'uuid', (col) => col.primaryKey())
      .addColumn('budget_id', 'uuid', (col) => col.notNull())
      .addColumn('document_id', 'uuid', (col) => col.notNull())
      .addColumn('organization_id', 'uuid', (col) => col.notNull())
      .addColumn('created_at', 'timestamptz', (col) => col.notNull())
      .addColumn('origin_stream', 'text', (col) => col.notNull())
      .addColumn('origin_revision', 'bigint', (col) => col.notNull())
      .addColumn('import_id', 'uuid')
      .execute();
    await db.schema.createIndex('record_tombstones_budget').on('record_tombstones').column('budget_id').execute();
  },
  async handle(events, db) {
    let index = 0;
    while (index < events.length) {
      const stored = events[index] as StoredEvent;
      if (stored.type === 'RecordsImported') {
        // Consecutive chunks (an import is appended at once) go a few at a time, one statement each.
        let end = index;
        while (end < events.length && end - index < CHUNKS_PER_STATEMENT && events[end]?.type === 'RecordsImported') end++;
        await insertImported(db, events.slice(index, end));
        index = end;
        continue;
      }
      index++;
      if (RECORD_TYPES.has(stored.type)) await applyRecord(db, stored);
      else if (stored.type === 'BudgetDeleted') await deleteOwned(db, 'budget_id', (stored.data as { budgetId: string }).budgetId);
      else if (stored.type === 'DocumentDeleted') await deleteOwned(db, 'document_id', (stored.data as { documentId: string }).documentId);
      else if (stored.type === 'OrganizationDeleted') await deleteOwned(db, 'organization_id', (stored.data as { organizationId: string }).organizationId);
    }
  },
});
