import {
  type ApprovalRoute,
  approvalCommentSchema,
  approvalReasonSchema,
  DEFAULT_RESOURCE_STATUSES,
  type DomainError,
  defaultApprovalRoute,
  LIMITS,
} from '@eelarve/shared';
import { describe, expect, it } from 'vitest';
import { expectDomainError, givenFor } from '../testing';
import { type ApprovalActor, type BudgetApprovalCommand, type BudgetApprovalState, budgetApprovalDecider, budgetApprovalStream } from './decider';
import type { ApprovalStepData, BudgetApprovalEvent } from './events';

const budgetId = '11111111-1111-4111-8111-111111111111';
const documentId = '22222222-2222-4222-8222-222222222222';
const organizationId = '33333333-3333-4333-8333-333333333333';
const approverRoleId = '44444444-4444-4444-8444-444444444444';
const submitted = DEFAULT_RESOURCE_STATUSES[1]!.id;
const approved = DEFAULT_RESOURCE_STATUSES[2]!.id;
const inPreparation = DEFAULT_RESOURCE_STATUSES[0]!.id;
const now = new Date('2026-11-25T09:00:00Z');

/** Departments submit (anyone who may update the budget); the finance role approves and sends back; STATUS_ADMIN reopens. */
const route: ApprovalRoute = {
  rules: {
    SUBMIT: { allowedPrivileges: [], allowedRoleIds: [] },
    APPROVE: { allowedPrivileges: [], allowedRoleIds: [approverRoleId] },
    SEND_BACK: { allowedPrivileges: [], allowedRoleIds: [approverRoleId] },
    REOPEN: { allowedPrivileges: ['STATUS_ADMIN'], allowedRoleIds: [] },
  },
  stepStatuses: { DRAFT: inPreparation, SUBMITTED: submitted, APPROVED: approved },
  approverMustDifferFromSubmitter: false,
};

const department: ApprovalActor = { userId: 'user-department', occupationId: 'occupation-department', privileges: ['DATA_VIEW'], roleIds: [] };
const finance: ApprovalActor = { userId: 'user-finance', occupationId: 'occupation-finance', privileges: [], roleIds: [approverRoleId] };
const statusAdmin: ApprovalActor = { userId: 'user-admin', occupationId: 'occupation-admin', privileges: ['STATUS_ADMIN'], roleIds: [] };

const base = { budgetId, documentId, organizationId, route, now };
const submit = (actor = department, comment = ''): BudgetApprovalCommand => ({ ...base, type: 'SubmitBudgetForApproval', actor, comment });
const approve = (actor = finance, comment = ''): BudgetApprovalCommand => ({ ...base, type: 'ApproveBudget', actor, comment });
const sendBack = (actor = finance, reason = 'Palgakulud on alahinnatud'): BudgetApprovalCommand => ({ ...base, type: 'SendBudgetBack', actor, reason });
const reopen = (actor = statusAdmin, reason = 'Lisaeelarve'): BudgetApprovalCommand => ({ ...base, type: 'ReopenBudgetApproval', actor, reason });

const stepData = (actor: ApprovalActor, changes: Partial<ApprovalStepData>): ApprovalStepData => ({
  budgetId,
  documentId,
  organizationId,
  fromStep: 'DRAFT',
  toStep: 'SUBMITTED',
  userId: actor.userId,
  occupationId: actor.occupationId,
  at: now.toISOString(),
  reason: '',
  resourceStatusId: null,
  ...changes,
});
const wasSubmitted: BudgetApprovalEvent = { type: 'BudgetSubmittedForApproval', data: stepData(department, { resourceStatusId: submitted }) };
const wasSentBack: BudgetApprovalEvent = {
  type: 'BudgetSentBack',
  data: stepData(finance, { fromStep: 'SUBMITTED', toStep: 'SENT_BACK', reason: 'Palgakulud on alahinnatud' }),
};
const wasResubmitted: BudgetApprovalEvent = {
  type: 'BudgetSubmittedForApproval',
  data: stepData(department, { fromStep: 'SENT_BACK', resourceStatusId: submitted }),
};
const wasApproved: BudgetApprovalEvent = {
  type: 'BudgetApproved',
  data: stepData(finance, { fromStep: 'SUBMITTED', toStep: 'APPROVED', resourceStatusId: approved }),
};

const given = givenFor<BudgetApprovalCommand, BudgetApprovalEvent, BudgetApprovalState>(budgetApprovalDecider);

describe('budget approval decider', () => {
  it('keeps the route in a stream of its own, apart from the budget', () => {
    expect(budgetApprovalDecider.streamName(submit())).toBe(`budget-approval-${budgetId}`);
    expect(budgetApprovalStream(budgetId)).not.toBe(`budget-${budgetId}`);
  });

  it('submits a draft, recording who, in which occupation, when, why, and the status the step sets', () => {
    expect(given([]).when(submit(department, '  Valmis  '))()).toEqual([
      { type: 'BudgetSubmittedForApproval', data: stepData(department, { reason: 'Valmis', resourceStatusId: submitted }) },
    ]);
  });

  it('goes through submit, send back, submit and approve; approving carries the read-only status to lock the budget', () => {
    expect(given([wasSubmitted]).when(sendBack())()).toEqual([wasSentBack]);
    expect(given([wasSubmitted, wasSentBack]).when(submit())()).toEqual([wasResubmitted]);
    expect(given([wasSubmitted, wasSentBack, wasResubmitted]).when(approve())()).toEqual([wasApproved]);
    expect(budgetApprovalDecider.evolve(budgetApprovalDecider.initialState(), wasApproved).step).toBe('APPROVED');
  });

  it('leaves the budget status alone when the route names no status for the step', () => {
    const bare = { ...route, stepStatuses: {} };
    const [event] = given([wasSubmitted]).when({ ...base, type: 'SendBudgetBack', actor: finance, reason: 'Vaata üle', route: bare })();
    expect(event?.data.resourceStatusId).toBeNull();
  });

  it('reopens an approved budget back to a draft with a reason, setting the draft step status', () => {
    const events = given([wasSubmitted, wasApproved]).when(reopen())();
    expect(events).toEqual([
      {
        type: 'BudgetApprovalReopened',
        data: stepData(statusAdmin, { fromStep: 'APPROVED', toStep: 'DRAFT', reason: 'Lisaeelarve', resourceStatusId: inPreparation }),
      },
    ]);
  });

  it('refuses an action from a step it does not start from (a second approver who came too late meets 409)', () => {
    expectDomainError(given([]).when(approve()), 'APPROVAL_STATE_INVALID');
    expectDomainError(given([]).when(sendBack()), 'APPROVAL_STATE_INVALID');
    expectDomainError(given([]).when(reopen()), 'APPROVAL_STATE_INVALID');
    expectDomainError(given([wasSubmitted]).when(submit()), 'APPROVAL_STATE_INVALID');
    expectDomainError(given([wasSubmitted, wasApproved]).when(approve()), 'APPROVAL_STATE_INVALID');
    expectDomainError(given([wasSubmitted, wasApproved]).when(sendBack()), 'APPROVAL_STATE_INVALID');
    expectDomainError(given([wasSubmitted, wasApproved]).when(submit()), 'APPROVAL_STATE_INVALID');
    expectDomainError(given([wasSubmitted, wasSentBack]).when(approve()), 'APPROVAL_STATE_INVALID');
  });

  it('lets only occupations the rule names take an action: by role, by privilege, or anyone for an empty rule', () => {
    expectDomainError(given([wasSubmitted]).when(approve(department)), 'APPROVAL_ACTION_NOT_ALLOWED');
    expectDomainError(given([wasSubmitted]).when(sendBack(statusAdmin)), 'APPROVAL_ACTION_NOT_ALLOWED');
    expectDomainError(given([wasSubmitted, wasApproved]).when(reopen(finance)), 'APPROVAL_ACTION_NOT_ALLOWED');
    expect(given([wasSubmitted, wasApproved]).when(reopen(statusAdmin))()).toHaveLength(1);
    expect(given([]).when(submit(finance))()).toHaveLength(1);
  });

  it('checks who may act before where the budget stands, so an outsider learns nothing of the step', () => {
    expectDomainError(given([]).when(approve(department)), 'APPROVAL_ACTION_NOT_ALLOWED');
  });

  it('refuses a route whose rule allows both privileges and roles, naming the rule', () => {
    const mixed: ApprovalRoute = { ...route, rules: { ...route.rules, APPROVE: { allowedPrivileges: ['STATUS_ADMIN'], allowedRoleIds: [approverRoleId] } } };
    const run = given([wasSubmitted]).when({ ...base, type: 'ApproveBudget', actor: finance, comment: '', route: mixed });
    expectDomainError(run, 'APPROVAL_RULE_MIXES_ALLOWANCES');
    expect(run).toThrowError(expect.objectContaining({ details: [{ field: 'rules.APPROVE', message: 'a rule allows privileges or roles, not both' }] }));
  });

  it('requires a reason to send back or reopen, and bounds every reason and comment', () => {
    const reasonError = (run: () => unknown, message: string, field = 'reason') => {
      expectDomainError(run, 'SCHEMA_VALIDATION_ERROR');
      try {
        run();
      } catch (error) {
        expect((error as DomainError).details).toEqual([{ field, message }]);
      }
    };
    reasonError(given([wasSubmitted]).when(sendBack(finance, '   ')), 'validation.required');
    reasonError(given([wasSubmitted, wasApproved]).when(reopen(statusAdmin, '')), 'validation.required');
    reasonError(given([wasSubmitted]).when(sendBack(finance, 'x'.repeat(LIMITS.textArea + 1))), 'validation.maxLength');
    reasonError(given([wasSubmitted]).when(sendBack(finance, 'bad\u0000text')), 'validation.controlCharacters');
    reasonError(given([]).when(submit(department, 'y'.repeat(LIMITS.textArea + 1))), 'validation.maxLength', 'comment');
    const [multiLine] = given([wasSubmitted]).when(sendBack(finance, 'Rida 1\nRida 2'))();
    expect(multiLine?.data.reason).toBe('Rida 1\nRida 2');
  });

  it('with four eyes, refuses approval by the user who last submitted, whichever occupation they act in', () => {
    const fourEyes = { ...route, approverMustDifferFromSubmitter: true };
    const submitterAsApprover: ApprovalActor = { ...finance, userId: department.userId };
    const approveAs = (actor: ApprovalActor, withRoute = fourEyes): BudgetApprovalCommand => ({
      ...base,
      type: 'ApproveBudget',
      actor,
      comment: '',
      route: withRoute,
    });
    expectDomainError(given([wasSubmitted]).when(approveAs(submitterAsApprover)), 'APPROVAL_SELF_APPROVAL_NOT_ALLOWED');
    expect(given([wasSubmitted]).when(approveAs(finance))()).toHaveLength(1);
    expect(given([wasSubmitted]).when(approveAs(submitterAsApprover, route))()).toHaveLength(1);
  });
});

describe('default approval route', () => {
  const defaults = defaultApprovalRoute(true);
  const run = (events: BudgetApprovalEvent[], command: BudgetApprovalCommand) => given(events).when({ ...command, route: defaults })();

  it('locks a submitted and an approved budget with the default statuses, and opens a sent back one again', () => {
    const [first] = run([], submit());
    expect(first?.data.resourceStatusId).toBe(DEFAULT_RESOURCE_STATUSES.find((status) => status.name.en === 'Submitted for approval')?.id);
    const [back] = run([wasSubmitted], sendBack(statusAdmin));
    expect(back?.data.resourceStatusId).toBe(DEFAULT_RESOURCE_STATUSES.find((status) => status.name.en === 'In preparation')?.id);
    const [done] = run([wasSubmitted], approve(statusAdmin));
    expect(done?.data.resourceStatusId).toBe(DEFAULT_RESOURCE_STATUSES.find((status) => status.name.en === 'Approved')?.id);
    const [again] = run([wasSubmitted, wasApproved], reopen(statusAdmin));
    expect(again?.data.resourceStatusId).toBe(back?.data.resourceStatusId);
  });

  it('lets status administrators approve, but not their own submission, and sets no status where statuses are not used', () => {
    expectDomainError(() => run([wasSubmitted], approve(finance)), 'APPROVAL_ACTION_NOT_ALLOWED');
    const submittedByAdmin: BudgetApprovalEvent = { type: 'BudgetSubmittedForApproval', data: stepData(statusAdmin, {}) };
    expectDomainError(() => run([submittedByAdmin], approve(statusAdmin)), 'APPROVAL_SELF_APPROVAL_NOT_ALLOWED');
    const [event] = given([]).when({ ...submit(), route: defaultApprovalRoute(false) })();
    expect(event?.data.resourceStatusId).toBeNull();
  });
});

describe('approval request bodies', () => {
  it('require a reason to send back or reopen, trimmed and bounded, and leave the comment optional', () => {
    expect(approvalReasonSchema.safeParse({ reason: '  ' }).error?.issues[0]?.message).toBe('validation.required');
    expect(approvalReasonSchema.safeParse({ reason: 'x'.repeat(LIMITS.textArea + 1) }).error?.issues[0]?.message).toBe('validation.maxLength');
    expect(approvalReasonSchema.parse({ reason: ' Rida 1\nRida 2 ' })).toEqual({ reason: 'Rida 1\nRida 2' });
    expect(approvalCommentSchema.parse({})).toEqual({ comment: '' });
    expect(approvalCommentSchema.safeParse({ comment: 'a\u0000b' }).success).toBe(false);
  });
});
