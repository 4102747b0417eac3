import {
  type RecordCreated,
  type RecordDeleted,
  type RecordEvent,
  type RecordPromotionSet,
  type RecordRestored,
  type RecordsImported,
  type RecordUpdated,
  type RecordValues,
  valuesOf,
} from '@eelarve/domain';
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

/** A row as the new-row statement receives it: a created record, or a row of an import chunk. */
interface NewRow {
  id: string;
  budget_id: string;
  document_id: string;
  organization_id: string;
  name: string;
  amount: string;
  months: readonly string[] | null;
  classifiers: Record<string, string>;
  promoted: boolean;
  at: string;
  user_id: string | null;
  occupation_id: string | null;
  origin_stream: string;
  origin_revision: string;
  import_id: string | null;
}

function importedRows(stored: StoredEvent): NewRow[] {
  const data = (stored as unknown as RecordsImported & StoredEvent).data;
  const change = changeOf(stored);
  const originRevision = stored.revision.toString();
  return data.records.map((record) => ({
    id: record.recordId,
    budget_id: data.budgetId,
    document_id: data.documentId,
    organization_id: data.organizationId,
    name: record.name,
    amount: record.amount,
    months: record.months,
    classifiers: record.classifiers,
    promoted: false,
    at: change.at,
    user_id: change.userId,
    occupation_id: change.occupationId,
    origin_stream: stored.streamName,
    origin_revision: originRevision,
    import_id: data.importId,
  }));
}

function createdRow(stored: StoredEvent): NewRow {
  const { data } = stored as unknown as RecordCreated;
  const change = changeOf(stored);
  return {
    id: data.recordId,
    budget_id: data.budgetId,
    document_id: data.documentId,
    organization_id: data.organizationId,
    name: data.name,
    amount: data.amount,
    months: data.months,
    classifiers: data.classifiers,
    promoted: data.promoted,
    at: change.at,
    user_id: change.userId,
    occupation_id: change.occupationId,
    origin_stream: stored.streamName,
    origin_revision: stored.revision.toString(),
    import_id: null,
  };
}

/** JSON months → numeric[] (null stays null), in order. */
const monthsOf = (column: string) =>
  sql.raw(`CASE WHEN jsonb_typeof(${column}) = 'array'
    THEN ARRAY(SELECT m.value::numeric FROM jsonb_array_elements_text(${column}) WITH ORDINALITY AS m(value, n) ORDER BY m.n) END`);

const isoText = (column: string) => `to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/**
 * A record as the records API lists it (the shared recordSchema without `user_name`, which a list
 * adds from the users table before the closing brace), kept as text beside the columns: a
 * 10,000-record list is then its rows' texts joined, not 10,000 JSON objects built per request.
 * New rows get it from listJson; an edit or a promotion builds it in its own UPDATE from the
 * row's new values (`column` names where each column's value is read), a restoration rebuilds it
 * from the row (`refreshListJson`): the same shape either way (months read back canonical: see migrate).
 */
const listJsonSql = (column: (name: string) => string = (name) => name) =>
  sql.raw(`json_build_object(
  'id', ${column('id')}, 'budgetId', ${column('budget_id')}, 'documentId', ${column('document_id')}, 'name', ${column('name')},
  'amount', trim_scale(${column('amount')})::text, 'classifiers', ${column('classifiers')},
  'factors', json_build_object('months', ${column('months')}::text[]), 'extra', json_build_object('promoted', ${column('promoted')}),
  'hasComments', false, 'hasCommentAttachments', false, 'createdAt', ${isoText(column('created_at'))}, 'updated_at', ${isoText(column('updated_at'))})::text`);

async function refreshListJson(db: Db, ids: readonly string[]): Promise<void> {
  if (ids.length === 0) return;
  await sql`UPDATE records SET list_json = ${listJsonSql()} WHERE id = ANY(${[...ids]}::uuid[])`.execute(db);
}

/**
 * The same text as listJsonSql, made here for new rows (PostgreSQL's json_build_object cost
 * more than the rest of the insert): the keys in the same order, the times as ISO text.
 */
function listJson(row: NewRow, classifiersJson: string): string {
  const at = new Date(row.at).toISOString();
  return `{"id":"${row.id}","budgetId":"${row.budget_id}","documentId":"${row.document_id}","name":${JSON.stringify(row.name)},"amount":${JSON.stringify(row.amount)},"classifiers":${classifiersJson},"factors":{"months":${JSON.stringify(row.months)}},"extra":{"promoted":${row.promoted}},"hasComments":false,"hasCommentAttachments":false,"createdAt":"${at}","updated_at":"${at}"}`;
}

/** Free text as an element of a PostgreSQL array literal: quoted, its quotes and backslashes escaped. */
const quotedElement = (value: string) => `"${value.replace(/[\\"]/g, '\\$&')}"`;

/** New rows per statement: a few MB of parameters, and the next statement is built while PostgreSQL runs this one. */
const ROWS_PER_STATEMENT = 5_000;

/** One PostgreSQL array literal per column of the new rows, made in one pass over them. */
function newRowColumns(rows: readonly NewRow[]) {
  const ids: string[] = [];
  const budgets: string[] = [];
  const documents: string[] = [];
  const organizations: string[] = [];
  const names: string[] = [];
  const amounts: string[] = [];
  const months: string[] = [];
  const classifiers: string[] = [];
  const promoted: string[] = [];
  const times: string[] = [];
  const users: string[] = [];
  const occupations: string[] = [];
  const streams: string[] = [];
  const revisions: string[] = [];
  const imports: string[] = [];
  const lists: string[] = [];
  for (const row of rows) {
    const classifiersJson = JSON.stringify(row.classifiers);
    ids.push(row.id);
    budgets.push(row.budget_id);
    documents.push(row.document_id);
    organizations.push(row.organization_id);
    names.push(quotedElement(row.name));
    amounts.push(row.amount);
    // A split as a quoted element ("{0.1,0.2}"), cast to numeric[] by PostgreSQL; canonical decimals need no escaping.
    months.push(row.months === null ? 'NULL' : `"{${row.months.join(',')}}"`);
    classifiers.push(classifiersJson);
    promoted.push(row.promoted ? 't' : 'f');
    times.push(row.at);
    users.push(row.user_id ?? 'NULL');
    occupations.push(row.occupation_id ?? 'NULL');
    streams.push(quotedElement(row.origin_stream));
    revisions.push(row.origin_revision);
    imports.push(row.import_id ?? 'NULL');
    lists.push(listJson(row, classifiersJson));
  }
  // JSON texts hold no raw line break (JSON.stringify escapes it): joined by one, split by PostgreSQL, no quoting.
  const lines = (values: string[]) => values.join('\n');
  const literal = (values: string[]) => `{${values.join(',')}}`;
  return {
    ids: literal(ids),
    budgets: literal(budgets),
    documents: literal(documents),
    organizations: literal(organizations),
    names: literal(names),
    amounts: literal(amounts),
    months: literal(months),
    classifiers: lines(classifiers),
    promoted: literal(promoted),
    times: literal(times),
    users: literal(users),
    occupations: literal(occupations),
    streams: literal(streams),
    revisions: literal(revisions),
    imports: literal(imports),
    lists: lines(lists),
  };
}

/**
 * New rows in one statement: one array per column, unnested by PostgreSQL (cheaper to parse than
 * a JSON text of rows), made here rather than by the driver, whose generic quoting of every
 * element cost more than the statement itself. A row applied twice changes nothing (ON
 * CONFLICT DO NOTHING). The parameters are made at once; the statement runs when executed.
 */
function newRowsStatement(rows: readonly NewRow[]) {
  const c = newRowColumns(rows);
  return sql`
    INSERT INTO records (id, budget_id, document_id, organization_id, name, amount, months, classifiers, promoted, created_at, updated_at,
                         updated_by_user_id, updated_by_occupation_id, origin_stream, origin_revision, import_id, list_json)
    SELECT r.id, r.budget_id, r.document_id, r.organization_id, r.name, r.amount, r.months::numeric[], r.classifiers::jsonb, r.promoted, r.at, r.at,
           r.user_id, r.occupation_id, r.origin_stream, r.origin_revision, r.import_id, r.list_json
      FROM unnest(${c.ids}::uuid[], ${c.budgets}::uuid[], ${c.documents}::uuid[], ${c.organizations}::uuid[], ${c.names}::text[],
                  ${c.amounts}::${sql.raw(AMOUNT_SQL_TYPE)}[], ${c.months}::text[], string_to_array(${c.classifiers}::text, E'\\n'),
                  ${c.promoted}::boolean[], ${c.times}::timestamptz[], ${c.users}::uuid[], ${c.occupations}::uuid[], ${c.streams}::text[],
                  ${c.revisions}::bigint[], ${c.imports}::uuid[], string_to_array(${c.lists}::text, E'\\n'))
           AS r(id, budget_id, document_id, organization_id, name, amount, months, classifiers, promoted, at, user_id, occupation_id, origin_stream,
                origin_revision, import_id, list_json)
    ON CONFLICT (id) DO NOTHING`;
}

/** A record's net change over a run of edits and promotions: the latest values, the latest promotion, the latest author. */
interface Change {
  id: string;
  values: RecordValues | null;
  promoted: boolean | null;
  at: string;
  user_id: string | null;
  occupation_id: string | null;
}

function netChanges(events: readonly StoredEvent[]): Change[] {
  const changes = new Map<string, Change>();
  for (const stored of events) {
    const event = stored as unknown as RecordUpdated | RecordPromotionSet;
    const { at, userId, occupationId } = changeOf(stored);
    const previous = changes.get(event.data.recordId);
    const change: Change = {
      id: event.data.recordId,
      values: previous?.values ?? null,
      promoted: previous?.promoted ?? null,
      at,
      user_id: userId,
      occupation_id: occupationId,
    };
    if (event.type === 'RecordUpdated') change.values = valuesOf(event.data);
    else change.promoted = event.data.promoted;
    changes.set(change.id, change);
  }
  return [...changes.values()];
}

/** The columns an edit or promotion leaves as they were: the list JSON reads them from the row itself. */
const UNCHANGED_COLUMNS = new Set(['id', 'budget_id', 'document_id', 'created_at']);

/**
 * Edits and promotions of many records in one statement (an edit carries all values; a promotion
 * only the flag): the new values are worked out first (`n`, from the row as it was), so the list
 * JSON is built from them in the same UPDATE. Rebuilding it after in a second UPDATE cost each edit
 * another row version, round trip and run of the combinations triggers while its command waited.
 */
async function applyChanges(db: Db, events: readonly StoredEvent[]): Promise<void> {
  const rows = netChanges(events).map(({ values, ...change }) => ({ ...change, has_values: values !== null, ...(values ?? {}) }));
  const newValue = (name: string) => (UNCHANGED_COLUMNS.has(name) ? `records.${name}` : `n.${name}`);
  await sql`
    UPDATE records SET name = n.name, amount = n.amount, months = n.months, classifiers = n.classifiers, promoted = n.promoted,
           updated_at = n.updated_at, updated_by_user_id = n.user_id, updated_by_occupation_id = n.occupation_id,
           list_json = ${listJsonSql(newValue)}
      FROM (SELECT r.id,
                   CASE WHEN c.has_values THEN c.name ELSE r.name END AS name,
                   CASE WHEN c.has_values THEN c.amount::${sql.raw(AMOUNT_SQL_TYPE)} ELSE r.amount END AS amount,
                   CASE WHEN c.has_values THEN ${monthsOf('c.months')} ELSE r.months END AS months,
                   CASE WHEN c.has_values THEN c.classifiers ELSE r.classifiers END AS classifiers,
                   coalesce(c.promoted, r.promoted) AS promoted,
                   c.at AS updated_at, c.user_id, c.occupation_id
              FROM jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) AS c(id uuid, has_values boolean, name text, amount text, months jsonb,
                   classifiers jsonb, promoted boolean, at timestamptz, user_id uuid, occupation_id uuid)
              JOIN records r ON r.id = c.id) AS n
     WHERE records.id = n.id`.execute(db);
}

/** A deletion or a restoration (rare: one statement each). */
async function applyDeletionOrRestoration(db: Db, stored: StoredEvent): Promise<void> {
  const event = stored as unknown as RecordDeleted | RecordRestored;
  const { at, userId, occupationId } = changeOf(stored);
  switch (event.type) {
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
                             updated_by_user_id, updated_by_occupation_id, origin_stream, origin_revision, import_id, list_json)
        SELECT ${d.recordId}::uuid, ${d.budgetId}::uuid, ${d.documentId}::uuid, ${d.organizationId}::uuid, ${d.name}::text, ${amount(d.amount)}, ${months(d.months)},
               ${JSON.stringify(d.classifiers)}::jsonb, ${d.promoted}::boolean, coalesce(tomb.created_at, ${at}::timestamptz), ${at}::timestamptz,
               ${userId}::uuid, ${occupationId}::uuid,
               coalesce(tomb.origin_stream, ${stored.streamName}), coalesce(tomb.origin_revision, ${stored.revision.toString()}), tomb.import_id, ''
          FROM (VALUES (1)) AS one LEFT JOIN tomb ON true
        ON CONFLICT (id) DO NOTHING`.execute(db);
      await refreshListJson(db, [d.recordId]);
      return;
    }
  }
}

/** A deleted budget, document or organisation takes its records with it. */
async function deleteOwned(db: Db, stored: StoredEvent): Promise<void> {
  const data = stored.data as { budgetId?: string; documentId?: string; organizationId: string };
  const [column, id] =
    stored.type === 'BudgetDeleted'
      ? (['budget_id', data.budgetId] as const)
      : stored.type === 'DocumentDeleted'
        ? (['document_id', data.documentId] as const)
        : (['organization_id', data.organizationId] as const);
  if (!id) return;
  await db.deleteFrom('records').where(column, '=', id).execute();
  await db.deleteFrom('record_tombstones').where(column, '=', id).execute();
}

type RunKind = 'new' | 'changed' | 'deletedOrRestored' | 'owner';

function kindOf(type: string): RunKind {
  if (type === 'RecordCreated' || type === 'RecordsImported') return 'new';
  if (type === 'RecordUpdated' || type === 'RecordPromotionSet') return 'changed';
  if (type === 'RecordDeleted' || type === 'RecordRestored') return 'deletedOrRestored';
  return 'owner';
}

const EVENTS_PER_STATEMENT = 2_000;

/** The rows an event adds: an import chunk's records, or the one record created. */
const newRowCount = (stored: StoredEvent) => (stored.type === 'RecordsImported' ? (stored.data as RecordsImported['data']).records.length : 1);

/**
 * The batch as runs of consecutive events one statement can apply (the engine's advice: set-based
 * writes). New rows and changes keep their order: a run ends where another kind begins, so a
 * record created, edited, deleted and restored in one batch goes through every step in order.
 */
function runsOf(events: readonly StoredEvent[]): { kind: RunKind; events: StoredEvent[] }[] {
  const runs: { kind: RunKind; events: StoredEvent[]; rows: number }[] = [];
  for (const stored of events) {
    const kind = kindOf(stored.type);
    const rows = kind === 'new' ? newRowCount(stored) : 0;
    const last = runs.at(-1);
    const joins =
      last &&
      last.kind === kind &&
      (kind === 'new' || kind === 'changed') &&
      last.events.length < EVENTS_PER_STATEMENT &&
      last.rows + rows <= ROWS_PER_STATEMENT;
    if (joins) {
      last.events.push(stored);
      last.rows += rows;
    } else runs.push({ kind, events: [stored], rows });
  }
  return runs;
}

/**
 * How many records of a budget carry each combination of classifier values, kept by statement
 * triggers on `records` (every insert, change and deletion, whichever path made it, row sets at a
 * time): the sub-budgets page counts a million-record budget from a few thousand combinations,
 * and the item-in-use and required-classifier rules ask them instead of the records.
 */
async function countCombinations(db: Db): Promise<void> {
  await db.schema
    .createTable('record_combinations')
    .addColumn('budget_id', 'uuid', (col) => col.notNull())
    .addColumn('document_id', 'uuid', (col) => col.notNull())
    .addColumn('classifiers', 'jsonb', (col) => col.notNull())
    .addColumn('records', 'integer', (col) => col.notNull())
    .addPrimaryKeyConstraint('record_combinations_key', ['budget_id', 'classifiers'])
    .execute();
  await db.schema.createIndex('record_combinations_document').on('record_combinations').column('document_id').execute();
  // The generation's schema is fixed in the function (SET search_path FROM CURRENT): a rebuild's
  // new generation gets its own function over its own tables.
  await sql`
    CREATE FUNCTION count_record_combinations() RETURNS trigger LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
    BEGIN
      IF TG_OP IN ('UPDATE', 'DELETE') THEN
        UPDATE record_combinations c SET records = c.records - o.n
          FROM (SELECT budget_id, classifiers, count(*)::int AS n FROM old_rows GROUP BY budget_id, classifiers) o
         WHERE c.budget_id = o.budget_id AND c.classifiers = o.classifiers;
      END IF;
      IF TG_OP IN ('UPDATE', 'INSERT') THEN
        INSERT INTO record_combinations (budget_id, document_id, classifiers, records)
        SELECT budget_id, (array_agg(document_id))[1], classifiers, count(*)::int FROM new_rows GROUP BY budget_id, classifiers
        ON CONFLICT (budget_id, classifiers) DO UPDATE SET records = record_combinations.records + excluded.records;
      END IF;
      -- Only combinations that lost records can reach 0: look at those, not the whole table
      -- (a scan of every budget's combinations on each edit cost milliseconds at a million records).
      IF TG_OP IN ('UPDATE', 'DELETE') THEN
        DELETE FROM record_combinations c USING (SELECT DISTINCT budget_id, classifiers FROM old_rows) o
         WHERE c.budget_id = o.budget_id AND c.classifiers = o.classifiers AND c.records <= 0;
      END IF;
      RETURN NULL;
    END $$`.execute(db);
  await sql`CREATE TRIGGER records_inserted AFTER INSERT ON records REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION count_record_combinations()`.execute(
    db,
  );
  await sql`CREATE TRIGGER records_updated AFTER UPDATE ON records REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION count_record_combinations()`.execute(
    db,
  );
  await sql`CREATE TRIGGER records_deleted AFTER DELETE ON records REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION count_record_combinations()`.execute(
    db,
  );
}

/** Records of every budget (issue 11): the records screen, sub-budget counts and the -2 row read them. */
export const recordsProjector = defineProjector<RecordsReadModel>({
  name: 'records',
  version: 6,
  eventTypes: [...RECORD_EVENT_TYPES, 'RecordsImported', 'BudgetDeleted', 'DocumentDeleted', 'OrganizationDeleted'],
  tables: ['records', 'record_tombstones', 'record_combinations'],
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
      .addColumn('list_json', 'text', (col) => col.notNull())
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
    await countCombinations(db);
  },
  async handle(events, db) {
    // A new-row statement runs while the next one's parameters are made: the driver's work and
    // PostgreSQL's side by side on an import's 100,000 rows instead of in turns.
    let running: Promise<unknown> | null = null;
    const settle = async () => {
      const statement = running;
      running = null;
      await statement;
    };
    for (const run of runsOf(events)) {
      if (run.kind === 'new') {
        const rows = run.events.flatMap((stored) => (stored.type === 'RecordCreated' ? [createdRow(stored)] : importedRows(stored)));
        if (rows.length === 0) continue;
        const statement = newRowsStatement(rows);
        await settle();
        running = statement.execute(db);
        // Awaited by settle(); meanwhile a failure must not count as unhandled.
        running.catch(() => undefined);
        // Lets the statement reach the connection before the next one is built.
        await new Promise((resolve) => setImmediate(resolve));
        continue;
      }
      await settle();
      if (run.kind === 'changed') await applyChanges(db, run.events);
      else if (run.kind === 'deletedOrRestored') await applyDeletionOrRestoration(db, run.events[0] as StoredEvent);
      else await deleteOwned(db, run.events[0] as StoredEvent);
    }
    await settle();
  },
});
