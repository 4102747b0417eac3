import { type RawBuilder, sql } from 'kysely';
import type { ReadDatabase } from '../read-models';
import { recordsJsonBatches, recordsJsonBytes } from './queries';

/**
 * The records API's reads of the `records` read model (issue 11). Lists are one JSON text joined
 * by PostgreSQL from each record's stored list JSON, in the shape of the shared `recordSchema`: a
 * sub-budget may hold 10,000 records. Amounts leave PostgreSQL as canonical decimal text
 * (`trim_scale`: "12.5", never "12.500000"), never as binary floating point. Raw SQL names the
 * `read` schema's views itself.
 */

/** A record row as the records API needs it (one record, bulk commands, history). */
export interface RecordApiRow {
  id: string;
  budget_id: string;
  document_id: string;
  organization_id: string;
  name: string;
  /** Canonical decimal text. */
  amount: string;
  months: string[] | null;
  classifiers: Record<string, string>;
  promoted: boolean;
  origin_stream: string;
  origin_revision: string;
  import_id: string | null;
}

/** Which records of a budget a list holds (a budget's and a sub-budget's lists: queries.ts). */
export type RecordsFilter =
  | { kind: 'budget'; budgetId: string }
  /** Records in no sub-budget of the scheme (the -2 row); `classifierIds` are the scheme's classifiers. */
  | { kind: 'unfit'; budgetId: string; schemeId: string; classifierIds: readonly string[] }
  | { kind: 'ids'; budgetId: string; recordIds: readonly string[] };

function whereOf(filter: RecordsFilter): RawBuilder<unknown> {
  switch (filter.kind) {
    case 'budget':
      return sql`r.budget_id = ${filter.budgetId}::uuid`;
    case 'unfit':
      return sql`r.budget_id = ${filter.budgetId}::uuid and not exists (
        select 1 from read.sub_budgets s where s.scheme_id = ${filter.schemeId}::uuid and r.classifiers @> s.classifiers
          and not (r.classifiers ?| array(select k from unnest(${[...filter.classifierIds]}::text[]) k where not s.classifiers ? k)))`;
    case 'ids':
      return sql`r.budget_id = ${filter.budgetId}::uuid and r.id = any(${[...filter.recordIds]}::uuid[])`;
  }
}

/** The records of the filter as batches of their JSON texts, by name and id: a list of any size streams (queries.ts). */
export function recordsAsJsonBatches(read: ReadDatabase, filter: RecordsFilter): AsyncGenerator<string[]> {
  return recordsJsonBatches(read, whereOf(filter));
}

/** The records of the filter as batches of their JSON's bytes (queries.ts's listRowsBytes), for lists answered as they are stored. */
export function recordsAsJsonBytes(read: ReadDatabase, filter: RecordsFilter): AsyncGenerator<Buffer> {
  return recordsJsonBytes(read, whereOf(filter));
}

const rowColumns = sql`r.id, r.budget_id, r.document_id, r.organization_id, r.name, trim_scale(r.amount)::text as amount,
  r.months::text[] as months,
  r.classifiers, r.promoted, r.origin_stream, r.origin_revision::text as origin_revision, r.import_id`;

/** Records of a budget by id (missing ids are left out). */
export async function findBudgetRecords(read: ReadDatabase, budgetId: string, recordIds: readonly string[]): Promise<RecordApiRow[]> {
  if (recordIds.length === 0) return [];
  const { rows } = await sql<RecordApiRow>`select ${rowColumns} from read.records r where ${whereOf({ kind: 'ids', budgetId, recordIds })}`.execute(read);
  return rows;
}

/** A sub-budget as scheme fitting needs it. */
export interface FittingSubBudget {
  id: string;
  scheme_id: string;
  name: string;
  classifiers: Record<string, string>;
}

export async function subBudgetsForFitting(read: ReadDatabase, schemeIds: readonly string[]): Promise<FittingSubBudget[]> {
  if (schemeIds.length === 0) return [];
  const { rows } = await sql<FittingSubBudget>`
    select id, scheme_id, name, classifiers from read.sub_budgets where scheme_id = any(${[...schemeIds]}::uuid[]) order by name, id`.execute(read);
  return rows;
}

/** Names of users and occupations (history and raw events), by id. */
export async function actorNames(
  read: ReadDatabase,
  userIds: readonly string[],
  occupationIds: readonly string[],
): Promise<{ users: Map<string, string>; occupations: Map<string, string> }> {
  const [users, occupations] = await Promise.all([
    userIds.length === 0
      ? []
      : read
          .selectFrom('users')
          .select(['id', 'name'])
          .where('id', 'in', [...new Set(userIds)])
          .execute(),
    occupationIds.length === 0
      ? []
      : read
          .selectFrom('occupations')
          .select(['id', 'name'])
          .where('id', 'in', [...new Set(occupationIds)])
          .execute(),
  ]);
  return { users: new Map(users.map((row) => [row.id, row.name])), occupations: new Map(occupations.map((row) => [row.id, row.name])) };
}
