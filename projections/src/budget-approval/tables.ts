import type { ApprovalAction, ApprovalStep } from '@eelarve/shared';
import type { ColumnType } from 'kysely';

type Timestamp = ColumnType<Date, string, string>;

/** A budget's place on its approval route; a budget without a row has never been submitted (DRAFT). */
export interface BudgetApprovalStatesTable {
  budget_id: string;
  document_id: string;
  organization_id: string;
  step: ApprovalStep;
  /** The revision of the route's stream the row reflects (its last history entry). */
  revision: number;
  updated_at: Timestamp;
}

/** Every step of every budget's route, oldest first by `revision` (the event's place in the route's stream). */
export interface BudgetApprovalHistoryTable {
  budget_id: string;
  revision: number;
  document_id: string;
  organization_id: string;
  action: ApprovalAction;
  from_step: ApprovalStep;
  to_step: ApprovalStep;
  user_id: string;
  occupation_id: string;
  at: Timestamp;
  /** The comment of a submit or approve (may be empty), the reason of a send back or reopen. */
  reason: string;
  /** The resource status the step put on the budget, null when it left the status as it was. */
  resource_status_id: string | null;
}

export interface BudgetApprovalReadModel {
  budget_approval_states: BudgetApprovalStatesTable;
  budget_approval_history: BudgetApprovalHistoryTable;
}
