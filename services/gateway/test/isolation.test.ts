import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountsFixture, PASSWORD } from '@eelarve/testing/accounts';
import { startTestServer, type TestServer } from '@eelarve/testing/server';
import { type Client, login } from './helpers';

/**
 * One organisation's administrators can neither read nor change another organisation's users,
 * roles or occupations; objects addressed by their own id answer "not found", so ids of other
 * organisations are not even confirmed.
 */
let server: TestServer;
let admin: Client;
let fixture: ReturnType<typeof accountsFixture>;
const ALL = ['USER_ADMIN', 'USER_VIEW', 'ROLES_ADMIN', 'ROLES_VIEW'];

interface Tenant {
  organizationId: string;
  client: Client;
  userId: string;
  roleId: string;
  occupationId: string;
}
let a: Tenant;
let b: Tenant;

async function tenant(name: string): Promise<Tenant> {
  const organizationId = await fixture.organization(name);
  const member = await fixture.member(organizationId, ALL);
  const client = await login(server.app, member.email, PASSWORD);
  // A second user with an occupation, as the target of changes.
  const userId = await fixture.user(organizationId);
  const roleId = await fixture.role(organizationId, ['DATA_VIEW']);
  const occupationId = await fixture.occupation(organizationId, userId, [roleId]);
  return { organizationId, client, userId, roleId, occupationId };
}

beforeAll(async () => {
  server = await startTestServer({ listen: false });
  admin = await login(server.app, server.admin.email, server.admin.password);
  fixture = accountsFixture(server.app, admin);
  a = await tenant('Organisation A');
  b = await tenant('Organisation B');
});
afterAll(async () => server?.close());

function expectError(response: { statusCode: number; json(): { code: string } }, status: number, code: string) {
  expect({ status: response.statusCode, code: response.json().code }).toEqual({ status, code });
}

/** Everything B's screens show, read by the platform administrator. */
async function snapshotOfB() {
  const read = async (path: string) => (await admin.request({ method: 'GET', url: `/api/organization/${b.organizationId}/${path}` })).json();
  const users = (await read('users')).map(({ lastSeen: _seen, ...user }: { lastSeen: unknown }) => user);
  return { users, roles: await read('roles'), occupations: await read('occupations') };
}

describe('organisation isolation', () => {
  it('refuses to read another organisation’s users, user names, roles and occupations', async () => {
    for (const path of ['users', 'user-names', 'roles', 'occupations']) {
      expectError(await a.client.request({ method: 'GET', url: `/api/organization/${b.organizationId}/${path}` }), 404, 'ORGANIZATION_NOT_FOUND');
    }
  });

  it('answers the same for an organisation that does not exist, confirming nothing', async () => {
    const unknown = '00000000-0000-4000-8000-000000000000';
    expectError(await a.client.request({ method: 'GET', url: `/api/organization/${unknown}/users` }), 404, 'ORGANIZATION_NOT_FOUND');
  });

  it('refuses to create users, roles or occupations in another organisation', async () => {
    const before = await snapshotOfB();
    expectError(
      await a.client.request({
        method: 'POST',
        url: `/api/organization/${b.organizationId}/user`,
        payload: { name: 'Intruder', email: 'intruder@example.com' },
      }),
      404,
      'ORGANIZATION_NOT_FOUND',
    );
    expectError(
      await a.client.request({ method: 'POST', url: `/api/organization/${b.organizationId}/role`, payload: { name: 'Intruder' } }),
      404,
      'ORGANIZATION_NOT_FOUND',
    );
    expectError(
      await a.client.request({ method: 'POST', url: `/api/organization/${b.organizationId}/occupation`, payload: { userId: b.userId, name: 'Intruder' } }),
      404,
      'ORGANIZATION_NOT_FOUND',
    );
    expect(await snapshotOfB()).toEqual(before);
  });

  it('refuses to change another organisation’s users, through either path', async () => {
    const before = await snapshotOfB();
    const payload = { name: 'Hijacked', email: 'hijacked@example.com' };
    expectError(
      await a.client.request({ method: 'PUT', url: `/api/organization/${b.organizationId}/user/${b.userId}`, payload }),
      404,
      'ORGANIZATION_NOT_FOUND',
    );
    expectError(await a.client.request({ method: 'DELETE', url: `/api/organization/${b.organizationId}/user/${b.userId}` }), 404, 'ORGANIZATION_NOT_FOUND');
    // B's user addressed under A's own organisation: not found.
    expectError(await a.client.request({ method: 'PUT', url: `/api/organization/${a.organizationId}/user/${b.userId}`, payload }), 404, 'USER_NOT_FOUND');
    expectError(await a.client.request({ method: 'DELETE', url: `/api/organization/${a.organizationId}/user/${b.userId}` }), 404, 'USER_NOT_FOUND');
    expect(await snapshotOfB()).toEqual(before);
  });

  it('refuses to change another organisation’s roles, through either path', async () => {
    const before = await snapshotOfB();
    const payload = { name: 'Hijacked', privilegeIds: ['USER_ADMIN'] };
    expectError(
      await a.client.request({ method: 'PUT', url: `/api/organization/${b.organizationId}/role/${b.roleId}`, payload }),
      404,
      'ORGANIZATION_NOT_FOUND',
    );
    expectError(await a.client.request({ method: 'DELETE', url: `/api/organization/${b.organizationId}/role/${b.roleId}` }), 404, 'ORGANIZATION_NOT_FOUND');
    expectError(await a.client.request({ method: 'PUT', url: `/api/organization/${a.organizationId}/role/${b.roleId}`, payload }), 404, 'ROLE_NOT_FOUND');
    expectError(await a.client.request({ method: 'DELETE', url: `/api/organization/${a.organizationId}/role/${b.roleId}` }), 404, 'ROLE_NOT_FOUND');
    expect(await snapshotOfB()).toEqual(before);
  });

  it('answers "not found" for another organisation’s occupations', async () => {
    const before = await snapshotOfB();
    const payload = { organizationId: b.organizationId, userId: b.userId, name: 'Hijacked', roles: [b.roleId] };
    expectError(await a.client.request({ method: 'PUT', url: `/api/occupation/${b.occupationId}`, payload }), 404, 'OCCUPATION_NOT_FOUND');
    expectError(await a.client.request({ method: 'DELETE', url: `/api/occupation/${b.occupationId}` }), 404, 'OCCUPATION_NOT_FOUND');
    expect(await snapshotOfB()).toEqual(before);
  });

  it('refuses to bring another organisation’s users or roles into one’s own occupations', async () => {
    const before = await snapshotOfB();
    const ownUser = await fixture.user(a.organizationId);
    const create = (payload: object) => a.client.request({ method: 'POST', url: `/api/organization/${a.organizationId}/occupation`, payload });
    expectError(await create({ userId: b.userId, name: 'Borrowed user' }), 422, 'UNSUITABLE_USER');
    expectError(await create({ userId: ownUser, name: 'Borrowed role', roles: [b.roleId] }), 422, 'INVALID_USER_OR_ROLE');
    expectError(
      await a.client.request({ method: 'PUT', url: `/api/occupation/${a.occupationId}`, payload: { userId: b.userId, name: 'Moved', roles: [a.roleId] } }),
      422,
      'UNSUITABLE_USER',
    );
    // B's user does not show up in A, and B is unchanged.
    const names = (await a.client.request({ method: 'GET', url: `/api/organization/${a.organizationId}/user-names` })).json();
    expect(names.some((user: { id: string }) => user.id === b.userId)).toBe(false);
    expect(await snapshotOfB()).toEqual(before);
  });

  it('lists only the organisation’s own users, roles and occupations', async () => {
    const read = async (path: string) =>
      (await a.client.request({ method: 'GET', url: `/api/organization/${a.organizationId}/${path}` })).json() as Array<{
        id: string;
        organizationId?: string;
      }>;
    expect((await read('users')).every((user) => user.organizationId === a.organizationId)).toBe(true);
    expect((await read('roles')).every((role) => role.organizationId === a.organizationId)).toBe(true);
    expect((await read('occupations')).every((occupation) => occupation.organizationId === a.organizationId)).toBe(true);
    expect((await read('users')).some((user) => user.id === b.userId)).toBe(false);
  });

  it('lets the platform administrator manage any organisation', async () => {
    const rename = await admin.request({
      method: 'PUT',
      url: `/api/organization/${b.organizationId}/role/${b.roleId}`,
      payload: { name: 'Renamed by the platform' },
    });
    expect(rename.statusCode).toBe(200);
    const roles = (await b.client.request({ method: 'GET', url: `/api/organization/${b.organizationId}/roles` })).json();
    expect(roles.find((role: { id: string }) => role.id === b.roleId).name).toBe('Renamed by the platform');
  });
});
