import { recordsAsObjects, subBudgetsForFitting } from '@eelarve/projections/records/api-queries';
import { findScheme } from '@eelarve/projections/schemes/queries';
import { type BudgetRecord, DomainError } from '@eelarve/shared';
import type { FastifyInstance } from 'fastify';
import { readModels } from '../../infrastructure/database';
import type { AuthContext } from '../../types';
import { subBudgetAccess } from '../permissions/authorize';
import { type RecordsPlace, schemeOfBudget } from './access';
import { schemeClassifierIds, schemeFitter } from './fitting';

/**
 * Lists of a budget's records seen through schemes (spec 3, section 7), for callers who read the
 * whole budget and for those granted only some of its sub-budgets: a budget opened through a
 * sub-budget grant (to navigate to it) shows only the records that fall in the granted
 * sub-budgets, never the rest of the budget.
 */

/** The sub-budgets granted one by one when the caller does not read the whole budget; null when they do. */
async function grantedSubBudgets(app: FastifyInstance, auth: AuthContext, place: RecordsPlace): Promise<Set<string> | null> {
  const { budget } = place;
  const access = await subBudgetAccess(app, auth, { organizationId: budget.organizationId, documentId: budget.documentId, budgetId: budget.id });
  if (!access.only) return null;
  return new Set((await access.only.execute()).map((row) => row.id));
}

/** Whether the caller reads the whole budget (not only some of its sub-budgets). */
export async function readsWholeBudget(app: FastifyInstance, auth: AuthContext, place: RecordsPlace): Promise<boolean> {
  return (await grantedSubBudgets(app, auth, place)) === null;
}

/** The unfit row of a scheme is no sub-budget's: only a reader of the whole budget reads it. */
export async function wholeBudgetReader(app: FastifyInstance, auth: AuthContext, place: RecordsPlace): Promise<void> {
  if (!(await readsWholeBudget(app, auth, place))) throw new DomainError('INSUFFICIENT_PERMISSIONS', 'the unfit row needs read on the whole budget');
}

/** The budget's records with the sub-budget each falls in per scheme, kept to what the caller reads. */
async function fittedRecords(app: FastifyInstance, auth: AuthContext, place: RecordsPlace, schemeIds: readonly string[] | null) {
  const read = readModels(app.db);
  const granted = await grantedSubBudgets(app, auth, place);
  const ids = schemeIds ?? (granted ? await schemesOf(app, [...granted]) : []);
  const schemes = await Promise.all(ids.map((id) => schemeOfBudget(app, place.budget, id)));
  const [records, subBudgets] = await Promise.all([
    recordsAsObjects<BudgetRecord>(read, { kind: 'budget', budgetId: place.budget.id }),
    subBudgetsForFitting(read, ids),
  ]);
  const fitters = schemes.map((scheme) => ({
    schemeId: scheme.id,
    fit: schemeFitter(
      schemeClassifierIds(scheme),
      subBudgets.filter((subBudget) => subBudget.scheme_id === scheme.id),
    ),
  }));
  const fitted = records.map((record) => ({
    ...record,
    subBudgetIds: Object.fromEntries(fitters.map(({ schemeId, fit }) => [schemeId, fit(record.classifiers)])),
  }));
  return granted ? fitted.filter((record) => Object.values(record.subBudgetIds).some((id) => granted.has(id))) : fitted;
}

/** The schemes the sub-budgets belong to. */
async function schemesOf(app: FastifyInstance, subBudgetIds: readonly string[]): Promise<string[]> {
  if (subBudgetIds.length === 0) return [];
  const rows = await readModels(app.db)
    .selectFrom('sub_budgets')
    .select('scheme_id')
    .distinct()
    .where('id', 'in', [...subBudgetIds])
    .execute();
  return rows.map((row) => row.scheme_id);
}

/** GET .../schema-records: with their sub-budget per scheme; null schemes (a partial reader's budget list): the records alone. */
export async function schemesRecordsOf(app: FastifyInstance, auth: AuthContext, place: RecordsPlace, schemeIds: readonly string[] | null) {
  const fitted = await fittedRecords(app, auth, place, schemeIds);
  return schemeIds ? fitted : fitted.map(({ subBudgetIds: _, ...record }) => record);
}

/** GET .../schema/{s}/records: each record with the scheme's sub-budget it falls in, or -2. */
export async function schemeRecordsOf(app: FastifyInstance, auth: AuthContext, place: RecordsPlace, schemeId: string) {
  if (!(await findScheme(readModels(app.db), schemeId))) throw new DomainError('SCHEME_NOT_FOUND');
  const fitted = await fittedRecords(app, auth, place, [schemeId]);
  return fitted.map(({ subBudgetIds, ...record }) => ({ ...record, subBudgetId: subBudgetIds[schemeId] as string }));
}
