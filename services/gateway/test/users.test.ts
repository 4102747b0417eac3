import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mailTo, waitForMail } from '../src/features/mail/mailbox';
import { accountsFixture, PASSWORD } from '@eelarve/testing/accounts';
import { startTestServer, type TestServer } from '@eelarve/testing/server';
import { type Client, login } from './helpers';

let server: TestServer;
let admin: Client;
let fixture: ReturnType<typeof accountsFixture>;
let organizationId: string;
/** USER_ADMIN in the organisation, not an administrator: may not change e-mails. */
let userAdmin: Client;
let userAdminId: string;

beforeAll(async () => {
  server = await startTestServer({ listen: false });
  admin = await login(server.app, server.admin.email, server.admin.password);
  fixture = accountsFixture(server.app, admin);
  organizationId = await fixture.organization('Tartu Linnavalitsus');
  const member = await fixture.member(organizationId, ['USER_ADMIN']);
  userAdminId = member.userId;
  userAdmin = await login(server.app, member.email, PASSWORD);
});
afterAll(async () => server?.close());

type Row = Record<string, unknown> & { id: string; name: string; email: string };

async function users(client: Client = admin, organization = organizationId): Promise<Row[]> {
  const response = await client.request({ method: 'GET', url: `/api/organization/${organization}/users` });
  expect(response.statusCode).toBe(200);
  return response.json();
}

const createUser = (payload: object, client: Client = userAdmin) =>
  client.request({ method: 'POST', url: `/api/organization/${organizationId}/user`, payload });
const updateUser = (userId: string, payload: object, client: Client = userAdmin) =>
  client.request({ method: 'PUT', url: `/api/organization/${organizationId}/user/${userId}`, payload });
const deleteUser = (userId: string, client: Client = userAdmin) =>
  client.request({ method: 'DELETE', url: `/api/organization/${organizationId}/user/${userId}` });

function expectError(response: { statusCode: number; json(): { code: string } }, status: number, code: string) {
  expect({ status: response.statusCode, code: response.json().code }).toEqual({ status, code });
}

async function platformOrganizationId(): Promise<string> {
  const me = (await admin.request({ method: 'GET', url: '/api/auth/me' })).json();
  return me.organizationId;
}

describe('users: create and list', () => {
  it('creates a user the very next read shows, with the e-mail lower-cased', async () => {
    const response = await createUser({ name: '  Mari Maasikas ', email: 'Mari.Maasikas@Example.com' });
    expect(response.statusCode).toBe(201);
    const { id, position } = response.json();
    expect(position).toMatch(/^\d+\/\d+$/);
    const row = (await users()).find((user) => user.id === id);
    expect(row).toMatchObject({
      organizationId,
      name: 'Mari Maasikas',
      email: 'mari.maasikas@example.com',
      occupations: [],
      isAdmin: false,
      hasPassword: false,
      mfaAdded: false,
      hasPersonalCode: false,
      confirmedAt: null,
      signInCount: 0,
      lastSeen: null,
    });
    expect(Date.now() - Date.parse(String(row!.createdAt))).toBeLessThan(60_000);
    expect(row!.updatedAt).toBe(row!.createdAt);
  });

  it('sends the registration confirmation', async () => {
    const { id } = (await createUser({ name: 'Jaan Tamm', email: 'jaan.tamm@example.com' })).json();
    const row = (await users()).find((user) => user.id === id);
    expect(row!.confirmationSentAt).toEqual(expect.any(String));
    const token = await server.app.db.selectFrom('operational.account_tokens').select('purpose').where('user_id', '=', id).executeTakeFirst();
    expect(token?.purpose).toBe('REGISTRATION');
  });

  it('lists an active user with their occupations and sign-in facts', async () => {
    const row = (await users()).find((user) => user.id === userAdminId);
    expect(row).toMatchObject({ hasPassword: true, isAdmin: false, signInCount: 1 });
    expect(row!.occupations).toEqual([expect.objectContaining({ type: 'DEFAULT' })]);
    expect(row!.confirmedAt).toEqual(expect.any(String));
    expect(row!.lastSeen).toEqual(expect.any(String));
  });

  it('lists user names in name order', async () => {
    const response = await userAdmin.request({ method: 'GET', url: `/api/organization/${organizationId}/user-names` });
    expect(response.statusCode).toBe(200);
    const names = response.json() as Array<{ id: string; name: string }>;
    expect(names.map((row) => Object.keys(row).sort())).toContainEqual(['id', 'name']);
    expect(names.map((row) => row.name)).toEqual([...names.map((row) => row.name)].sort());
    expect(names.map((row) => row.id).sort()).toEqual((await users()).map((row) => row.id).sort());
  });

  it('refuses an e-mail another user has, whatever its case', async () => {
    await createUser({ name: 'First', email: 'taken@example.com' });
    expectError(await createUser({ name: 'Second', email: 'TAKEN@example.COM' }), 409, 'EMAIL_IN_USE');
  });

  it('refuses the e-mail of a user of another organisation, and the bootstrap administrator’s', async () => {
    const other = await fixture.organization();
    await fixture.user(other, 'elsewhere@example.com');
    expectError(await createUser({ name: 'Copy', email: 'elsewhere@example.com' }), 409, 'EMAIL_IN_USE');
    expectError(await createUser({ name: 'Copy', email: server.admin.email.toUpperCase() }), 409, 'EMAIL_IN_USE');
  });

  it('registers exactly one of many concurrent requests for one e-mail', async () => {
    const responses = await Promise.all(Array.from({ length: 6 }, (_, index) => createUser({ name: `Racer ${index}`, email: 'race@example.com' })));
    expect(responses.map((response) => response.statusCode).sort()).toEqual([201, 409, 409, 409, 409, 409]);
    expect((await users()).filter((user) => user.email === 'race@example.com')).toHaveLength(1);
  });
});

describe('users: update', () => {
  it('renames a user', async () => {
    const { id } = (await createUser({ name: 'Old Name', email: 'rename@example.com' })).json();
    const response = await updateUser(id, { name: 'New Name', email: 'RENAME@example.com' });
    expect(response.statusCode).toBe(200);
    expect((await users()).find((user) => user.id === id)).toMatchObject({ name: 'New Name', email: 'rename@example.com' });
  });

  it('lets only an administrator change an e-mail', async () => {
    const { id } = (await createUser({ name: 'Mail', email: 'mail-before@example.com' })).json();
    expectError(await updateUser(id, { name: 'Mail', email: 'mail-after@example.com' }), 403, 'INSUFFICIENT_PERMISSIONS');
    expect((await users()).find((user) => user.id === id)).toMatchObject({ email: 'mail-before@example.com' });
    expect((await updateUser(id, { name: 'Mail', email: 'mail-after@example.com' }, admin)).statusCode).toBe(200);
    expect((await users()).find((user) => user.id === id)).toMatchObject({ email: 'mail-after@example.com' });
  });

  it('lets the organisation’s administrator (an ADMIN occupation) change an e-mail', async () => {
    const { id } = (await createUser({ name: 'Org admin target', email: 'org-admin-before@example.com' })).json();
    // The platform administrator takes the organisation's admin occupation and works in it.
    const me = (await admin.request({ method: 'POST', url: `/api/admin/${organizationId}` })).json();
    const adminOccupation = me.occupations.find((occupation: { organizationId: string }) => occupation.organizationId === organizationId);
    const orgAdmin = await login(server.app, server.admin.email, server.admin.password);
    expect((await orgAdmin.request({ method: 'POST', url: '/api/auth/switch', payload: { occupationId: adminOccupation.id } })).statusCode).toBe(200);
    const privileges = (await orgAdmin.request({ method: 'GET', url: '/api/auth/me' })).json().privileges;
    expect(privileges).not.toContain('IS_ADMIN');
    expect((await updateUser(id, { name: 'Org admin target', email: 'org-admin-after@example.com' }, orgAdmin)).statusCode).toBe(200);
    expect((await users()).find((user) => user.id === id)).toMatchObject({ email: 'org-admin-after@example.com' });
    expect((await admin.request({ method: 'DELETE', url: `/api/admin/${organizationId}` })).statusCode).toBe(200);
  });

  it('frees the old e-mail and refuses one in use', async () => {
    const { id } = (await createUser({ name: 'Mover', email: 'mover-old@example.com' })).json();
    await createUser({ name: 'Holder', email: 'holder@example.com' });
    expectError(await updateUser(id, { name: 'Mover', email: 'Holder@example.com' }, admin), 409, 'EMAIL_IN_USE');
    expect((await updateUser(id, { name: 'Mover', email: 'mover-new@example.com' }, admin)).statusCode).toBe(200);
    expect((await createUser({ name: 'Successor', email: 'mover-old@example.com' })).statusCode).toBe(201);
    expectError(await createUser({ name: 'Copy', email: 'mover-new@example.com' }), 409, 'EMAIL_IN_USE');
  });

  it('refuses to edit a user holding an admin occupation', async () => {
    const platform = await platformOrganizationId();
    const adminId = (await admin.request({ method: 'GET', url: '/api/auth/me' })).json().id;
    const response = await admin.request({
      method: 'PUT',
      url: `/api/organization/${platform}/user/${adminId}`,
      payload: { name: 'Renamed', email: server.admin.email },
    });
    expectError(response, 422, 'USER_NOT_MODIFIABLE');
  });

  it('answers 404 for an unknown user', async () => {
    expectError(await updateUser(randomUUID(), { name: 'Nobody', email: 'nobody@example.com' }), 404, 'USER_NOT_FOUND');
  });
});

describe('users: delete', () => {
  it('refuses to delete a user holding an occupation, then deletes once it is gone', async () => {
    const { id } = (await createUser({ name: 'Leaver', email: 'leaver@example.com' })).json();
    const roleId = await fixture.role(organizationId, ['DATA_VIEW']);
    const occupationId = await fixture.occupation(organizationId, id, [roleId]);
    expectError(await deleteUser(id), 422, 'USER_HAS_OCCUPATION');
    expect((await userAdmin.request({ method: 'DELETE', url: `/api/occupation/${occupationId}` })).statusCode).toBe(200);
    expect((await deleteUser(id)).statusCode).toBe(200);
    expect((await users()).some((user) => user.id === id)).toBe(false);
    expectError(await deleteUser(id), 404, 'USER_NOT_FOUND');
    // The address is free again.
    expect((await createUser({ name: 'Newcomer', email: 'leaver@example.com' })).statusCode).toBe(201);
  });

  it('ends a deleted user’s sign-in for good', async () => {
    const { id } = (await createUser({ name: 'Gone', email: 'gone@example.com' })).json();
    await fixture.activate(id);
    await login(server.app, 'gone@example.com', PASSWORD);
    expect((await deleteUser(id)).statusCode).toBe(200);
    const attempt = await server.app.inject({ method: 'POST', url: '/initial/auth/login', payload: { username: 'gone@example.com', password: PASSWORD } });
    expect(attempt.statusCode).toBe(401);
    expect(await server.app.db.selectFrom('operational.sessions').select('user_id').where('user_id', '=', id).execute()).toEqual([]);
  });

  it('refuses to delete a user holding an admin occupation', async () => {
    const platform = await platformOrganizationId();
    const adminId = (await admin.request({ method: 'GET', url: '/api/auth/me' })).json().id;
    expectError(await admin.request({ method: 'DELETE', url: `/api/organization/${platform}/user/${adminId}` }), 422, 'USER_NOT_MODIFIABLE');
  });

  it('refuses to edit or delete a visiting member registered in another organisation', async () => {
    // The platform administrator, as this organisation's admin, is listed here but belongs to the platform.
    await admin.request({ method: 'POST', url: `/api/admin/${organizationId}` });
    const adminId = (await admin.request({ method: 'GET', url: '/api/auth/me' })).json().id;
    expect((await users(userAdmin)).find((user) => user.id === adminId)).toMatchObject({ isAdmin: true });
    expectError(await updateUser(adminId, { name: 'X', email: server.admin.email }), 422, 'UNSUITABLE_USER');
    expectError(await deleteUser(adminId), 422, 'UNSUITABLE_USER');
    await admin.request({ method: 'DELETE', url: `/api/admin/${organizationId}` });
  });
});

describe('users: input rules', () => {
  const invalid: Array<[string, object, string]> = [
    ['a missing name', { email: 'valid@example.com' }, 'body.name'],
    ['a blank name', { name: '   ', email: 'valid@example.com' }, 'body.name'],
    ['a name over 256 characters', { name: 'x'.repeat(257), email: 'valid@example.com' }, 'body.name'],
    ['a missing e-mail', { name: 'Valid' }, 'body.email'],
    ['an empty e-mail', { name: 'Valid', email: '' }, 'body.email'],
    ['an invalid e-mail', { name: 'Valid', email: 'not-an-email' }, 'body.email'],
    ['an e-mail over 256 characters', { name: 'Valid', email: `${'x'.repeat(250)}@example.com` }, 'body.email'],
    ['a name that is not text', { name: 42, email: 'valid@example.com' }, 'body.name'],
  ];

  it.each(invalid)('rejects %s with 400 on create and update, changing nothing', async (_label, payload, path) => {
    // lastSeen moves with every call the user administrator makes.
    const stable = (rows: Row[]) => rows.map(({ lastSeen: _seen, ...row }) => row);
    const before = stable(await users());
    for (const response of [await createUser(payload), await updateUser(userAdminId, payload)]) {
      expectError(response, 400, 'SCHEMA_VALIDATION_ERROR');
      expect(response.json().details.map((issue: { path: string }) => issue.path)).toContain(path);
    }
    expect(stable(await users())).toEqual(before);
  });

  it('accepts a 256-character name', async () => {
    expect((await createUser({ name: 'x'.repeat(256), email: 'long-name@example.com' })).statusCode).toBe(201);
  });

  it('rejects malformed ids and a body that is not an object', async () => {
    expectError(await userAdmin.request({ method: 'GET', url: '/api/organization/not-a-uuid/users' }), 400, 'SCHEMA_VALIDATION_ERROR');
    expectError(await updateUser('not-a-uuid', { name: 'X', email: 'x@example.com' }), 400, 'SCHEMA_VALIDATION_ERROR');
    expectError(await deleteUser('not-a-uuid'), 400, 'SCHEMA_VALIDATION_ERROR');
    const array = await userAdmin.request({
      method: 'POST',
      url: `/api/organization/${organizationId}/user`,
      payload: '[1]',
      headers: { 'content-type': 'application/json' },
    });
    expectError(array, 400, 'SCHEMA_VALIDATION_ERROR');
  });
});

describe('users: access', () => {
  it('requires a session', async () => {
    for (const [method, url] of [
      ['GET', `/api/organization/${organizationId}/users`],
      ['GET', `/api/organization/${organizationId}/user-names`],
      ['POST', `/api/organization/${organizationId}/user`],
      ['PUT', `/api/organization/${organizationId}/user/${userAdminId}`],
      ['DELETE', `/api/organization/${organizationId}/user/${userAdminId}`],
      ['POST', `/api/admin/user/${userAdminId}/remove-auth-methods`],
    ] as const) {
      expectError(
        await server.app.inject({ method, url, payload: method === 'POST' || method === 'PUT' ? { name: 'X', email: 'x@example.com' } : undefined }),
        401,
        'UNAUTHORIZED',
      );
    }
  });

  it('lets USER_VIEW read but not change', async () => {
    const viewer = await fixture.member(organizationId, ['USER_VIEW']);
    const client = await login(server.app, viewer.email, PASSWORD);
    expect((await client.request({ method: 'GET', url: `/api/organization/${organizationId}/users` })).statusCode).toBe(200);
    expect((await client.request({ method: 'GET', url: `/api/organization/${organizationId}/user-names` })).statusCode).toBe(200);
    expectError(await createUser({ name: 'X', email: 'viewer-made@example.com' }, client), 403, 'INSUFFICIENT_PERMISSIONS');
    expectError(await updateUser(viewer.userId, { name: 'X', email: viewer.email }, client), 403, 'INSUFFICIENT_PERMISSIONS');
    expectError(await deleteUser(viewer.userId, client), 403, 'INSUFFICIENT_PERMISSIONS');
  });

  it('refuses a user without user privileges', async () => {
    const clerk = await fixture.member(organizationId, ['DATA_VIEW', 'ROLES_ADMIN']);
    const client = await login(server.app, clerk.email, PASSWORD);
    expectError(await client.request({ method: 'GET', url: `/api/organization/${organizationId}/users` }), 403, 'INSUFFICIENT_PERMISSIONS');
    expectError(await client.request({ method: 'GET', url: `/api/organization/${organizationId}/user-names` }), 403, 'INSUFFICIENT_PERMISSIONS');
  });
});

describe('removing authentication methods (platform administrator)', () => {
  it('removes password, MFA and electronic ID and ends the sessions', async () => {
    const target = await fixture.member(organizationId, ['DATA_VIEW']);
    const client = await login(server.app, target.email, PASSWORD);
    await server.app.db.insertInto('operational.mfa_secrets').values({ user_id: target.userId, secret: 'JBSWY3DPEHPK3PXP' }).execute();
    await server.app.db
      .insertInto('operational.electronic_ids')
      .values({ user_id: target.userId, personal_code_hash: Buffer.from(randomUUID()) })
      .execute();
    const earlierMail = (await mailTo(server.app.config.dataDir, target.email)).map((mail) => mail.file);
    const response = await admin.request({ method: 'POST', url: `/api/admin/user/${target.userId}/remove-auth-methods` });
    expect(response.statusCode).toBe(200);
    const { db } = server.app;
    expect(await db.selectFrom('operational.credentials').select('user_id').where('user_id', '=', target.userId).execute()).toEqual([]);
    expect(await db.selectFrom('operational.mfa_secrets').select('user_id').where('user_id', '=', target.userId).execute()).toEqual([]);
    expect(await db.selectFrom('operational.electronic_ids').select('user_id').where('user_id', '=', target.userId).execute()).toEqual([]);
    expectError(await client.request({ method: 'GET', url: '/api/auth/me' }), 401, 'UNAUTHORIZED');
    expect((await users()).find((user) => user.id === target.userId)).toMatchObject({ hasPassword: false, mfaAdded: false, hasPersonalCode: false });
    const [event] = await server.app.store.readStream(`user-${target.userId}`, { direction: 'backwards', maxCount: 1 });
    expect(event!.type).toBe('UserAuthMethodsRemoved');
    // The owner learns of it at their own address.
    const notice = await waitForMail(server.app.config.dataDir, target.email, { seen: earlierMail });
    expect(notice.subject).toBe('Eelarve: sisselogimise viisid eemaldatud');
  });

  it('refuses one’s own', async () => {
    const adminId = (await admin.request({ method: 'GET', url: '/api/auth/me' })).json().id;
    expectError(await admin.request({ method: 'POST', url: `/api/admin/user/${adminId}/remove-auth-methods` }), 422, 'UNSUITABLE_USER');
  });

  it('answers 404 for an unknown user and 403 without IS_ADMIN', async () => {
    expectError(await admin.request({ method: 'POST', url: `/api/admin/user/${randomUUID()}/remove-auth-methods` }), 404, 'USER_NOT_FOUND');
    expectError(await userAdmin.request({ method: 'POST', url: `/api/admin/user/${userAdminId}/remove-auth-methods` }), 403, 'INSUFFICIENT_PERMISSIONS');
  });
});
