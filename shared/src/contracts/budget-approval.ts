import { z } from 'zod';
import { LIMITS } from '../limits';
import { PRIVILEGES } from '../privileges';
import { multiLineText } from '../text';
import { optionalTextArea, uuid } from '../validation';
import { DEFAULT_RESOURCE_STATUSES } from './resource-statuses';

/**
 * A budget's approval route (issue 10, point 6; beyond the spec). The route is a stream of its own
 * per budget (`budget-approval-<budgetId>`), so approving never collides with editing the budget:
 *
 *   DRAFT --submit--> SUBMITTED --approve--> APPROVED --reopen--> DRAFT
 *                     SUBMITTED --send back--> SENT_BACK --submit--> SUBMITTED
 *
 * Every step is an event recording who (user), in which occupation, when and why.
 */
export const APPROVAL_STEPS = ['DRAFT', 'SUBMITTED', 'SENT_BACK', 'APPROVED'] as const;
export type ApprovalStep = (typeof APPROVAL_STEPS)[number];

export const APPROVAL_ACTIONS = ['SUBMIT', 'APPROVE', 'SEND_BACK', 'REOPEN'] as const;
export type ApprovalAction = (typeof APPROVAL_ACTIONS)[number];

/** The steps each action may start from, and where it leads. */
export const APPROVAL_TRANSITIONS: Record<ApprovalAction, { from: readonly ApprovalStep[]; to: ApprovalStep }> = {
  SUBMIT: { from: ['DRAFT', 'SENT_BACK'], to: 'SUBMITTED' },
  APPROVE: { from: ['SUBMITTED'], to: 'APPROVED' },
  SEND_BACK: { from: ['SUBMITTED'], to: 'SENT_BACK' },
  REOPEN: { from: ['APPROVED'], to: 'DRAFT' },
};

/** Actions that must say why (a comment is optional for the others). */
export const APPROVAL_ACTIONS_NEEDING_REASON: readonly ApprovalAction[] = ['SEND_BACK', 'REOPEN'];

/**
 * Who may take one action, in the shape of a resource status rule: holders of any of the
 * privileges, or occupations holding any of the roles, never both in one rule. A rule naming
 * neither leaves the action to every occupation that may update the budget (the service checks
 * that resource access before deciding).
 */
export const approvalRuleSchema = z.object({
  allowedPrivileges: z
    .array(z.enum(PRIVILEGES, { message: 'validation.allowedValues' }))
    .max(PRIVILEGES.length)
    .default([]),
  allowedRoleIds: z.array(uuid).max(100).default([]),
});
export type ApprovalRule = z.output<typeof approvalRuleSchema>;

/**
 * The route's configuration, handed to the decider with each command: a rule per action, the
 * resource status each step puts on the budget (absent: the budget's status is left as it is;
 * approving with a read-only status locks the budget), and whether the approver must be someone
 * other than the last submitter (four eyes).
 */
export const approvalRouteSchema = z.object({
  rules: z.object({
    SUBMIT: approvalRuleSchema,
    APPROVE: approvalRuleSchema,
    SEND_BACK: approvalRuleSchema,
    REOPEN: approvalRuleSchema,
  }),
  stepStatuses: z.object({ DRAFT: uuid.optional(), SUBMITTED: uuid.optional(), SENT_BACK: uuid.optional(), APPROVED: uuid.optional() }).default({}),
  approverMustDifferFromSubmitter: z.boolean().default(false),
});
export type ApprovalRoute = z.output<typeof approvalRouteSchema>;

const anyoneWhoMayUpdate: ApprovalRule = { allowedPrivileges: [], allowedRoleIds: [] };
const statusAdministrators: ApprovalRule = { allowedPrivileges: ['STATUS_ADMIN'], allowedRoleIds: [] };

/**
 * The route an organisation has until it configures its own: whoever may update the budget
 * submits it; status administrators approve, send back and reopen, and not their own submission.
 * When the organisation uses resource statuses, each step sets the matching default status
 * (a submitted or approved budget is locked, a sent back or reopened one is in preparation again).
 */
export function defaultApprovalRoute(usesResourceStatuses: boolean): ApprovalRoute {
  const [inPreparation, submitted, approved] = DEFAULT_RESOURCE_STATUSES.map((status) => status.id);
  return {
    rules: { SUBMIT: anyoneWhoMayUpdate, APPROVE: statusAdministrators, SEND_BACK: statusAdministrators, REOPEN: statusAdministrators },
    stepStatuses: usesResourceStatuses ? { DRAFT: inPreparation, SUBMITTED: submitted, SENT_BACK: inPreparation, APPROVED: approved } : {},
    approverMustDifferFromSubmitter: true,
  };
}

/**
 * An organisation's route as GET/PUT/DELETE api/organization/{id}/approval-route answer it: the
 * route it configured, or the default one (`configured: false`) until it does or after a reset.
 * The PUT body is `approvalRouteSchema`.
 */
export const organizationApprovalRouteSchema = z.object({ configured: z.boolean(), route: approvalRouteSchema });
export type OrganizationApprovalRoute = z.output<typeof organizationApprovalRouteSchema>;
export type ApprovalRouteInput = z.input<typeof approvalRouteSchema>;

/** Bodies of the route's calls: submit and approve may carry a comment; send back and reopen need a reason. */
export const approvalCommentSchema = z.object({ comment: optionalTextArea().default('') });
export const approvalReasonSchema = z.object({ reason: multiLineText(LIMITS.textArea).min(1, { message: 'validation.required' }) });
export type ApprovalCommentInput = z.input<typeof approvalCommentSchema>;
export type ApprovalReasonInput = z.input<typeof approvalReasonSchema>;

/** One step of a budget's approval history, oldest first. */
export const approvalHistoryEntrySchema = z.object({
  action: z.enum(APPROVAL_ACTIONS),
  fromStep: z.enum(APPROVAL_STEPS),
  toStep: z.enum(APPROVAL_STEPS),
  userId: z.string(),
  occupationId: z.string(),
  at: z.string(),
  /** The comment of a submit or approve (may be empty), the reason of a send back or reopen. */
  reason: z.string(),
  /** The resource status the step put on the budget, null when it left the status as it was. */
  resourceStatusId: z.string().nullable(),
});
export type ApprovalHistoryEntry = z.infer<typeof approvalHistoryEntrySchema>;

/** A budget's place on its route; a budget nobody has submitted yet is a DRAFT with no last action. */
export const approvalStateSchema = z.object({
  budgetId: z.string(),
  step: z.enum(APPROVAL_STEPS),
  lastAction: approvalHistoryEntrySchema.nullable(),
});
export type ApprovalState = z.infer<typeof approvalStateSchema>;

/**
 * GET api/budget/{id}/approval: where the budget stands, every step so far, and the actions the
 * caller may take from this step (the route's rules, the update grant and four eyes already
 * applied by the server, so a screen offers exactly these).
 */
export const budgetApprovalSchema = z.object({
  state: approvalStateSchema,
  history: z.array(approvalHistoryEntrySchema),
  actions: z.array(z.enum(APPROVAL_ACTIONS)),
});
export type BudgetApproval = z.infer<typeof budgetApprovalSchema>;
