import type { ApprovalAction, ApprovalStep } from '@eelarve/shared';
import type { DomainEvent } from '../decider';

/** What every step of the route records: which budget, who (user and occupation), when and why. */
export interface ApprovalStepData {
  budgetId: string;
  documentId: string;
  organizationId: string;
  fromStep: ApprovalStep;
  toStep: ApprovalStep;
  userId: string;
  occupationId: string;
  at: string;
  /** The comment of a submit or approve (may be empty), the reason of a send back or reopen. */
  reason: string;
  /**
   * The resource status this step puts on the budget (from the route's configuration), null when
   * the budget keeps its status. The budget service applies it to the budget's own stream.
   */
  resourceStatusId: string | null;
}

export type BudgetSubmittedForApproval = DomainEvent<'BudgetSubmittedForApproval', ApprovalStepData>;
export type BudgetApproved = DomainEvent<'BudgetApproved', ApprovalStepData>;
export type BudgetSentBack = DomainEvent<'BudgetSentBack', ApprovalStepData>;
export type BudgetApprovalReopened = DomainEvent<'BudgetApprovalReopened', ApprovalStepData>;

export type BudgetApprovalEvent = BudgetSubmittedForApproval | BudgetApproved | BudgetSentBack | BudgetApprovalReopened;

export const BUDGET_APPROVAL_EVENT_TYPES = [
  'BudgetSubmittedForApproval',
  'BudgetApproved',
  'BudgetSentBack',
  'BudgetApprovalReopened',
] as const satisfies readonly BudgetApprovalEvent['type'][];

/** The action each event records (the history's `action` column). */
export const APPROVAL_ACTION_OF_EVENT: Record<BudgetApprovalEvent['type'], ApprovalAction> = {
  BudgetSubmittedForApproval: 'SUBMIT',
  BudgetApproved: 'APPROVE',
  BudgetSentBack: 'SEND_BACK',
  BudgetApprovalReopened: 'REOPEN',
};
