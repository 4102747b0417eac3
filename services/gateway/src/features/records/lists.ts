import { recordsAsJsonBatches, recordsAsJsonBytes, subBudgetsForFitting } from '@eelarve/projections/records/api-queries';
import { budgetRecordsWhere, fittingRecordsWhere, recordsJsonBytes } from '@eelarve/projections/records/queries';
import { findScheme } from '@eelarve/projections/schemes/queries';
import { type BudgetRecord, DomainError } from '@eelarve/shared';
import type { FastifyInstance } from 'fastify';
import { readModels } from '../../infrastructure/database';
import { jsonArrayBatch } from '../../infrastructure/json-text';
import type { AuthContext, Caller } from '../../types';
import { subBudgetAccess } from '../permissions/authorize';
import { budgetPlace, type RecordsPlace, schemeOfBudget, subBudgetPlace } from './access';
import { schemeClassifierIds, schemeFitter } from './fitting';

/**
 * Lists of a budget's records (spec 3, section 7), for callers who read the whole budget and for
 * those granted only some of its sub-budgets: a budget opened through a sub-budget grant (to
 * navigate to it) shows only the records that fall in the granted sub-budgets, never the rest of
 * the budget. Every list is batches of records' JSON bytes read by a cursor (responses.ts's
 * json-text.ts's sendJsonArray streams them): a whole budget may hold a million records. The cursor holds its
 * connection until the client has read the list, so cursors read through the lists' own pool
 * (app.listsDb), never the one sign-in, commands and projections share.
 */

/**
 * A list's records as batches of their JSON's UTF-8 bytes, in the list's order: each batch one
 * free byte (for the '[' or ',' before it) and its records comma-separated (listRowsBytes, or json-text.ts's jsonArrayBatch).
 */
export type RecordBatches = AsyncIterable<Buffer>;

/** The sub-budgets granted one by one when the caller does not read the whole budget; null when they do. */
async function grantedSubBudgets(app: FastifyInstance, auth: AuthContext, place: RecordsPlace): Promise<Set<string> | null> {
  const { budget } = place;
  const access = await subBudgetAccess(app, auth, { organizationId: budget.organizationId, documentId: budget.documentId, budgetId: budget.id });
  if (!access.only) return null;
  return new Set((await access.only.execute()).map((row) => row.id));
}

/** The unfit row of a scheme is no sub-budget's: only a reader of the whole budget reads it. */
async function wholeBudgetReader(app: FastifyInstance, auth: AuthContext, place: RecordsPlace): Promise<void> {
  if ((await grantedSubBudgets(app, auth, place)) !== null) throw new DomainError('INSUFFICIENT_PERMISSIONS', 'the unfit row needs read on the whole budget');
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

type FittedRecord = BudgetRecord & { subBudgetIds: Record<string, string> };

/**
 * How each record of a budget is answered when the list names its sub-budget per scheme (or when
 * the caller reads only some sub-budgets): the record with its sub-budget in each scheme, or
 * undefined when the caller may not see it.
 */
async function recordFitting(app: FastifyInstance, auth: AuthContext, place: RecordsPlace, schemeIds: readonly string[] | null) {
  const granted = await grantedSubBudgets(app, auth, place);
  const ids = schemeIds ?? (granted ? await schemesOf(app, [...granted]) : []);
  const [schemes, subBudgets] = await Promise.all([
    Promise.all(ids.map((id) => schemeOfBudget(app, place.budget, id))),
    subBudgetsForFitting(readModels(app.db), ids),
  ]);
  const fitters = schemes.map((scheme) => ({
    schemeId: scheme.id,
    fit: schemeFitter(
      schemeClassifierIds(scheme),
      subBudgets.filter((subBudget) => subBudget.scheme_id === scheme.id),
    ),
  }));
  return (record: BudgetRecord): FittedRecord | undefined => {
    const subBudgetIds = Object.fromEntries(fitters.map(({ schemeId, fit }) => [schemeId, fit(record.classifiers)]));
    if (granted && !Object.values(subBudgetIds).some((id) => granted.has(id))) return undefined;
    return { ...record, subBudgetIds };
  };
}

/** The budget's records answered as `answer` makes each; undefined leaves a record out (a batch left empty is none). */
async function* reshaped(app: FastifyInstance, place: RecordsPlace, answer: (record: BudgetRecord) => object | undefined): RecordBatches {
  for await (const batch of recordsAsJsonBatches(readModels(app.listsDb), { kind: 'budget', budgetId: place.budget.id })) {
    const records = JSON.parse(`[${batch.join(',')}]`) as BudgetRecord[];
    yield jsonArrayBatch(
      records.flatMap((record) => {
        const answered = answer(record);
        return answered ? [JSON.stringify(answered)] : [];
      }),
    );
  }
}

/** Where a list of records is asked: a budget, a sub-budget (or a scheme's unfit row, -2, with `schemeId`). */
export interface RecordListPath {
  budgetId: string;
  subBudgetId: string;
  schemeId?: string;
}

/** The records lists of spec 3, section 7, access checked first: each answers batches of records' JSON texts. */
export function recordLists(app: FastifyInstance) {
  const read = () => readModels(app.db);
  /** Where a list's cursor reads: the lists' pool. */
  const cursorRead = () => readModels(app.listsDb);

  return {
    /** GET api/budget/{id}/records: every record of the budget the caller reads. */
    async ofBudget(caller: Caller, budgetId: string): Promise<RecordBatches> {
      const place = await budgetPlace(app, caller.auth, budgetId, 'read');
      if ((await grantedSubBudgets(app, caller.auth, place)) === null) return recordsJsonBytes(cursorRead(), budgetRecordsWhere(place.budget.id));
      const fitting = await recordFitting(app, caller.auth, place, null);
      return reshaped(app, place, (record) => {
        const fitted = fitting(record);
        if (!fitted) return undefined;
        const { subBudgetIds: _, ...plain } = fitted;
        return plain;
      });
    },

    /** GET api/budget/{b}/sub-budget/{s}/records: the sub-budget's records, or the scheme's unfit ones (-2). */
    async ofSubBudget(caller: Caller, path: RecordListPath): Promise<RecordBatches> {
      const place = await subBudgetPlace(app, caller.auth, path.budgetId, path.subBudgetId, 'read', path.schemeId);
      const budgetId = place.budget.id;
      if (place.kind === 'subBudget') {
        const { classifiers, schemeClassifierIds: ids } = place.subBudgetFact;
        return recordsJsonBytes(
          cursorRead(),
          fittingRecordsWhere(budgetId, { classifiers, emptyClassifierIds: ids.filter((id) => classifiers[id] === undefined) }),
        );
      }
      if (place.kind === 'unfit') {
        await wholeBudgetReader(app, caller.auth, place);
        return recordsAsJsonBytes(cursorRead(), { kind: 'unfit', budgetId, schemeId: place.scheme.id, classifierIds: schemeClassifierIds(place.scheme) });
      }
      return recordsJsonBytes(cursorRead(), budgetRecordsWhere(budgetId));
    },

    /** GET api/budget/{b}/schema/{s}/records: the budget's records, each with the sub-budget it falls in (or -2). */
    async ofScheme(caller: Caller, budgetId: string, schemeId: string): Promise<RecordBatches> {
      const place = await budgetPlace(app, caller.auth, budgetId, 'read');
      if (!(await findScheme(read(), schemeId))) throw new DomainError('SCHEME_NOT_FOUND');
      const fitting = await recordFitting(app, caller.auth, place, [schemeId]);
      return reshaped(app, place, (record) => {
        const fitted = fitting(record);
        if (!fitted) return undefined;
        const { subBudgetIds, ...plain } = fitted;
        return { ...plain, subBudgetId: subBudgetIds[schemeId] as string };
      });
    },

    /** GET api/budget/{b}/schema-records?schemaIds=: the budget's records with their sub-budget in each scheme. */
    async ofSchemes(caller: Caller, budgetId: string, schemeIds: readonly string[]): Promise<RecordBatches> {
      const place = await budgetPlace(app, caller.auth, budgetId, 'read');
      return reshaped(app, place, await recordFitting(app, caller.auth, place, schemeIds));
    },
  };
}
