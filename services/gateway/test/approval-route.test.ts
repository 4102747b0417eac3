import { randomUUID } from 'node:crypto';
import { type ApprovalRouteInput, DEFAULT_RESOURCE_STATUSES, defaultApprovalRoute } from '@eelarve/shared';
import { accountsFixture, PASSWORD } from '@eelarve/testing/accounts';
import { schemesFixture } from '@eelarve/testing/schemes';
import { startTestServer, type TestServer } from '@eelarve/testing/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Client, login } from './helpers';

/**
 * An organisation's own approval route through the HTTP API on a real PostgreSQL (issue 10,
 * point 6): GET, PUT and DELETE api/organization/{id}/approval-route, every refusal, and a budget
 * that then follows the configured route rather than the default one.
 */

interface Member {
  client: Client;
  userId: string;
  roleId: string;
  occupationId: string;
}

let server: TestServer;
let admin: Client;
let fixture: ReturnType<typeof accountsFixture>;
/** Uses statuses and allows editing them. */
let editable: string;
/** Uses statuses, editing not allowed. */
let locked: string;
/** Does not use statuses, allows editing. */
let without: string;
let statusAdmin: Member;
let statusViewer: Member;
let clerk: Member;
let lockedAdmin: Member;
let withoutAdmin: Member;
/** Prepares budgets: an update grant, no status privilege. */
let preparer: Member;
/** Holds the finance role the configured route lets approve; an update grant, no status privilege. */
let finance: Member;
let documentId: string;

const [IN_PREPARATION, SUBMITTED, APPROVED] = DEFAULT_RESOURCE_STATUSES.map((status) => status.id) as [string, string, string];
const anyone = { allowedPrivileges: [], allowedRoleIds: [] };

async function memberOf(organizationId: string, privileges: string[]): Promise<Member> {
  const member = await fixture.member(organizationId, privileges);
  return { client: await login(server.app, member.email, PASSWORD), userId: member.userId, roleId: member.roleId, occupationId: member.occupationId };
}

async function grantUpdate(member: Member): Promise<void> {
  const payload = { documentId, read: true, update: true };
  const response = await admin.request({ method: 'PUT', url: `/api/occupation/${member.occupationId}/permission`, payload });
  expect(response.statusCode, response.body).toBe(200);
}

async function budget(): Promise<string> {
  const body = { type: 'COMMON', name: `Budget ${randomUUID().slice(0, 6)}`, description: '', resourceStatusId: IN_PREPARATION };
  const response = await admin.request({ method: 'POST', url: `/api/document/${documentId}/budget`, payload: body });
  expect(response.statusCode, response.body).toBe(201);
  return response.json().id;
}

const path = (organizationId: string) => `/api/organization/${organizationId}/approval-route`;
const read = (member: Member, organizationId = editable) => member.client.request({ method: 'GET', url: path(organizationId) });
const configure = (payload: object, member: Member = statusAdmin, organizationId = editable) =>
  member.client.request({ method: 'PUT', url: path(organizationId), payload });
const reset = (member: Member = statusAdmin, organizationId = editable) => member.client.request({ method: 'DELETE', url: path(organizationId) });
const step = (member: Member, budgetId: string, action: 'submit' | 'approve' | 'send-back', payload: object = {}) =>
  member.client.request({ method: 'POST', url: `/api/budget/${budgetId}/approval/${action}`, payload });

/** The actions GET api/budget/{id}/approval offers the member. */
async function actionsOf(member: Member, budgetId: string): Promise<string[]> {
  const response = await member.client.request({ method: 'GET', url: `/api/budget/${budgetId}/approval` });
  expect(response.statusCode, response.body).toBe(200);
  return response.json().actions;
}

async function budgetStatus(budgetId: string): Promise<string | null> {
  const response = await admin.request({ method: 'GET', url: `/api/budget/${budgetId}` });
  expect(response.statusCode).toBe(200);
  return response.json().resourceStatusId;
}

type Response = { statusCode: number; body: string; json(): { code: string; details?: Array<{ path: string }> } };
function expectError(response: Response, status: number, code: string, field?: string) {
  expect({ status: response.statusCode, code: response.json().code }, response.body).toEqual({ status, code });
  if (field) expect(response.json().details?.map((detail) => detail.path)).toEqual([`body.${field}`]);
}

/** The finance role approves and sends back; anyone who may update submits; status administrators reopen. */
const financeRoute = (): ApprovalRouteInput => ({
  rules: {
    SUBMIT: anyone,
    APPROVE: { allowedRoleIds: [finance.roleId] },
    SEND_BACK: { allowedRoleIds: [finance.roleId, finance.roleId] },
    REOPEN: { allowedPrivileges: ['STATUS_ADMIN'] },
  },
  stepStatuses: { DRAFT: IN_PREPARATION, SUBMITTED, APPROVED },
  approverMustDifferFromSubmitter: false,
});
const storedFinanceRoute = () => ({
  rules: {
    SUBMIT: anyone,
    APPROVE: { allowedPrivileges: [], allowedRoleIds: [finance.roleId] },
    SEND_BACK: { allowedPrivileges: [], allowedRoleIds: [finance.roleId] },
    REOPEN: { allowedPrivileges: ['STATUS_ADMIN'], allowedRoleIds: [] },
  },
  stepStatuses: { DRAFT: IN_PREPARATION, SUBMITTED, APPROVED },
  approverMustDifferFromSubmitter: false,
});

beforeAll(async () => {
  server = await startTestServer({ listen: false });
  admin = await login(server.app, server.admin.email, server.admin.password);
  fixture = accountsFixture(server.app, admin);
  [editable, locked, without] = [
    await fixture.organizationUsingStatuses(undefined, { allowEditing: true }),
    await fixture.organizationUsingStatuses(),
    await fixture.organization(undefined, { allowResourceStatusEditing: true }),
  ];
  statusAdmin = await memberOf(editable, ['STATUS_ADMIN']);
  statusViewer = await memberOf(editable, ['STATUS_VIEW']);
  clerk = await memberOf(editable, ['DATA_VIEW']);
  lockedAdmin = await memberOf(locked, ['STATUS_ADMIN']);
  withoutAdmin = await memberOf(without, ['STATUS_ADMIN']);
  preparer = await memberOf(editable, ['DATA_VIEW']);
  finance = await memberOf(editable, ['DATA_VIEW']);
  documentId = await schemesFixture(server.app).documentWithMaster(editable);
  for (const member of [preparer, finance, statusAdmin]) await grantUpdate(member);
});
afterAll(async () => server?.close());

describe('GET api/organization/{id}/approval-route', () => {
  it('answers the default route, not configured, to a status viewer and a status administrator', async () => {
    for (const member of [statusViewer, statusAdmin]) {
      const response = await read(member);
      expect(response.statusCode, response.body).toBe(200);
      expect(response.json()).toEqual({ configured: false, route: defaultApprovalRoute(true) });
    }
    expect((await read(withoutAdmin, without)).json()).toEqual({ configured: false, route: defaultApprovalRoute(false) });
  });

  it('needs STATUS_VIEW or STATUS_ADMIN, and answers another organisation’s route as not found', async () => {
    expectError(await read(clerk), 403, 'INSUFFICIENT_PERMISSIONS');
    expectError(await read(statusAdmin, locked), 404, 'ORGANIZATION_NOT_FOUND');
    expectError(await read(statusAdmin, randomUUID()), 404, 'ORGANIZATION_NOT_FOUND');
  });
});

describe('PUT and DELETE api/organization/{id}/approval-route', () => {
  it('stores the route (no repeated role), which the next read shows; the same route again changes nothing', async () => {
    const response = await configure(financeRoute());
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toEqual({ id: editable, position: expect.stringMatching(/^\d+\/\d+$/) });
    expect((await read(statusViewer)).json()).toEqual({ configured: true, route: storedFinanceRoute() });
    expect((await configure(financeRoute())).json().position).toBeNull();
  });

  it('needs STATUS_ADMIN, the organisation allowing status editing, and the caller’s own organisation', async () => {
    expectError(await configure(financeRoute(), statusViewer), 403, 'INSUFFICIENT_PERMISSIONS');
    expectError(await reset(statusViewer), 403, 'INSUFFICIENT_PERMISSIONS');
    const lockedRoute = { ...financeRoute(), rules: { ...financeRoute().rules, APPROVE: anyone, SEND_BACK: anyone } };
    expectError(await configure(lockedRoute, lockedAdmin, locked), 403, 'RESOURCE_STATUS_EDITING_DISABLED');
    expectError(await reset(lockedAdmin, locked), 403, 'RESOURCE_STATUS_EDITING_DISABLED');
    expectError(await configure(financeRoute(), statusAdmin, locked), 404, 'ORGANIZATION_NOT_FOUND');
    expectError(await reset(statusAdmin, locked), 404, 'ORGANIZATION_NOT_FOUND');
    expect((await read(lockedAdmin, locked)).json().configured).toBe(false);
  });

  it('refuses a rule allowing both privileges and roles, naming the rule', async () => {
    const mixed = { ...financeRoute(), rules: { ...financeRoute().rules, APPROVE: { allowedPrivileges: ['STATUS_ADMIN'], allowedRoleIds: [finance.roleId] } } };
    expectError(await configure(mixed), 422, 'APPROVAL_RULE_MIXES_ALLOWANCES', 'rules.APPROVE');
  });

  it('refuses a role that is not a default-type role of the organisation: its ADMIN role, another organisation’s role', async () => {
    // An organisation administrator's ADMIN-type role comes with the organisation's admin occupation.
    expect((await admin.request({ method: 'POST', url: `/api/admin/${editable}` })).statusCode).toBeLessThan(300);
    const roles: Array<{ id: string; type: string }> = (await admin.request({ method: 'GET', url: `/api/organization/${editable}/roles` })).json();
    const adminRoleId = roles.find((role) => role.type === 'ADMIN')?.id;
    expect(adminRoleId).toBeDefined();
    for (const roleId of [adminRoleId, lockedAdmin.roleId]) {
      const foreign = { ...financeRoute(), rules: { ...financeRoute().rules, SEND_BACK: { allowedRoleIds: [roleId] } } };
      expectError(await configure(foreign), 422, 'INVALID_USER_OR_ROLE', 'rules.SEND_BACK.allowedRoleIds');
    }
  });

  it('refuses a step status the organisation does not have, and any step status where it uses none', async () => {
    expectError(await configure({ ...financeRoute(), stepStatuses: { APPROVED: randomUUID() } }), 404, 'RESOURCE_STATUS_NOT_FOUND', 'stepStatuses.APPROVED');
    const bare = { rules: { SUBMIT: anyone, APPROVE: anyone, SEND_BACK: anyone, REOPEN: anyone }, approverMustDifferFromSubmitter: true };
    const defaultStatus = { ...bare, stepStatuses: { SENT_BACK: IN_PREPARATION } };
    expectError(await configure(defaultStatus, withoutAdmin, without), 404, 'RESOURCE_STATUS_NOT_FOUND', 'stepStatuses.SENT_BACK');
    expect((await configure(bare, withoutAdmin, without)).statusCode).toBe(200);
    expect((await read(withoutAdmin, without)).json()).toEqual({ configured: true, route: { ...bare, stepStatuses: {} } });
  });

  it('refuses a body outside the contract: an unknown privilege, a missing rule', async () => {
    const unknown = { ...financeRoute(), rules: { ...financeRoute().rules, REOPEN: { allowedPrivileges: ['NO_SUCH_PRIVILEGE'] } } };
    expectError(await configure(unknown), 400, 'SCHEMA_VALIDATION_ERROR');
    const { REOPEN: _reopen, ...threeRules } = financeRoute().rules;
    expectError(await configure({ ...financeRoute(), rules: threeRules }), 400, 'SCHEMA_VALIDATION_ERROR');
  });
});

describe('a budget on the configured route', () => {
  it('is approved by the finance role and not by a status administrator; after a reset the default route holds again', async () => {
    expect((await configure(financeRoute())).statusCode).toBe(200);
    const budgetId = await budget();
    expect((await step(preparer, budgetId, 'submit')).statusCode).toBe(200);
    expect(await budgetStatus(budgetId)).toBe(SUBMITTED);
    // GET offers each member what the route gives them: the finance role approves and sends back, the status administrator neither.
    expect(await actionsOf(finance, budgetId)).toEqual(['APPROVE', 'SEND_BACK']);
    expect(await actionsOf(statusAdmin, budgetId)).toEqual([]);
    expectError(await step(statusAdmin, budgetId, 'approve'), 403, 'APPROVAL_ACTION_NOT_ALLOWED');
    const approved = await step(finance, budgetId, 'approve', { comment: 'Kooskõlas' });
    expect(approved.statusCode, approved.body).toBe(200);
    expect(await budgetStatus(budgetId)).toBe(APPROVED);
    expect(await actionsOf(finance, budgetId)).toEqual([]);
    expect(await actionsOf(statusAdmin, budgetId)).toEqual(['REOPEN']);

    const removed = await reset();
    expect(removed.statusCode).toBe(200);
    expect(removed.json().position).not.toBeNull();
    expect((await read(statusViewer)).json()).toEqual({ configured: false, route: defaultApprovalRoute(true) });
    expect((await reset()).json().position).toBeNull();
    const next = await budget();
    expect((await step(preparer, next, 'submit')).statusCode).toBe(200);
    expect(await actionsOf(finance, next)).toEqual([]);
    expect(await actionsOf(statusAdmin, next)).toEqual(['APPROVE', 'SEND_BACK']);
    expectError(await step(finance, next, 'approve'), 403, 'APPROVAL_ACTION_NOT_ALLOWED');
    expect((await step(statusAdmin, next, 'approve')).statusCode).toBe(200);
  });

  it('leaves the budget’s status as it is at a step whose status was deleted after the route was configured', async () => {
    const ownStatus = { name: { et: 'Ülevaatusel', en: 'In review' }, description: { et: 'Rahandus vaatab üle', en: '' }, icon: 'flag', rules: [] };
    const created = await statusAdmin.client.request({ method: 'POST', url: '/api/resource-statuses', payload: ownStatus });
    expect(created.statusCode, created.body).toBe(201);
    const reviewId: string = created.json().id;
    expect((await configure({ ...financeRoute(), stepStatuses: { SUBMITTED: reviewId } })).statusCode).toBe(200);
    const removed = await statusAdmin.client.request({ method: 'DELETE', url: `/api/resource-status/${reviewId}` });
    expect(removed.statusCode, removed.body).toBe(200);

    const budgetId = await budget();
    expect((await step(preparer, budgetId, 'submit')).statusCode).toBe(200);
    expect(await budgetStatus(budgetId)).toBe(IN_PREPARATION);
    const [submitted] = (await finance.client.request({ method: 'GET', url: `/api/budget/${budgetId}/approval` })).json().history;
    expect(submitted).toMatchObject({ action: 'SUBMIT', resourceStatusId: null });
    expect((await reset()).statusCode).toBe(200);
  });
});
