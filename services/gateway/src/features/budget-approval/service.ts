import { type ApprovalActor, type BudgetApprovalCommand, budgetApprovalDecider, mayTakeAction } from '@eelarve/domain';
import { findOccupation } from '@eelarve/projections/accounts/queries';
import { approvalHistory, approvalState } from '@eelarve/projections/budget-approval/queries';
import type { BudgetRow } from '@eelarve/projections/budgets/queries';
import {
  APPROVAL_ACTIONS,
  APPROVAL_TRANSITIONS,
  type ApprovalAction,
  type ApprovalHistoryEntry,
  type ApprovalRoute,
  type ApprovalState,
  type BudgetApproval,
  PRIVILEGES,
} from '@eelarve/shared';
import type { FastifyInstance } from 'fastify';
import { readModels } from '../../infrastructure/database';
import { effectiveApprovalRoute } from '../approval-route/service';
import type { Caller } from '../../types';
import { budgetRef, budgetResource } from '../budgets/access';
import { canAccess, isPlatformAdmin } from '../permissions/authorize';
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

  /**
   * The actions the caller may take from the budget's step, by the checks the decider makes: the
   * step the action starts from, the route's rule (`mayTakeAction`), four eyes; and first the
   * update grant every step needs. A refusal the screen could not foresee (a race) still comes
   * from the decider.
   */
  async function actionsOf(caller: Caller, budget: BudgetRow, state: ApprovalState, history: readonly ApprovalHistoryEntry[]): Promise<ApprovalAction[]> {
    if (!(await canAccess(app, caller.auth, budgetRef(budget), 'updateStatus'))) return [];
    const [actor, route] = await Promise.all([actorOf(caller), routeOf(budget)]);
    return APPROVAL_ACTIONS.filter(
      (action) =>
        APPROVAL_TRANSITIONS[action].from.includes(state.step) &&
        mayTakeAction(route.rules[action], actor) &&
        !(action === 'APPROVE' && wouldApproveOwnSubmission(route, history, actor)),
    );
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
    get: async (caller: Caller, budgetId: string): Promise<BudgetApproval> => {
      // Whoever may read the budget sees its route and history; the actions are the caller's own.
      const budget = await budgetResource(app, caller.auth, budgetId, 'see');
      const [state, history] = await Promise.all([approvalState(read(), budget.id), approvalHistory(read(), budget.id)]);
      return { state, history, actions: await actionsOf(caller, budget, state, history) };
    },
    submit: (caller: Caller, budgetId: string, comment: string) => takeStep(caller, budgetId, { type: 'SubmitBudgetForApproval', comment }),
    approve: (caller: Caller, budgetId: string, comment: string) => takeStep(caller, budgetId, { type: 'ApproveBudget', comment }),
    sendBack: (caller: Caller, budgetId: string, reason: string) => takeStep(caller, budgetId, { type: 'SendBudgetBack', reason }),
    reopen: (caller: Caller, budgetId: string, reason: string) => takeStep(caller, budgetId, { type: 'ReopenBudgetApproval', reason }),
  };
}

/**
 * Four eyes as the decider applies it: the route requires another approver and the caller's user
 * made the last submission (the decider's `submittedBy`, here read from the history).
 */
function wouldApproveOwnSubmission(route: ApprovalRoute, history: readonly ApprovalHistoryEntry[], actor: ApprovalActor): boolean {
  const lastSubmission = history.findLast((entry) => entry.action === 'SUBMIT');
  return route.approverMustDifferFromSubmitter && lastSubmission?.userId === actor.userId;
}
