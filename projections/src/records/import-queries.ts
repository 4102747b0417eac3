import { sql } from 'kysely';
import type { ReadDatabase } from '../read-models';

/**
 * What an import's preview (POST .../records/preview) reads of the `records` read model: per
 * sub-budget of a scheme, the budget's records that fall in it today and their total. A record
 * falls in the sub-budget whose values it carries in every classifier of the scheme (and leaves
 * empty where the sub-budget does); the rest fall in the unfit row '-2'. Totals are exact
 * (numeric summed in PostgreSQL, answered as text).
 */
export interface SubBudgetTotal {
  subBudgetId: string;
  records: number;
  total: string;
}

export const UNFIT_SUB_BUDGET_ID = '-2';

/**
 * The budget's records per sub-budget of the scheme. `schemeClassifierIds` are the scheme's
 * classifiers: a record's values in them, as one jsonb object, equal the sub-budget's values.
 */
export async function recordTotalsBySubBudget(
  read: ReadDatabase,
  budgetId: string,
  schemeId: string,
  schemeClassifierIds: readonly string[],
): Promise<SubBudgetTotal[]> {
  const ids = sql.val([...schemeClassifierIds]);
  // Records are grouped by their values in the scheme's classifiers first: a budget of a million
  // records has far fewer distinct value sets than records, and each set is placed once.
  const { rows } = await sql<{ sub_budget_id: string | null; records: number; total: string }>`
    with keyed as (
      select (select coalesce(jsonb_object_agg(k, r.classifiers -> k), '{}'::jsonb) from unnest(${ids}::text[]) k where r.classifiers ? k) as key,
             count(*) as records, sum(r.amount) as total
        from read.records r
       where r.budget_id = ${budgetId}
       group by 1
    )
    select placed.id::text as sub_budget_id, sum(keyed.records)::int as records, coalesce(sum(keyed.total), 0)::text as total
      from keyed
      left join lateral (
        select s.id from read.sub_budgets s where s.scheme_id = ${schemeId} and s.classifiers = keyed.key order by s.name, s.id limit 1
      ) placed on true
     group by placed.id`.execute(read);
  return rows.map((row) => ({ subBudgetId: row.sub_budget_id ?? UNFIT_SUB_BUDGET_ID, records: row.records, total: row.total }));
}

/** The budget's record count and exact total. */
export async function budgetRecordTotal(read: ReadDatabase, budgetId: string): Promise<{ records: number; total: string }> {
  const { rows } = await sql<{ records: number; total: string }>`
    select count(*)::int as records, coalesce(sum(amount), 0)::text as total from read.records where budget_id = ${budgetId}`.execute(read);
  return rows[0] ?? { records: 0, total: '0' };
}
