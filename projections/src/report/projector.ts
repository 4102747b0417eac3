import {
  type RecordCreated,
  type RecordDeleted,
  type RecordEvent,
  type RecordPromotionSet,
  type RecordRestored,
  type RecordsImported,
  type RecordUpdated,
  type RecordValues,
  refOf,
  valuesOf,
} from '@eelarve/domain';
import type { StoredEvent } from '@eelarve/eventstore';
import { AMOUNT_SQL_TYPE } from '@eelarve/shared';
import { type Kysely, sql } from 'kysely';
import { defineProjector } from '../projector';
import type { ReportReadModel } from './tables';

type Db = Kysely<ReportReadModel>;

/** The id under which a budget's records that are not promoted share their facts. */
export const SHARED_FACT_ID = '00000000-0000-0000-0000-000000000000';

const RECORD_EVENT_TYPES = [
  'RecordCreated',
  'RecordUpdated',
  'RecordPromotionSet',
  'RecordDeleted',
  'RecordRestored',
] as const satisfies readonly RecordEvent['type'][];

/** Where a version begins or ends: the event's place in the global log and its time (as the records read model dates changes). */
function momentOf(stored: StoredEvent) {
  return {
    at: stored.metadata.occurredAt ?? stored.createdAt.toISOString(),
    commit: stored.position.commit.toString(),
    prepare: stored.position.prepare.toString(),
  };
}

/** A record's version as the event gives it (a promotion carries only the flag, a deletion nothing). */
interface VersionRow {
  record_id: string;
  budget_id: string;
  document_id: string;
  organization_id: string;
  values: RecordValues | null;
  promoted: boolean | null;
  at: string;
  commit: string;
  prepare: string;
}

function versionRow(event: { data: Parameters<typeof refOf>[0] }, stored: StoredEvent, values: RecordValues | null, promoted: boolean | null): VersionRow {
  const ref = refOf(event.data);
  return {
    record_id: ref.recordId,
    budget_id: ref.budgetId,
    document_id: ref.documentId,
    organization_id: ref.organizationId,
    values,
    promoted,
    ...momentOf(stored),
  };
}

/** The versions a run of new records begins: created records and the rows of import chunks. */
function newVersions(stored: StoredEvent): VersionRow[] {
  if (stored.type === 'RecordCreated') {
    const event = stored as unknown as RecordCreated;
    return [versionRow(event, stored, valuesOf(event.data), event.data.promoted)];
  }
  const { data } = stored as unknown as RecordsImported;
  return data.records.map((record) =>
    versionRow(
      { data: { ...record, budgetId: data.budgetId, documentId: data.documentId, organizationId: data.organizationId } },
      stored,
      valuesOf(record),
      false,
    ),
  );
}

/** A change to one record: its next version (null for a deletion), closing the current one. */
function changedVersion(stored: StoredEvent): VersionRow & { kind: 'update' | 'promotion' | 'deletion' | 'restoration' } {
  const event = stored as unknown as RecordUpdated | RecordPromotionSet | RecordDeleted | RecordRestored;
  switch (event.type) {
    case 'RecordUpdated':
      return { kind: 'update', ...versionRow(event, stored, valuesOf(event.data), null) };
    case 'RecordPromotionSet':
      return { kind: 'promotion', ...versionRow(event, stored, null, event.data.promoted) };
    case 'RecordDeleted':
      return { kind: 'deletion', ...versionRow(event, stored, null, null) };
    case 'RecordRestored':
      return { kind: 'restoration', ...versionRow(event, stored, valuesOf(event.data), event.data.promoted) };
  }
}

/** A month split as a PostgreSQL array literal ('{0.1,0.2}'). */
const monthsLiteral = (months: readonly string[] | null) => (months === null ? null : `{${months.join(',')}}`);

/**
 * The fact rows a set of versions adds (sign 1) or takes away (sign -1), summed per fact key: the
 * amount, and the running sums of the monthly split (element n: months 1..n), so any range of
 * months is one subtraction; a record without a split adds to the amount only. It continues the
 * caller's WITH list: the months are summed per key and month, then run up once per key, all
 * set-based (a SQL-function aggregate per version made seeding a million records crawl). A
 * shorter split adds nothing to the later months, so its last sum carries on.
 */
const factDeltas = (source: string) =>
  sql.raw(`,
  delta_months AS (
    SELECT d.budget_id, d.classifiers, CASE WHEN d.promoted THEN d.record_id ELSE '${SHARED_FACT_ID}'::uuid END AS fact_id, u.n, sum(d.sign * u.value) AS value
      FROM ${source} d, unnest(d.months) WITH ORDINALITY AS u(value, n)
     GROUP BY 1, 2, 3, 4),
  delta_cumulative AS (
    SELECT budget_id, classifiers, fact_id, array_agg(running ORDER BY n) AS cumulative
      FROM (SELECT budget_id, classifiers, fact_id, n, sum(value) OVER (PARTITION BY budget_id, classifiers, fact_id ORDER BY n) AS running
              FROM delta_months) t
     GROUP BY 1, 2, 3)
  INSERT INTO report_facts (budget_id, document_id, organization_id, classifiers, record_id, amount, cumulative, records)
  SELECT d.budget_id, d.document_id, d.organization_id, d.classifiers, k.fact_id, sum(d.sign * d.amount), c.cumulative, sum(d.sign)::int
    FROM ${source} d
   CROSS JOIN LATERAL (SELECT CASE WHEN d.promoted THEN d.record_id ELSE '${SHARED_FACT_ID}'::uuid END AS fact_id) k
    LEFT JOIN delta_cumulative c ON c.budget_id = d.budget_id AND c.classifiers = d.classifiers AND c.fact_id = k.fact_id
   GROUP BY d.budget_id, d.document_id, d.organization_id, d.classifiers, k.fact_id, c.cumulative
  ON CONFLICT (budget_id, classifiers, record_id)
  DO UPDATE SET amount = report_facts.amount + excluded.amount, cumulative = report_add_cumulative(report_facts.cumulative, excluded.cumulative, 1),
                records = report_facts.records + excluded.records`);

/**
 * Running sums of months, added element by element (a shorter array carries its last sum on: its
 * later months are 0). Fixed to the generation's schema, so a rebuild's generation has its own.
 */
async function cumulativeFunctions(db: Db): Promise<void> {
  await sql`
    CREATE FUNCTION report_add_cumulative(total numeric[], more numeric[], sign int) RETURNS numeric[] LANGUAGE sql IMMUTABLE AS $$
      SELECT CASE WHEN more IS NULL THEN total ELSE ARRAY(
        SELECT coalesce(total[least(i, cardinality(total))], 0) + sign * more[least(i, cardinality(more))]
          FROM generate_series(1, greatest(coalesce(cardinality(total), 0), cardinality(more))) AS i) END
    $$`.execute(db);
}

/** New records in one statement: their first versions, and their amounts added to the facts. */
async function insertNew(db: Db, rows: readonly VersionRow[]): Promise<void> {
  if (rows.length === 0) return;
  const column = <T>(pick: (row: VersionRow) => T) => rows.map(pick);
  await sql`
    WITH added AS (
      INSERT INTO report_record_versions (record_id, budget_id, document_id, organization_id, name, amount, months, classifiers, promoted,
                                          valid_from_commit, valid_from_prepare, valid_from_at)
      SELECT r.record_id, r.budget_id, r.document_id, r.organization_id, r.name, r.amount, r.months::numeric[], r.classifiers, r.promoted, r.c, r.p, r.at
        FROM unnest(${column((row) => row.record_id)}::uuid[], ${column((row) => row.budget_id)}::uuid[], ${column((row) => row.document_id)}::uuid[],
                    ${column((row) => row.organization_id)}::uuid[], ${column((row) => row.values?.name ?? '')}::text[],
                    ${column((row) => row.values?.amount ?? '0')}::${sql.raw(AMOUNT_SQL_TYPE)}[], ${column((row) => monthsLiteral(row.values?.months ?? null))}::text[],
                    ${column((row) => JSON.stringify(row.values?.classifiers ?? {}))}::jsonb[], ${column((row) => row.promoted ?? false)}::boolean[],
                    ${column((row) => row.commit)}::bigint[], ${column((row) => row.prepare)}::bigint[], ${column((row) => row.at)}::timestamptz[])
             AS r(record_id, budget_id, document_id, organization_id, name, amount, months, classifiers, promoted, c, p, at)
      RETURNING record_id, budget_id, document_id, organization_id, classifiers, promoted, amount, months, 1 AS sign)
    ${factDeltas('added')}`.execute(db);
}

/**
 * Changes of distinct records in one statement: each closes its record's current version (its
 * amounts leave the facts) and, unless it deletes the record, begins the next (its amounts join
 * them). A promotion keeps the values, an edit the promotion.
 */
async function applyChanges(db: Db, rows: readonly ReturnType<typeof changedVersion>[]): Promise<void> {
  const json = rows.map(({ values, ...row }) => ({ ...row, has_values: values !== null, ...(values ?? {}) }));
  await sql`
    WITH c AS (
      SELECT * FROM jsonb_to_recordset(${JSON.stringify(json)}::jsonb)
          AS c(record_id uuid, kind text, budget_id uuid, document_id uuid, organization_id uuid, has_values boolean, name text, amount text,
               months jsonb, classifiers jsonb, promoted boolean, at timestamptz, commit bigint, prepare bigint)),
    closed AS (
      UPDATE report_record_versions v SET valid_to_commit = c.commit, valid_to_prepare = c.prepare, valid_to_at = c.at
        FROM c WHERE v.record_id = c.record_id AND v.valid_to_commit IS NULL
      RETURNING v.record_id, v.budget_id, v.document_id, v.organization_id, v.name, v.amount, v.months, v.classifiers, v.promoted),
    added AS (
      INSERT INTO report_record_versions (record_id, budget_id, document_id, organization_id, name, amount, months, classifiers, promoted,
                                          valid_from_commit, valid_from_prepare, valid_from_at)
      SELECT c.record_id, c.budget_id, c.document_id, c.organization_id,
             CASE WHEN c.has_values THEN c.name ELSE p.name END,
             CASE WHEN c.has_values THEN c.amount::${sql.raw(AMOUNT_SQL_TYPE)} ELSE p.amount END,
             CASE WHEN c.has_values THEN (CASE WHEN jsonb_typeof(c.months) = 'array'
                    THEN ARRAY(SELECT m.value::numeric FROM jsonb_array_elements_text(c.months) WITH ORDINALITY AS m(value, n) ORDER BY m.n) END)
                  ELSE p.months END,
             CASE WHEN c.has_values THEN c.classifiers ELSE p.classifiers END,
             coalesce(c.promoted, p.promoted, false), c.commit, c.prepare, c.at
        FROM c LEFT JOIN closed p ON p.record_id = c.record_id
       WHERE (c.kind IN ('update', 'promotion') AND p.record_id IS NOT NULL) OR c.kind = 'restoration'
      RETURNING record_id, budget_id, document_id, organization_id, classifiers, promoted, amount, months),
    delta AS (
      SELECT record_id, budget_id, document_id, organization_id, classifiers, promoted, amount, months, -1 AS sign FROM closed
      UNION ALL
      SELECT record_id, budget_id, document_id, organization_id, classifiers, promoted, amount, months, 1 AS sign FROM added)
    ${factDeltas('delta')}`.execute(db);
  await sql`DELETE FROM report_facts WHERE records <= 0`.execute(db);
}

/** A deleted budget, document or organisation takes its records' versions and facts with it. */
async function deleteOwned(db: Db, stored: StoredEvent): Promise<void> {
  const data = stored.data as { budgetId?: string; documentId?: string; organizationId: string };
  const [column, id] =
    stored.type === 'BudgetDeleted'
      ? (['budget_id', data.budgetId] as const)
      : stored.type === 'DocumentDeleted'
        ? (['document_id', data.documentId] as const)
        : (['organization_id', data.organizationId] as const);
  if (!id) return;
  await db.deleteFrom('report_record_versions').where(column, '=', id).execute();
  await db.deleteFrom('report_facts').where(column, '=', id).execute();
}

/**
 * Fresh statistics after big changes: an import of a quarter of a million records leaves the
 * planner estimating a few rows per budget until autovacuum gets round to the tables (a minute
 * or more; meanwhile a report's plan read the facts through a cold bitmap scan). A table is
 * analyzed in the batch that brings its changes since the projector last analyzed it past this
 * many rows plus this share of its rows, so an import ends with fresh statistics (its last batch
 * has no next one to find them) and a growing table is analyzed each time it grows by a fifth or
 * so, not per batch. The changes are counted by the projector itself, in `report_statistics`
 * inside the batch's transaction: PostgreSQL's `n_mod_since_analyze` is no measure here, as an
 * ANALYZE of some columns never resets it and the counts reach it up to seconds late. ANALYZE
 * blocks no reads or writes.
 */
const ANALYZE_MIN_CHANGED_ROWS = 10_000;
const ANALYZE_CHANGED_SHARE = 0.2;
/**
 * Only the columns the report's statements filter, join or group on, from a small sample
 * (statistics target 10: 3,000 rows): the jsonb classifiers and the numeric arrays made a whole
 * ANALYZE of the facts take ~1 s and of the versions 1-2 s (1,000,000 of them, load 10), these
 * take 30-250 ms. Autovacuum's own ANALYZE of every column follows when it comes.
 */
const ANALYZED_COLUMNS: Record<string, string> = {
  report_facts: 'budget_id, record_id, records',
  report_record_versions: 'budget_id, record_id, changed_at, valid_from_at, valid_to_at, valid_to_commit',
};
const ANALYZE_STATISTICS_TARGET = 10;

/**
 * Rows inserted, updated and deleted in each table as this backend's statistics count them so
 * far: the transaction's own changes plus those of its earlier transactions not yet reported to
 * the cumulative statistics (a backend reports at most once a second), so only a difference
 * taken inside one transaction is the batch's own.
 */
async function changesCounted(db: Db): Promise<Map<string, number>> {
  const { rows } = await sql<{ table: string; changed: string }>`
    SELECT c.relname AS table, x.n_tup_ins + x.n_tup_upd + x.n_tup_del AS changed
      FROM pg_stat_xact_user_tables x JOIN pg_class c ON c.oid = x.relid
     WHERE x.relid IN ('report_facts'::regclass, 'report_record_versions'::regclass)`.execute(db);
  return new Map(rows.map((row) => [row.table, Number(row.changed)]));
}

/** Adds the batch's changes to each table's count; answers the tables now past the threshold. */
async function countChanges(db: Db, before: Map<string, number>): Promise<string[]> {
  const after = await changesCounted(db);
  const tables = [...after.keys()];
  const changes = tables.map((table) => (after.get(table) ?? 0) - (before.get(table) ?? 0));
  const { rows } = await sql<{ table: string; stale: boolean }>`
    UPDATE report_statistics s SET changes = s.changes + batch.changed
      FROM unnest(${tables}::text[], ${changes}::bigint[]) AS batch(table_name, changed)
     WHERE s.table_name = batch.table_name AND batch.changed > 0
    RETURNING s.table_name AS table,
              s.changes > ${ANALYZE_MIN_CHANGED_ROWS} + ${ANALYZE_CHANGED_SHARE} * greatest((SELECT reltuples FROM pg_class WHERE oid = s.table_name::regclass), 0) AS stale`.execute(
    db,
  );
  return rows.filter((row) => row.stale).map((row) => row.table);
}

async function analyzeWhenStale(db: Db, before: Map<string, number>): Promise<void> {
  const tables = await countChanges(db, before);
  if (tables.length === 0) return;
  // For the rest of this transaction only (the batch's last statements).
  await sql`SELECT set_config('default_statistics_target', ${String(ANALYZE_STATISTICS_TARGET)}, true)`.execute(db);
  // Table and column names are this module's own (the generation's schema is on the search path).
  for (const table of tables) await sql`ANALYZE ${sql.raw(`${table} (${ANALYZED_COLUMNS[table]})`)}`.execute(db);
  await sql`UPDATE report_statistics SET changes = 0 WHERE table_name = ANY(${tables}::text[])`.execute(db);
}

type Run = { kind: 'new'; rows: VersionRow[] } | { kind: 'changes'; rows: ReturnType<typeof changedVersion>[] } | { kind: 'owner'; event: StoredEvent };

/** Rows of new versions per statement (a few MB of parameters at most). */
const ROWS_PER_STATEMENT = 20_000;

/**
 * The batch as runs one statement applies, in order: new records together; changes together
 * while each touches another record (a second change of the same record starts a new run, so
 * every version is closed by the one after it).
 */
function runsOf(events: readonly StoredEvent[]): Run[] {
  const runs: Run[] = [];
  let changed = new Set<string>();
  for (const stored of events) {
    const last = runs.at(-1);
    if (stored.type === 'RecordCreated' || stored.type === 'RecordsImported') {
      const rows = newVersions(stored);
      if (last?.kind === 'new' && last.rows.length + rows.length <= ROWS_PER_STATEMENT) last.rows.push(...rows);
      else runs.push({ kind: 'new', rows });
    } else if ((RECORD_EVENT_TYPES as readonly string[]).includes(stored.type)) {
      const row = changedVersion(stored);
      if (last?.kind === 'changes' && !changed.has(row.record_id)) last.rows.push(row);
      else {
        changed = new Set();
        runs.push({ kind: 'changes', rows: [row] });
      }
      changed.add(row.record_id);
    } else runs.push({ kind: 'owner', event: stored });
  }
  return runs;
}

/**
 * The report's read model (issue 12, points 1 and 7): every record version with its validity, and
 * the compact facts (amounts per budget, combination of classifier values, promoted record and
 * month) that the report aggregates with grouping sets instead of reading every record.
 */
export const reportProjector = defineProjector<ReportReadModel>({
  name: 'report',
  version: 6,
  eventTypes: [...RECORD_EVENT_TYPES, 'RecordsImported', 'BudgetDeleted', 'DocumentDeleted', 'OrganizationDeleted'],
  tables: ['report_record_versions', 'report_facts'],
  // An import's rows reach the records screen first; the report follows a few seconds later.
  yieldsTo: ['records'],
  async migrate(db) {
    await db.schema
      .createTable('report_record_versions')
      .addColumn('record_id', 'uuid', (col) => col.notNull())
      .addColumn('budget_id', 'uuid', (col) => col.notNull())
      .addColumn('document_id', 'uuid', (col) => col.notNull())
      .addColumn('organization_id', 'uuid', (col) => col.notNull())
      .addColumn('name', 'text', (col) => col.notNull())
      .addColumn('amount', sql.raw(AMOUNT_SQL_TYPE), (col) => col.notNull())
      .addColumn('months', sql.raw('numeric[]'))
      .addColumn('classifiers', 'jsonb', (col) => col.notNull())
      .addColumn('promoted', 'boolean', (col) => col.notNull())
      .addColumn('valid_from_commit', 'bigint', (col) => col.notNull())
      .addColumn('valid_from_prepare', 'bigint', (col) => col.notNull())
      .addColumn('valid_from_at', 'timestamptz', (col) => col.notNull())
      .addColumn('valid_to_commit', 'bigint')
      .addColumn('valid_to_prepare', 'bigint')
      .addColumn('valid_to_at', 'timestamptz')
      // The version's last change: its end, or its start while it is current.
      .addColumn('changed_at', 'timestamptz', (col) => col.notNull().generatedAlwaysAs(sql`coalesce(valid_to_at, valid_from_at)`).stored())
      .execute();
    // The current version of a record (changes close it), and a record's versions newest first (a promoted row's name).
    await sql`CREATE UNIQUE INDEX report_versions_current ON report_record_versions (record_id) WHERE valid_to_commit IS NULL`.execute(db);
    await db.schema
      .createIndex('report_versions_record')
      .on('report_record_versions')
      .columns(['record_id', 'valid_from_commit', 'valid_from_prepare'])
      .execute();
    // As of a moment: the versions that began or ended after it, one range of one index per budget
    // (two indexes, on the start and on the end, let a stale estimate read a whole budget's versions).
    await db.schema.createIndex('report_versions_changed').on('report_record_versions').columns(['budget_id', 'changed_at']).execute();
    await db.schema.createIndex('report_versions_document').on('report_record_versions').column('document_id').execute();
    await db.schema
      .createTable('report_facts')
      .addColumn('budget_id', 'uuid', (col) => col.notNull())
      .addColumn('document_id', 'uuid', (col) => col.notNull())
      .addColumn('organization_id', 'uuid', (col) => col.notNull())
      .addColumn('classifiers', 'jsonb', (col) => col.notNull())
      .addColumn('record_id', 'uuid', (col) => col.notNull())
      // Unconstrained: a sum of a million amounts may outgrow one amount's precision.
      .addColumn('amount', 'numeric', (col) => col.notNull())
      .addColumn('cumulative', sql.raw('numeric[]'))
      .addColumn('records', 'integer', (col) => col.notNull())
      .addPrimaryKeyConstraint('report_facts_key', ['budget_id', 'classifiers', 'record_id'])
      .execute();
    await cumulativeFunctions(db);
    await db.schema.createIndex('report_facts_document').on('report_facts').column('document_id').execute();
    await sql`CREATE INDEX report_facts_emptied ON report_facts (budget_id) WHERE records <= 0`.execute(db);
    // The projector's own count of each table's changes since it last analyzed it (not served to queries).
    await sql`CREATE TABLE report_statistics (table_name text PRIMARY KEY, changes bigint NOT NULL)`.execute(db);
    await sql`INSERT INTO report_statistics VALUES ('report_facts', 0), ('report_record_versions', 0)`.execute(db);
  },
  async handle(events, db) {
    const runs = runsOf(events);
    if (runs.length === 0) return;
    const changesBefore = await changesCounted(db);
    for (const run of runs) {
      if (run.kind === 'new') await insertNew(db, run.rows);
      else if (run.kind === 'changes') await applyChanges(db, run.rows);
      else await deleteOwned(db, run.event);
    }
    await analyzeWhenStale(db, changesBefore);
  },
});
