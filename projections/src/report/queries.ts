import { sumAmounts } from '@eelarve/shared';
import { type RawBuilder, sql } from 'kysely';
import type { ReadDatabase } from '../read-models';
import { SHARED_FACT_ID } from './projector';

/**
 * The report's reads (issue 12, points 1, 2 and 7): one statement aggregates the compact facts
 * (or, as of a past moment, the facts corrected by the versions changed since) over the scheme's
 * sub-budgets, the grouping classifier's parent groups and items and the promoted records, with
 * ROLLUP, one FILTERed sum per column. PostgreSQL numeric throughout; sums leave as canonical text.
 */

/** The sub-budget id of records that fit no sub-budget of the scheme (spec 2, the -2 row). */
export const UNFIT_ROW = '-2';

/** Where a column's amounts come from: budgets (a sum budget's components), now or as of a moment. */
export interface ReportSource {
  budgetIds: readonly string[];
  /** ISO time; null for the current amounts. */
  asOf: string | null;
  /** Sub-budgets of the scheme whose amounts the caller reads in these budgets; null: all, with the -2 row. */
  readableSubBudgetIds: readonly string[] | null;
}

/** One column of sums: a source over a range of months of the document period (null: the whole, with unsplit amounts). */
export interface ReportSumColumn {
  key: string;
  /** The sources it adds up (a sum budget's components). */
  sources: readonly number[];
  months: { from: number; to: number } | null;
}

/** Which codes of a classifier count: listed codes, or those whose code or name matches (at the item's or its parent group's level). */
export interface ClassifierCondition {
  classifierId: string;
  /** The classifier whose items group this one's (a parent level); null: the codes are the items' own. */
  parentClassifierId: string | null;
  codes: readonly string[] | null;
  match: TextMatch | null;
}

export type TextMatch = { kind: 'term' | 'combo'; text: string } | { kind: 'regex'; pattern: string };

/** Which sub-budgets count: listed ids (null: any) whose id or name matches every text match. */
export interface SubBudgetCondition {
  ids: readonly string[] | null;
  matches: readonly TextMatch[];
}

export interface ReportQuery {
  schemeId: string;
  schemeClassifierIds: readonly string[];
  /** The grouping classifier and the classifier grouping its items (its parent level), if any. */
  grouping: { classifierId: string; parentClassifierId: string | null } | null;
  sources: readonly ReportSource[];
  columns: readonly ReportSumColumn[];
  /** Sub-budgets listed even without amounts: those the caller reads in the base budget. */
  listedSubBudgetIds: readonly string[] | null;
  classifierConditions: readonly ClassifierCondition[];
  subBudgetCondition: SubBudgetCondition | null;
}

/** One aggregated row: its level in the tree, the group values, names and its sums in the query's column order. */
export interface ReportAggregateRow {
  /** 0 the total, 1 a sub-budget, 2 a parent group, 3 an item, 4 a promoted record (levels absent from the query are skipped). */
  level: number;
  sub_budget_id: string | null;
  sub_budget_name: string | null;
  parent_code: string | null;
  parent_name: string | null;
  item_code: string | null;
  item_name: string | null;
  record_id: string | null;
  record_name: string | null;
  /**
   * Canonical decimal text per column of `ReportQuery.columns`, in order (an object keyed per row
   * cost the gateway ~10% of a 5,600-row report). The statement sends them as one text, separated
   * by spaces (decimal text has none): parsing a text[] of 20 per row cost the gateway 24 ms of a
   * 5,600-row report, splitting costs 3.
   */
  sums: string[];
}

const literal = (text: string) => sql.lit(text);

function textMatch(match: TextMatch, code: string, name: string): RawBuilder<unknown> {
  const [c, n] = [sql.raw(code), sql.raw(name)];
  if (match.kind === 'regex') return sql`(${c} ~* ${match.pattern} OR ${n} ~* ${match.pattern})`;
  if (match.kind === 'combo') return sql`strpos(lower(${c} || ' ' || ${n}), lower(${match.text})) > 0`;
  return sql`(strpos(lower(${c}), lower(${match.text})) > 0 OR strpos(lower(${n}), lower(${match.text})) > 0)`;
}

/** The codes of a classifier a condition lets through, as a subquery over its items. */
function allowedCodes(condition: ClassifierCondition): RawBuilder<unknown> {
  const where: RawBuilder<unknown>[] = [sql`i.classifier_id = ${condition.classifierId}::uuid`];
  if (condition.parentClassifierId === null) {
    if (condition.codes) where.push(sql`i.code = ANY(${[...condition.codes]}::text[])`);
    if (condition.match) where.push(textMatch(condition.match, 'i.code', 'i.name'));
    return sql`SELECT i.code FROM read.classifier_items i WHERE ${sql.join(where, sql` AND `)}`;
  }
  if (condition.codes) where.push(sql`p.code = ANY(${[...condition.codes]}::text[])`);
  if (condition.match) where.push(textMatch(condition.match, 'p.code', 'p.name'));
  return sql`SELECT i.code FROM read.classifier_items i
    JOIN read.classifier_items p ON p.classifier_id = ${condition.parentClassifierId}::uuid
     AND i.grouped_by @> jsonb_build_array(jsonb_build_object('classifierId', ${condition.parentClassifierId}::text, 'itemId', p.id::text))
   WHERE ${sql.join(where, sql` AND `)}`;
}

/**
 * Each condition as `code = ANY(ARRAY(subquery))`: the allowed codes are an InitPlan read once,
 * then a plain test per fact row. As an IN (subquery) the planner guessed a few rows from the
 * jsonb expression and, as of a moment, re-ran the items' join for every version (1.7 s).
 */
function classifierWhere(conditions: readonly ClassifierCondition[], column: string): RawBuilder<unknown> {
  if (conditions.length === 0) return sql`true`;
  return sql.join(
    conditions.map((condition) => sql`(${sql.raw(column)} ->> ${literal(condition.classifierId)}) = ANY(ARRAY(${allowedCodes(condition)}))`),
    sql` AND `,
  );
}

/** A record version as a fact, signed: its amount and the running sums of its split (as the facts keep them). */
const VERSION_CUMULATIVE = sql.raw(`(SELECT array_agg(v.sign * running ORDER BY n) FROM (SELECT n, sum(value) OVER (ORDER BY n) AS running
  FROM unnest(v.months) WITH ORDINALITY AS u(value, n)) t)`);
const VERSION_FACT_ID = sql.raw(`CASE WHEN v.promoted THEN v.record_id ELSE '${SHARED_FACT_ID}'::uuid END`);

/**
 * The rows of a source's sub-budgets the caller does not read are left out as they are read (a
 * scheme's sub-budgets have distinct classifier values, so a key is one sub-budget; records fitting
 * none, the -2 row, are not read either); null: all are read.
 */
function readableKeys(source: ReportSource, key: (column: string) => RawBuilder<unknown>, column: string): RawBuilder<unknown> {
  if (source.readableSubBudgetIds === null) return sql`true`;
  return sql`${key(column)} = ANY(ARRAY(SELECT sub.key FROM sub WHERE sub.id = ANY(${[...source.readableSubBudgetIds]}::text[])))`;
}

/**
 * A source's fact rows: the current facts, and as of a moment the versions changed since (one
 * range of the changed_at index): one begun since and still current is taken away (-1), one valid
 * then and ended since is added back (1), one begun and ended since never counted. So the cost
 * grows with the changes since the moment, not with the budget.
 */
function sourceRows(
  source: ReportSource,
  index: number,
  query: ReportQuery,
  key: (column: string) => RawBuilder<unknown>,
  inPart: (column: string) => RawBuilder<unknown>,
): RawBuilder<unknown> {
  const conditions = query.classifierConditions;
  const budgets = sql`${[...source.budgetIds]}::uuid[]`;
  const current = sql`SELECT ${index}::int AS source, f.classifiers, f.record_id, f.amount, f.cumulative, f.records
    FROM read.report_facts f WHERE f.budget_id = ANY(${budgets}) AND ${classifierWhere(conditions, 'f.classifiers')}
     AND ${readableKeys(source, key, 'f.classifiers')} AND ${inPart('f.classifiers')}`;
  if (source.asOf === null) return current;
  const asOf = sql`${source.asOf}::timestamptz`;
  return sql`${current}
    UNION ALL
    SELECT ${index}::int, v.classifiers, ${VERSION_FACT_ID}, v.sign * v.amount, ${VERSION_CUMULATIVE}, v.sign
      FROM (SELECT v.*, CASE WHEN v.valid_from_at > ${asOf} THEN -1 ELSE 1 END AS sign FROM read.report_record_versions v
             WHERE v.budget_id = ANY(${budgets}) AND v.changed_at > ${asOf} AND (v.valid_from_at <= ${asOf} OR v.valid_to_at IS NULL)
               AND ${classifierWhere(conditions, 'v.classifiers')} AND ${readableKeys(source, key, 'v.classifiers')} AND ${inPart('v.classifiers')}) v`;
}

function subBudgetWhere(condition: SubBudgetCondition | null, id: string, name: string): RawBuilder<unknown> {
  if (!condition) return sql`true`;
  const where: RawBuilder<unknown>[] = [];
  if (condition.ids) where.push(sql`${sql.raw(id)} = ANY(${[...condition.ids]}::text[])`);
  for (const match of condition.matches) where.push(textMatch(match, id, name));
  return where.length === 0 ? sql`true` : sql.join(where, sql` AND `);
}

/**
 * What the facts add up per leaf, each once however many columns use it: a source's amounts
 * (`month` null: the whole, with unsplit amounts) or its running sums up to a month (past the end
 * of a shorter split the last sum holds: its later months are 0). A column over months `from..to`
 * is then the running sums' term at `to` less the term at `from - 1`, subtracted once per leaf
 * instead of once per fact row (exact: numeric), and quarterly columns share their boundaries.
 */
interface SumTerm {
  sources: readonly number[];
  month: number | null;
}

const termKey = (term: SumTerm) => `${term.sources.join(',')}|${term.month ?? ''}`;

/** The terms of the columns, each once, and for each column the term positions it adds and takes away. */
function sumTerms(columns: readonly ReportSumColumn[]): { terms: SumTerm[]; columns: { plus: number; minus: number | null }[] } {
  const terms: SumTerm[] = [];
  const positions = new Map<string, number>();
  const positionOf = (term: SumTerm) => {
    const key = termKey(term);
    let position = positions.get(key);
    if (position === undefined) {
      position = terms.push(term) - 1;
      positions.set(key, position);
    }
    return position;
  };
  return {
    terms,
    columns: columns.map(({ sources, months }) => {
      if (months === null) return { plus: positionOf({ sources, month: null }), minus: null };
      const plus = positionOf({ sources, month: months.to });
      return { plus, minus: months.from === 1 ? null : positionOf({ sources, month: months.from - 1 }) };
    }),
  };
}

/**
 * A term's sum over the fact rows of its sources (only those rows compute it). Every fact row
 * tests every term's filter, so a term of one source (all but a sum budget's) tests `=`: `= ANY`
 * of a one-element array took as long as the sums themselves.
 */
function termSum(term: SumTerm, index: number): RawBuilder<unknown> {
  const [only, ...more] = term.sources;
  const ofSources = more.length === 0 && only !== undefined ? sql`s.source = ${sql.lit(only)}` : sql`s.source = ANY(${[...term.sources]}::int[])`;
  const value = term.month === null ? sql.raw('s.amount') : sql.raw(`coalesce(s.cumulative[least(${term.month}, cardinality(s.cumulative))], 0)`);
  return sql`sum(${value}) FILTER (WHERE ${ofSources}) AS ${sql.ref(`t${index}`)}`;
}

/** A column's sum from a leaf's terms. */
function columnOfTerms(column: { plus: number; minus: number | null }, index: number): RawBuilder<unknown> {
  const plus = sql.ref(`s.t${column.plus}`);
  return column.minus === null ? sql`${plus} AS ${sql.ref(`c${index}`)}` : sql`${plus} - ${sql.ref(`s.t${column.minus}`)} AS ${sql.ref(`c${index}`)}`;
}

const rolledUpSum = (index: number) => sql`trim_scale(coalesce(sum(${sql.ref(`c${index}`)}), 0))::text`;

/** The grouping classifier's items with their parent group's code (null without one). */
function groupingItems(grouping: NonNullable<ReportQuery['grouping']>): RawBuilder<unknown> {
  if (!grouping.parentClassifierId)
    return sql`SELECT i.code, i.name, NULL::text AS parent FROM read.classifier_items i WHERE i.classifier_id = ${grouping.classifierId}::uuid`;
  return sql`SELECT i.code, i.name, p.code AS parent FROM read.classifier_items i
    LEFT JOIN read.classifier_items p ON p.classifier_id = ${grouping.parentClassifierId}::uuid
     AND i.grouped_by @> jsonb_build_array(jsonb_build_object('classifierId', ${grouping.parentClassifierId}::text, 'itemId', p.id::text))
   WHERE i.classifier_id = ${grouping.classifierId}::uuid`;
}

/** The tree's levels under the total, as the query groups them. */
export function reportLevels(grouping: ReportQuery['grouping']): ('sub' | 'parent' | 'item' | 'rec')[] {
  return ['sub', ...(grouping?.parentClassifierId ? (['parent'] as const) : []), ...(grouping ? (['item'] as const) : []), 'rec'];
}

/**
 * One of the two halves a report's statement can be split into, to run on two connections at once
 * (reportAggregates): the scheme's sub-budgets alternate between them in the tree's order, and each
 * half reads only its sub-budgets' facts; the second also takes the facts that fit none (the -2 row).
 * Only for a scheme of one classifier: a fact's code of it then names its sub-budget, so the
 * halves' rows are disjoint below the total (with more classifiers a fact whose first code is a
 * sub-budget's may still fit none, and both halves would have a -2 row).
 */
export type ReportPart = 0 | 1;

function partOfScheme(query: ReportQuery, part: ReportPart) {
  const [classifierId] = query.schemeClassifierIds;
  if (query.schemeClassifierIds.length !== 1 || classifierId === undefined) throw new Error('a report is split only for a scheme of one classifier');
  const code = (column: string) => sql`(${sql.raw(column)} ->> ${literal(classifierId)})`;
  // The first half: every other sub-budget in the tree's order that has a code (one without matches facts without it).
  const firstHalf = sql`(rank % 2 = 1 AND code IS NOT NULL)`;
  return {
    ctes: (key: RawBuilder<unknown>) => sql`sub_all AS (
      SELECT id::text AS id, name, ${key} AS key, ${code('classifiers')} AS code, row_number() OVER (ORDER BY name, id::text) AS rank
        FROM read.sub_budgets WHERE scheme_id = ${query.schemeId}::uuid),
    first_codes AS (SELECT code FROM sub_all WHERE ${firstHalf}),
    sub AS (SELECT id, name, key, rank FROM sub_all WHERE ${part === 0 ? firstHalf : sql`NOT ${firstHalf}`})`,
    // A hashed SubPlan per fact row: as a bare IN the planner made it a semi join and, misjudging the
    // facts, rescanned the codes for each of them (a half took 370 ms instead of 170).
    factsIn: (column: string) => sql`(${code(column)} IN (SELECT code FROM first_codes)) ${part === 0 ? sql`IS TRUE` : sql`IS NOT TRUE`}`,
  };
}

/**
 * The report's statement (EXPLAIN it to see the plan; `pnpm bench:report --explain` prints the
 * slowest). The facts are summed in two steps: every column at once per sub-budget key, item and
 * promoted record (each fact row adds only to the columns of its source), which shrinks the rows
 * to the tree's leaves before they are fitted to sub-budgets and groups; then ROLLUP over those
 * leaves, so the grouping sets add up a few thousand rows. A row's sums leave as one text
 * column after the ordering's columns: with a column per sum, every comparison of the final sort
 * stepped over 20 text columns to reach its keys (a fifth of the statement's time).
 */
export function reportAggregatesSql(query: ReportQuery, part: ReportPart | null = null): RawBuilder<Record<string, unknown>> {
  const { grouping } = query;
  const levels = reportLevels(grouping);
  const groupedLevels = sql.raw(levels.join(', '));
  const grouped = (level: string) => (levels.includes(level as never) ? sql.raw(`GROUPING(${level})`) : sql.raw('1'));
  const levelOf = sql.raw(`(${levels.map((level) => `1 - GROUPING(${level})`).join(' + ')})`);
  const schemeKey = (column: string) => sql`jsonb_build_array(${sql.join(query.schemeClassifierIds.map((id) => sql`${sql.raw(column)} -> ${literal(id)}`))})`;
  const { terms, columns: termColumns } = sumTerms(query.columns);
  const sumColumns = sql.join(termColumns.map(columnOfTerms));
  // The facts are grouped by the scheme classifiers' codes as text (comparing jsonb arrays made the sort 3 times slower).
  const codes = query.schemeClassifierIds.map((id, index) => ({
    select: sql`s.classifiers ->> ${literal(id)} AS ${sql.ref(`k${index}`)}`,
    ref: sql.ref(`k${index}`),
  }));
  const leafKey = sql`jsonb_build_array(${sql.join(codes.map((code) => sql`to_jsonb(s.${code.ref})`))})`;
  const split = part === null ? null : partOfScheme(query, part);
  return sql<Record<string, unknown>>`
    WITH ${
      split
        ? split.ctes(schemeKey('classifiers'))
        : sql`sub AS (
      SELECT id::text AS id, name, ${schemeKey('classifiers')} AS key, NULL::bigint AS rank FROM read.sub_budgets WHERE scheme_id = ${query.schemeId}::uuid)`
    },
    grp AS (${grouping ? groupingItems(grouping) : sql`SELECT NULL::text AS code, NULL::text AS name, NULL::text AS parent WHERE false`}),
    src AS (${sql.join(
      query.sources.map((source, index) => sourceRows(source, index, query, schemeKey, split?.factsIn ?? (() => sql`true`))),
      sql` UNION ALL `,
    )}),
    pre AS (
      SELECT ${sql.join(codes.map((code) => code.select))}, ${grouping ? sql`s.classifiers ->> ${literal(grouping.classifierId)}` : sql`NULL::text`} AS item,
             s.record_id AS rec, ${sql.join(terms.map(termSum))}, sum(s.records) AS records
        FROM src s
       GROUP BY ${sql.join(codes.map((code) => code.ref))}, item, rec),
    fitted AS (
      SELECT coalesce(sub.id, ${UNFIT_ROW}) AS sub, grp.parent, s.item, s.rec, ${sumColumns}, s.records, false AS listed
        FROM pre s
        LEFT JOIN sub ON sub.key = ${leafKey}
        LEFT JOIN grp ON grp.code = s.item
       WHERE ${subBudgetWhere(query.subBudgetCondition, "coalesce(sub.id, '-2')", "coalesce(sub.name, '')")}
      UNION ALL
      SELECT sub.id, NULL, NULL, NULL, ${sql.join(query.columns.map(() => sql`NULL::numeric`))}, 0, true FROM sub
       WHERE ${query.listedSubBudgetIds === null ? sql`true` : sql`sub.id = ANY(${[...query.listedSubBudgetIds]}::text[])`}
         AND ${subBudgetWhere(query.subBudgetCondition, 'sub.id', 'sub.name')}),
    agg AS (
      SELECT ${levelOf} AS level, sub, ${levels.includes('parent') ? sql`parent` : sql`NULL::text AS parent`}, ${levels.includes('item') ? sql`item` : sql`NULL::text AS item`}, rec,
             ${grouped('parent')} AS gp, ${grouped('item')} AS gi, GROUPING(rec) AS gr,
             array_to_string(ARRAY[${sql.join(query.columns.map((_, index) => rolledUpSum(index)))}], ' ') AS sums
        FROM fitted
       GROUP BY ROLLUP (${groupedLevels})
      HAVING (GROUPING(rec) = 1 OR rec <> ${SHARED_FACT_ID}::uuid)
         AND (GROUPING(sub) = 1 OR (${grouped(levels[1] ?? 'rec')} = 1 AND bool_or(listed)) OR coalesce(sum(records), 0) > 0))
    SELECT agg.level, agg.sub, sub.name AS sub_budget_name, agg.parent, agg.item, agg.rec, agg.gp, agg.gi, agg.gr,
           CASE WHEN agg.rec IS NOT NULL THEN (SELECT v.name FROM read.report_record_versions v WHERE v.record_id = agg.rec
                                                ORDER BY v.valid_from_commit DESC, v.valid_from_prepare DESC LIMIT 1) END AS record_name,
           item_names.name AS item_name, parent_names.name AS parent_name, sub.rank AS sub_rank, agg.sums
      FROM agg LEFT JOIN sub ON sub.id = agg.sub
      -- Names by joins, not a subquery per row (5,600 rows: a third of the statement's time).
      LEFT JOIN (SELECT DISTINCT ON (code) code, name FROM grp ORDER BY code, name) item_names ON item_names.code = agg.item
      LEFT JOIN (${
        grouping?.parentClassifierId
          ? sql`SELECT DISTINCT ON (code) code, name FROM read.classifier_items WHERE classifier_id = ${grouping.parentClassifierId}::uuid ORDER BY code, name`
          : sql`SELECT NULL::text AS code, NULL::text AS name WHERE false`
      }) parent_names ON parent_names.code = agg.parent
     ORDER BY agg.level > 0, agg.sub = ${UNFIT_ROW}, sub.name, agg.sub, agg.gp = 0, agg.parent NULLS LAST, agg.gi = 0, agg.item NULLS LAST, agg.gr = 0, record_name, agg.rec`;
}

/**
 * Memory for each of the statement's hash tables and sorts: at the default 4 MB the ROLLUP's sort of a
 * 250,000-record budget's leaves (4.3 MB) spilled to disk. Each sort or hash node may take this (a hash
 * twice), and several reports may run at once, so it stays a small multiple of what the bench needs;
 * a larger report spills, slower but within bounds.
 */
const REPORT_WORK_MEMORY = '16MB';

/**
 * The cost of a random page read for the report's statement: the facts are a small, hot table
 * (20 MB for the bench's million records), read from memory. At PostgreSQL's default of 4 (a
 * spinning disk) each column's source scanned all 60,000 fact rows of the document for its
 * budget's 15,000, eight times per split report; at 1.1 (the usual value for SSDs and cached
 * data) it reads them through the key's index: each half of the bench's largest report took
 * 125-135 ms instead of 155-165.
 */
const FACT_PAGE_COST = '1.1';

/** A statement's row as the gateway reads it, with the rank of its sub-budget in the tree (null: the total and the -2 row). */
type RankedRow = ReportAggregateRow & { rank: number | null };

async function runStatement(db: ReadDatabase, query: ReportQuery, part: ReportPart | null): Promise<RankedRow[]> {
  // For this transaction: the memory above; no parallel workers (their partial sums reach the
  // leader serialised, and combining the bench's 15,000 partial groups of 20 numeric sums cost more
  // than they saved); random pages priced as in memory (FACT_PAGE_COST); and groups by sorting.
  // The planner guesses the rows left by the classifier filters (a jsonb field's values) at a tenth
  // of what they are, and for so few it chose hash tables for the ROLLUP's grouping sets (a
  // MixedAggregate of 20 numeric sums in 4 tables): sorted, the bench's report filtered to two of
  // three sources takes 115-133 ms a half instead of 145-160, one filtered to two expense groups
  // 90-97 instead of 98-111, and the others as before (the statement's input stays within work_mem).
  await sql`SELECT set_config('work_mem', ${REPORT_WORK_MEMORY}, true), set_config('max_parallel_workers_per_gather', '0', true),
                   set_config('random_page_cost', ${FACT_PAGE_COST}, true), set_config('enable_hashagg', 'off', true)`.execute(db);
  const { rows } = await reportAggregatesSql(query, part).execute(db);
  return rows.map((row) => ({
    level: Number(row.level),
    sub_budget_id: row.sub as string | null,
    sub_budget_name: row.sub_budget_name as string | null,
    parent_code: row.parent as string | null,
    parent_name: row.parent_name as string | null,
    item_code: row.item as string | null,
    item_name: row.item_name as string | null,
    record_id: row.rec as string | null,
    record_name: row.record_name as string | null,
    sums: query.columns.length === 0 ? [] : (row.sums as string).split(' '),
    rank: row.sub_rank === null || row.sub_rank === undefined ? null : Number(row.sub_rank),
  }));
}

/**
 * Reports split in two at once per process: each holds two connections of the pool, and the first
 * waits for the second's to import its snapshot, so they are bounded (a further report runs as one
 * statement) and can never hold the whole pool waiting for each other.
 */
const MAX_SPLIT_REPORTS = 2;
let splitReports = 0;

export interface ReportAggregatesOptions {
  /** 'auto' (default): in two halves at once where it can be (reportAggregates); 'never': one statement. */
  split?: 'auto' | 'never';
}

/**
 * The report's rows in tree order (each group before its children, the -2 row last), the total
 * first. A scheme of one classifier is computed in two halves at once, on two connections that
 * share one snapshot (pg_export_snapshot; SET TRANSACTION SNAPSHOT), so the answer is of one
 * moment as a single statement's: PostgreSQL runs a statement on one core, and the bench's
 * largest report took 230 ms in one statement and 170 ms in two halves on two cores. The halves'
 * rows are merged by their sub-budgets' order and their totals added (exact decimals).
 */
export async function reportAggregates(read: ReadDatabase, query: ReportQuery, options: ReportAggregatesOptions = {}): Promise<ReportAggregateRow[]> {
  const splittable = (options.split ?? 'auto') === 'auto' && !read.isTransaction && query.schemeClassifierIds.length === 1 && splitReports < MAX_SPLIT_REPORTS;
  if (!splittable) {
    const rows = read.isTransaction ? await runStatement(read, query, null) : await read.transaction().execute((db) => runStatement(db, query, null));
    return rows.map(withoutRank);
  }
  splitReports++;
  try {
    const [first, second] = await inTwoHalves(read, query);
    return mergeHalves(first, second, query.columns.length).map(withoutRank);
  } finally {
    splitReports--;
  }
}

const withoutRank = ({ rank: _rank, ...row }: RankedRow): ReportAggregateRow => row;

/** Both halves, each in its own REPEATABLE READ transaction, the second on the first's snapshot. */
async function inTwoHalves(read: ReadDatabase, query: ReportQuery): Promise<[RankedRow[], RankedRow[]]> {
  const snapshot = settable<string>();
  const imported = settable<void>();
  const first = read
    .transaction()
    .setIsolationLevel('repeatable read')
    .execute(async (db) => {
      const { rows } = await sql<{ id: string }>`SELECT pg_export_snapshot() AS id`.execute(db);
      snapshot.resolve(rows[0]?.id ?? '');
      const answer = await runStatement(db, query, 0);
      // An exported snapshot lives as long as its transaction: it stays open until the second half has it.
      await imported.promise;
      return answer;
    })
    .catch((error: unknown) => {
      snapshot.reject(error);
      throw error;
    });
  const second = read
    .transaction()
    .setIsolationLevel('repeatable read')
    .execute(async (db) => {
      try {
        await sql`SET TRANSACTION SNAPSHOT ${sql.lit(await snapshot.promise)}`.execute(db);
      } finally {
        imported.resolve();
      }
      return runStatement(db, query, 1);
    });
  return Promise.all([first, second]);
}

function settable<T>() {
  let resolve!: (value: T) => void;
  let reject!: (reason: unknown) => void;
  const promise = new Promise<T>((onResolve, onReject) => {
    resolve = onResolve;
    reject = onReject;
  });
  // A rejection nobody waits for (the other half failed first) is not an unhandled one.
  promise.catch(() => undefined);
  return { promise, resolve, reject };
}

/** The halves as one answer: the totals added, then the sub-budgets' rows in the tree's order (the -2 row last). */
function mergeHalves(first: RankedRow[], second: RankedRow[], columns: number): RankedRow[] {
  const totals = [first, second].map((rows) => rows.find((row) => row.level === 0));
  const [a, b] = totals;
  const total = a && b ? { ...a, sums: Array.from({ length: columns }, (_, index) => sumAmounts([a.sums[index] ?? '0', b.sums[index] ?? '0'])) } : (a ?? b);
  const order = (row: RankedRow) => row.rank ?? Number.POSITIVE_INFINITY;
  const [left, right] = [first.filter((row) => row.level > 0), second.filter((row) => row.level > 0)];
  const merged: RankedRow[] = total ? [total] : [];
  let [i, j] = [0, 0];
  while (i < left.length || j < right.length) {
    const takeLeft = j >= right.length || (i < left.length && order(left[i] as RankedRow) <= order(right[j] as RankedRow));
    merged.push((takeLeft ? left[i++] : right[j++]) as RankedRow);
  }
  return merged;
}
