import { findBudget } from '@eelarve/projections/budgets/queries';
import { findDocument } from '@eelarve/projections/documents/queries';
import { DomainError, RECENT_ACTIONS_MAX, type UserActionLog, type UserActionLogInput } from '@eelarve/shared';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { readModels } from '../../infrastructure/database';
import type { AuthContext, Caller } from '../../types';
import { budgetResource, permissionsOfEach } from '../budgets/access';
import { allows } from '../permissions/authorize';

/**
 * Visits kept per occupation: the dashboard lists 10, and some of the newest may be of budgets the
 * occupation can no longer read or that were deleted, which are skipped.
 */
export const USER_ACTION_LOGS_KEPT = 50;

function occupationOf(auth: AuthContext): string {
  if (!auth.occupationId) throw new DomainError('INSUFFICIENT_PERMISSIONS', 'no occupation selected');
  return auth.occupationId;
}

/** User action logs (spec 1, section 3): the report views the current occupation visited. */
export function userActionLogService(app: FastifyInstance) {
  const read = () => readModels(app.db);

  /** Keeps only the newest visits of the occupation. */
  async function prune(occupationId: string, actionType: string): Promise<void> {
    await app.db
      .deleteFrom('operational.user_action_logs')
      .where('occupation_id', '=', occupationId)
      .where('action_type', '=', actionType)
      .where('budget_id', 'not in', (eb) =>
        eb
          .selectFrom('operational.user_action_logs')
          .select('budget_id')
          .where('occupation_id', '=', occupationId)
          .where('action_type', '=', actionType)
          .orderBy('visited_at', 'desc')
          .limit(USER_ACTION_LOGS_KEPT),
      )
      .execute();
  }

  return {
    /** A visit of a budget's report the caller reads; a revisit moves it to the top. */
    async record(caller: Caller, input: UserActionLogInput): Promise<UserActionLog> {
      const occupationId = occupationOf(caller.auth);
      const budget = await budgetResource(app, caller.auth, input.budgetId, 'read');
      if (budget.document_id !== input.documentId) throw new DomainError('BUDGET_NOT_FOUND', 'the budget is not in the document');
      const document = await findDocument(read(), input.documentId);
      if (!document) throw new DomainError('OBJECT_NOT_FOUND', 'document not found');
      // The database's clock in microseconds: two visits in one millisecond still come in order.
      const visitedAt = sql<Date>`clock_timestamp()`;
      const { visited_at } = await app.db
        .insertInto('operational.user_action_logs')
        .values({ occupation_id: occupationId, user_id: caller.auth.userId, action_type: input.actionType, ...ids(input), visited_at: visitedAt })
        .onConflict((oc) => oc.columns(['occupation_id', 'action_type', 'budget_id']).doUpdateSet({ visited_at: visitedAt, document_id: input.documentId }))
        .returning('visited_at')
        .executeTakeFirstOrThrow();
      await prune(occupationId, input.actionType);
      return { ...input, documentName: document.name, budgetName: budget.name, visitedAt: visited_at.toISOString() };
    },

    /** The newest report views first, one per budget, at most 10, only of budgets the occupation still reads. */
    async currentOccupation(caller: Caller): Promise<UserActionLog[]> {
      const rows = await app.db
        .selectFrom('operational.user_action_logs')
        .selectAll()
        .where('occupation_id', '=', occupationOf(caller.auth))
        .where('action_type', '=', 'REPORT_VIEW')
        .orderBy('visited_at', 'desc')
        .limit(USER_ACTION_LOGS_KEPT)
        .execute();
      const budgets = (await Promise.all(rows.map((row) => findBudget(read(), row.budget_id)))).filter((budget) => budget !== undefined);
      const access = await permissionsOfEach(app, caller.auth, budgets);
      const readable = new Map(budgets.filter((_, index) => allows(access[index]!, 'read')).map((budget) => [budget.id, budget]));
      const visits = rows.filter((row) => readable.has(row.budget_id)).slice(0, RECENT_ACTIONS_MAX);
      const documents = new Map(
        await Promise.all([...new Set(visits.map((row) => row.document_id))].map(async (id) => [id, await findDocument(read(), id)] as const)),
      );
      return visits.flatMap((row) => {
        const document = documents.get(row.document_id);
        const budget = readable.get(row.budget_id);
        if (!document || !budget) return [];
        return [
          {
            actionType: 'REPORT_VIEW' as const,
            documentId: row.document_id,
            documentName: document.name,
            budgetId: row.budget_id,
            budgetName: budget.name,
            visitedAt: row.visited_at.toISOString(),
          },
        ];
      });
    },
  };
}

const ids = (input: UserActionLogInput) => ({ document_id: input.documentId, budget_id: input.budgetId });
