import { randomUUID } from 'node:crypto';
import { occupationDecider, roleDecider } from '@eelarve/domain';
import type { GlobalPosition } from '@eelarve/eventstore';
import type { Privilege } from '@eelarve/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { executeCommand } from '../src/infrastructure/commands';
import { ONE_OFF_MIGRATIONS, runOneOffMigrations } from '../src/one-off-migrations/runner';
import { accountsFixture, PASSWORD } from '@eelarve/testing/accounts';
import { startTestServer, type TestServer } from '@eelarve/testing/server';
import { type Client, login } from './helpers';

/**
 * Issue 8, finding 3: IS_ADMIN belongs to the platform organisation only, and nobody hands out
 * privileges they do not hold. Before the fix a platform administrator could make a customer role
 * with IS_ADMIN, and any user administrator of that organisation could then put it into an
 * occupation of their own and sign in as a platform administrator.
 */
let server: TestServer;
let admin: Client;
let fixture: ReturnType<typeof accountsFixture>;
let platformId: string;
let organizationId: string;
/** USER_ADMIN only (no ROLES_*, no DATA_VIEW). */
let userAdmin: { client: Client; userId: string; occupationId: string; roleId: string };

type Me = { privileges: string[]; occupationId: string | null };

function expectError(response: { statusCode: number; json(): { code: string } }, status: number, code: string) {
  expect({ status: response.statusCode, code: response.json().code }).toEqual({ status, code });
}

const PLATFORM_PRIVILEGE_MIGRATION = ONE_OFF_MIGRATIONS.find((migration) => migration.name === '2026-11-23-is-admin-outside-platform')!;

const actor = { correlationId: 'test-old-database', userId: null, occupationId: null, organizationId: null };

async function projected(position: GlobalPosition | null) {
  if (position) expect(await server.app.projections.waitForPosition(['accounts'], position, 5_000)).toBe(true);
}

/** What an older database may hold: a customer role with IS_ADMIN, appended as the route allowed it then. */
async function plantIsAdminRole(organization: string): Promise<string> {
  const roleId = randomUUID();
  const command = {
    type: 'CreateRole' as const,
    roleId,
    organizationId: organization,
    name: `Operator ${roleId.slice(0, 6)}`,
    description: '',
    privilegeIds: ['IS_ADMIN', 'DATA_VIEW'] as Privilege[],
    roleType: 'DEFAULT' as const,
  };
  await projected((await executeCommand(server.app.store, roleDecider, command, actor)).position);
  return roleId;
}

/** ...and an occupation carrying it. */
async function plantOccupation(organization: string, userId: string, roleIds: string[]): Promise<string> {
  const occupationId = randomUUID();
  const checks = { userIsMember: true, roles: roleIds.map((roleId) => ({ roleId, role: { organizationId: organization, type: 'DEFAULT' as const } })) };
  const command = {
    type: 'CreateOccupation' as const,
    occupationId,
    organizationId: organization,
    userId,
    name: 'Operator',
    description: '',
    occupationType: 'DEFAULT' as const,
    roleIds,
    checks,
  };
  await projected((await executeCommand(server.app.store, occupationDecider, command, actor)).position);
  return occupationId;
}

const me = async (client: Client) => (await client.request({ method: 'GET', url: '/api/auth/me' })).json() as Me;
const occupationPayload = (userId: string, roles: string[], name = 'Occupation') => ({ userId, name, roles });

beforeAll(async () => {
  server = await startTestServer({ listen: false });
  admin = await login(server.app, server.admin.email, server.admin.password);
  platformId = (await admin.request({ method: 'GET', url: '/api/auth/me' })).json().organizationId;
  fixture = accountsFixture(server.app, admin);
  organizationId = await fixture.organization('Võru Linnavalitsus');
  const member = await fixture.member(organizationId, ['USER_ADMIN']);
  userAdmin = { client: await login(server.app, member.email, PASSWORD), userId: member.userId, occupationId: member.occupationId, roleId: member.roleId };
});
afterAll(async () => server?.close());

describe('IS_ADMIN outside the platform organisation', () => {
  it('is refused in a customer organisation’s roles, even to a platform administrator', async () => {
    const create = await admin.request({
      method: 'POST',
      url: `/api/organization/${organizationId}/role`,
      payload: { name: 'Platform operator', privilegeIds: ['IS_ADMIN'] },
    });
    expectError(create, 422, 'UNSUITABLE_ROLE');
    const roleId = await fixture.role(organizationId, ['DATA_VIEW']);
    const update = await admin.request({
      method: 'PUT',
      url: `/api/organization/${organizationId}/role/${roleId}`,
      payload: { name: 'Still a reader', privilegeIds: ['DATA_VIEW', 'IS_ADMIN'] },
    });
    expectError(update, 422, 'UNSUITABLE_ROLE');
    const roles = (await admin.request({ method: 'GET', url: `/api/organization/${organizationId}/roles` })).json() as Array<{
      privileges: Array<{ id: string }>;
    }>;
    expect(roles.flatMap((role) => role.privileges.map((privilege) => privilege.id))).not.toContain('IS_ADMIN');
  });

  it('is still granted by a platform administrator in the platform organisation', async () => {
    const create = await admin.request({
      method: 'POST',
      url: `/api/organization/${platformId}/role`,
      payload: { name: `Operators ${randomUUID().slice(0, 6)}`, privilegeIds: ['IS_ADMIN'] },
    });
    expect(create.statusCode).toBe(201);
  });

  it('cannot be put into an occupation by a user administrator, from a role an older database holds', async () => {
    const roleId = await plantIsAdminRole(organizationId);
    const own = { ...occupationPayload(userAdmin.userId, [userAdmin.roleId, roleId], 'Mine') };
    expectError(await userAdmin.client.request({ method: 'PUT', url: `/api/occupation/${userAdmin.occupationId}`, payload: own }), 422, 'UNSUITABLE_ROLE');
    expectError(
      await userAdmin.client.request({
        method: 'POST',
        url: `/api/organization/${organizationId}/occupation`,
        payload: occupationPayload(userAdmin.userId, [roleId]),
      }),
      422,
      'UNSUITABLE_ROLE',
    );
    // Not even the platform administrator hands it out there.
    const userId = await fixture.user(organizationId);
    expectError(
      await admin.request({ method: 'POST', url: `/api/organization/${organizationId}/occupation`, payload: occupationPayload(userId, [roleId]) }),
      422,
      'UNSUITABLE_ROLE',
    );
    expect((await me(userAdmin.client)).privileges).not.toContain('IS_ADMIN');
    expectError(await userAdmin.client.request({ method: 'GET', url: '/api/organizations' }), 403, 'INSUFFICIENT_PERMISSIONS');
  });

  it('grants nothing at sign-in when an older database gave it to a customer occupation', async () => {
    const roleId = await plantIsAdminRole(organizationId);
    const email = `${fixture.unique('operator')}@example.com`;
    const userId = await fixture.user(organizationId, email);
    await fixture.activate(userId);
    const occupationId = await plantOccupation(organizationId, userId, [roleId]);
    const operator = await login(server.app, email, PASSWORD);
    const current = await me(operator);
    expect(current.occupationId).toBe(occupationId);
    expect(current.privileges).toEqual(['DATA_VIEW']);
    expectError(await operator.request({ method: 'GET', url: '/api/organizations' }), 403, 'INSUFFICIENT_PERMISSIONS');
    expectError(await operator.request({ method: 'GET', url: '/api/admin/projections' }), 403, 'INSUFFICIENT_PERMISSIONS');
    // The other organisation stays out of reach.
    const other = await fixture.organization();
    expectError(await operator.request({ method: 'GET', url: `/api/organization/${other}/users` }), 403, 'INSUFFICIENT_PERMISSIONS');
  });

  it('drops from a customer role when someone saves it', async () => {
    const roleId = await plantIsAdminRole(organizationId);
    const rolesAdmin = await fixture.member(organizationId, ['ROLES_ADMIN', 'DATA_VIEW']);
    const client = await login(server.app, rolesAdmin.email, PASSWORD);
    const update = await client.request({
      method: 'PUT',
      url: `/api/organization/${organizationId}/role/${roleId}`,
      payload: { name: 'Cleaned', privilegeIds: ['DATA_VIEW'] },
    });
    expect(update.statusCode).toBe(200);
    const roles = (await admin.request({ method: 'GET', url: `/api/organization/${organizationId}/roles` })).json() as Array<{
      id: string;
      privileges: Array<{ id: string }>;
    }>;
    expect(roles.find((role) => role.id === roleId)?.privileges.map((privilege) => privilege.id)).toEqual(['DATA_VIEW']);
  });

  it('stays on a platform role that a role administrator without IS_ADMIN edits', async () => {
    const created = await admin.request({
      method: 'POST',
      url: `/api/organization/${platformId}/role`,
      payload: { name: `Platform ops ${randomUUID().slice(0, 6)}`, privilegeIds: ['IS_ADMIN'] },
    });
    const { id } = created.json();
    const platformRolesAdmin = await fixture.member(platformId, ['ROLES_ADMIN', 'DATA_VIEW']);
    const client = await login(server.app, platformRolesAdmin.email, PASSWORD);
    const update = await client.request({
      method: 'PUT',
      url: `/api/organization/${platformId}/role/${id}`,
      payload: { name: 'Platform ops', privilegeIds: ['DATA_VIEW'] },
    });
    expect(update.statusCode).toBe(200);
    const roles = (await admin.request({ method: 'GET', url: `/api/organization/${platformId}/roles` })).json() as Array<{
      id: string;
      privileges: Array<{ id: string }>;
    }>;
    expect(
      roles
        .find((role) => role.id === id)
        ?.privileges.map((privilege) => privilege.id)
        .sort(),
    ).toEqual(['DATA_VIEW', 'IS_ADMIN']);
  });
});

describe('the one-off migration for older databases', () => {
  it('takes IS_ADMIN out of customer roles and reports them, leaving platform roles alone', async () => {
    const planted = await plantIsAdminRole(organizationId);
    const platformRole = await fixture.role(platformId, ['IS_ADMIN', 'USER_VIEW']);
    // It ran when this gateway started, on a database without such roles; run it again as on an older one.
    await server.app.db.deleteFrom('operational.one_off_migrations').where('name', '=', PLATFORM_PRIVILEGE_MIGRATION.name).execute();
    await runOneOffMigrations(server.app, [PLATFORM_PRIVILEGE_MIGRATION]);
    const report = await server.app.db
      .selectFrom('operational.one_off_migrations')
      .select('report')
      .where('name', '=', PLATFORM_PRIVILEGE_MIGRATION.name)
      .executeTakeFirstOrThrow();
    const parsed = (typeof report.report === 'string' ? JSON.parse(report.report) : report.report) as {
      found: number;
      roles: Array<{ roleId: string; stripped: boolean }>;
    };
    expect(parsed.roles).toContainEqual(expect.objectContaining({ roleId: planted, stripped: true }));
    expect(parsed.roles.some((role) => role.roleId === platformRole)).toBe(false);
    const privilegesOf = async (organization: string, roleId: string) => {
      const roles = (await admin.request({ method: 'GET', url: `/api/organization/${organization}/roles` })).json() as Array<{
        id: string;
        privileges: Array<{ id: string }>;
      }>;
      return roles
        .find((role) => role.id === roleId)
        ?.privileges.map((privilege) => privilege.id)
        .sort();
    };
    await expect.poll(() => privilegesOf(organizationId, planted)).toEqual(['DATA_VIEW']);
    expect(await privilegesOf(platformId, platformRole)).toEqual(['IS_ADMIN', 'USER_VIEW']);
  });
});

describe('handing out privileges one does not hold', () => {
  it('refuses a user administrator a role with privileges they lack, for themselves or anyone', async () => {
    const rolesRole = await fixture.role(organizationId, ['ROLES_ADMIN']);
    const withOwn = occupationPayload(userAdmin.userId, [userAdmin.roleId, rolesRole], 'Mine');
    expectError(
      await userAdmin.client.request({ method: 'PUT', url: `/api/occupation/${userAdmin.occupationId}`, payload: withOwn }),
      403,
      'INSUFFICIENT_PERMISSIONS',
    );
    const colleague = await fixture.user(organizationId);
    const create = await userAdmin.client.request({
      method: 'POST',
      url: `/api/organization/${organizationId}/occupation`,
      payload: occupationPayload(colleague, [rolesRole]),
    });
    expectError(create, 403, 'INSUFFICIENT_PERMISSIONS');
    expect(create.json().details).toEqual({ privileges: ['ROLES_ADMIN'] });
    expect((await me(userAdmin.client)).privileges).toEqual(['USER_ADMIN']);
  });

  it('refuses moving an occupation with such roles to oneself', async () => {
    const colleague = await fixture.user(organizationId);
    const budgetRole = await fixture.role(organizationId, ['SCHEMA_ADMIN', 'USER_ADMIN']);
    const theirs = await fixture.occupation(organizationId, colleague, [budgetRole]);
    const moved = await userAdmin.client.request({
      method: 'PUT',
      url: `/api/occupation/${theirs}`,
      payload: occupationPayload(userAdmin.userId, [budgetRole], 'Taken'),
    });
    expectError(moved, 403, 'INSUFFICIENT_PERMISSIONS');
    // Renaming it for its own user hands nothing out.
    const renamed = await userAdmin.client.request({
      method: 'PUT',
      url: `/api/occupation/${theirs}`,
      payload: occupationPayload(colleague, [budgetRole], 'Renamed'),
    });
    expect(renamed.statusCode).toBe(200);
  });

  it('lets a user administrator hand out what they hold, and the platform administrator anything', async () => {
    const peerRole = await fixture.role(organizationId, ['USER_ADMIN']);
    const colleague = await fixture.user(organizationId);
    const create = await userAdmin.client.request({
      method: 'POST',
      url: `/api/organization/${organizationId}/occupation`,
      payload: occupationPayload(colleague, [peerRole]),
    });
    expect(create.statusCode).toBe(201);
    const rolesRole = await fixture.role(organizationId, ['ROLES_ADMIN', 'SCHEMA_ADMIN']);
    const byAdmin = await admin.request({
      method: 'POST',
      url: `/api/organization/${organizationId}/occupation`,
      payload: occupationPayload(colleague, [rolesRole], 'Second'),
    });
    expect(byAdmin.statusCode).toBe(201);
  });

  it('refuses a role administrator widening a role in use beyond their own privileges', async () => {
    const rolesAdmin = await fixture.member(organizationId, ['ROLES_ADMIN']);
    const client = await login(server.app, rolesAdmin.email, PASSWORD);
    // Their own role, which their occupation carries: USER_ADMIN would be theirs at once.
    const widen = await client.request({
      method: 'PUT',
      url: `/api/organization/${organizationId}/role/${rolesAdmin.roleId}`,
      payload: { name: 'Roles', privilegeIds: ['ROLES_ADMIN', 'USER_ADMIN'] },
    });
    expectError(widen, 403, 'INSUFFICIENT_PERMISSIONS');
    expect((await me(client)).privileges).toEqual(['ROLES_ADMIN']);
    // A role nobody holds yet may be shaped freely: assigning it is checked.
    const draft = await client.request({
      method: 'POST',
      url: `/api/organization/${organizationId}/role`,
      payload: { name: `Draft ${randomUUID().slice(0, 6)}`, privilegeIds: ['USER_ADMIN'] },
    });
    expect(draft.statusCode).toBe(201);
  });
});
