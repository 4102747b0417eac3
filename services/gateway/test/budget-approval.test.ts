import { randomUUID } from 'node:crypto';
import { DEFAULT_RESOURCE_STATUSES } from '@eelarve/shared';
import { accountsFixture, PASSWORD } from '@eelarve/testing/accounts';
import { schemesFixture } from '@eelarve/testing/schemes';
import { startTestServer, type TestServer } from '@eelarve/testing/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Client, login } from './helpers';

/**
 * The budget approval route through the HTTP API on a real PostgreSQL (issue 10, point 6):
 * submit, send back, approve, reopen, the history they leave, who may take each step, and the
 * step's resource status on the budget.
 */

interface Member {
  client: Client;
  userId: string;
  occupationId: string;
}

let server: TestServer;
let admin: Client;
/** May update budgets (a grant), no STATUS_ADMIN: submits. */
let preparer: Member;
/** May update budgets and holds STATUS_ADMIN: approves, sends back, reopens. */
let approver: Member;
/** A second status administrator (concurrency). */
let secondApprover: Member;
/** May update and holds STATUS_ADMIN, but also submits: four eyes refuse their own approval. */
let selfApprover: Member;
/** Reads only (no update grant). */
let reader: Member;
/** Acts in another organisation. */
let stranger: Member;
let organizationId: string;
let documentId: string;

const [IN_PREPARATION, SUBMITTED_STATUS, APPROVED_STATUS] = DEFAULT_RESOURCE_STATUSES.map((status) => status.id);

async function budget(payload: object = {}, document = documentId): Promise<string> {
  const name = `Budget ${randomUUID().slice(0, 6)}`;
  const body = { type: 'COMMON', name, description: '', resourceStatusId: IN_PREPARATION, ...payload };
  const response = await admin.request({ method: 'POST', url: `/api/document/${document}/budget`, payload: body });
  if (response.statusCode !== 201) throw new Error(`expected 201, got ${response.statusCode} ${response.body}`);
  return response.json().id;
}

type Action = 'submit' | 'approve' | 'send-back' | 'reopen';
const step = (member: Member | Client, budgetId: string, action: Action, payload: object = {}) =>
  ('client' in member ? member.client : member).request({ method: 'POST', url: `/api/budget/${budgetId}/approval/${action}`, payload });

async function approval(budgetId: string, member: Member = approver) {
  const response = await member.client.request({ method: 'GET', url: `/api/budget/${budgetId}/approval` });
  expect(response.statusCode).toBe(200);
  return response.json();
}

async function budgetStatus(budgetId: string): Promise<string | null> {
  const response = await admin.request({ method: 'GET', url: `/api/budget/${budgetId}` });
  expect(response.statusCode).toBe(200);
  return response.json().resourceStatusId;
}

type Response = { statusCode: number; json(): { code: string; details?: { path: string }[] } };
function expectError(response: Response, status: number, code: string) {
  expect({ status: response.statusCode, code: response.json().code }).toEqual({ status, code });
}

beforeAll(async () => {
  server = await startTestServer({ listen: false });
  admin = await login(server.app, server.admin.email, server.admin.password);
  const fixture = accountsFixture(server.app, admin);
  organizationId = await fixture.organizationUsingStatuses('Viljandi Linnavalitsus');
  const otherOrganizationId = await fixture.organization('Rakvere Linnavalitsus');
  const signIn = async (organization: string, privileges: string[]): Promise<Member> => {
    const member = await fixture.member(organization, privileges);
    return { client: await login(server.app, member.email, PASSWORD), userId: member.userId, occupationId: member.occupationId };
  };
  preparer = await signIn(organizationId, ['DATA_VIEW']);
  approver = await signIn(organizationId, ['STATUS_ADMIN']);
  secondApprover = await signIn(organizationId, ['STATUS_ADMIN']);
  selfApprover = await signIn(organizationId, ['STATUS_ADMIN']);
  reader = await signIn(organizationId, ['DATA_VIEW']);
  stranger = await signIn(otherOrganizationId, ['STATUS_ADMIN']);
  // These occupations may update the organisation's budgets; the reader only reads them.
  for (const member of [preparer, approver, secondApprover, selfApprover]) await fixture.grant(member.occupationId, [{ update: true }]);
  await fixture.grant(reader.occupationId, [{ read: true }]);
  documentId = await schemesFixture(server.app).documentWithMaster(organizationId);
});

afterAll(async () => {
  await server?.close();
});

describe('the route of one budget', () => {
  it('goes submit, send back, submit, approve, with each step in its history', async () => {
    const budgetId = await budget();
    expect(await approval(budgetId)).toEqual({ state: { budgetId, step: 'DRAFT', lastAction: null }, history: [], actions: ['SUBMIT'] });

    const submitted = await step(preparer, budgetId, 'submit', { comment: 'Ready for review' });
    expect(submitted.statusCode).toBe(200);
    expect(submitted.json()).toEqual({ id: budgetId, position: expect.stringMatching(/^\d+\/\d+$/) });
    expect(await budgetStatus(budgetId)).toBe(SUBMITTED_STATUS);

    expectError(await step(approver, budgetId, 'send-back', {}), 400, 'SCHEMA_VALIDATION_ERROR');
    const blank = await step(approver, budgetId, 'send-back', { reason: '   ' });
    expectError(blank, 400, 'SCHEMA_VALIDATION_ERROR');
    expect(blank.json().details?.map((issue: { path: string }) => issue.path)).toContain('body.reason');
    expect((await step(approver, budgetId, 'send-back', { reason: 'Salaries row 3 is too high' })).statusCode).toBe(200);
    expect(await budgetStatus(budgetId)).toBe(IN_PREPARATION);

    expect((await step(preparer, budgetId, 'submit', {})).statusCode).toBe(200);
    expect((await step(approver, budgetId, 'approve', { comment: 'Fine now' })).statusCode).toBe(200);
    expect(await budgetStatus(budgetId)).toBe(APPROVED_STATUS);

    const { state, history } = await approval(budgetId, reader);
    expect(state.step).toBe('APPROVED');
    const by = (member: Member) => ({ userId: member.userId, occupationId: member.occupationId });
    expect(history).toEqual([
      {
        action: 'SUBMIT',
        fromStep: 'DRAFT',
        toStep: 'SUBMITTED',
        ...by(preparer),
        reason: 'Ready for review',
        resourceStatusId: SUBMITTED_STATUS,
        at: expect.any(String),
      },
      {
        action: 'SEND_BACK',
        fromStep: 'SUBMITTED',
        toStep: 'SENT_BACK',
        ...by(approver),
        reason: 'Salaries row 3 is too high',
        resourceStatusId: IN_PREPARATION,
        at: expect.any(String),
      },
      { action: 'SUBMIT', fromStep: 'SENT_BACK', toStep: 'SUBMITTED', ...by(preparer), reason: '', resourceStatusId: SUBMITTED_STATUS, at: expect.any(String) },
      {
        action: 'APPROVE',
        fromStep: 'SUBMITTED',
        toStep: 'APPROVED',
        ...by(approver),
        reason: 'Fine now',
        resourceStatusId: APPROVED_STATUS,
        at: expect.any(String),
      },
    ]);
    const times = history.map((entry: { at: string }) => Date.parse(entry.at));
    expect(times.every((time: number, index: number) => !Number.isNaN(time) && (index === 0 || time >= (times[index - 1] as number)))).toBe(true);
    expect(state.lastAction).toEqual(history.at(-1));
  });

  it('reopens an approved budget with a reason, back to a draft in preparation', async () => {
    const budgetId = await budget();
    await step(preparer, budgetId, 'submit');
    await step(approver, budgetId, 'approve');
    expectError(await step(approver, budgetId, 'reopen', {}), 400, 'SCHEMA_VALIDATION_ERROR');
    expect((await step(approver, budgetId, 'reopen', { reason: 'New grant arrived' })).statusCode).toBe(200);
    expect((await approval(budgetId)).state.step).toBe('DRAFT');
    expect(await budgetStatus(budgetId)).toBe(IN_PREPARATION);
  });
});

describe('the status a step puts on the budget', () => {
  it('is set on a sum budget too, its components kept', async () => {
    const components = [await budget(), await budget()];
    const sumBudgetId = await budget({ type: 'SUM_BUDGET', sumBudgetComponentIds: components });
    expect((await step(preparer, sumBudgetId, 'submit')).statusCode).toBe(200);
    const response = await admin.request({ method: 'GET', url: `/api/budget/${sumBudgetId}` });
    expect(response.json()).toMatchObject({ resourceStatusId: SUBMITTED_STATUS, sumBudgetComponentIds: components });
  });

  it('is none where the organisation does not use statuses: the budget keeps its own', async () => {
    const plainOrganizationId = await accountsFixture(server.app, admin).organization('Valga Vallavalitsus');
    const budgetId = await budget({ resourceStatusId: null }, await schemesFixture(server.app).documentWithMaster(plainOrganizationId));
    expect((await step(admin, budgetId, 'submit')).statusCode).toBe(200);
    const { history } = await approval(budgetId, { client: admin, userId: '', occupationId: '' });
    expect(history.map((entry: { action: string; resourceStatusId: string | null }) => [entry.action, entry.resourceStatusId])).toEqual([['SUBMIT', null]]);
    expect(await budgetStatus(budgetId)).toBeNull();
  });
});

describe('who may take a step, and from where', () => {
  it('refuses to approve a draft (APPROVAL_STATE_INVALID)', async () => {
    const budgetId = await budget();
    expectError(await step(approver, budgetId, 'approve'), 409, 'APPROVAL_STATE_INVALID');
    expectError(await step(approver, budgetId, 'reopen', { reason: 'why not' }), 409, 'APPROVAL_STATE_INVALID');
    expect((await approval(budgetId)).history).toEqual([]);
  });

  it('refuses an occupation without STATUS_ADMIN approving or sending back (APPROVAL_ACTION_NOT_ALLOWED)', async () => {
    const budgetId = await budget();
    await step(selfApprover, budgetId, 'submit');
    expectError(await step(preparer, budgetId, 'approve'), 403, 'APPROVAL_ACTION_NOT_ALLOWED');
    expectError(await step(preparer, budgetId, 'send-back', { reason: 'no' }), 403, 'APPROVAL_ACTION_NOT_ALLOWED');
    expect((await approval(budgetId)).state.step).toBe('SUBMITTED');
  });

  it('refuses approving one’s own submission (APPROVAL_SELF_APPROVAL_NOT_ALLOWED); another approver may', async () => {
    const budgetId = await budget();
    await step(selfApprover, budgetId, 'submit');
    expectError(await step(selfApprover, budgetId, 'approve'), 403, 'APPROVAL_SELF_APPROVAL_NOT_ALLOWED');
    expect((await step(approver, budgetId, 'approve')).statusCode).toBe(200);
  });

  it('answers another organisation’s budget and a missing one 404 BUDGET_NOT_FOUND', async () => {
    const budgetId = await budget();
    for (const target of [budgetId, randomUUID()]) {
      expectError(await stranger.client.request({ method: 'GET', url: `/api/budget/${target}/approval` }), 404, 'BUDGET_NOT_FOUND');
      expectError(await step(stranger, target, 'submit'), 404, 'BUDGET_NOT_FOUND');
    }
    expect((await approval(budgetId)).history).toEqual([]);
  });

  it('lets a reader see the route but not take a step (403 INSUFFICIENT_PERMISSIONS)', async () => {
    const budgetId = await budget();
    expect((await approval(budgetId, reader)).state.step).toBe('DRAFT');
    expectError(await step(reader, budgetId, 'submit'), 403, 'INSUFFICIENT_PERMISSIONS');
  });

  it('refuses a signed-out caller (401)', async () => {
    const budgetId = await budget();
    const response = await server.app.inject({ method: 'POST', url: `/api/budget/${budgetId}/approval/submit`, payload: {} });
    expect(response.statusCode).toBe(401);
  });
});

describe('the actions GET offers the caller (default route)', () => {
  const actionsOf = async (budgetId: string, member: Member) => (await approval(budgetId, member)).actions;

  it('are those of the current step the caller’s rule allows: submit to whoever may update, the rest to status administrators', async () => {
    const budgetId = await budget();
    expect(await actionsOf(budgetId, preparer)).toEqual(['SUBMIT']);
    expect(await actionsOf(budgetId, approver)).toEqual(['SUBMIT']);
    expect((await step(preparer, budgetId, 'submit')).statusCode).toBe(200);
    expect(await actionsOf(budgetId, preparer)).toEqual([]);
    expect(await actionsOf(budgetId, approver)).toEqual(['APPROVE', 'SEND_BACK']);
    expect((await step(approver, budgetId, 'approve')).statusCode).toBe(200);
    expect(await actionsOf(budgetId, approver)).toEqual(['REOPEN']);
    expect(await actionsOf(budgetId, preparer)).toEqual([]);
  });

  it('leave approving out for the last submitter (four eyes), not sending back; another approver may approve', async () => {
    const budgetId = await budget();
    expect((await step(selfApprover, budgetId, 'submit')).statusCode).toBe(200);
    expect(await actionsOf(budgetId, selfApprover)).toEqual(['SEND_BACK']);
    expect(await actionsOf(budgetId, approver)).toEqual(['APPROVE', 'SEND_BACK']);
  });

  it('are none for a reader (no update grant), at any step', async () => {
    const budgetId = await budget();
    expect(await actionsOf(budgetId, reader)).toEqual([]);
    expect((await step(preparer, budgetId, 'submit')).statusCode).toBe(200);
    expect(await actionsOf(budgetId, reader)).toEqual([]);
  });
});

describe('concurrent approvers', () => {
  it('approve a submitted budget once: exactly one 200, the other fifteen 409', async () => {
    const budgetId = await budget();
    await step(preparer, budgetId, 'submit');
    const approvers = [approver, secondApprover];
    const responses = await Promise.all(Array.from({ length: 16 }, (_, index) => step(approvers[index % 2] as Member, budgetId, 'approve')));
    const statuses = responses.map((response) => response.statusCode).sort();
    expect(statuses).toEqual([200, ...Array(15).fill(409)]);
    for (const response of responses.filter((candidate) => candidate.statusCode === 409)) {
      expect(response.json().code).toBe('APPROVAL_STATE_INVALID');
    }
    const { history } = await approval(budgetId);
    expect(history.map((entry: { action: string }) => entry.action)).toEqual(['SUBMIT', 'APPROVE']);
  });
});
