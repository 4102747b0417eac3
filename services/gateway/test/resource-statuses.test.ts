import { randomUUID } from 'node:crypto';
import { DEFAULT_RESOURCE_STATUSES, type ResourceStatus } from '@eelarve/shared';
import { accountsFixture, organizationPayload, PASSWORD } from '@eelarve/testing/accounts';
import { startTestServer, type TestServer } from '@eelarve/testing/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertResourceStatusInOrganization } from '../src/features/resource-statuses/service';
import { type Client, login } from './helpers';

let server: TestServer;
let admin: Client;
let fixture: ReturnType<typeof accountsFixture>;
/** Uses statuses and allows editing them. */
let editable: string;
/** Uses statuses, editing not allowed. */
let locked: string;
/** Does not use statuses. */
let without: string;
let statusAdmin: Client;
let statusViewer: Client;
let clerk: Client;
let lockedAdmin: Client;
let withoutAdmin: Client;

const approved = DEFAULT_RESOURCE_STATUSES[2]!;

async function memberOf(organizationId: string, privileges: string[]): Promise<Client> {
  const member = await fixture.member(organizationId, privileges);
  return login(server.app, member.email, PASSWORD);
}

beforeAll(async () => {
  server = await startTestServer({ listen: false });
  admin = await login(server.app, server.admin.email, server.admin.password);
  fixture = accountsFixture(server.app, admin);
  [editable, locked, without] = [
    await fixture.organizationUsingStatuses(undefined, { allowEditing: true }),
    await fixture.organizationUsingStatuses(),
    await fixture.organization(),
  ];
  statusAdmin = await memberOf(editable, ['STATUS_ADMIN', 'ROLES_ADMIN']);
  statusViewer = await memberOf(editable, ['STATUS_VIEW']);
  clerk = await memberOf(editable, ['DATA_VIEW']);
  lockedAdmin = await memberOf(locked, ['STATUS_ADMIN']);
  withoutAdmin = await memberOf(without, ['STATUS_ADMIN']);
});
afterAll(async () => server?.close());

const text = (et: string, en = '') => ({ et, en });
const ownStatus = (changes: object = {}) => ({
  name: text('Ülevaatusel', 'In review'),
  description: text('Osakond vaatab üle'),
  icon: 'flag',
  rules: [],
  ...changes,
});

async function statuses(client: Client = statusViewer): Promise<ResourceStatus[]> {
  const response = await client.request({ method: 'GET', url: '/api/resource-statuses' });
  expect(response.statusCode).toBe(200);
  return response.json();
}
const statusById = async (id: string, client?: Client) => (await statuses(client)).find((status) => status.id === id);

const create = (payload: object, client: Client = statusAdmin) => client.request({ method: 'POST', url: '/api/resource-statuses', payload });
const update = (id: string, payload: object, client: Client = statusAdmin) => client.request({ method: 'PUT', url: `/api/resource-status/${id}`, payload });
const reset = (id: string, client: Client = statusAdmin) => client.request({ method: 'POST', url: `/api/resource-status/${id}/reset` });
const remove = (id: string, client: Client = statusAdmin) => client.request({ method: 'DELETE', url: `/api/resource-status/${id}` });

async function created(payload: object, client: Client = statusAdmin): Promise<string> {
  const response = await create(payload, client);
  expect(response.statusCode, response.body).toBe(201);
  return response.json().id;
}

function expectError(response: { statusCode: number; json(): { code: string } }, status: number, code: string) {
  expect({ status: response.statusCode, code: response.json().code }).toEqual({ status, code });
}

describe('GET api/resource-statuses', () => {
  it('lists the default statuses, read-only and without an organisation, to a status viewer', async () => {
    const listed = await statuses();
    expect(listed.slice(0, DEFAULT_RESOURCE_STATUSES.length)).toEqual(
      DEFAULT_RESOURCE_STATUSES.map(({ id, name, description, icon, rules }) => ({ id, name, description, icon, rules, readOnly: true, resettable: false })),
    );
  });

  it('needs STATUS_VIEW or STATUS_ADMIN, and the organisation using statuses', async () => {
    expectError(await clerk.request({ method: 'GET', url: '/api/resource-statuses' }), 403, 'INSUFFICIENT_PERMISSIONS');
    expectError(await withoutAdmin.request({ method: 'GET', url: '/api/resource-statuses' }), 403, 'RESOURCE_STATUSES_NOT_ENABLED');
    expect(await statuses(lockedAdmin)).toHaveLength(DEFAULT_RESOURCE_STATUSES.length);
  });

  it('puts the statuses on me, and none for an organisation without statuses', async () => {
    const me = (await statusViewer.request({ method: 'GET', url: '/api/auth/me' })).json();
    expect(me.resourceStatuses).toEqual(await statuses());
    expect((await withoutAdmin.request({ method: 'GET', url: '/api/auth/me' })).json().resourceStatuses).toEqual([]);
  });
});

describe('POST api/resource-statuses', () => {
  it('creates an own status the next read shows', async () => {
    const id = await created(ownStatus({ rules: [{ type: 'RESOURCE_WRITE_DISABLED', overridePrivileges: ['STATUS_ADMIN'] }] }));
    expect(await statusById(id)).toEqual({
      id,
      organizationId: editable,
      name: text('Ülevaatusel', 'In review'),
      description: text('Osakond vaatab üle'),
      icon: 'flag',
      readOnly: false,
      rules: [{ type: 'RESOURCE_WRITE_DISABLED', overridePrivileges: ['STATUS_ADMIN'], overrideRoles: [] }],
      resettable: false,
    });
  });

  it('needs STATUS_ADMIN and the organisation allowing status editing', async () => {
    expectError(await create(ownStatus(), statusViewer), 403, 'INSUFFICIENT_PERMISSIONS');
    expectError(await create(ownStatus(), lockedAdmin), 403, 'RESOURCE_STATUS_EDITING_DISABLED');
    expectError(await create(ownStatus(), withoutAdmin), 403, 'RESOURCE_STATUSES_NOT_ENABLED');
  });

  it('requires the name and description in the organisation language', async () => {
    const response = await create(ownStatus({ name: text('', 'Only English'), description: text('') }));
    expectError(response, 400, 'SCHEMA_VALIDATION_ERROR');
    expect(response.json().details).toEqual([
      { path: 'body.name.et', message: 'validation.required' },
      { path: 'body.description.et', message: 'validation.required' },
    ]);
  });

  it('refuses two rules of one type', async () => {
    const response = await create(ownStatus({ rules: [{ type: 'READ_DISABLED' }, { type: 'READ_DISABLED', overridePrivileges: ['STATUS_ADMIN'] }] }));
    expectError(response, 400, 'SCHEMA_VALIDATION_ERROR');
    expect(response.json().details).toEqual([{ path: 'body.rules.1.type', message: 'validation.invalid' }]);
  });

  it('refuses an unknown rule type or icon', async () => {
    expectError(await create(ownStatus({ rules: [{ type: 'EVERYTHING_DISABLED' }] })), 400, 'SCHEMA_VALIDATION_ERROR');
    expectError(await create(ownStatus({ icon: 'skull' })), 400, 'SCHEMA_VALIDATION_ERROR');
  });

  it('refuses a rule overriding both privileges and roles', async () => {
    const { roleId } = await fixture.member(editable, ['DATA_VIEW']);
    const response = await create(ownStatus({ rules: [{ type: 'READ_DISABLED', overridePrivileges: ['STATUS_ADMIN'], overrideRoles: [roleId] }] }));
    expectError(response, 422, 'RESOURCE_STATUS_RULE_MIXES_OVERRIDES');
    expect(response.json().details).toEqual([{ path: 'body.rules.0', message: 'a rule overrides privileges or roles, not both' }]);
  });

  it('overrides only default-type roles of the organisation', async () => {
    const ownRole = await fixture.role(editable, ['DATA_VIEW']);
    const id = await created(ownStatus({ rules: [{ type: 'READ_DISABLED', overrideRoles: [ownRole] }] }));
    expect((await statusById(id))?.rules[0]?.overrideRoles).toEqual([ownRole]);
    const foreignRole = await fixture.role(locked, ['DATA_VIEW']);
    expectError(await create(ownStatus({ rules: [{ type: 'READ_DISABLED', overrideRoles: [foreignRole] }] })), 422, 'INVALID_USER_OR_ROLE');
    await admin.request({ method: 'POST', url: `/api/admin/${editable}` });
    const roles = (await admin.request({ method: 'GET', url: `/api/organization/${editable}/roles` })).json() as Array<{ id: string; type: string }>;
    const adminRole = roles.find((role) => role.type === 'ADMIN')!.id;
    expectError(await create(ownStatus({ rules: [{ type: 'READ_DISABLED', overrideRoles: [adminRole] }] })), 422, 'INVALID_USER_OR_ROLE');
  });
});

describe('PUT api/resource-status/{id} and reset', () => {
  it('updates an own status', async () => {
    const id = await created(ownStatus());
    expect((await update(id, ownStatus({ icon: 'star', rules: [{ type: 'COMMENT_READ_DISABLED' }] }))).statusCode).toBe(200);
    expect(await statusById(id)).toMatchObject({ icon: 'star', rules: [{ type: 'COMMENT_READ_DISABLED', overridePrivileges: [], overrideRoles: [] }] });
  });

  it('renames a default status for this organisation only, keeping its rules; reset brings the default back once', async () => {
    const renamed = { name: text('Heaks kiidetud'), description: approved.description, icon: 'lock', rules: approved.rules };
    expect((await update(approved.id, renamed)).statusCode).toBe(200);
    expect(await statusById(approved.id)).toMatchObject({ name: text('Heaks kiidetud'), icon: 'lock', readOnly: true, resettable: true });
    expect(await statusById(approved.id, lockedAdmin)).toMatchObject({ name: approved.name, icon: approved.icon, resettable: false });

    expect((await reset(approved.id)).statusCode).toBe(200);
    expect(await statusById(approved.id)).toMatchObject({ name: approved.name, icon: approved.icon, resettable: false });
    expectError(await reset(approved.id), 422, 'RESOURCE_STATUS_ALREADY_DEFAULT');
  });

  it('refuses changing the rules of a read-only status, and resetting a status that has no default', async () => {
    expectError(
      await update(approved.id, { name: approved.name, description: approved.description, icon: 'check', rules: [] }),
      422,
      'RESOURCE_STATUS_READ_ONLY',
    );
    expectError(await reset(await created(ownStatus())), 422, 'RESOURCE_STATUS_HAS_NO_DEFAULT');
  });

  it('answers not found for an unknown status and for another organisation’s status', async () => {
    expectError(await update(randomUUID(), ownStatus()), 404, 'RESOURCE_STATUS_NOT_FOUND');
    expectError(await reset(randomUUID()), 404, 'RESOURCE_STATUS_NOT_FOUND');
    const ownId = await created(ownStatus());
    expectError(await update(ownId, ownStatus(), lockedAdmin), 404, 'RESOURCE_STATUS_NOT_FOUND');
  });

  it('needs STATUS_ADMIN and the organisation allowing status editing', async () => {
    expectError(await update(approved.id, ownStatus(), statusViewer), 403, 'INSUFFICIENT_PERMISSIONS');
    expectError(await update(approved.id, { ...ownStatus(), rules: approved.rules }, lockedAdmin), 403, 'RESOURCE_STATUS_EDITING_DISABLED');
    expectError(await reset(approved.id, lockedAdmin), 403, 'RESOURCE_STATUS_EDITING_DISABLED');
  });
});

describe('DELETE api/resource-status/{id}', () => {
  it('deletes an own status; a default status cannot be deleted', async () => {
    const id = await created(ownStatus());
    expect((await remove(id)).statusCode).toBe(200);
    expect(await statusById(id)).toBeUndefined();
    expectError(await remove(id), 404, 'RESOURCE_STATUS_NOT_FOUND');
    expectError(await remove(approved.id), 422, 'RESOURCE_STATUS_READ_ONLY');
  });

  it('needs STATUS_ADMIN and the organisation allowing status editing', async () => {
    expectError(await remove(approved.id, statusViewer), 403, 'INSUFFICIENT_PERMISSIONS');
    expectError(await remove(approved.id, lockedAdmin), 403, 'RESOURCE_STATUS_EDITING_DISABLED');
  });
});

describe('deleting a role used in statuses', () => {
  it('removes the role from the status rules and answers a warning naming them', async () => {
    const [used, kept] = [await fixture.role(editable, ['DATA_VIEW']), await fixture.role(editable, ['DATA_VIEW'])];
    const id = await created(ownStatus({ rules: [{ type: 'READ_DISABLED', overrideRoles: [used, kept] }] }));
    const response = await statusAdmin.request({ method: 'DELETE', url: `/api/organization/${editable}/role/${used}` });
    expect(response.statusCode).toBe(200);
    expect(response.json().warnings).toEqual([{ code: 'ROLE_REMOVED_FROM_RESOURCE_STATUSES', resourceStatusIds: [id] }]);
    expect((await statusById(id))?.rules).toEqual([{ type: 'READ_DISABLED', overridePrivileges: [], overrideRoles: [kept] }]);
  });

  it('answers no warning for a role no status uses', async () => {
    const unused = await fixture.role(editable, ['DATA_VIEW']);
    const response = await statusAdmin.request({ method: 'DELETE', url: `/api/organization/${editable}/role/${unused}` });
    expect(response.statusCode).toBe(200);
    expect(response.json().warnings).toBeUndefined();
  });
});

describe('statuses for the document and budget forms', () => {
  it('accepts no status, a default status and an own status of the organisation; refuses others', async () => {
    const ownId = await created(ownStatus());
    await expect(assertResourceStatusInOrganization(server.app, editable, null)).resolves.toBeUndefined();
    await expect(assertResourceStatusInOrganization(server.app, editable, approved.id)).resolves.toBeUndefined();
    await expect(assertResourceStatusInOrganization(server.app, editable, ownId)).resolves.toBeUndefined();
    await expect(assertResourceStatusInOrganization(server.app, locked, ownId)).rejects.toMatchObject({ code: 'RESOURCE_STATUS_NOT_FOUND' });
    await expect(assertResourceStatusInOrganization(server.app, editable, randomUUID())).rejects.toMatchObject({ code: 'RESOURCE_STATUS_NOT_FOUND' });
  });

  it('enabling statuses cannot be undone', async () => {
    const response = await admin.request({
      method: 'PUT',
      url: `/api/organization/${locked}`,
      payload: { ...organizationPayload('Tagasi'), enableResourceStatuses: false },
    });
    expectError(response, 422, 'RESOURCE_STATUSES_CANNOT_BE_DISABLED');
  });
});
