import {
  APPROVAL_ACTIONS,
  APPROVAL_ACTIONS_NEEDING_REASON,
  APPROVAL_TRANSITIONS,
  type ApprovalAction,
  type ApprovalRoute,
  type ApprovalRule,
  type ApprovalStep,
  DomainError,
  fieldError,
  isMultiLineText,
  LIMITS,
} from '@eelarve/shared';
import type { Decider } from '../decider';
import type { ApprovalStepData, BudgetApprovalEvent } from './events';

export interface BudgetApprovalState {
  step: ApprovalStep;
  /** The user who last submitted the budget (four eyes: the approver must differ when the route says so). */
  submittedBy: string | null;
}

/** The acting occupation as the read models know it, given to the decider as a fact. */
export interface ApprovalActor {
  userId: string;
  occupationId: string;
  privileges: readonly string[];
  roleIds: readonly string[];
}

interface ApprovalCommandBase {
  budgetId: string;
  documentId: string;
  organizationId: string;
  actor: ApprovalActor;
  /** The route's configuration: who may take each action, which status each step sets. */
  route: ApprovalRoute;
  now: Date;
}

export type BudgetApprovalCommand =
  | (ApprovalCommandBase & { type: 'SubmitBudgetForApproval'; comment: string })
  | (ApprovalCommandBase & { type: 'ApproveBudget'; comment: string })
  | (ApprovalCommandBase & { type: 'SendBudgetBack'; reason: string })
  | (ApprovalCommandBase & { type: 'ReopenBudgetApproval'; reason: string });

/** One stream per budget's route, apart from the budget's own: approving never collides with editing. */
export const budgetApprovalStream = (budgetId: string) => `budget-approval-${budgetId}`;

/** A rule allows privileges or roles, never both; one naming neither leaves the action to whoever may update the budget. */
export function mayTakeAction(rule: ApprovalRule, actor: ApprovalActor): boolean {
  if (rule.allowedPrivileges.length > 0) return rule.allowedPrivileges.some((privilege) => actor.privileges.includes(privilege));
  if (rule.allowedRoleIds.length > 0) return rule.allowedRoleIds.some((roleId) => actor.roleIds.includes(roleId));
  return true;
}

function assertValidRoute(route: ApprovalRoute): void {
  for (const action of APPROVAL_ACTIONS) {
    const rule = route.rules[action];
    if (rule.allowedPrivileges.length > 0 && rule.allowedRoleIds.length > 0) {
      throw fieldError('APPROVAL_RULE_MIXES_ALLOWANCES', `rules.${action}`, 'a rule allows privileges or roles, not both');
    }
  }
}

/** The why of a step: bounded text area, required for a send back and a reopen. */
function checkedReason(action: ApprovalAction, field: 'comment' | 'reason', text: string): string {
  if (!isMultiLineText(text)) throw fieldError('SCHEMA_VALIDATION_ERROR', field, 'validation.controlCharacters');
  const trimmed = text.trim();
  if (trimmed.length > LIMITS.textArea) throw fieldError('SCHEMA_VALIDATION_ERROR', field, 'validation.maxLength');
  if (trimmed === '' && APPROVAL_ACTIONS_NEEDING_REASON.includes(action)) throw fieldError('SCHEMA_VALIDATION_ERROR', field, 'validation.required');
  return trimmed;
}

/**
 * The checks every action shares, in the order a user understands them: the route must be
 * well-formed, the occupation allowed, the budget at a step the action starts from.
 */
function takeStep(
  command: BudgetApprovalCommand,
  state: BudgetApprovalState,
  action: ApprovalAction,
  why: { field: 'comment' | 'reason'; text: string },
): ApprovalStepData {
  assertValidRoute(command.route);
  if (!mayTakeAction(command.route.rules[action], command.actor)) throw new DomainError('APPROVAL_ACTION_NOT_ALLOWED', `may not ${action}`, { action });
  const transition = APPROVAL_TRANSITIONS[action];
  if (!transition.from.includes(state.step))
    throw new DomainError('APPROVAL_STATE_INVALID', `cannot ${action} from ${state.step}`, { action, step: state.step });
  const reason = checkedReason(action, why.field, why.text);
  const { budgetId, documentId, organizationId, actor } = command;
  return {
    budgetId,
    documentId,
    organizationId,
    fromStep: state.step,
    toStep: transition.to,
    userId: actor.userId,
    occupationId: actor.occupationId,
    at: command.now.toISOString(),
    reason,
    resourceStatusId: command.route.stepStatuses[transition.to] ?? null,
  };
}

function submit(command: Extract<BudgetApprovalCommand, { type: 'SubmitBudgetForApproval' }>, state: BudgetApprovalState): BudgetApprovalEvent[] {
  return [{ type: 'BudgetSubmittedForApproval', data: takeStep(command, state, 'SUBMIT', { field: 'comment', text: command.comment }) }];
}

function approve(command: Extract<BudgetApprovalCommand, { type: 'ApproveBudget' }>, state: BudgetApprovalState): BudgetApprovalEvent[] {
  const data = takeStep(command, state, 'APPROVE', { field: 'comment', text: command.comment });
  if (command.route.approverMustDifferFromSubmitter && state.submittedBy === command.actor.userId) throw new DomainError('APPROVAL_SELF_APPROVAL_NOT_ALLOWED');
  return [{ type: 'BudgetApproved', data }];
}

function sendBack(command: Extract<BudgetApprovalCommand, { type: 'SendBudgetBack' }>, state: BudgetApprovalState): BudgetApprovalEvent[] {
  return [{ type: 'BudgetSentBack', data: takeStep(command, state, 'SEND_BACK', { field: 'reason', text: command.reason }) }];
}

/** An approved budget opens again (back to DRAFT), with a reason: the lock an approval set is lifted by the DRAFT step's status. */
function reopen(command: Extract<BudgetApprovalCommand, { type: 'ReopenBudgetApproval' }>, state: BudgetApprovalState): BudgetApprovalEvent[] {
  return [{ type: 'BudgetApprovalReopened', data: takeStep(command, state, 'REOPEN', { field: 'reason', text: command.reason }) }];
}

export const budgetApprovalDecider: Decider<BudgetApprovalCommand, BudgetApprovalEvent, BudgetApprovalState> = {
  streamName: (command) => budgetApprovalStream(command.budgetId),
  initialState: () => ({ step: 'DRAFT', submittedBy: null }),
  evolve(state, event) {
    const submittedBy = event.type === 'BudgetSubmittedForApproval' ? event.data.userId : state.submittedBy;
    return { step: event.data.toStep, submittedBy };
  },
  decide(command, state) {
    switch (command.type) {
      case 'SubmitBudgetForApproval':
        return submit(command, state);
      case 'ApproveBudget':
        return approve(command, state);
      case 'SendBudgetBack':
        return sendBack(command, state);
      case 'ReopenBudgetApproval':
        return reopen(command, state);
    }
  },
};
