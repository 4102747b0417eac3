import { type ApprovalActor, type BudgetApprovalCommand, budgetApprovalDecider } from '@eelarve/domain';
import { findOccupation } from '@eelarve/projections/accounts/queries';
import { approvalHistory, approvalState } from '@eelarve/projections/budget-approval/queries';
import type { BudgetRow } from '@eelarve/projections/budgets/queries';
import { type ApprovalHistoryEntry, type ApprovalState, PRIVILEGES } from '@eelarve/shared';
import type { FastifyInstance } from 'fastify';
import { readModels } from '../../infrastructure/database';
import { effectiveApprovalRoute } from '../approval-route/service';
import type { Caller } from '../../types';
import { budgetResource } from '../budgets/access';
import { isPlatformAdmin } from '../permissions/authorize';
import { budgetStatusDecider } from './status';

/** The approval screen reads the route's read model; a step that sets a status also changes the budget list. */
const APPROVAL_READ_MODELS = ['budget_approval'] as const;
const BUDGET_READ_MODELS = ['budgets'] as const;

type StepCommand =
  | { type: 'SubmitBudgetForApproval'; comment: string }
  | { type: 'ApproveBudget'; comment: string }
  | { type: 'SendBudgetBack'; reason: string }
  | { type: 'ReopenBudgetApproval'; reason: string };

/**
 * A budget's approval route (issue 10, point 6): every call checks the caller may update the
 * budget (404 BUDGET_NOT_FOUND for a missing or another organisation's budget, 403 otherwise);
 * the decider then checks the action's rule, the step and four eyes.
 */
export function budgetApprovalService(app: FastifyInstance) {
  const read = () => readModels(app.db);

  /** The acting occupation as the decider's rules see it; a platform administrator holds every privilege. */
  async function actorOf({ auth }: Caller): Promise<ApprovalActor> {
    const occupation = auth.occupationId ? await findOccupation(read(), auth.occupationId) : undefined;
    return {
      userId: auth.userId,
      occupationId: auth.occupationId ?? '',
      privileges: isPlatformAdmin(auth) ? [...PRIVILEGES] : auth.privileges,
      roleIds: occupation?.role_ids ?? [],
    };
  }

  /** The route the organisation configured, the default one until it does. */
  const routeOf = (budget: BudgetRow) => effectiveApprovalRoute(app, budget.organization_id);

  /**
   * The step's status goes on the budget through the budget's own stream, after the approval
   * event. The two streams are not written atomically: if this second write fails (the budget
   * was deleted meanwhile, or the store is unavailable), the approval step stands, its history
   * names the status it meant to set, and the error is answered; taking the next step, or
   * editing the budget's status in its form, sets the status again.
   */
  async function applyStatus(caller: Caller, budgetId: string, resourceStatusId: string | null): Promise<string | null> {
    if (resourceStatusId === null) return null;
    const outcome = await app.commands.run({
      decider: budgetStatusDecider,
      command: { type: 'ApplyApprovalStatus', budgetId, resourceStatusId },
      actor: caller.actor,
      readModels: BUDGET_READ_MODELS,
    });
    return outcome.position;
  }

  async function takeStep(caller: Caller, budgetId: string, step: StepCommand) {
    const budget = await budgetResource(app, caller.auth, budgetId, 'updateStatus');
    const [actor, route] = await Promise.all([actorOf(caller), routeOf(budget)]);
    const outcome = await app.commands.run({
      decider: budgetApprovalDecider,
      command: ({ now }): BudgetApprovalCommand => ({
        ...step,
        budgetId: budget.id,
        documentId: budget.document_id,
        organizationId: budget.organization_id,
        actor,
        route,
        now,
      }),
      actor: caller.actor,
      readModels: APPROVAL_READ_MODELS,
      id: budget.id,
    });
    const event = outcome.events?.at(-1);
    const statusPosition = await applyStatus(caller, budget.id, event?.data.resourceStatusId ?? null);
    // The later position: a client waiting for it sees both the step and the budget's status.
    return { id: outcome.id, position: statusPosition ?? outcome.position };
  }

  return {
    /** Where the budget stands on its route and every step it took, oldest first. */
    get: async (caller: Caller, budgetId: string): Promise<{ state: ApprovalState; history: ApprovalHistoryEntry[] }> => {
      // Whoever may read the budget sees its route and history.
      const budget = await budgetResource(app, caller.auth, budgetId, 'see');
      const [state, history] = await Promise.all([approvalState(read(), budget.id), approvalHistory(read(), budget.id)]);
      return { state, history };
    },
    submit: (caller: Caller, budgetId: string, comment: string) => takeStep(caller, budgetId, { type: 'SubmitBudgetForApproval', comment }),
    approve: (caller: Caller, budgetId: string, comment: string) => takeStep(caller, budgetId, { type: 'ApproveBudget', comment }),
    sendBack: (caller: Caller, budgetId: string, reason: string) => takeStep(caller, budgetId, { type: 'SendBudgetBack', reason }),
    reopen: (caller: Caller, budgetId: string, reason: string) => takeStep(caller, budgetId, { type: 'ReopenBudgetApproval', reason }),
  };
}
