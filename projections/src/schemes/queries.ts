import type { ClassifierCatalogue } from '@eelarve/domain';
import { type Selectable, type SelectQueryBuilder, sql } from 'kysely';
import type { ReadDatabase, ReadModels } from '../read-models';
import type { SchemesTable, SubBudgetsTable } from './tables';

/** Rows of the schemes read model, as queries return them (the one definition: tables.ts). */
export type SchemeRow = Selectable<SchemesTable>;
export type SubBudgetRow = Selectable<SubBudgetsTable>;

/** A scheme of a list, with the number of its sub-budgets. */
export type SchemeListRow = SchemeRow & { sub_budgets_count: number };

/** What a budget in a sub-budget path must be: of which document and organisation, and of which type. */
export interface BudgetRef {
  id: string;
  document_id: string;
  organization_id: string;
  type: string;
}

function schemesQuery(read: ReadDatabase) {
  return read
    .selectFrom('schemes')
    .selectAll('schemes')
    .select((eb) =>
      eb.selectFrom('sub_budgets').select(eb.fn.countAll().as('count')).whereRef('sub_budgets.scheme_id', '=', 'schemes.id').as('sub_budgets_count'),
    )
    .orderBy('schemes.display_order')
    .orderBy('schemes.name');
}

type CountedSchemeRow = SchemeRow & { sub_budgets_count: string | number | bigint | null };
const counted = (rows: CountedSchemeRow[]): SchemeListRow[] => rows.map((row) => ({ ...row, sub_budgets_count: Number(row.sub_budgets_count ?? 0) }));

/** The document's schemes by display order and name, with their sub-budget counts. */
export async function listDocumentSchemes(read: ReadDatabase, documentId: string): Promise<SchemeListRow[]> {
  return counted((await schemesQuery(read).where('schemes.document_id', '=', documentId).execute()) as CountedSchemeRow[]);
}

/** Every scheme of the organisation's documents, by display order and name, with their sub-budget counts. */
export async function listOrganizationSchemes(read: ReadDatabase, organizationId: string): Promise<SchemeListRow[]> {
  return counted((await schemesQuery(read).where('schemes.organization_id', '=', organizationId).execute()) as CountedSchemeRow[]);
}

export function findScheme(read: ReadDatabase, schemeId: string): Promise<SchemeRow | undefined> {
  return read.selectFrom('schemes').selectAll().where('id', '=', schemeId).executeTakeFirst();
}

/** The budget a sub-budget path names (only COMMON budgets hold sub-budgets: the caller checks the type). */
export function findBudgetRef(read: ReadDatabase, budgetId: string): Promise<BudgetRef | undefined> {
  return read.selectFrom('budgets').select(['id', 'document_id', 'organization_id', 'type']).where('id', '=', budgetId).executeTakeFirst();
}

/** A sub-budget path's budget with its own and its document's status, the sub-budget and the sub-budget's scheme (null when unknown). */
export interface SubBudgetPlaceRow extends BudgetRef {
  budget_status_id: string | null;
  document_status_id: string | null;
  sub_budget: SubBudgetRow | null;
  scheme: SchemeRow | null;
}

/**
 * What a record command's sub-budget path needs before its access check, in one query (every
 * record command asks; four queries in two round trips before). The sub-budget and scheme rows
 * come as JSON: their columns are text, numbers and JSON, which read back the same.
 */
export function findSubBudgetPlace(read: ReadDatabase, budgetId: string, subBudgetId: string): Promise<SubBudgetPlaceRow | undefined> {
  return read
    .selectFrom('budgets as b')
    .leftJoin('documents as d', 'd.id', 'b.document_id')
    .leftJoin('sub_budgets as s', (join) => join.on('s.id', '=', subBudgetId))
    .leftJoin('schemes as sc', 'sc.id', 's.scheme_id')
    .select(['b.id', 'b.document_id', 'b.organization_id', 'b.type', 'b.resource_status_id as budget_status_id', 'd.resource_status_id as document_status_id'])
    .select([sql<SubBudgetRow | null>`to_jsonb(s)`.as('sub_budget'), sql<SchemeRow | null>`to_jsonb(sc)`.as('scheme')])
    .where('b.id', '=', budgetId)
    .executeTakeFirst();
}

export function findSubBudget(read: ReadDatabase, subBudgetId: string): Promise<SubBudgetRow | undefined> {
  return read.selectFrom('sub_budgets').selectAll().where('id', '=', subBudgetId).executeTakeFirst();
}

/** Sub-budgets of a scheme, by name. */
export function listSubBudgets(read: ReadDatabase, schemeId: string, only?: SubBudgetIdFilter): Promise<SubBudgetRow[]> {
  let query = read.selectFrom('sub_budgets').selectAll().where('scheme_id', '=', schemeId);
  if (only) query = query.where('id', 'in', only);
  return query.orderBy('name').orderBy('id').execute();
}

/** A subquery of sub-budget ids (the permissions read model's `subBudgetIdsGrantedOneByOne`), to filter a list in SQL. */
export type SubBudgetIdFilter = SelectQueryBuilder<ReadModels & { s: ReadModels['sub_budgets'] }, 's', { id: string }>;

/** The sub-budgets of the scheme that the budget has pinned. */
export async function pinnedSubBudgetIds(read: ReadDatabase, schemeId: string, budgetId: string): Promise<string[]> {
  const pins = await read.selectFrom('sub_budget_pins').select('sub_budget_id').where('budget_id', '=', budgetId).where('scheme_id', '=', schemeId).execute();
  return pins.map((pin) => pin.sub_budget_id);
}

/** The scheme's number of sub-budgets, and per budget how many it has pinned. */
export async function subBudgetCounts(read: ReadDatabase, schemeId: string): Promise<{ total: number; pinnedByBudget: Record<string, number> }> {
  const [total, pins] = await Promise.all([
    read
      .selectFrom('sub_budgets')
      .select((eb) => eb.fn.countAll().as('count'))
      .where('scheme_id', '=', schemeId)
      .executeTakeFirstOrThrow(),
    read
      .selectFrom('sub_budget_pins')
      .select(['budget_id', (eb) => eb.fn.countAll().as('count')])
      .where('scheme_id', '=', schemeId)
      .groupBy('budget_id')
      .execute(),
  ]);
  return { total: Number(total.count), pinnedByBudget: Object.fromEntries(pins.map((pin) => [pin.budget_id, Number(pin.count)])) };
}

/** Each sub-budget of the scheme (by name) with its classifier preselections. */
export function schemePreselections(read: ReadDatabase, schemeId: string): Promise<Pick<SubBudgetRow, 'id' | 'preselections'>[]> {
  return read.selectFrom('sub_budgets').select(['id', 'preselections']).where('scheme_id', '=', schemeId).orderBy('name').execute();
}

/**
 * Which of the sub-budgets hold records: of one budget (unpinning there), or of any budget of the
 * document (deleting a sub-budget, changing its values). A record falls in a sub-budget when it
 * carries the sub-budget's values and none in the scheme's classifiers the sub-budget leaves
 * empty; asked of the budgets' combinations of values (record_combinations), not of every record.
 */
export async function subBudgetsWithRecords(read: ReadDatabase, subBudgetIds: readonly string[], budgetId: string | null = null): Promise<string[]> {
  if (subBudgetIds.length === 0) return [];
  const { rows } = await sql<{ id: string }>`
    select s.id from read.sub_budgets s join read.schemes sc on sc.id = s.scheme_id
    where s.id = any(${[...subBudgetIds]}::uuid[]) and exists (
      select 1 from read.record_combinations r
      where r.document_id = s.document_id ${budgetId ? sql`and r.budget_id = ${budgetId}::uuid` : sql``}
        and r.classifiers @> s.classifiers
        and not (r.classifiers ?| array(
          select e->>'classifierId' from jsonb_array_elements(sc.classifier_list) e where not (s.classifiers ? (e->>'classifierId')))))`.execute(read);
  return rows.map((row) => row.id);
}

/**
 * How many records fall in each sub-budget of a scheme, and in none ('-2'): of one budget, or of
 * every budget of the document. One pass over the budgets' combinations of values (a few
 * thousand where a budget has a million records), each keyed by its values in the scheme's
 * classifiers (what a sub-budget's `classifiers` equal when its records fall in it).
 */
export async function schemeRecordCounts(read: ReadDatabase, schemeId: string, budgetId: string | null): Promise<SchemeRecordCounts> {
  const scheme = await read.selectFrom('schemes').select(['document_id', 'classifier_list']).where('id', '=', schemeId).executeTakeFirst();
  const counts = new Map<string, number>();
  if (!scheme) return { documentId: null, counts };
  const pairs = scheme.classifier_list.map(({ classifierId }) => sql`${classifierId}::text, r.classifiers -> ${classifierId}::text`);
  const key = pairs.length > 0 ? sql`jsonb_strip_nulls(jsonb_build_object(${sql.join(pairs)}))` : sql`'{}'::jsonb`;
  const { rows } = await sql<{ id: string; count: string }>`
    select coalesce(s.id::text, ${UNFIT_SUB_BUDGET}) as id, sum(r.records) as count
    from read.record_combinations r left join read.sub_budgets s on s.scheme_id = ${schemeId}::uuid and s.classifiers = ${key}
    where r.document_id = ${scheme.document_id}::uuid ${budgetId ? sql`and r.budget_id = ${budgetId}::uuid` : sql``}
    group by 1`.execute(read);
  for (const row of rows) counts.set(row.id, Number(row.count));
  return { documentId: scheme.document_id, counts };
}

export interface SchemeRecordCounts {
  documentId: string | null;
  /** Sub-budget id (or '-2') → records; sub-budgets without records are absent. */
  counts: Map<string, number>;
}

/** The row of a budget's sub-budget list that stands for its records fitting no sub-budget of the scheme (spec 3, section 2). */
export const UNFIT_SUB_BUDGET = '-2';

/**
 * The document's classifiers and its master classifier, with the items whose code is one of
 * `codes` (the only ones a command can refer to; a classifier may have tens of thousands).
 */
export async function classifierCatalogue(read: ReadDatabase, documentId: string, codes: Iterable<string>): Promise<ClassifierCatalogue> {
  const wanted = [...new Set([...codes].map((code) => code.trim()).filter((code) => code !== ''))];
  const document = await read.selectFrom('documents').select('master_classifier_id').where('id', '=', documentId).executeTakeFirst();
  const classifiers = await read.selectFrom('classifiers').select(['id', 'field_name']).where('document_id', '=', documentId).execute();
  const items =
    wanted.length === 0
      ? []
      : await read
          .selectFrom('classifier_items')
          .select(['classifier_id', 'code', 'unselectable'])
          .where('document_id', '=', documentId)
          .where(sql<boolean>`code = any(${wanted}::text[])`)
          .execute();
  const catalogue: ClassifierCatalogue = { masterClassifierId: document?.master_classifier_id ?? null, classifiers: {} };
  for (const row of classifiers) catalogue.classifiers[row.id] = { fieldName: row.field_name, items: {} };
  for (const row of items) {
    const classifier = catalogue.classifiers[row.classifier_id];
    if (classifier) classifier.items[row.code] = { selectable: !row.unselectable };
  }
  return catalogue;
}

/** Ids of the document's live classifiers (a scheme may use only these). */
export async function documentClassifierIds(read: ReadDatabase, documentId: string): Promise<string[]> {
  const rows = await read.selectFrom('classifiers').select('id').where('document_id', '=', documentId).execute();
  return rows.map((row) => row.id);
}

/** A document's schemes in display order (a budget copy matches them by technical name). */
export function documentSchemesInOrder(read: ReadDatabase, documentId: string): Promise<Pick<SchemeRow, 'id' | 'name' | 'field_name' | 'display_order'>[]> {
  return read
    .selectFrom('schemes')
    .select(['id', 'name', 'field_name', 'display_order'])
    .where('document_id', '=', documentId)
    .orderBy('display_order')
    .orderBy('name')
    .execute();
}

/** The sub-budgets a budget has pinned, with their names, by name. */
export function budgetPinnedSubBudgets(read: ReadDatabase, budgetId: string): Promise<{ id: string; scheme_id: string; name: string }[]> {
  return read
    .selectFrom('sub_budget_pins')
    .innerJoin('sub_budgets', 'sub_budgets.id', 'sub_budget_pins.sub_budget_id')
    .select(['sub_budget_pins.sub_budget_id as id', 'sub_budget_pins.scheme_id as scheme_id', 'sub_budgets.name as name'])
    .where('sub_budget_pins.budget_id', '=', budgetId)
    .orderBy('sub_budgets.name')
    .execute();
}

/** The sub-budgets of the given schemes. */
export async function subBudgetsOfSchemes(read: ReadDatabase, schemeIds: readonly string[]): Promise<Pick<SubBudgetRow, 'id' | 'scheme_id' | 'name'>[]> {
  if (schemeIds.length === 0) return [];
  return read.selectFrom('sub_budgets').select(['id', 'scheme_id', 'name']).where('scheme_id', 'in', schemeIds).execute();
}

/** The pins a budget holds (scheme and sub-budget ids). */
export function budgetPins(read: ReadDatabase, budgetId: string): Promise<{ scheme_id: string; sub_budget_id: string }[]> {
  return read.selectFrom('sub_budget_pins').select(['scheme_id', 'sub_budget_id']).where('budget_id', '=', budgetId).execute();
}

/**
 * Who may update each sub-budget seen from a budget: nobody, everyone who may see it, or those
 * granted update one by one (the occupation's grants on the budget's sub-budgets).
 */
export type SubBudgetUpdate = { kind: 'none' } | { kind: 'all' } | { kind: 'granted'; occupationId: string };

/**
 * The scheme's sub-budgets as the API answers them (the shape of the shared `subBudgetSchema`), as
 * one JSON text built by PostgreSQL: a scheme has up to 10,000 sub-budgets, and building their
 * answer in the gateway (rows, checks, stringify) cost over 100 ms of CPU per request. Seen from a
 * budget, `pinned` and `permissions` are that budget's; `only` filters in SQL (the caller's
 * grants). Records, attachments and comments arrive with later issues: none yet.
 */
export async function subBudgetsAsJson(
  read: ReadDatabase,
  schemeId: string,
  seenFrom: { budgetId: string; only?: SubBudgetIdFilter; update: SubBudgetUpdate } | null,
): Promise<string> {
  const budgetId = seenFrom?.budgetId ?? null;
  const update = seenFrom?.update;
  const { documentId, counts } = await schemeRecordCounts(read, schemeId, budgetId);
  const countsJson = JSON.stringify(Object.fromEntries(counts));
  // Granted one by one: the occupation's sub-budget grants under the budget, joined once (not probed per row).
  const grants = update?.kind === 'granted' ? update : null;
  const updateExpression = grants ? sql<boolean>`coalesce(g.update, false)` : sql<boolean>`${update?.kind === 'all'}::boolean`;
  const permissions = seenFrom ? sql`, 'permissions', json_build_object('read', true, 'update', ${updateExpression})` : sql``;
  let query = read
    .selectFrom('sub_budgets as s')
    // Seen from no budget, nothing is pinned: `= null` matches no row.
    .leftJoin('sub_budget_pins as p', (join) =>
      join.onRef('p.sub_budget_id', '=', 's.id').onRef('p.scheme_id', '=', 's.scheme_id').on(sql<boolean>`p.budget_id = ${budgetId}::uuid`),
    )
    .leftJoin('resource_permissions as g', (join) =>
      join
        .onRef('g.sub_budget_id', '=', 's.id')
        .on(sql<boolean>`g.occupation_id = ${grants?.occupationId ?? null}::uuid`)
        .on(sql<boolean>`g.budget_id = ${budgetId}::uuid`),
    )
    .select(
      sql<string>`coalesce(json_agg(json_build_object(
        'id', s.id, 'name', s.name, 'schemaId', s.scheme_id, 'documentId', s.document_id, 'budgetId', ${budgetId}::uuid,
        'classifiers', s.classifiers, 'pinned', p.sub_budget_id is not null,
        'hasRecords', coalesce((${countsJson}::jsonb ->> s.id::text)::int, 0) > 0,
        'recordsCount', coalesce((${countsJson}::jsonb ->> s.id::text)::int, 0), 'attachmentsCount', 0, 'hasComments', false
        ${permissions}
      ) order by s.name, s.id), '[]')::text`.as('json'),
    )
    .where('s.scheme_id', '=', schemeId);
  if (seenFrom?.only) query = query.where('s.id', 'in', seenFrom.only as never);
  const { json } = await query.executeTakeFirstOrThrow();
  const unfit = counts.get(UNFIT_SUB_BUDGET) ?? 0;
  return seenFrom && !seenFrom.only && documentId && unfit > 0
    ? withUnfitRow(json, { schemeId, documentId, budgetId: seenFrom.budgetId, recordsCount: unfit })
    : json;
}

/** Appends the '-2' row (records of the budget fitting no sub-budget; read-only, never pinned) to a list's JSON text. */
function withUnfitRow(
  json: string,
  { schemeId, documentId, budgetId, recordsCount }: { schemeId: string; documentId: string; budgetId: string; recordsCount: number },
): string {
  const row = JSON.stringify({
    id: UNFIT_SUB_BUDGET,
    name: '',
    schemaId: schemeId,
    documentId,
    budgetId,
    classifiers: {},
    pinned: false,
    hasRecords: true,
    recordsCount,
    attachmentsCount: 0,
    hasComments: false,
    permissions: { read: true, update: false },
  });
  return json === '[]' ? `[${row}]` : `${json.slice(0, -1)},${row}]`;
}

export interface MatchingBudgetRow {
  id: string;
  name: string;
  type: string;
  resource_status_id: string | null;
  document_status_id: string | null;
  records_count: number;
}

/**
 * The document's other budgets holding records that fall in the sub-budget (a source for
 * importing from another budget into it), by name.
 */
export async function budgetsWithRecordsInSubBudget(read: ReadDatabase, subBudgetId: string, exceptBudgetId: string): Promise<MatchingBudgetRow[]> {
  const { rows } = await sql<MatchingBudgetRow & { records_count: string }>`
    select b.id, b.name, b.type, b.resource_status_id, d.resource_status_id as document_status_id, sum(r.records) as records_count
    from read.sub_budgets s
      join read.schemes sc on sc.id = s.scheme_id
      join read.record_combinations r on r.document_id = s.document_id and r.budget_id <> ${exceptBudgetId}::uuid
        and r.classifiers @> s.classifiers
        and not (r.classifiers ?| array(
          select e->>'classifierId' from jsonb_array_elements(sc.classifier_list) e where not (s.classifiers ? (e->>'classifierId'))))
      join read.budgets b on b.id = r.budget_id
      join read.documents d on d.id = b.document_id
    where s.id = ${subBudgetId}::uuid
    group by b.id, b.name, b.type, b.resource_status_id, d.resource_status_id
    order by b.name, b.id`.execute(read);
  return rows.map((row) => ({ ...row, records_count: Number(row.records_count) }));
}
