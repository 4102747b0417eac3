import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountsFixture, PASSWORD } from '@eelarve/testing/accounts';
import { startTestServer, type TestServer } from '@eelarve/testing/server';
import { type Client, login } from './helpers';

let server: TestServer;
let admin: Client;
let fixture: ReturnType<typeof accountsFixture>;
let organizationId: string;
let platformId: string;
/** USER_ADMIN in the organisation, holding what the test roles carry (nobody hands out privileges they lack). */
let userAdmin: Client;
let userAdminOccupationId: string;
let roleId: string;
let secondRoleId: string;

beforeAll(async () => {
  server = await startTestServer({ listen: false });
  admin = await login(server.app, server.admin.email, server.admin.password);
  platformId = (await admin.request({ method: 'GET', url: '/api/auth/me' })).json().organizationId;
  fixture = accountsFixture(server.app, admin);
  organizationId = await fixture.organization('Rakvere Linnavalitsus');
  const member = await fixture.member(organizationId, ['USER_ADMIN', 'USER_VIEW', 'DATA_VIEW', 'SCHEMA_VIEW']);
  userAdminOccupationId = member.occupationId;
  userAdmin = await login(server.app, member.email, PASSWORD);
  roleId = await fixture.role(organizationId, ['DATA_VIEW'], 'Reader');
  secondRoleId = await fixture.role(organizationId, ['SCHEMA_VIEW'], 'Schemer');
});
afterAll(async () => server?.close());

type OccupationRow = {
  id: string;
  organizationId: string;
  userId: string;
  userName: string;
  name: string;
  description: string;
  type: string;
  roles: Array<{ id: string; name: string }>;
};

async function occupations(client: Client = userAdmin, organization = organizationId): Promise<OccupationRow[]> {
  const response = await client.request({ method: 'GET', url: `/api/organization/${organization}/occupations` });
  expect(response.statusCode).toBe(200);
  return response.json();
}

const createOccupation = (payload: object, client: Client = userAdmin) =>
  client.request({ method: 'POST', url: `/api/organization/${organizationId}/occupation`, payload });
const updateOccupation = (occupationId: string, payload: object, client: Client = userAdmin) =>
  client.request({ method: 'PUT', url: `/api/occupation/${occupationId}`, payload: { organizationId, occupationId, ...payload } });
const deleteOccupation = (occupationId: string, client: Client = userAdmin) => client.request({ method: 'DELETE', url: `/api/occupation/${occupationId}` });

function expectError(response: { statusCode: number; json(): { code: string } }, status: number, code: string) {
  expect({ status: response.statusCode, code: response.json().code }).toEqual({ status, code });
}

describe('occupations: create, update, delete', () => {
  it('creates an occupation the next read shows, with user and role names', async () => {
    const userId = await fixture.user(organizationId, undefined, 'Kadri Kask');
    const response = await createOccupation({ userId, name: ' Accountant ', description: 'Books', roles: [roleId, { id: secondRoleId }, roleId] });
    expect(response.statusCode).toBe(201);
    const { id, position } = response.json();
    expect(position).toMatch(/^\d+\/\d+$/);
    const row = (await occupations()).find((occupation) => occupation.id === id);
    expect(row).toEqual({
      id,
      organizationId,
      userId,
      userName: 'Kadri Kask',
      name: 'Accountant',
      description: 'Books',
      type: 'DEFAULT',
      roles: expect.arrayContaining([
        { id: roleId, name: 'Reader' },
        { id: secondRoleId, name: 'Schemer' },
      ]),
    });
    expect(row!.roles).toHaveLength(2);
  });

  it('creates one without roles or description', async () => {
    const userId = await fixture.user(organizationId);
    const { id } = (await createOccupation({ userId, name: 'Bare' })).json();
    expect((await occupations()).find((occupation) => occupation.id === id)).toMatchObject({ description: '', roles: [] });
  });

  it('updates name, description, roles and user', async () => {
    const userId = await fixture.user(organizationId);
    const nextUserId = await fixture.user(organizationId, undefined, 'Next Holder');
    const { id } = (await createOccupation({ userId, name: 'Planner', roles: [roleId] })).json();
    expect((await updateOccupation(id, { userId: nextUserId, name: 'Chief planner', description: 'Plans', roles: [{ id: secondRoleId }] })).statusCode).toBe(
      200,
    );
    expect((await occupations()).find((occupation) => occupation.id === id)).toMatchObject({
      userId: nextUserId,
      userName: 'Next Holder',
      name: 'Chief planner',
      description: 'Plans',
      roles: [{ id: secondRoleId, name: 'Schemer' }],
    });
  });

  it('gives the holder the occupation’s privileges at once', async () => {
    const member = await fixture.member(organizationId, ['DATA_VIEW']);
    const client = await login(server.app, member.email, PASSWORD);
    expectError(await client.request({ method: 'GET', url: `/api/organization/${organizationId}/occupations` }), 403, 'INSUFFICIENT_PERMISSIONS');
    const viewerRole = await fixture.role(organizationId, ['USER_VIEW']);
    expect((await updateOccupation(member.occupationId, { userId: member.userId, name: 'Viewer', roles: [viewerRole] })).statusCode).toBe(200);
    expect((await client.request({ method: 'GET', url: `/api/organization/${organizationId}/occupations` })).statusCode).toBe(200);
  });

  it('takes the occupation from a session that sat idle while it went to another user', async () => {
    const member = await fixture.member(organizationId, ['USER_VIEW']);
    const client = await login(server.app, member.email, PASSWORD);
    const readOccupations = () => client.request({ method: 'GET', url: `/api/organization/${organizationId}/occupations` });
    expect((await readOccupations()).statusCode).toBe(200);
    // Idle past the window in which a session blocks its occupation's change, not past the idle timeout.
    await server.app.db
      .updateTable('operational.sessions')
      .set({ last_seen_at: new Date(Date.now() - 31 * 60_000) })
      .where('user_id', '=', member.userId)
      .execute();
    const nextUserId = await fixture.user(organizationId);
    expect((await updateOccupation(member.occupationId, { userId: nextUserId, name: 'Handed over', roles: [{ id: member.roleId }] })).statusCode).toBe(200);
    expectError(await readOccupations(), 403, 'INSUFFICIENT_PERMISSIONS');
    expect((await client.request({ method: 'GET', url: '/api/auth/me' })).json()).toMatchObject({ occupationId: null });
  });

  it('deletes, after which it is not found', async () => {
    const userId = await fixture.user(organizationId);
    const { id } = (await createOccupation({ userId, name: 'Temporary' })).json();
    expect((await deleteOccupation(id)).statusCode).toBe(200);
    expect((await occupations()).some((occupation) => occupation.id === id)).toBe(false);
    expectError(await deleteOccupation(id), 404, 'OCCUPATION_NOT_FOUND');
    expectError(await updateOccupation(id, { userId, name: 'Back' }), 404, 'OCCUPATION_NOT_FOUND');
  });
});

describe('occupations: rules', () => {
  it('refuses a user who does not belong to the organisation, or does not exist', async () => {
    const other = await fixture.organization();
    const stranger = await fixture.user(other);
    expectError(await createOccupation({ userId: stranger, name: 'Stranger' }), 422, 'UNSUITABLE_USER');
    expectError(await createOccupation({ userId: randomUUID(), name: 'Nobody' }), 422, 'UNSUITABLE_USER');
    const userId = await fixture.user(organizationId);
    const { id } = (await createOccupation({ userId, name: 'Reassigned' })).json();
    expectError(await updateOccupation(id, { userId: stranger, name: 'Reassigned' }), 422, 'UNSUITABLE_USER');
  });

  it('refuses a role of another organisation, or an unknown one', async () => {
    const other = await fixture.organization();
    const foreignRole = await fixture.role(other, ['DATA_VIEW']);
    const userId = await fixture.user(organizationId);
    expectError(await createOccupation({ userId, name: 'Foreign role', roles: [foreignRole] }), 422, 'INVALID_USER_OR_ROLE');
    expectError(await createOccupation({ userId, name: 'Unknown role', roles: [roleId, randomUUID()] }), 422, 'INVALID_USER_OR_ROLE');
    const { id } = (await createOccupation({ userId, name: 'Good roles', roles: [roleId] })).json();
    expectError(await updateOccupation(id, { userId, name: 'Good roles', roles: [foreignRole] }), 422, 'INVALID_USER_OR_ROLE');
  });

  it('refuses the admin role on an ordinary occupation', async () => {
    await admin.request({ method: 'POST', url: `/api/admin/${organizationId}` });
    const adminRole = (await admin.request({ method: 'GET', url: `/api/organization/${organizationId}/roles` }))
      .json()
      .find((role: { type: string }) => role.type === 'ADMIN');
    await admin.request({ method: 'DELETE', url: `/api/admin/${organizationId}` });
    const userId = await fixture.user(organizationId);
    expectError(await createOccupation({ userId, name: 'Would-be admin', roles: [adminRole.id] }), 422, 'UNSUITABLE_ROLE');
  });

  it('refuses to edit or delete an ADMIN occupation', async () => {
    const me = (await admin.request({ method: 'POST', url: `/api/admin/${organizationId}` })).json();
    const adminOccupation = (await occupations()).find((occupation) => occupation.type === 'ADMIN')!;
    expect(adminOccupation.userId).toBe(me.id);
    expectError(await updateOccupation(adminOccupation.id, { userId: me.id, name: 'Renamed' }), 422, 'OCCUPATION_NOT_MODIFIABLE');
    const userId = await fixture.user(organizationId);
    expectError(await updateOccupation(adminOccupation.id, { userId, name: 'Administrator' }), 422, 'OCCUPATION_NOT_MODIFIABLE');
    expectError(await deleteOccupation(adminOccupation.id), 422, 'OCCUPATION_NOT_MODIFIABLE');
    await admin.request({ method: 'DELETE', url: `/api/admin/${organizationId}` });
  });

  it('refuses to delete or reassign the caller’s current occupation', async () => {
    expectError(await deleteOccupation(userAdminOccupationId), 422, 'CURRENT_OCCUPATION_CANNOT_BE_REMOVED');
    const current = (await occupations()).find((occupation) => occupation.id === userAdminOccupationId)!;
    const otherUser = await fixture.user(organizationId);
    const roles = current.roles.map((role) => role.id);
    expectError(await updateOccupation(current.id, { userId: otherUser, name: current.name, roles }), 422, 'CURRENT_OCCUPATION_CANNOT_BE_REMOVED');
    expect((await occupations()).find((occupation) => occupation.id === userAdminOccupationId)).toEqual(current);
  });

  it('refuses to delete an occupation another signed-in user is acting in, until they leave', async () => {
    const member = await fixture.member(organizationId, ['DATA_VIEW']);
    const client = await login(server.app, member.email, PASSWORD);
    expect((await client.request({ method: 'GET', url: '/api/auth/me' })).json().occupationId).toBe(member.occupationId);
    expectError(await deleteOccupation(member.occupationId), 409, 'USER_ALREADY_ALLOCATED');
    expect((await client.request({ method: 'POST', url: '/api/auth/logout', payload: {} })).statusCode).toBe(204);
    expect((await deleteOccupation(member.occupationId)).statusCode).toBe(200);
  });

  it('lets the platform administrator manage any organisation’s occupations', async () => {
    const userId = await fixture.user(organizationId);
    const { id } = (await createOccupation({ userId, name: 'By platform admin', roles: [roleId] }, admin)).json();
    expect((await updateOccupation(id, { userId, name: 'Renamed by platform admin' }, admin)).statusCode).toBe(200);
    expect((await deleteOccupation(id, admin)).statusCode).toBe(200);
  });
});

describe('occupations: input rules', () => {
  let userId: string;
  beforeAll(async () => {
    userId = await fixture.user(organizationId);
  });

  const invalid: Array<[string, (userId: string) => object, string]> = [
    ['a missing name', (userId) => ({ userId }), 'body.name'],
    ['a blank name', (userId) => ({ userId, name: '  ' }), 'body.name'],
    ['a name over 256 characters', (userId) => ({ userId, name: 'x'.repeat(257) }), 'body.name'],
    ['a description over 4096 characters', (userId) => ({ userId, name: 'Long', description: 'x'.repeat(4097) }), 'body.description'],
    ['a missing user', () => ({ name: 'No user' }), 'body.userId'],
    ['a malformed user id', () => ({ userId: 'someone', name: 'Bad user' }), 'body.userId'],
    ['a malformed role id', (userId) => ({ userId, name: 'Bad role', roles: ['reader'] }), 'body.roles.0'],
  ];

  it.each(invalid)('rejects %s with 400, changing nothing', async (_label, payload, path) => {
    const before = await occupations();
    for (const response of [await createOccupation(payload(userId)), await updateOccupation(userAdminOccupationId, payload(userId))]) {
      expectError(response, 400, 'SCHEMA_VALIDATION_ERROR');
      expect(
        response
          .json()
          .details.map((issue: { path: string }) => issue.path)
          .join(' '),
      ).toContain(path);
    }
    expect(await occupations()).toEqual(before);
  });

  it('accepts a 256-character name and a 4096-character description', async () => {
    expect((await createOccupation({ userId, name: 'n'.repeat(256), description: 'd'.repeat(4096) })).statusCode).toBe(201);
  });

  it('rejects malformed ids and answers 404 for unknown ones', async () => {
    expectError(await userAdmin.request({ method: 'DELETE', url: '/api/occupation/nope' }), 400, 'SCHEMA_VALIDATION_ERROR');
    expectError(await deleteOccupation(randomUUID()), 404, 'OCCUPATION_NOT_FOUND');
  });
});

describe('occupations: access', () => {
  it('requires a session', async () => {
    for (const [method, url] of [
      ['GET', `/api/organization/${organizationId}/occupations`],
      ['POST', `/api/organization/${organizationId}/occupation`],
      ['PUT', `/api/occupation/${randomUUID()}`],
      ['DELETE', `/api/occupation/${randomUUID()}`],
      ['POST', `/api/admin/${organizationId}`],
      ['DELETE', `/api/admin/${organizationId}`],
    ] as const) {
      expectError(await server.app.inject({ method, url, payload: method === 'POST' || method === 'PUT' ? { name: 'X' } : undefined }), 401, 'UNAUTHORIZED');
    }
  });

  it('lets USER_VIEW read but not change', async () => {
    const viewer = await fixture.member(organizationId, ['USER_VIEW']);
    const client = await login(server.app, viewer.email, PASSWORD);
    expect((await occupations(client)).length).toBeGreaterThan(0);
    expectError(await createOccupation({ userId: viewer.userId, name: 'Second' }, client), 403, 'INSUFFICIENT_PERMISSIONS');
    expectError(await updateOccupation(viewer.occupationId, { userId: viewer.userId, name: 'Renamed' }, client), 403, 'INSUFFICIENT_PERMISSIONS');
    expectError(await deleteOccupation(viewer.occupationId, client), 403, 'INSUFFICIENT_PERMISSIONS');
  });
});

describe('organisation administrators (api/admin/{organizationId})', () => {
  it('gives the platform administrator an ADMIN occupation with the organisation’s admin role, answering the new me', async () => {
    const organization = await fixture.organization();
    const response = await admin.request({ method: 'POST', url: `/api/admin/${organization}` });
    expect(response.statusCode).toBe(200);
    const me = response.json();
    expect(me).toMatchObject({ organizationId: platformId, reloginRequired: false });
    const occupation = me.occupations.find((candidate: { organizationId: string }) => candidate.organizationId === organization);
    expect(occupation).toMatchObject({ type: 'ADMIN', name: 'Administrator' });
    const [listed] = await occupations(admin, organization);
    expect(listed).toMatchObject({ id: occupation.id, userId: me.id, type: 'ADMIN', roles: [{ name: 'ADMIN' }] });
    // The admin works in it with every privilege but IS_ADMIN.
    const orgAdmin = await login(server.app, server.admin.email, server.admin.password);
    const inside = (await orgAdmin.request({ method: 'POST', url: '/api/auth/switch', payload: { occupationId: occupation.id } })).json();
    expect(inside.privileges).toContain('USER_ADMIN');
    expect(inside.privileges).not.toContain('IS_ADMIN');
    expectError(await admin.request({ method: 'POST', url: `/api/admin/${organization}` }), 409, 'ADMIN_ALREADY_SET');
  });

  it('takes it away again, and can give it once more', async () => {
    const organization = await fixture.organization();
    await admin.request({ method: 'POST', url: `/api/admin/${organization}` });
    const response = await admin.request({ method: 'DELETE', url: `/api/admin/${organization}` });
    expect(response.statusCode).toBe(200);
    expect(response.json().reloginRequired).toBe(false);
    expect(response.json().occupations.some((occupation: { organizationId: string }) => occupation.organizationId === organization)).toBe(false);
    expect(await occupations(admin, organization)).toEqual([]);
    expectError(await admin.request({ method: 'DELETE', url: `/api/admin/${organization}` }), 422, 'ADMIN_NOT_SET');
    expect((await admin.request({ method: 'POST', url: `/api/admin/${organization}` })).statusCode).toBe(200);
    // The admin role is reused, not duplicated.
    const roles = (await admin.request({ method: 'GET', url: `/api/organization/${organization}/roles` })).json();
    expect(roles.filter((role: { type: string }) => role.type === 'ADMIN')).toHaveLength(1);
  });

  it('gives exactly one admin occupation to concurrent requests', async () => {
    const organization = await fixture.organization();
    const responses = await Promise.all(Array.from({ length: 4 }, () => admin.request({ method: 'POST', url: `/api/admin/${organization}` })));
    expect(responses.filter((response) => response.statusCode === 200)).toHaveLength(1);
    expect(responses.filter((response) => response.statusCode !== 200).map((response) => response.json().code)).toEqual([
      'ADMIN_ALREADY_SET',
      'ADMIN_ALREADY_SET',
      'ADMIN_ALREADY_SET',
    ]);
    expect((await occupations(admin, organization)).filter((occupation) => occupation.type === 'ADMIN')).toHaveLength(1);
  });

  it('refuses the platform organisation and unknown organisations', async () => {
    expectError(await admin.request({ method: 'POST', url: `/api/admin/${platformId}` }), 409, 'ADMIN_ALREADY_SET');
    expectError(await admin.request({ method: 'POST', url: `/api/admin/${randomUUID()}` }), 404, 'ORGANIZATION_NOT_FOUND');
    expectError(await admin.request({ method: 'DELETE', url: `/api/admin/${randomUUID()}` }), 404, 'ORGANIZATION_NOT_FOUND');
  });

  it('refuses to remove the platform’s last administrator', async () => {
    expectError(await admin.request({ method: 'DELETE', url: `/api/admin/${platformId}` }), 422, 'ORGANIZATION_UNSUITABLE');
    expect((await admin.request({ method: 'GET', url: '/api/auth/me' })).json().privileges).toContain('IS_ADMIN');
  });

  it('refuses to make another platform administrator an admin of the platform organisation', async () => {
    const operator = await fixture.member(platformId, ['IS_ADMIN', 'USER_VIEW']);
    const client = await login(server.app, operator.email, PASSWORD);
    expectError(await client.request({ method: 'POST', url: `/api/admin/${platformId}` }), 422, 'ORGANIZATION_UNSUITABLE');
    expectError(await client.request({ method: 'DELETE', url: `/api/admin/${platformId}` }), 422, 'ADMIN_NOT_SET');
  });

  it('ends every session working in an admin occupation when it is removed', async () => {
    const organization = await fixture.organization();
    const me = (await admin.request({ method: 'POST', url: `/api/admin/${organization}` })).json();
    const occupation = me.occupations.find((candidate: { organizationId: string }) => candidate.organizationId === organization);
    const inside = await login(server.app, server.admin.email, server.admin.password);
    await inside.request({ method: 'POST', url: '/api/auth/switch', payload: { occupationId: occupation.id } });
    // Working in the organisation's ADMIN occupation there is no IS_ADMIN, so api/admin is out of reach from there.
    expectError(await inside.request({ method: 'DELETE', url: `/api/admin/${organization}` }), 403, 'INSUFFICIENT_PERMISSIONS');
    const response = await admin.request({ method: 'DELETE', url: `/api/admin/${organization}` });
    expect(response.json()).toMatchObject({ reloginRequired: false, organizationId: platformId });
    expectError(await inside.request({ method: 'GET', url: '/api/auth/me' }), 401, 'UNAUTHORIZED');
    expect((await admin.request({ method: 'GET', url: '/api/auth/me' })).statusCode).toBe(200);
  });

  it('requires IS_ADMIN', async () => {
    expectError(await userAdmin.request({ method: 'POST', url: `/api/admin/${organizationId}` }), 403, 'INSUFFICIENT_PERMISSIONS');
    expectError(await userAdmin.request({ method: 'DELETE', url: `/api/admin/${organizationId}` }), 403, 'INSUFFICIENT_PERMISSIONS');
  });

  // Last: the bootstrap administrator gives up the platform and has no occupation afterwards.
  it('forces re-login when the caller removes the admin occupation their session works in', async () => {
    await fixture.member(platformId, ['IS_ADMIN']);
    const response = await admin.request({ method: 'DELETE', url: `/api/admin/${platformId}` });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ reloginRequired: true, occupationId: null, privileges: [] });
    expect(response.json().occupations.some((occupation: { organizationId: string }) => occupation.organizationId === platformId)).toBe(false);
    expect(response.cookies.find((cookie) => cookie.name === 'eelarve_session')?.value).toBe('');
    expectError(await admin.request({ method: 'GET', url: '/api/auth/me' }), 401, 'UNAUTHORIZED');
  });
});
