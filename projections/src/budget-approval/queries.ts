import type { ApprovalHistoryEntry, ApprovalState, ApprovalStep } from '@eelarve/shared';
import type { Selectable } from 'kysely';
import type { ReadDatabase } from '../read-models';
import type { BudgetApprovalHistoryTable } from './tables';

type HistoryRow = Selectable<BudgetApprovalHistoryTable>;

const historyEntry = (row: HistoryRow): ApprovalHistoryEntry => ({
  action: row.action,
  fromStep: row.from_step,
  toStep: row.to_step,
  userId: row.user_id,
  occupationId: row.occupation_id,
  at: row.at.toISOString(),
  reason: row.reason,
  resourceStatusId: row.resource_status_id,
});

/** The budget's route, oldest step first (empty for a budget never submitted). */
export async function approvalHistory(read: ReadDatabase, budgetId: string): Promise<ApprovalHistoryEntry[]> {
  const rows = await read.selectFrom('budget_approval_history').selectAll().where('budget_id', '=', budgetId).orderBy('revision').execute();
  return rows.map(historyEntry);
}

/** Where the budget stands and its last step; a budget never submitted is a DRAFT with no last action. */
export async function approvalState(read: ReadDatabase, budgetId: string): Promise<ApprovalState> {
  const last = await read
    .selectFrom('budget_approval_history')
    .selectAll()
    .where('budget_id', '=', budgetId)
    .orderBy('revision', 'desc')
    .limit(1)
    .executeTakeFirst();
  return { budgetId, step: last?.to_step ?? 'DRAFT', lastAction: last ? historyEntry(last) : null };
}

/** One row per budget of a list: its step and when it got there (null for a budget never submitted). */
export interface BudgetApprovalListState {
  budgetId: string;
  step: ApprovalStep;
  updatedAt: string | null;
}

/**
 * The step of every budget of a document, in one query (for the budget list's column and filter);
 * budgets never submitted are DRAFT. Reads the budgets read model for the document's budgets.
 */
export async function documentApprovalStates(read: ReadDatabase, documentId: string): Promise<BudgetApprovalListState[]> {
  const rows = await read
    .selectFrom('budgets')
    .leftJoin('budget_approval_states', 'budget_approval_states.budget_id', 'budgets.id')
    .select(['budgets.id as budgetId', 'budget_approval_states.step', 'budget_approval_states.updated_at'])
    .where('budgets.document_id', '=', documentId)
    .orderBy('budgets.sort_order', 'desc')
    .orderBy('budgets.created_at')
    .orderBy('budgets.id')
    .execute();
  return rows.map((row) => ({ budgetId: row.budgetId, step: row.step ?? 'DRAFT', updatedAt: row.updated_at ? row.updated_at.toISOString() : null }));
}
