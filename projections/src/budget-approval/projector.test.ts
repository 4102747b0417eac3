import { DEFAULT_RESOURCE_STATUSES } from '@eelarve/shared';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type GivenEvent, type ProjectorSpec, newId, projectorSpec } from '../../test/given-events';
import { budgetsProjector } from '../budgets/projector';
import { budgetApprovalProjector } from './projector';
import { approvalHistory, approvalState, documentApprovalStates } from './queries';

let spec: ProjectorSpec;
// The list query reads the document's budgets: the budgets projector runs beside.
beforeEach(async () => {
  spec = await projectorSpec([budgetApprovalProjector, budgetsProjector] as never);
});
afterEach(async () => spec.close());

const organizationId = newId();
const submittedStatus = DEFAULT_RESOURCE_STATUSES[1]!.id;
const approvedStatus = DEFAULT_RESOURCE_STATUSES[2]!.id;
const department = { userId: newId(), occupationId: newId() };
const finance = { userId: newId(), occupationId: newId() };

const budgetCreated = (budgetId: string, documentId: string, name: string, createdAt: string): GivenEvent => ({
  stream: `budget-${budgetId}`,
  type: 'BudgetCreated',
  data: {
    budgetId,
    documentId,
    organizationId,
    type: 'COMMON',
    name,
    description: '',
    tags: [],
    resourceStatusId: null,
    sumBudgetComponentIds: [],
    gwUrl: null,
    erpUrl: null,
    createdAt,
  },
});

type Step = { type: string; from: string; to: string; by: typeof department; at: string; reason?: string; status?: string | null };
const step = (budgetId: string, documentId: string, { type, from, to, by, at, reason = '', status = null }: Step): GivenEvent => ({
  stream: `budget-approval-${budgetId}`,
  type,
  data: { budgetId, documentId, organizationId, fromStep: from, toStep: to, ...by, at, reason, resourceStatusId: status },
});

/** The route of the "done when": submit, send back, submit again, approve. */
function fullRoute(budgetId: string, documentId: string): GivenEvent[] {
  return [
    step(budgetId, documentId, {
      type: 'BudgetSubmittedForApproval',
      from: 'DRAFT',
      to: 'SUBMITTED',
      by: department,
      at: '2026-11-20T08:00:00.000Z',
      reason: 'Valmis',
      status: submittedStatus,
    }),
    step(budgetId, documentId, {
      type: 'BudgetSentBack',
      from: 'SUBMITTED',
      to: 'SENT_BACK',
      by: finance,
      at: '2026-11-21T09:30:00.000Z',
      reason: 'Palgakulud on alahinnatud',
    }),
    step(budgetId, documentId, {
      type: 'BudgetSubmittedForApproval',
      from: 'SENT_BACK',
      to: 'SUBMITTED',
      by: department,
      at: '2026-11-22T10:00:00.000Z',
      status: submittedStatus,
    }),
    step(budgetId, documentId, {
      type: 'BudgetApproved',
      from: 'SUBMITTED',
      to: 'APPROVED',
      by: finance,
      at: '2026-11-23T11:15:00.000Z',
      reason: 'Kinnitan',
      status: approvedStatus,
    }),
  ];
}

describe('budget approval projector', () => {
  it('given no step, a budget is a draft with no history', async () => {
    const budgetId = newId();
    expect(await approvalState(spec.read, budgetId)).toEqual({ budgetId, step: 'DRAFT', lastAction: null });
    expect(await approvalHistory(spec.read, budgetId)).toEqual([]);
  });

  it('given submit, send back, submit and approve, shows each step with who, which occupation, when and why, and the budget approved', async () => {
    const [budgetId, documentId] = [newId(), newId()];
    await spec.given(...fullRoute(budgetId, documentId));
    const history = await approvalHistory(spec.read, budgetId);
    expect(history).toEqual([
      {
        action: 'SUBMIT',
        fromStep: 'DRAFT',
        toStep: 'SUBMITTED',
        ...department,
        at: '2026-11-20T08:00:00.000Z',
        reason: 'Valmis',
        resourceStatusId: submittedStatus,
      },
      {
        action: 'SEND_BACK',
        fromStep: 'SUBMITTED',
        toStep: 'SENT_BACK',
        ...finance,
        at: '2026-11-21T09:30:00.000Z',
        reason: 'Palgakulud on alahinnatud',
        resourceStatusId: null,
      },
      {
        action: 'SUBMIT',
        fromStep: 'SENT_BACK',
        toStep: 'SUBMITTED',
        ...department,
        at: '2026-11-22T10:00:00.000Z',
        reason: '',
        resourceStatusId: submittedStatus,
      },
      {
        action: 'APPROVE',
        fromStep: 'SUBMITTED',
        toStep: 'APPROVED',
        ...finance,
        at: '2026-11-23T11:15:00.000Z',
        reason: 'Kinnitan',
        resourceStatusId: approvedStatus,
      },
    ]);
    expect(await approvalState(spec.read, budgetId)).toEqual({ budgetId, step: 'APPROVED', lastAction: history[3] });
  });

  it('given a reopen, the approved budget is a draft again and the reopen is the last step', async () => {
    const [budgetId, documentId] = [newId(), newId()];
    const reopened = step(budgetId, documentId, {
      type: 'BudgetApprovalReopened',
      from: 'APPROVED',
      to: 'DRAFT',
      by: finance,
      at: '2026-11-24T07:00:00.000Z',
      reason: 'Lisaeelarve',
    });
    await spec.given(...fullRoute(budgetId, documentId), reopened);
    const state = await approvalState(spec.read, budgetId);
    expect(state.step).toBe('DRAFT');
    expect(state.lastAction).toMatchObject({ action: 'REOPEN', reason: 'Lisaeelarve', userId: finance.userId });
    expect(await approvalHistory(spec.read, budgetId)).toHaveLength(5);
  });

  it('lists the step of every budget of a document in its order, drafts included, other documents left out', async () => {
    const [documentId, otherDocumentId] = [newId(), newId()];
    const [approved, sentBack, untouched, elsewhere] = [newId(), newId(), newId(), newId()];
    await spec.given(
      budgetCreated(approved, documentId, 'Haridus', '2026-11-01T08:00:00.000Z'),
      budgetCreated(sentBack, documentId, 'Kultuur', '2026-11-01T09:00:00.000Z'),
      budgetCreated(untouched, documentId, 'Sport', '2026-11-01T10:00:00.000Z'),
      budgetCreated(elsewhere, otherDocumentId, 'Muu', '2026-11-01T11:00:00.000Z'),
      ...fullRoute(approved, documentId),
      ...fullRoute(sentBack, documentId).slice(0, 2),
      ...fullRoute(elsewhere, otherDocumentId),
    );
    expect(await documentApprovalStates(spec.read, documentId)).toEqual([
      { budgetId: approved, step: 'APPROVED', updatedAt: '2026-11-23T11:15:00.000Z' },
      { budgetId: sentBack, step: 'SENT_BACK', updatedAt: '2026-11-21T09:30:00.000Z' },
      { budgetId: untouched, step: 'DRAFT', updatedAt: null },
    ]);
  });

  it('given a deleted budget, document or organisation, forgets their routes', async () => {
    const [documentId, budgetA, budgetB, budgetC] = [newId(), newId(), newId(), newId()];
    const otherDocumentId = newId();
    const otherOrganization = newId();
    const [first] = fullRoute(budgetC, otherDocumentId);
    await spec.given(...fullRoute(budgetA, documentId), ...fullRoute(budgetB, documentId).slice(0, 1), {
      ...first!,
      data: { ...(first!.data as object), organizationId: otherOrganization },
    });
    await spec.given({ stream: `budget-${budgetA}`, type: 'BudgetDeleted', data: { budgetId: budgetA, documentId, organizationId } });
    expect(await approvalHistory(spec.read, budgetA)).toEqual([]);
    expect((await approvalState(spec.read, budgetB)).step).toBe('SUBMITTED');
    await spec.given({ stream: `document-${documentId}`, type: 'DocumentDeleted', data: { documentId, organizationId } });
    expect(await approvalHistory(spec.read, budgetB)).toEqual([]);
    expect((await approvalState(spec.read, budgetC)).step).toBe('SUBMITTED');
    await spec.given({ stream: `organization-${otherOrganization}`, type: 'OrganizationDeleted', data: { organizationId: otherOrganization } });
    expect(await approvalState(spec.read, budgetC)).toEqual({ budgetId: budgetC, step: 'DRAFT', lastAction: null });
    const leftRows = await spec.read.selectFrom('budget_approval_states').select('budget_id').execute();
    expect(leftRows).toEqual([]);
  });
});
