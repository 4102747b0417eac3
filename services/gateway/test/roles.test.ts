import { randomUUID } from 'node:crypto';
import { PRIVILEGES } from '@eelarve/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountsFixture, PASSWORD } from '@eelarve/testing/accounts';
import { startTestServer, type TestServer } from '@eelarve/testing/server';
import { type Client, login } from './helpers';

let server: TestServer;
let admin: Client;
let fixture: ReturnType<typeof accountsFixture>;
let organizationId: string;
/** ROLES_ADMIN and USER_ADMIN in the organisation, without IS_ADMIN. */
let rolesAdmin: Client;

beforeAll(async () => {
  server = await startTestServer({ listen: false });
  admin = await login(server.app, server.admin.email, server.admin.password);
  fixture = accountsFixture(server.app, admin);
  organizationId = await fixture.organization('Viljandi Vallavalitsus');
  const member = await fixture.member(organizationId, ['ROLES_ADMIN', 'USER_ADMIN']);
  rolesAdmin = await login(server.app, member.email, PASSWORD);
});
afterAll(async () => server?.close());

type RoleRow = { id: string; name: string; description: string; type: string; inUse: boolean; privileges: Array<{ id: string; name: string }> };

async function roles(client: Client = rolesAdmin, organization = organizationId): Promise<RoleRow[]> {
  const response = await client.request({ method: 'GET', url: `/api/organization/${organization}/roles` });
  expect(response.statusCode).toBe(200);
  return response.json();
}

const createRole = (payload: object, client: Client = rolesAdmin) =>
  client.request({ method: 'POST', url: `/api/organization/${organizationId}/role`, payload });
const updateRole = (roleId: string, payload: object, client: Client = rolesAdmin) =>
  client.request({ method: 'PUT', url: `/api/organization/${organizationId}/role/${roleId}`, payload: { id: roleId, organizationId, ...payload } });
const deleteRole = (roleId: string, client: Client = rolesAdmin) =>
  client.request({ method: 'DELETE', url: `/api/organization/${organizationId}/role/${roleId}` });

function expectError(response: { statusCode: number; json(): { code: string } }, status: number, code: string) {
  expect({ status: response.statusCode, code: response.json().code }).toEqual({ status, code });
}

/** The organisation's admin role, made by giving the platform administrator an admin occupation. */
async function adminRoleId(): Promise<string> {
  await admin.request({ method: 'POST', url: `/api/admin/${organizationId}` });
  await admin.request({ method: 'DELETE', url: `/api/admin/${organizationId}` });
  return (await roles()).find((role) => role.type === 'ADMIN')!.id;
}

describe('privileges', () => {
  it('lists every privilege, IS_ADMIN only to a platform administrator', async () => {
    const forAdmin = (await admin.request({ method: 'GET', url: '/api/privileges' })).json();
    expect(forAdmin).toEqual(PRIVILEGES.map((id) => ({ id, name: id })));
    const forOthers = (await rolesAdmin.request({ method: 'GET', url: '/api/privileges' })).json();
    expect(forOthers.map((privilege: { id: string }) => privilege.id)).toEqual(PRIVILEGES.filter((id) => id !== 'IS_ADMIN'));
  });

  it('is readable with a user privilege too, but not without any', async () => {
    const userViewer = await fixture.member(organizationId, ['USER_VIEW']);
    expect((await (await login(server.app, userViewer.email, PASSWORD)).request({ method: 'GET', url: '/api/privileges' })).statusCode).toBe(200);
    const clerk = await fixture.member(organizationId, ['DATA_VIEW']);
    expectError(await (await login(server.app, clerk.email, PASSWORD)).request({ method: 'GET', url: '/api/privileges' }), 403, 'INSUFFICIENT_PERMISSIONS');
  });
});

describe('roles: create, update, delete', () => {
  it('creates a role the next read shows', async () => {
    const response = await createRole({ name: ' Accountant ', description: 'Keeps the books', privilegeIds: ['DATA_VIEW', 'SCHEMA_VIEW', 'DATA_VIEW'] });
    expect(response.statusCode).toBe(201);
    const { id, position } = response.json();
    expect(position).toMatch(/^\d+\/\d+$/);
    expect((await roles()).find((role) => role.id === id)).toEqual({
      id,
      organizationId,
      name: 'Accountant',
      description: 'Keeps the books',
      privileges: [
        { id: 'DATA_VIEW', name: 'DATA_VIEW' },
        { id: 'SCHEMA_VIEW', name: 'SCHEMA_VIEW' },
      ],
      type: 'DEFAULT',
      inUse: false,
    });
  });

  it('defaults description and privileges', async () => {
    const { id } = (await createRole({ name: 'Bare' })).json();
    expect((await roles()).find((role) => role.id === id)).toMatchObject({ description: '', privileges: [] });
  });

  it('updates name, description and privileges', async () => {
    const { id } = (await createRole({ name: 'Planner', privilegeIds: ['DATA_VIEW'] })).json();
    expect((await updateRole(id, { name: 'Chief planner', description: 'Plans', privilegeIds: ['USER_VIEW'] })).statusCode).toBe(200);
    expect((await roles()).find((role) => role.id === id)).toMatchObject({
      name: 'Chief planner',
      description: 'Plans',
      privileges: [{ id: 'USER_VIEW', name: 'USER_VIEW' }],
    });
  });

  it('answers a null position when an update changes nothing', async () => {
    const { id } = (await createRole({ name: 'Steady', privilegeIds: ['DATA_VIEW'] })).json();
    const response = await updateRole(id, { name: 'Steady', description: '', privilegeIds: ['DATA_VIEW'] });
    expect(response.json()).toEqual({ id, position: null });
  });

  it('deletes a role, after which it is not found', async () => {
    const { id } = (await createRole({ name: 'Temporary' })).json();
    expect((await deleteRole(id)).statusCode).toBe(200);
    expect((await roles()).some((role) => role.id === id)).toBe(false);
    expectError(await deleteRole(id), 404, 'ROLE_NOT_FOUND');
    expectError(await updateRole(id, { name: 'Back' }), 404, 'ROLE_NOT_FOUND');
  });

  it('answers 404 for an unknown role', async () => {
    expectError(await updateRole(randomUUID(), { name: 'Ghost' }), 404, 'ROLE_NOT_FOUND');
    expectError(await deleteRole(randomUUID()), 404, 'ROLE_NOT_FOUND');
  });
});

describe('roles: name rules', () => {
  it('refuses a name another role of the organisation has, whatever its case', async () => {
    await createRole({ name: 'Auditor' });
    expectError(await createRole({ name: 'AUDITOR' }), 409, 'ROLE_NAME_NOT_UNIQUE');
    const { id } = (await createRole({ name: 'Inspector' })).json();
    expectError(await updateRole(id, { name: 'auditor' }), 409, 'ROLE_NAME_NOT_UNIQUE');
  });

  it('allows the same name in another organisation', async () => {
    await createRole({ name: 'Treasurer' });
    const other = await fixture.organization();
    expect((await admin.request({ method: 'POST', url: `/api/organization/${other}/role`, payload: { name: 'Treasurer' } })).statusCode).toBe(201);
  });

  it('lets a role change the case of its own name', async () => {
    const { id } = (await createRole({ name: 'analyst' })).json();
    expect((await updateRole(id, { name: 'Analyst' })).statusCode).toBe(200);
    expect((await roles()).find((role) => role.id === id)?.name).toBe('Analyst');
  });

  it('frees a name on rename and on delete', async () => {
    const { id } = (await createRole({ name: 'Clerk' })).json();
    expect((await updateRole(id, { name: 'Senior clerk' })).statusCode).toBe(200);
    expect((await createRole({ name: 'clerk' })).statusCode).toBe(201);
    expect((await deleteRole(id)).statusCode).toBe(200);
    expect((await createRole({ name: 'Senior Clerk' })).statusCode).toBe(201);
  });

  it('creates exactly one of many concurrent roles with one name', async () => {
    const responses = await Promise.all(Array.from({ length: 6 }, (_, index) => createRole({ name: index % 2 ? 'Racer' : 'RACER' })));
    expect(responses.map((response) => response.statusCode).sort()).toEqual([201, 409, 409, 409, 409, 409]);
    expect((await roles()).filter((role) => role.name.toLowerCase() === 'racer')).toHaveLength(1);
  });

  it('reserves the admin name, in any case', async () => {
    expectError(await createRole({ name: 'ADMIN' }), 422, 'ROLE_RESERVED');
    expectError(await createRole({ name: 'admin' }), 422, 'ROLE_RESERVED');
    const { id } = (await createRole({ name: 'Almost admin' })).json();
    expectError(await updateRole(id, { name: 'Admin' }), 422, 'ROLE_RESERVED');
  });
});

describe('roles: the admin role and roles in use', () => {
  it('refuses to edit or delete the admin role', async () => {
    const id = await adminRoleId();
    const role = (await roles()).find((candidate) => candidate.id === id)!;
    expect(role).toMatchObject({ name: 'ADMIN', type: 'ADMIN' });
    expect(role.privileges.map((privilege) => privilege.id)).toEqual(PRIVILEGES.filter((privilege) => privilege !== 'IS_ADMIN'));
    expectError(await updateRole(id, { name: 'ADMIN', description: 'changed' }), 422, 'ROLE_NOT_MODIFIABLE');
    expectError(await updateRole(id, { name: 'Renamed admin' }), 422, 'ROLE_NOT_MODIFIABLE');
    expectError(await deleteRole(id), 422, 'ROLE_NOT_MODIFIABLE');
  });

  it('refuses to delete a role attached to an occupation, and shows it in use', async () => {
    const { id } = (await createRole({ name: 'Mapped' })).json();
    const userId = await fixture.user(organizationId);
    const occupationId = await fixture.occupation(organizationId, userId, [id]);
    expect((await roles()).find((role) => role.id === id)?.inUse).toBe(true);
    expectError(await deleteRole(id), 422, 'ROLE_MAPPED_TO_OCCUPATION');
    expect((await rolesAdmin.request({ method: 'DELETE', url: `/api/occupation/${occupationId}` })).statusCode).toBe(200);
    expect((await roles()).find((role) => role.id === id)?.inUse).toBe(false);
    expect((await deleteRole(id)).statusCode).toBe(200);
  });
});

describe('roles: IS_ADMIN', () => {
  it('may be granted only by a platform administrator', async () => {
    expectError(await createRole({ name: 'Sneaky', privilegeIds: ['IS_ADMIN'] }), 403, 'INSUFFICIENT_PERMISSIONS');
    const { id } = (await createRole({ name: 'Harmless' })).json();
    expectError(await updateRole(id, { name: 'Harmless', privilegeIds: ['IS_ADMIN'] }), 403, 'INSUFFICIENT_PERMISSIONS');
    expect((await roles()).find((role) => role.id === id)?.privileges).toEqual([]);
  });

  it('is refused in this (customer) organisation even to a platform administrator: it belongs to the platform organisation', async () => {
    const created = await admin.request({
      method: 'POST',
      url: `/api/organization/${organizationId}/role`,
      payload: { name: 'Platform operator', privilegeIds: ['IS_ADMIN'] },
    });
    expectError(created, 422, 'UNSUITABLE_ROLE');
  });
});

describe('roles: input rules', () => {
  const invalid: Array<[string, object, string]> = [
    ['a missing name', { description: '' }, 'body.name'],
    ['a blank name', { name: '  ' }, 'body.name'],
    ['a name over 256 characters', { name: 'x'.repeat(257) }, 'body.name'],
    ['a description over 4096 characters', { name: 'Long', description: 'x'.repeat(4097) }, 'body.description'],
    ['an unknown privilege', { name: 'Odd', privilegeIds: ['DATA_VIEW', 'SUPERUSER'] }, 'body.privilegeIds.1'],
    ['privileges that are not a list', { name: 'Odd', privilegeIds: 'DATA_VIEW' }, 'body.privilegeIds'],
  ];

  it.each(invalid)('rejects %s with 400, changing nothing', async (_label, payload, path) => {
    const before = await roles();
    const { id } = before.find((role) => role.type === 'DEFAULT')!;
    for (const response of [await createRole(payload), await updateRole(id, payload)]) {
      expectError(response, 400, 'SCHEMA_VALIDATION_ERROR');
      expect(response.json().details.map((issue: { path: string }) => issue.path)).toContain(path);
    }
    expect(await roles()).toEqual(before);
  });

  it('accepts a 256-character name and a 4096-character description', async () => {
    expect((await createRole({ name: 'y'.repeat(256), description: 'x'.repeat(4096) })).statusCode).toBe(201);
  });

  it('rejects malformed ids', async () => {
    expectError(
      await rolesAdmin.request({ method: 'PUT', url: `/api/organization/${organizationId}/role/nope`, payload: { name: 'X' } }),
      400,
      'SCHEMA_VALIDATION_ERROR',
    );
    expectError(await rolesAdmin.request({ method: 'DELETE', url: `/api/organization/nope/role/${randomUUID()}` }), 400, 'SCHEMA_VALIDATION_ERROR');
  });
});

describe('roles: access', () => {
  it('requires a session', async () => {
    for (const [method, url] of [
      ['GET', '/api/privileges'],
      ['GET', `/api/organization/${organizationId}/roles`],
      ['POST', `/api/organization/${organizationId}/role`],
      ['PUT', `/api/organization/${organizationId}/role/${randomUUID()}`],
      ['DELETE', `/api/organization/${organizationId}/role/${randomUUID()}`],
    ] as const) {
      expectError(await server.app.inject({ method, url, payload: method === 'POST' || method === 'PUT' ? { name: 'X' } : undefined }), 401, 'UNAUTHORIZED');
    }
  });

  it('lets ROLES_VIEW read but not change', async () => {
    const viewer = await fixture.member(organizationId, ['ROLES_VIEW']);
    const client = await login(server.app, viewer.email, PASSWORD);
    expect((await roles(client)).length).toBeGreaterThan(0);
    expectError(await createRole({ name: 'Viewer made' }, client), 403, 'INSUFFICIENT_PERMISSIONS');
    expectError(await updateRole(viewer.roleId, { name: 'Viewer renamed' }, client), 403, 'INSUFFICIENT_PERMISSIONS');
    expectError(await deleteRole(viewer.roleId, client), 403, 'INSUFFICIENT_PERMISSIONS');
  });

  it('lets user administrators read roles (the occupation form offers them) but not change them', async () => {
    const userAdmin = await fixture.member(organizationId, ['USER_ADMIN']);
    const client = await login(server.app, userAdmin.email, PASSWORD);
    expect((await client.request({ method: 'GET', url: `/api/organization/${organizationId}/roles` })).statusCode).toBe(200);
    expectError(
      await client.request({ method: 'POST', url: `/api/organization/${organizationId}/role`, payload: { name: 'Sneaky' } }),
      403,
      'INSUFFICIENT_PERMISSIONS',
    );
  });

  it('refuses a user without role or user privileges', async () => {
    const clerk = await fixture.member(organizationId, ['DATA_VIEW']);
    const client = await login(server.app, clerk.email, PASSWORD);
    expectError(await client.request({ method: 'GET', url: `/api/organization/${organizationId}/roles` }), 403, 'INSUFFICIENT_PERMISSIONS');
  });
});
