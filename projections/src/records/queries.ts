import { type Expression, type QueryResult, type RawBuilder, type SelectQueryBuilder, type SqlBool, sql } from 'kysely';
import type { ReadDatabase, ReadModels } from '../read-models';

/**
 * Queries of the records read model (issue 11). A record falls, in each scheme of its budget's
 * document, in the sub-budget whose values it carries for every classifier of that scheme (a
 * classifier the sub-budget leaves empty must be empty on the record too), or in the unfit row
 * (UNFIT_SUB_BUDGET_ID) when no sub-budget of the scheme matches.
 */

/** The sub-budgets page's row of records that fit no sub-budget of the scheme (spec 3, section 2). */
export const UNFIT_SUB_BUDGET_ID = '-2';

/** A record as queries answer it: amounts canonical decimal strings, times ISO strings. */
export interface RecordRow {
  id: string;
  budgetId: string;
  documentId: string;
  organizationId: string;
  name: string;
  amount: string;
  months: string[] | null;
  /** Classifier id → item code. */
  classifiers: Record<string, string>;
  promoted: boolean;
  createdAt: string;
  updatedAt: string;
  updatedByUserId: string | null;
  /** The last changer's name ('' when the user is unknown, e.g. an ERP job). */
  updatedByUserName: string;
  updatedByOccupationId: string | null;
  /** The event that made it: `record-<id>` (created on a screen) or `record-import-<importId>` (imported). */
  originStream: string;
  originRevision: bigint;
  importId: string | null;
}

/** Keyset paging over (name, id): the next page starts after the last row of the previous one. */
export interface RecordPage {
  after?: { name: string; id: string } | null;
  limit?: number;
}

type RecordsQuery = SelectQueryBuilder<ReadModels, 'records' | 'users', Record<string, unknown>>;

const RECORD_COLUMNS = [
  'records.id',
  'records.budget_id',
  'records.document_id',
  'records.organization_id',
  'records.name',
  'records.classifiers',
  'records.promoted',
  'records.created_at',
  'records.updated_at',
  'records.updated_by_user_id',
  'records.updated_by_occupation_id',
  'records.origin_stream',
  'records.origin_revision',
  'records.import_id',
] as const;

function recordsQuery(read: ReadDatabase) {
  return (
    read
      .selectFrom('records')
      .leftJoin('users', 'users.id', 'records.updated_by_user_id')
      .select(RECORD_COLUMNS)
      // Canonical amounts straight from PostgreSQL (trim_scale: '12.5', never '12.500000'; months read back as written).
      .select([
        sql<string>`trim_scale(records.amount)::text`.as('amount'),
        sql<string[] | null>`records.months::text[]`.as('months'),
        sql<string>`coalesce(users.name, '')`.as('updated_by_user_name'),
      ])
  );
}

function paged<Q extends RecordsQuery>(query: Q, page: RecordPage | undefined): Q {
  let result = query.orderBy('records.name').orderBy('records.id') as Q;
  if (page?.after) result = result.where(sql<SqlBool>`(records.name, records.id) > (${page.after.name}, ${page.after.id}::uuid)`) as Q;
  if (page?.limit !== undefined) result = result.limit(page.limit) as Q;
  return result;
}

const iso = (value: Date | string) => (value instanceof Date ? value.toISOString() : new Date(value).toISOString());

// biome-ignore lint/suspicious/noExplicitAny: rows of the selected columns, typed by RecordRow below.
function toRecordRow(row: any): RecordRow {
  return {
    id: row.id,
    budgetId: row.budget_id,
    documentId: row.document_id,
    organizationId: row.organization_id,
    name: row.name,
    amount: row.amount,
    months: row.months,
    classifiers: row.classifiers,
    promoted: row.promoted,
    createdAt: iso(row.created_at),
    updatedAt: iso(row.updated_at),
    updatedByUserId: row.updated_by_user_id,
    updatedByUserName: row.updated_by_user_name ?? '',
    updatedByOccupationId: row.updated_by_occupation_id,
    originStream: row.origin_stream,
    originRevision: BigInt(row.origin_revision),
    importId: row.import_id,
  };
}

/** Every record of a budget, by name. */
export async function listBudgetRecords(read: ReadDatabase, budgetId: string, page?: RecordPage): Promise<RecordRow[]> {
  const rows = await paged(recordsQuery(read).where('records.budget_id', '=', budgetId), page).execute();
  return rows.map(toRecordRow);
}

/** The values a record must carry to fall in a sub-budget: its values, and its scheme's other classifiers empty. */
export interface SubBudgetFit {
  classifiers: Record<string, string>;
  emptyClassifierIds: string[];
}

export async function subBudgetFit(read: ReadDatabase, subBudgetId: string): Promise<SubBudgetFit | undefined> {
  const row = await read
    .selectFrom('sub_budgets')
    .innerJoin('schemes', 'schemes.id', 'sub_budgets.scheme_id')
    .select(['sub_budgets.classifiers', 'schemes.classifier_list'])
    .where('sub_budgets.id', '=', subBudgetId)
    .executeTakeFirst();
  if (!row) return undefined;
  const emptyClassifierIds = row.classifier_list.map((entry) => entry.classifierId).filter((id) => row.classifiers[id] === undefined);
  return { classifiers: row.classifiers, emptyClassifierIds };
}

/** The records condition of a sub-budget: containment (the GIN index) and none of the scheme's other classifiers. */
function fitting(fit: SubBudgetFit): Expression<SqlBool> {
  const contains = sql<SqlBool>`records.classifiers @> ${JSON.stringify(fit.classifiers)}::jsonb`;
  if (fit.emptyClassifierIds.length === 0) return contains;
  return sql<SqlBool>`${contains} AND NOT (records.classifiers ?| ${fit.emptyClassifierIds}::text[])`;
}

/** The records of a budget that fall in a sub-budget, by name (empty when the sub-budget is unknown). */
export async function listSubBudgetRecords(read: ReadDatabase, budgetId: string, subBudgetId: string, page?: RecordPage): Promise<RecordRow[]> {
  const fit = await subBudgetFit(read, subBudgetId);
  if (!fit) return [];
  const rows = await paged(recordsQuery(read).where('records.budget_id', '=', budgetId).where(fitting(fit)), page).execute();
  return rows.map(toRecordRow);
}

/** The last changer's name as a record's JSON ends, for records whose changer is unknown (an ERP job). */
const NO_USER_TAIL = ',"user_name":""}';

/**
 * A record's JSON in the API's shape: its stored list JSON with the last changer's name put
 * before the closing brace. Made here, not by PostgreSQL: there, cutting the brace as bytes and
 * concatenating took ~7 ms of the ~75 ms PostgreSQL spends on a 10,000-record list; here a slice
 * and a concatenation add ~1-2 ms to the gateway's encoding of the list.
 */
const recordJson = (row: ListRow) => row.list_json.slice(0, -1) + (row.tail ?? NO_USER_TAIL);

/** A row of a list's cursor: the stored list JSON and its changer's `,"user_name":…}` (null when unknown). */
export interface ListRow {
  list_json: string;
  tail: string | null;
}

/**
 * A batch of a list's rows as UTF-8 bytes: one free byte first (for what comes before the batch in
 * the answer: '[' or ','), then each record's JSON, comma-separated. Each stored list JSON is
 * written whole and its closing brace overwritten by the changer's tail (each distinct tail
 * encoded once), so no record's text is ever built as a string: a 10,000-record list made ~6 MB
 * of short-lived strings per answer (slice, concatenation, flattening), and the collections of
 * the ones a batch still held were the gateway's largest cost on the list.
 */
export function listRowsBytes(rows: readonly ListRow[]): Buffer {
  const tails = new Map<string, Buffer>();
  const tailOf = (row: ListRow) => {
    const tail = row.tail ?? NO_USER_TAIL;
    const known = tails.get(tail);
    if (known) return known;
    const bytes = Buffer.from(tail);
    tails.set(tail, bytes);
    return bytes;
  };
  // The free byte, the commas, and each record without its closing brace, with its tail.
  let size = rows.length;
  for (const row of rows) size += Buffer.byteLength(row.list_json) - 1 + tailOf(row).length;
  const bytes = Buffer.allocUnsafe(size);
  // The free byte is the sender's to set; a space until then, never a byte another buffer left in the pool.
  bytes[0] = 0x20;
  let at = 1;
  rows.forEach((row, index) => {
    if (index > 0) bytes[at++] = 0x2c; // ','
    at += bytes.write(row.list_json, at) - 1;
    const tail = tailOf(row);
    bytes.set(tail, at);
    at += tail.length;
  });
  // Never a byte of the unset memory, should a text's length and its writing ever disagree.
  return bytes.subarray(0, at);
}

/** Sorting a 10,000-record list (about 7 MB of rows) in memory: the default 4 MB spilled it to disk. */
const LIST_SORT_MEMORY = '32MB';

/** Records per fetch of a list's cursor: ~600 KB of JSON, so a list of any size streams in bounded memory. */
export const LIST_BATCH_RECORDS = 1_000;

let cursorCount = 0;

/**
 * The records matching `where` (on `r`, read.records) by name and id, as batches of their cursor's
 * rows: each row's stored list JSON and the `,"user_name":…}` of its last changer (the name's JSON
 * made once per user, not per record). A cursor reads them: one snapshot for the whole list, and
 * never more than a batch in memory, so a whole budget of a million records (~600 MB, more than a
 * JavaScript string holds) streams as well as a sub-budget. Ending the iteration early closes the
 * cursor. Outside a caller's transaction the list holds a connection of `read`'s pool until it
 * ends: the gateway gives lists their own pool.
 */
export async function* listRowBatches(read: ReadDatabase, where: RawBuilder<unknown>, batchRecords = LIST_BATCH_RECORDS): AsyncGenerator<ListRow[]> {
  const transaction = read.isTransaction ? null : await read.startTransaction().execute();
  const db = transaction ?? read;
  const cursor = sql.id(`records_list_${++cursorCount}`);
  let done = false;
  let declared = false;
  let pending: Promise<QueryResult<ListRow>> | null = null;
  try {
    // Both for this transaction only (set_config's true: SET LOCAL), in one round trip. A cursor is
    // planned for its first tenth by default: a sub-budget would then walk the budget's (name, id) index.
    await sql`select set_config('work_mem', ${LIST_SORT_MEMORY}, true), set_config('cursor_tuple_fraction', '1', true)`.execute(db);
    // Sorted first, the changers' names joined after (offset 0 keeps the sort below): the cursor's
    // first batch waits only for the sort.
    await sql`declare ${cursor} no scroll cursor for
      select r.list_json, u.tail
        from (select r.list_json, r.updated_by_user_id, r.name, r.id from read.records r where ${where} order by r.name, r.id offset 0) r
        left join (select id, ',"user_name":' || to_json(name)::text || '}' as tail from read.users) u on u.id = r.updated_by_user_id
       order by r.name, r.id`.execute(db);
    declared = true;
    const fetchBatch = () => {
      const fetching = sql<ListRow>`fetch ${sql.lit(batchRecords)} from ${cursor}`.execute(db);
      // Awaited below, or left behind by a reader that stopped: then its failure is no one's.
      fetching.catch(() => undefined);
      return fetching;
    };
    let fetching = fetchBatch();
    pending = fetching;
    for (;;) {
      const { rows }: QueryResult<ListRow> = await fetching;
      const more = rows.length === batchRecords;
      // PostgreSQL reads the next batch while this one is answered (compressed, sent).
      if (more) fetching = fetchBatch();
      pending = more ? fetching : null;
      if (rows.length > 0) yield rows;
      if (!more) break;
    }
    done = true;
  } finally {
    await pending?.catch(() => undefined);
    // Our own transaction's end closes the cursor; a caller's goes on, so the cursor is closed here,
    // also when the reader stopped early (a failed one has aborted that transaction: nothing to close).
    if (transaction) await (done ? transaction.commit() : transaction.rollback()).execute();
    else if (declared) await sql`close ${cursor}`.execute(db).catch(() => undefined);
  }
}

/**
 * The records matching `where` as batches of their JSON texts in the API's shape (the shared
 * recordSchema), for lists that reshape each record; see listRowBatches.
 */
export async function* recordsJsonBatches(read: ReadDatabase, where: RawBuilder<unknown>, batchRecords = LIST_BATCH_RECORDS): AsyncGenerator<string[]> {
  for await (const rows of listRowBatches(read, where, batchRecords)) yield rows.map(recordJson);
}

/** The records matching `where` as batches of their JSON's bytes (listRowsBytes), for lists answered as they are stored. */
export async function* recordsJsonBytes(read: ReadDatabase, where: RawBuilder<unknown>, batchRecords = LIST_BATCH_RECORDS): AsyncGenerator<Buffer> {
  for await (const rows of listRowBatches(read, where, batchRecords)) yield listRowsBytes(rows);
}

/** Which rows of read.records (`r`) are a budget's. */
export const budgetRecordsWhere = (budgetId: string): RawBuilder<unknown> => sql`r.budget_id = ${budgetId}::uuid`;

/** Which rows of read.records (`r`) of a budget fall in a sub-budget of the given fit. */
export function fittingRecordsWhere(budgetId: string, fit: SubBudgetFit): RawBuilder<unknown> {
  const empty = fit.emptyClassifierIds.length > 0 ? sql`and not (r.classifiers ?| ${fit.emptyClassifierIds}::text[])` : sql``;
  return sql`${budgetRecordsWhere(budgetId)} and r.classifiers @> ${JSON.stringify(fit.classifiers)}::jsonb ${empty}`;
}

async function schemeClassifierIds(read: ReadDatabase, schemeId: string): Promise<string[] | undefined> {
  const scheme = await read.selectFrom('schemes').select('classifier_list').where('id', '=', schemeId).executeTakeFirst();
  return scheme?.classifier_list.map((entry) => entry.classifierId);
}

/**
 * A record's values for the scheme's classifiers only, as a sub-budget holds them: equal to the
 * sub-budget's `classifiers` exactly when the record falls in it (a hash join with the scheme's
 * sub-budgets, one pass over the budget's records).
 */
function valuesInScheme(classifierIds: readonly string[]) {
  if (classifierIds.length === 0) return sql`'{}'::jsonb`;
  const pairs = classifierIds.map((id) => sql`${id}::text, records.classifiers -> ${id}::text`);
  return sql`jsonb_strip_nulls(jsonb_build_object(${sql.join(pairs)}))`;
}

function withSubBudgetOfScheme(read: ReadDatabase, budgetId: string, schemeId: string, classifierIds: readonly string[]) {
  return recordsQuery(read)
    .leftJoin('sub_budgets', (join) =>
      join.on('sub_budgets.scheme_id', '=', schemeId).on(sql<SqlBool>`sub_budgets.classifiers = ${valuesInScheme(classifierIds)}`),
    )
    .select(sql<string>`coalesce(sub_budgets.id::text, ${UNFIT_SUB_BUDGET_ID})`.as('sub_budget_id'))
    .where('records.budget_id', '=', budgetId);
}

export type SchemeRecordRow = RecordRow & { subBudgetId: string };

/** Every record of a budget with the sub-budget of the scheme it falls in (UNFIT_SUB_BUDGET_ID when none), by name. */
export async function listSchemeRecords(read: ReadDatabase, budgetId: string, schemeId: string, page?: RecordPage): Promise<SchemeRecordRow[]> {
  const classifierIds = await schemeClassifierIds(read, schemeId);
  if (!classifierIds) return [];
  const rows = await paged(withSubBudgetOfScheme(read, budgetId, schemeId, classifierIds), page).execute();
  return rows.map((row) => ({ ...toRecordRow(row), subBudgetId: row.sub_budget_id }));
}

/** The records of a budget that fall in no sub-budget of the scheme (the -2 row), by name. */
export async function listUnfitRecords(read: ReadDatabase, budgetId: string, schemeId: string, page?: RecordPage): Promise<RecordRow[]> {
  const classifierIds = await schemeClassifierIds(read, schemeId);
  if (!classifierIds) return [];
  const rows = await paged(withSubBudgetOfScheme(read, budgetId, schemeId, classifierIds).where('sub_budgets.id', 'is', null), page).execute();
  return rows.map(toRecordRow);
}

/** Records per document (documents without records are absent). */
export async function recordCountsByDocument(read: ReadDatabase, documentIds: readonly string[]): Promise<Map<string, number>> {
  if (documentIds.length === 0) return new Map();
  const rows = await read
    .selectFrom('records')
    .select(['document_id', (eb) => eb.fn.countAll<string>().as('count')])
    .where('document_id', 'in', [...documentIds])
    .groupBy('document_id')
    .execute();
  return new Map(rows.map((row) => [row.document_id, Number(row.count)]));
}

/** One live record with its origin. */
export async function findRecord(read: ReadDatabase, recordId: string): Promise<RecordRow | undefined> {
  const row = await recordsQuery(read).where('records.id', '=', recordId).executeTakeFirst();
  return row ? toRecordRow(row) : undefined;
}

/** Where a record was born, live or deleted: an imported record's commands and history need its chunk. */
export interface RecordOriginRow {
  id: string;
  budgetId: string;
  documentId: string;
  organizationId: string;
  originStream: string;
  originRevision: bigint;
  importId: string | null;
  deleted: boolean;
}

export async function findRecordOrigin(read: ReadDatabase, recordId: string): Promise<RecordOriginRow | undefined> {
  const columns = ['id', 'budget_id', 'document_id', 'organization_id', 'origin_stream', 'origin_revision', 'import_id'] as const;
  const live = await read.selectFrom('records').select(columns).where('id', '=', recordId).executeTakeFirst();
  const row = live ?? (await read.selectFrom('record_tombstones').select(columns).where('id', '=', recordId).executeTakeFirst());
  if (!row) return undefined;
  return {
    id: row.id,
    budgetId: row.budget_id,
    documentId: row.document_id,
    organizationId: row.organization_id,
    originStream: row.origin_stream,
    originRevision: BigInt(row.origin_revision),
    importId: row.import_id,
    deleted: !live,
  };
}
