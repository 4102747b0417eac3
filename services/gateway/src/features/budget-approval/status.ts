import { type BudgetCommand, type BudgetEvent, type BudgetState, budgetDecider, type Decider } from '@eelarve/domain';
import { DomainError } from '@eelarve/shared';

/** Puts the status an approval step names on the budget, leaving every other field as its stream holds it. */
export interface ApplyApprovalStatus {
  type: 'ApplyApprovalStatus';
  budgetId: string;
  resourceStatusId: string;
}

/**
 * The budget decider has no command that sets only the status: `UpdateBudget` carries every field.
 * This adapter builds that update from the budget's own folded state (not from the read model), so
 * a concurrent edit of the name or components is never overwritten with a stale copy: a lost race
 * is decided again on the fresh stream by the runner. A sum budget's components are unchanged,
 * so each is given as a readable fact (they passed the sum-budget rules when they were set).
 */
export const budgetStatusDecider: Decider<ApplyApprovalStatus, BudgetEvent, BudgetState> = {
  streamName: (command) => budgetDecider.streamName({ type: 'SetBudgetTags', budgetId: command.budgetId, tags: [] }),
  initialState: budgetDecider.initialState,
  evolve: budgetDecider.evolve,
  decide(command, state) {
    if (state.status !== 'active') throw new DomainError('BUDGET_NOT_FOUND');
    const update: BudgetCommand = {
      type: 'UpdateBudget',
      budgetId: command.budgetId,
      name: state.name,
      description: state.description,
      resourceStatusId: command.resourceStatusId,
      sumBudgetComponentIds: [...state.sumBudgetComponentIds],
      componentFacts: state.sumBudgetComponentIds.map((id) => ({ id, sumBudgetComponentIds: [], readable: true })),
    };
    return budgetDecider.decide(update, state);
  },
};
