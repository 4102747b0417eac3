import { randomUUID } from 'node:crypto';
import { DEFAULT_RESOURCE_STATUSES } from '@eelarve/shared';
import { accountsFixture, PASSWORD } from '@eelarve/testing/accounts';
import { schemesFixture } from '@eelarve/testing/schemes';
import { startTestServer, type TestServer } from '@eelarve/testing/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Client, login } from './helpers';

/**
 * Resource statuses lock and hide what their rules say (spec 1, sections 3 and 6; spec 2, sections
 * 2, 5 and 6; issue 10, points 2 and 5), through the HTTP API on a real PostgreSQL: the flags are
 * folded into access for every caller who is not exempt by privilege or role.
 */

let server: TestServer;
let admin: Client;
let fixture: ReturnType<typeof accountsFixture>;
let organizationId: string;
let documentId: string;
/** Update grant on the organisation, no status privilege. */
let writer: Client;
/** Update grant on the organisation and STATUS_ADMIN. */
let statusAdmin: Client;
/** Update grant and a role that the organisation's own status exempts. */
let exempt: Client;
let exemptRoleId: string;

const [IN_PREPARATION, SUBMITTED, APPROVED, HIDDEN] = DEFAULT_RESOURCE_STATUSES.map((status) => status.id) as [string, string, string, string];

type Response = { statusCode: number; body: string; json(): { code: string } & Record<string, unknown> };
function expectError(response: Response, status: number, code: string) {
  expect({ status: response.statusCode, code: response.json().code }, response.body).toEqual({ status, code });
}

/** Puts a status on a document (as its settings form would), with a fixed master classifier. */
const setDocumentStatus = (id: string, resourceStatusId: string | null) =>
  schemesFixture(server.app).updateDocument(id, { masterClassifierId: id, resourceStatusId });

async function documentFixture(resourceStatusId: string | null): Promise<string> {
  const id = await schemesFixture(server.app).document(organizationId);
  await setDocumentStatus(id, resourceStatusId);
  return id;
}

async function budget(resourceStatusId: string, document = documentId, extra: object = {}): Promise<string> {
  const body = { type: 'COMMON', name: `Budget ${randomUUID().slice(0, 6)}`, description: '', resourceStatusId, ...extra };
  const response = await admin.request({ method: 'POST', url: `/api/document/${document}/budget`, payload: body });
  expect(response.statusCode, response.body).toBe(201);
  return response.json().id as string;
}

const getBudget = (client: Client, id: string) => client.request({ method: 'GET', url: `/api/budget/${id}` });
const rename = (client: Client, id: string, name: string, resourceStatusId: string) =>
  client.request({ method: 'PUT', url: `/api/budget/${id}`, payload: { name, description: '', resourceStatusId } });

beforeAll(async () => {
  server = await startTestServer({ listen: false });
  admin = await login(server.app, server.admin.email, server.admin.password);
  fixture = accountsFixture(server.app, admin);
  organizationId = await fixture.organizationUsingStatuses('Pärnu Linnavalitsus', { allowEditing: true });
  const writerMember = await fixture.member(organizationId, ['DATA_VIEW']);
  const statusMember = await fixture.member(organizationId, ['STATUS_ADMIN']);
  const exemptMember = await fixture.member(organizationId, ['DATA_VIEW']);
  exemptRoleId = exemptMember.roleId;
  for (const member of [writerMember, statusMember, exemptMember]) await fixture.grant(member.occupationId, [{ update: true }]);
  writer = await login(server.app, writerMember.email, PASSWORD);
  statusAdmin = await login(server.app, statusMember.email, PASSWORD);
  exempt = await login(server.app, exemptMember.email, PASSWORD);
  documentId = await documentFixture(IN_PREPARATION);
}, 120_000);
afterAll(async () => server?.close());

describe('statuses in force on budgets and documents', () => {
  it('an approved budget is locked: its settings and data refuse changes with ACTION_DISALLOWED_DUE_TO_STATUS, it still opens', async () => {
    const id = await budget(APPROVED);
    const opened = await getBudget(writer, id);
    expect(opened.statusCode, opened.body).toBe(200);
    expect(opened.json().permissions).toEqual({
      read: true,
      update: true,
      restrictions: ['RESOURCE_WRITE_DISABLED', 'METADATA_WRITE_DISABLED', 'SYNCHRONIZATION_PAUSED'],
    });
    expectError(await rename(writer, id, 'Renamed', APPROVED), 403, 'ACTION_DISALLOWED_DUE_TO_STATUS');
    expectError(await writer.request({ method: 'PUT', url: `/api/budget/${id}/tags`, payload: { tags: ['x'] } }), 403, 'ACTION_DISALLOWED_DUE_TO_STATUS');
    expectError(await writer.request({ method: 'DELETE', url: `/api/budget/${id}` }), 403, 'ACTION_DISALLOWED_DUE_TO_STATUS');
    // Not even its status: only a status administrator unlocks it.
    expectError(await rename(writer, id, (await getBudget(writer, id)).json().name as string, IN_PREPARATION), 403, 'ACTION_DISALLOWED_DUE_TO_STATUS');
    expect((await getBudget(writer, id)).json().resourceStatusId).toBe(APPROVED);
  });

  it('a status administrator may change only the status of a locked budget, which unlocks it', async () => {
    const id = await budget(SUBMITTED);
    const name = (await getBudget(statusAdmin, id)).json().name as string;
    expectError(await rename(statusAdmin, id, 'Renamed too', IN_PREPARATION), 403, 'ACTION_DISALLOWED_DUE_TO_STATUS');
    expect((await rename(statusAdmin, id, name, IN_PREPARATION)).statusCode).toBe(200);
    expect((await getBudget(writer, id)).json().permissions.restrictions).toEqual([]);
    expect((await rename(writer, id, 'Renamed at last', IN_PREPARATION)).statusCode).toBe(200);
    expect((await getBudget(writer, id)).json().name).toBe('Renamed at last');
  });

  it('a hidden budget stays in the list, marked READ_DISABLED, and cannot be opened; a platform administrator sees it', async () => {
    const id = await budget(HIDDEN);
    const listed = await writer.request({ method: 'GET', url: `/api/document/${documentId}/budgets` });
    const row = (listed.json() as never as { id: string; permissions: { restrictions: string[] } }[]).find((b) => b.id === id);
    expect(row?.permissions.restrictions).toEqual(['READ_DISABLED', 'METADATA_READ_DISABLED', 'COMMENT_READ_DISABLED', 'SYNCHRONIZATION_PAUSED']);
    expectError(await getBudget(writer, id), 403, 'ACTION_DISALLOWED_DUE_TO_STATUS');
    const seenByAdmin = await getBudget(admin, id);
    expect(seenByAdmin.statusCode).toBe(200);
    expect(seenByAdmin.json().permissions.restrictions).toEqual(['SYNCHRONIZATION_PAUSED']);
  });

  it("a hidden budget's settings cannot be read into a sum budget: COMPONENT_READ_DISABLED_BY_STATUS", async () => {
    const hidden = await budget(HIDDEN);
    const response = await writer.request({
      method: 'POST',
      url: `/api/document/${documentId}/budget`,
      payload: { type: 'SUM_BUDGET', name: 'Summa', description: '', resourceStatusId: IN_PREPARATION, sumBudgetComponentIds: [hidden] },
    });
    expectError(response, 422, 'COMPONENT_READ_DISABLED_BY_STATUS');
  });

  it("a document's status locks its budgets too, and refuses new budgets in it", async () => {
    const locked = await documentFixture(IN_PREPARATION);
    const id = await budget(IN_PREPARATION, locked);
    await setDocumentStatus(locked, APPROVED);
    expect((await getBudget(writer, id)).json().permissions.restrictions).toContain('RESOURCE_WRITE_DISABLED');
    expectError(await rename(writer, id, 'Renamed', IN_PREPARATION), 403, 'ACTION_DISALLOWED_DUE_TO_STATUS');
    const created = await writer.request({
      method: 'POST',
      url: `/api/document/${locked}/budget`,
      payload: { type: 'COMMON', name: 'New', description: '', resourceStatusId: IN_PREPARATION },
    });
    expectError(created, 403, 'ACTION_DISALLOWED_DUE_TO_STATUS');
    const document = await writer.request({ method: 'GET', url: `/api/document/${locked}` });
    expect(document.json().permissions.restrictions).toEqual(['RESOURCE_WRITE_DISABLED', 'METADATA_WRITE_DISABLED', 'SYNCHRONIZATION_PAUSED']);
  });

  it("the organisation's own status exempts the roles and privileges its rules name", async () => {
    // Made by the organisation's own status administrator (the organisation allows editing statuses).
    const created = await statusAdmin.request({
      method: 'POST',
      url: '/api/resource-statuses',
      payload: {
        name: { et: 'Lukus, v.a finants', en: 'Locked but for finance' },
        description: { et: 'Muuta saab ainult finantsosakond.', en: 'Only the finance department may change it.' },
        icon: 'lock',
        rules: [
          { type: 'METADATA_WRITE_DISABLED', overrideRoles: [exemptRoleId] },
          { type: 'RESOURCE_WRITE_DISABLED', overridePrivileges: ['STATUS_ADMIN'] },
        ],
      },
    });
    expect(created.statusCode, created.body).toBe(201);
    const statusId = created.json().id as string;
    const id = await budget(statusId);
    expect((await getBudget(writer, id)).json().permissions.restrictions).toEqual(['RESOURCE_WRITE_DISABLED', 'METADATA_WRITE_DISABLED']);
    expect((await getBudget(exempt, id)).json().permissions.restrictions).toEqual(['RESOURCE_WRITE_DISABLED']);
    expect((await getBudget(statusAdmin, id)).json().permissions.restrictions).toEqual(['METADATA_WRITE_DISABLED']);
    expectError(await rename(writer, id, 'Writer renames', statusId), 403, 'ACTION_DISALLOWED_DUE_TO_STATUS');
    expect((await rename(exempt, id, 'Finance renames', statusId)).statusCode).toBe(200);
    // A status that a budget carries cannot be deleted; once the budget has another, it can.
    expectError(await statusAdmin.request({ method: 'DELETE', url: `/api/resource-status/${statusId}` }), 422, 'RESOURCE_STATUS_IN_USE');
    expect((await rename(statusAdmin, id, 'Finance renames', IN_PREPARATION)).statusCode).toBe(200);
    const deleted = await statusAdmin.request({ method: 'DELETE', url: `/api/resource-status/${statusId}` });
    expect(deleted.statusCode, deleted.body).toBe(200);
  });
});
