import { randomUUID } from 'node:crypto';
import { roleDecider, roleStream, userDecider } from '@eelarve/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app';
import { executeCommand } from '../src/infrastructure/commands';
import { runOneOffMigrations } from '../src/one-off-migrations/runner';
import { schemesFixture } from '@eelarve/testing/schemes';
import { accountsFixture } from '@eelarve/testing/accounts';
import { startTestServer, type TestServer } from '@eelarve/testing/server';
import { type Client, login } from './helpers';

/**
 * Issue 8, finding 8: duplicates that older versions let through are repaired once, at start, by
 * a one-off migration that renames all but the oldest holder through their own commands.
 */
const MIGRATION = '2026-11-23-duplicate-unique-names';
const actor = { correlationId: 'duplicates-made-by-an-old-version', userId: null, occupationId: null, organizationId: null };

let server: TestServer;
let admin: Client;
let organizationId: string;
let documentId: string;

beforeAll(async () => {
  server = await startTestServer({ listen: false });
  admin = await login(server.app, server.admin.email, server.admin.password);
  organizationId = await accountsFixture(server.app, admin).organization('Põlva Vallavalitsus');
  documentId = await schemesFixture(server.app).document(organizationId);
});
afterAll(async () => server?.close());

async function recorded(): Promise<
  | { found: number; groups: Array<{ kind: string; value: string; kept: string; keeperClaimed: boolean; renamed: Array<{ id: string; to: string }> }> }
  | undefined
> {
  const row = await server.app.db.selectFrom('operational.one_off_migrations').select('report').where('name', '=', MIGRATION).executeTakeFirst();
  return row ? (typeof row.report === 'string' ? JSON.parse(row.report) : row.report) : undefined;
}

/** Appended straight to the store, past the name claims, as the racing requests of older versions did. */
async function duplicates() {
  const role = async (name: string) => {
    const roleId = randomUUID();
    await executeCommand(
      server.app.store,
      roleDecider,
      { type: 'CreateRole', roleId, organizationId, name, description: '', privilegeIds: ['DATA_VIEW'], roleType: 'DEFAULT' },
      actor,
    );
    return roleId;
  };
  const user = async (email: string) => {
    const userId = randomUUID();
    await executeCommand(server.app.store, userDecider, { type: 'RegisterUser', userId, organizationId, name: 'Kaksik', email, now: new Date() }, actor);
    return userId;
  };
  const documents = schemesFixture(server.app);
  const made = {
    roles: [await role('Raamatupidaja'), await role('raamatupidaja '), await role('RAAMATUPIDAJA')],
    users: [await user('kaksik@example.com'), await user('Kaksik@Example.com')],
    classifiers: [await documents.classifier(documentId, organizationId, 'tulu', {}), await documents.classifier(documentId, organizationId, 'TULU', {})],
  };
  // The first suffix is taken already, so the repair goes on to the next.
  expect(
    (
      await admin.request({
        method: 'POST',
        url: `/api/organization/${organizationId}/role`,
        payload: { name: 'Raamatupidaja (2)', description: '', privilegeIds: [] },
      })
    ).statusCode,
  ).toBe(201);
  return made;
}

const pick = (values: Record<string, string>, ids: string[]) => ids.map((id) => values[id]);

const rolesByName = async () => {
  const rows: Array<{ id: string; name: string }> = (await admin.request({ method: 'GET', url: `/api/organization/${organizationId}/roles` })).json();
  return Object.fromEntries(rows.map((row) => [row.id, row.name]));
};

describe('one-off repair of duplicate unique names', () => {
  it('runs at start: keeps the oldest holder, renames the others through their commands, records and claims', { timeout: 120_000 }, async () => {
    // A new database ran it at its first start and found nothing.
    expect(await recorded()).toEqual({ found: 0, groups: [] });
    const made = await duplicates();

    // An older database: not run yet. A gateway starts on it.
    await server.app.db.deleteFrom('operational.one_off_migrations').where('name', '=', MIGRATION).execute();
    const restarted = await buildApp({ ...server.app.config });
    await restarted.close();

    const report = await recorded();
    expect(report?.found).toBe(4);
    const names = await rolesByName();
    expect(pick(names, made.roles)).toEqual(['Raamatupidaja', 'raamatupidaja (3)', 'RAAMATUPIDAJA (4)']);
    const users: Array<{ id: string; email: string }> = (await admin.request({ method: 'GET', url: `/api/organization/${organizationId}/users` })).json();
    const emails = Object.fromEntries(users.map((user) => [user.id, user.email]));
    expect(pick(emails, made.users)).toEqual(['kaksik@example.com', 'kaksik+duplicate2@example.com']);
    const classifiers: Array<{ id: string; fieldName: string }> = (
      await admin.request({ method: 'GET', url: `/api/document/${documentId}/classifiers` })
    ).json();
    const fieldNames = Object.fromEntries(classifiers.map((classifier) => [classifier.id, classifier.fieldName]));
    expect(pick(fieldNames, made.classifiers)).toEqual(['tulu', 'TULU_2']);
    expect(report?.groups.map((group) => ({ kind: group.kind, kept: group.kept, claimed: group.keeperClaimed, renamed: group.renamed.length }))).toEqual([
      { kind: 'roleName', kept: made.roles[0], claimed: true, renamed: 2 },
      { kind: 'email', kept: made.users[0], claimed: true, renamed: 1 },
      { kind: 'fieldName', kept: made.classifiers[0], claimed: true, renamed: 1 },
    ]);

    // The audit trail names the migration.
    const [, renamedEvent] = await server.app.store.readStream(roleStream(made.roles[1] as string));
    expect({ type: renamedEvent?.type, correlationId: renamedEvent?.metadata.correlationId }).toEqual({
      type: 'RoleUpdated',
      correlationId: `one-off:${MIGRATION}`,
    });

    // The kept names are claimed now: nobody else gets them.
    const again = await admin.request({
      method: 'POST',
      url: `/api/organization/${organizationId}/role`,
      payload: { name: 'raamatupidaja', description: '', privilegeIds: [] },
    });
    expect({ status: again.statusCode, code: again.json().code }).toEqual({ status: 409, code: 'ROLE_NAME_NOT_UNIQUE' });
    const emailAgain = await admin.request({
      method: 'POST',
      url: `/api/organization/${organizationId}/user`,
      payload: { name: 'Kolmas', email: 'KAKSIK@example.com' },
    });
    expect({ status: emailAgain.statusCode, code: emailAgain.json().code }).toEqual({ status: 409, code: 'EMAIL_IN_USE' });
  });

  it('is idempotent: a recorded run is not repeated, and a forced second run finds nothing', { timeout: 60_000 }, async () => {
    const before = await recorded();
    await runOneOffMigrations(server.app);
    expect(await recorded()).toEqual(before);
    await server.app.db.deleteFrom('operational.one_off_migrations').where('name', '=', MIGRATION).execute();
    const names = await rolesByName();
    await runOneOffMigrations(server.app);
    expect(await recorded()).toEqual({ found: 0, groups: [] });
    expect(await rolesByName()).toEqual(names);
  });
});
