import { randomUUID } from 'node:crypto';
import { occupationDecider, roleDecider, userDecider } from '@eelarve/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashPassword } from '../src/features/auth/passwords';
import { executeCommand } from '../src/infrastructure/commands';
import { startTestServer, type TestServer } from '@eelarve/testing/server';
import { type Client, login, validOrganization } from './helpers';

let server: TestServer;
let admin: Client;

beforeAll(async () => {
  server = await startTestServer({ listen: false });
  admin = await login(server.app, server.admin.email, server.admin.password);
});
afterAll(async () => server?.close());

async function list(client: Client = admin) {
  const response = await client.request({ method: 'GET', url: '/api/organizations' });
  expect(response.statusCode).toBe(200);
  return response.json() as Array<Record<string, unknown> & { id: string; name: string }>;
}

async function create(payload: object = validOrganization) {
  return admin.request({ method: 'POST', url: '/api/organization', payload });
}

/** A user whose only role lacks IS_ADMIN, made through the same commands the product uses. */
async function ordinaryUser(): Promise<Client> {
  const [platform] = await list();
  const actor = { correlationId: randomUUID(), userId: null, occupationId: null, organizationId: null };
  const roleId = randomUUID();
  const userId = randomUUID();
  const email = `clerk-${userId.slice(0, 8)}@example.com`;
  const { store } = server.app;
  await executeCommand(
    store,
    roleDecider,
    { type: 'CreateRole', roleId, organizationId: platform!.id, name: 'Clerk', description: '', privilegeIds: ['DATA_VIEW'], roleType: 'DEFAULT' },
    actor,
  );
  await executeCommand(store, userDecider, { type: 'RegisterUser', userId, organizationId: platform!.id, name: 'Clerk', email, now: new Date() }, actor);
  await executeCommand(store, userDecider, { type: 'ConfirmEmail', userId, now: new Date() }, actor);
  const outcome = await executeCommand(
    store,
    occupationDecider,
    {
      type: 'CreateOccupation',
      occupationId: randomUUID(),
      organizationId: platform!.id,
      userId,
      name: 'Clerk',
      description: '',
      occupationType: 'DEFAULT',
      roleIds: [roleId],
    },
    actor,
  );
  await server.app.db
    .insertInto('operational.credentials')
    .values({ user_id: userId, password_hash: await hashPassword('Clerk-Password-1') })
    .execute();
  await server.app.projections.waitForPosition(['accounts', 'organizations'], outcome.position!, 5_000);
  return login(server.app, email, 'Clerk-Password-1');
}

describe('organisations', () => {
  it('lists the platform organisation with its one user', async () => {
    const organizations = await list();
    expect(organizations).toHaveLength(1);
    expect(organizations[0]).toMatchObject({ isPlatform: true, nrOfUsers: 1 });
  });

  it('creates an organisation that the very next read shows, BASIC standing for API usage', async () => {
    const response = await create();
    expect(response.statusCode).toBe(201);
    const { id, position } = response.json();
    expect(position).toMatch(/^\d+\/\d+$/);
    const created = (await list()).find((organization) => organization.id === id);
    expect(created).toMatchObject({
      name: 'Pärnu Linnavalitsus',
      nrOfUsers: 0,
      apiUsageAllowed: true,
      allowedAuthenticationTypes: ['LOGIN', 'PASS', 'BASIC'],
      sessionLength: 30,
      sessionLengthMultiplier: 86_400_000,
      localeSettings: validOrganization.localeSettings,
    });
    expect(Date.now() - Date.parse(String(created!.createdAt))).toBeLessThan(60_000);
  });

  it('records who made the change in the event metadata', async () => {
    const { id } = (await create({ ...validOrganization, name: 'Audited' })).json();
    const me = (await admin.request({ method: 'GET', url: '/api/auth/me' })).json();
    const [event] = await server.app.store.readStream(`organization-${id}`);
    expect(event!.type).toBe('OrganizationCreated');
    expect(event!.metadata).toMatchObject({ userId: me.id, occupationId: me.occupationId, organizationId: me.organizationId, schemaVersion: 1 });
  });

  it('updates every field', async () => {
    const { id } = (await create({ ...validOrganization, name: 'Before' })).json();
    const changes = {
      ...validOrganization,
      name: 'After',
      localeCode: 'en',
      apiUsageAllowed: false,
      sessionLength: 12,
      sessionLengthMultiplier: 3_600_000,
      enableResourceStatuses: true,
    };
    const response = await admin.request({ method: 'PUT', url: `/api/organization/${id}`, payload: changes });
    expect(response.statusCode).toBe(200);
    expect((await list()).find((organization) => organization.id === id)).toMatchObject({
      name: 'After',
      localeCode: 'en',
      apiUsageAllowed: false,
      allowedAuthenticationTypes: ['LOGIN', 'PASS'],
      sessionLength: 12,
      sessionLengthMultiplier: 3_600_000,
      enableResourceStatuses: true,
    });
  });

  it('never switches resource statuses off again once enabled', async () => {
    const { id } = (await create({ ...validOrganization, name: 'Statuses', enableResourceStatuses: true })).json();
    const response = await admin.request({ method: 'PUT', url: `/api/organization/${id}`, payload: { ...validOrganization, name: 'Statuses' } });
    expect(response.statusCode).toBe(422);
    expect(response.json().code).toBe('RESOURCE_STATUSES_CANNOT_BE_DISABLED');
    expect((await list()).find((organization) => organization.id === id)).toMatchObject({ enableResourceStatuses: true });
  });

  it('deletes an organisation, after which it is not found', async () => {
    const { id } = (await create({ ...validOrganization, name: 'To delete' })).json();
    expect((await admin.request({ method: 'DELETE', url: `/api/organization/${id}` })).statusCode).toBe(200);
    expect((await list()).some((organization) => organization.id === id)).toBe(false);
    const again = await admin.request({ method: 'DELETE', url: `/api/organization/${id}` });
    expect(again.statusCode).toBe(404);
    expect(again.json().code).toBe('ORGANIZATION_NOT_FOUND');
    const update = await admin.request({ method: 'PUT', url: `/api/organization/${id}`, payload: validOrganization });
    expect(update.json().code).toBe('ORGANIZATION_NOT_FOUND');
  });

  it('refuses to delete the organisation the session is using', async () => {
    const me = (await admin.request({ method: 'GET', url: '/api/auth/me' })).json();
    const response = await admin.request({ method: 'DELETE', url: `/api/organization/${me.organizationId}` });
    expect(response.statusCode).toBe(422);
    expect(response.json().code).toBe('ORGANIZATION_IN_USE');
    expect((await list()).some((organization) => organization.id === me.organizationId)).toBe(true);
  });

  it("counts an organisation's users as its users list shows them: registered there or holding an occupation there", async () => {
    const { id } = (await create({ ...validOrganization, name: 'Viljandi Vallavalitsus' })).json();
    // The platform administrator takes an ADMIN occupation there (registered in the platform organisation).
    expect((await admin.request({ method: 'POST', url: `/api/admin/${id}` })).statusCode).toBe(200);
    for (const name of ['Mari Maasikas', 'Jaan Tamm']) {
      const email = `${name.split(' ')[0]!.toLowerCase()}.${id.slice(0, 8)}@example.com`;
      expect((await admin.request({ method: 'POST', url: `/api/organization/${id}/user`, payload: { name, email } })).statusCode).toBe(201);
    }
    const users = (await admin.request({ method: 'GET', url: `/api/organization/${id}/users` })).json();
    expect(users).toHaveLength(3);
    expect((await list()).find((organization) => organization.id === id)).toMatchObject({ nrOfUsers: 3 });
  });

  it('serves the locales and their settings', async () => {
    const response = await admin.request({ method: 'GET', url: '/api/locales' });
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body.locales.map((locale: { code: string }) => locale.code)).toEqual(['et', 'en']);
    expect(body.localeSettings.find((setting: { name: string }) => setting.name === 'decimalPlaces').options).toEqual(['0', '1', '2', '3', '4', '5']);
  });
});

describe('organisation input rules', () => {
  const invalid: Array<[string, object, string]> = [
    ['a missing name', { ...validOrganization, name: '  ' }, 'body.name'],
    ['a name over 256 characters', { ...validOrganization, name: 'x'.repeat(257) }, 'body.name'],
    ['no interactive authentication type', { ...validOrganization, allowedAuthenticationTypes: ['BASIC'] }, 'body.allowedAuthenticationTypes'],
    ['an unknown authentication type', { ...validOrganization, allowedAuthenticationTypes: ['SMART_ID'] }, 'body.allowedAuthenticationTypes.0'],
    ['a session longer than 180 days', { ...validOrganization, sessionLength: 181 }, 'body.sessionLength'],
    ['a session longer than 180 days in hours', { ...validOrganization, sessionLength: 4321, sessionLengthMultiplier: 3_600_000 }, 'body.sessionLength'],
    ['a zero session length', { ...validOrganization, sessionLength: 0 }, 'body.sessionLength'],
    ['a fractional session length', { ...validOrganization, sessionLength: 1.5 }, 'body.sessionLength'],
    ['an unknown multiplier', { ...validOrganization, sessionLengthMultiplier: 60_000 }, 'body.sessionLengthMultiplier'],
    ['an unknown locale', { ...validOrganization, localeCode: 'ru' }, 'body.localeCode'],
    [
      'a missing locale setting',
      { ...validOrganization, localeSettings: { ...validOrganization.localeSettings, dateFormat: undefined } },
      'body.localeSettings.dateFormat',
    ],
    [
      'a locale setting outside its options',
      { ...validOrganization, localeSettings: { ...validOrganization.localeSettings, decimalPlaces: '6' } },
      'body.localeSettings.decimalPlaces',
    ],
    ['a missing API usage answer', { ...validOrganization, apiUsageAllowed: undefined }, 'body.apiUsageAllowed'],
    ['a missing resource status answer', { ...validOrganization, enableResourceStatuses: null }, 'body.enableResourceStatuses'],
  ];

  it.each(invalid)('rejects %s with 400 and changes nothing', async (_label, payload, path) => {
    const before = await list();
    const response = await create(payload);
    expect(response.statusCode).toBe(400);
    expect(response.json().code).toBe('SCHEMA_VALIDATION_ERROR');
    expect(response.json().details.map((issue: { path: string }) => issue.path)).toContain(path);
    expect(await list()).toEqual(before);
  });

  it('accepts 180 days and 4320 hours', async () => {
    expect((await create({ ...validOrganization, sessionLength: 180 })).statusCode).toBe(201);
    expect((await create({ ...validOrganization, sessionLength: 4320, sessionLengthMultiplier: 3_600_000 })).statusCode).toBe(201);
  });

  it('rejects a malformed id and an unknown one', async () => {
    const malformed = await admin.request({ method: 'PUT', url: '/api/organization/not-a-uuid', payload: validOrganization });
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json().code).toBe('SCHEMA_VALIDATION_ERROR');
    const unknown = await admin.request({ method: 'DELETE', url: `/api/organization/${randomUUID()}` });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().code).toBe('ORGANIZATION_NOT_FOUND');
  });

  it('rejects a body that is not an object', async () => {
    const response = await admin.request({ method: 'POST', url: '/api/organization', payload: '[1,2]', headers: { 'content-type': 'application/json' } });
    expect(response.statusCode).toBe(400);
  });
});

describe('organisation access', () => {
  it('requires a session', async () => {
    for (const [method, url] of [
      ['GET', '/api/organizations'],
      ['POST', '/api/organization'],
      ['PUT', `/api/organization/${randomUUID()}`],
      ['DELETE', `/api/organization/${randomUUID()}`],
    ] as const) {
      const response = await server.app.inject({ method, url, payload: method === 'GET' || method === 'DELETE' ? undefined : validOrganization });
      expect(response.statusCode).toBe(401);
      expect(response.json().code).toBe('UNAUTHORIZED');
    }
  });

  it('requires IS_ADMIN, checked on the server', async () => {
    const clerk = await ordinaryUser();
    const me = (await clerk.request({ method: 'GET', url: '/api/auth/me' })).json();
    expect(me.privileges).toEqual(['DATA_VIEW']);
    const before = await list();
    const listing = await clerk.request({ method: 'GET', url: '/api/organizations' });
    expect(listing.statusCode).toBe(403);
    expect(listing.json().code).toBe('INSUFFICIENT_PERMISSIONS');
    const creation = await clerk.request({ method: 'POST', url: '/api/organization', payload: validOrganization });
    expect(creation.statusCode).toBe(403);
    expect(await list()).toEqual(before);
  });
});
