import { randomUUID } from 'node:crypto';
import { schemeDecider } from '@eelarve/domain';
import { type accountsFixture, PASSWORD } from '@eelarve/testing/accounts';
import type { schemesFixture } from '@eelarve/testing/schemes';
import type { TestServer } from '@eelarve/testing/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { executeCommand } from '../src/infrastructure/commands';
import { readModels } from '../src/infrastructure/database';
import { resourceAccess } from '../src/features/permissions/authorize';
import type { AuthContext } from '../src/types';
import { type Client, login } from './helpers';
import { schemesWorld } from './schemes-world';

/** Resource permissions through the HTTP API on PostgreSQL (spec 1, sections 6-8; issue 10, points 1-2). */

let server: TestServer;
let admin: Client;
let accounts: ReturnType<typeof accountsFixture>;
let fixture: ReturnType<typeof schemesFixture>;
let organizationId: string;
/** USER_ADMIN, USER_VIEW and neither, in the organisation. */
let userAdmin: Client;
let userViewer: Client;
let clerk: Client;
/** USER_ADMIN in another organisation. */
let outsider: Client;
let otherOrganization: string;
let otherDocument: string;
let otherOccupation: string;

let documentId: string;
let secondDocument: string;
let budgetA: string;
let budgetB: string;
let budgetElsewhere: string;
let subBudgets: string[];

type Response = { statusCode: number; body: string; json(): { code: string } };
function expectError(response: Response, status: number, code: string) {
  expect({ status: response.statusCode, code: response.json().code }, response.body).toEqual({ status, code });
}

/** A scheme with sub-budgets, made with the schemes feature's own command. */
async function subBudgetsOf(document: string, count: number): Promise<string[]> {
  const ids = Array.from({ length: count }, () => randomUUID());
  const actor = { correlationId: 'permissions-test', userId: null, occupationId: null, organizationId: null };
  const outcome = await executeCommand(
    server.app.store,
    schemeDecider,
    {
      type: 'CopySchemes',
      documentId: document,
      organizationId,
      schemes: [
        {
          schemeId: randomUUID(),
          name: 'Kulud',
          fieldName: 'kulud',
          description: '',
          displayOrder: 1,
          classifierList: [],
          subBudgets: ids.map((subBudgetId, index) => ({ subBudgetId, name: `Allüksus ${index}`, classifiers: {}, preselections: {} })),
        },
      ],
    },
    actor,
  );
  if (outcome.position) await server.app.projections.waitForPosition(['schemes'], outcome.position, 5_000);
  return ids;
}

const member = async (organization: string, privileges: string[]) => {
  const made = await accounts.member(organization, privileges);
  return { ...made, client: await login(server.app, made.email, PASSWORD) };
};
/** An occupation to grant to (no privileges that matter here). */
const occupation = async () => (await accounts.member(organizationId, ['DATA_VIEW'])).occupationId;

const put = (client: Client, occupationId: string, payload: object) =>
  client.request({ method: 'PUT', url: `/api/occupation/${occupationId}/permission`, payload });
const putMany = (client: Client, occupationId: string, permissions: object[]) =>
  client.request({ method: 'PUT', url: `/api/occupation/${occupationId}/permissions`, payload: { permissions } });
const permissionsOf = async (client: Client, occupationId: string, document?: string) => {
  const response = await client.request({ method: 'GET', url: `/api/occupation/${occupationId}/permissions${document ? `?documentId=${document}` : ''}` });
  expect(response.statusCode, response.body).toBe(200);
  return response.json() as {
    documentId: string | null;
    budgetId: string | null;
    subBudgetId: string | null;
    read: boolean;
    update: boolean;
    inheritedRead: boolean;
    inheritedUpdate: boolean;
  }[];
};
const rowOf = (rows: Awaited<ReturnType<typeof permissionsOf>>, budgetId: string | null, subBudgetId: string | null = null) =>
  rows.find((row) => row.budgetId === budgetId && row.subBudgetId === subBudgetId);
const flags = (row: { read: boolean; update: boolean; inheritedRead: boolean; inheritedUpdate: boolean } | undefined) =>
  row && { read: row.read, update: row.update, inheritedRead: row.inheritedRead, inheritedUpdate: row.inheritedUpdate };

beforeAll(async () => {
  const world = await schemesWorld('Viljandi Linnavalitsus', 'Valga Vallavalitsus');
  ({ server, admin, accounts, fixture, organizationId } = world);
  userAdmin = (await member(organizationId, ['USER_ADMIN'])).client;
  userViewer = (await member(organizationId, ['USER_VIEW'])).client;
  clerk = (await member(organizationId, ['DATA_VIEW'])).client;
  otherOrganization = await accounts.organization('Võru Linnavalitsus');
  const stranger = await member(otherOrganization, ['USER_ADMIN']);
  outsider = stranger.client;
  otherOccupation = stranger.occupationId;
  otherDocument = await fixture.document(otherOrganization);
  documentId = await fixture.document(organizationId);
  secondDocument = await fixture.document(organizationId);
  budgetA = await fixture.budget(documentId, organizationId);
  budgetB = await fixture.budget(documentId, organizationId);
  budgetElsewhere = await fixture.budget(secondDocument, organizationId);
  subBudgets = await subBudgetsOf(documentId, 16);
}, 120_000);
afterAll(async () => server?.close());

describe('resource permissions', () => {
  it('grants read on a budget and update on a sub-budget; the occupation reads them with what they inherit', async () => {
    const finance = await occupation();
    expect((await put(userAdmin, finance, { documentId, budgetId: budgetA, read: true, update: false })).statusCode).toBe(200);
    const answer = await put(userAdmin, finance, { documentId, budgetId: budgetA, subBudgetId: subBudgets[0], read: true, update: true });
    expect(answer.statusCode, answer.body).toBe(200);
    expect(answer.json()).toMatchObject({ id: finance });

    const rows = await permissionsOf(userViewer, finance, documentId);
    expect(flags(rowOf(rows, null))).toEqual({ read: false, update: false, inheritedRead: false, inheritedUpdate: false });
    expect(flags(rowOf(rows, budgetA))).toEqual({ read: true, update: false, inheritedRead: false, inheritedUpdate: false });
    expect(flags(rowOf(rows, budgetA, subBudgets[0]))).toEqual({ read: true, update: true, inheritedRead: true, inheritedUpdate: false });
    expect(flags(rowOf(rows, budgetB))).toEqual({ read: false, update: false, inheritedRead: false, inheritedUpdate: false });

    // Without a document: the organisation and its documents.
    const top = await permissionsOf(userAdmin, finance);
    expect(top.map((row) => row.documentId)).toEqual(expect.arrayContaining([null, documentId, secondDocument]));

    // The document's list names the occupation's grants there.
    const response = await userViewer.request({ method: 'GET', url: `/api/document/${documentId}/permissions` });
    expect(response.statusCode).toBe(200);
    const mine = (response.json() as { occupationId: string; budgetId: string | null; subBudgetId: string | null }[]).filter(
      (row) => row.occupationId === finance,
    );
    expect(mine.map((row) => [row.budgetId, row.subBudgetId])).toEqual([
      [budgetA, null],
      [budgetA, subBudgets[0]],
    ]);
  });

  it('the header toggle grants update over a set and removes it again in one call', async () => {
    const education = await occupation();
    const set = [budgetA, budgetB].map((budgetId) => ({ documentId, budgetId, read: true, update: true }));
    expect((await putMany(userAdmin, education, set)).statusCode).toBe(200);
    let rows = await permissionsOf(userAdmin, education, documentId);
    expect([rowOf(rows, budgetA)?.update, rowOf(rows, budgetB)?.update]).toEqual([true, true]);

    const removal = set.map((grant) => ({ ...grant, read: false, update: false }));
    expect((await putMany(userAdmin, education, removal)).statusCode).toBe(200);
    rows = await permissionsOf(userAdmin, education, documentId);
    expect(rows.every((row) => !row.read && !row.update && !row.inheritedRead)).toBe(true);
  });

  it('an organisation grant is inherited by every document, budget and sub-budget', async () => {
    const culture = await occupation();
    expect((await put(userAdmin, culture, { read: true, update: false })).statusCode).toBe(200);
    const rows = await permissionsOf(userAdmin, culture, documentId);
    expect(flags(rows.find((row) => row.documentId === null))).toEqual({ read: true, update: false, inheritedRead: false, inheritedUpdate: false });
    expect(rows.filter((row) => row.documentId === documentId).every((row) => row.inheritedRead && !row.inheritedUpdate)).toBe(true);
    // ...and cannot be removed below where it was given.
    expectError(await put(userAdmin, culture, { documentId, read: false, update: false }), 422, 'PERMISSIONS_CHAIN_INVALID');
  });

  it('answers PERMISSIONS_CHAIN_INVALID where a grant contradicts its parent or the ids do not form a chain', async () => {
    const sports = await occupation();
    expect((await put(userAdmin, sports, { documentId, read: true, update: true })).statusCode).toBe(200);
    // Removing or narrowing what the document grants, below it.
    expectError(await put(userAdmin, sports, { documentId, budgetId: budgetA, read: false, update: false }), 422, 'PERMISSIONS_CHAIN_INVALID');
    expectError(
      await put(userAdmin, sports, { documentId, budgetId: budgetA, subBudgetId: subBudgets[1], read: true, update: false }),
      422,
      'PERMISSIONS_CHAIN_INVALID',
    );
    // Update without read.
    expectError(await put(userAdmin, sports, { documentId: secondDocument, read: false, update: true }), 422, 'PERMISSIONS_CHAIN_INVALID');
    // A budget of another document, a sub-budget without its budget, a budget without its document.
    expectError(await put(userAdmin, sports, { documentId, budgetId: budgetElsewhere, read: true, update: false }), 422, 'PERMISSIONS_CHAIN_INVALID');
    expectError(await put(userAdmin, sports, { documentId, subBudgetId: subBudgets[1], read: true, update: false }), 422, 'PERMISSIONS_CHAIN_INVALID');
    expectError(await put(userAdmin, sports, { documentId: secondDocument, budgetId: budgetA, read: true, update: false }), 422, 'PERMISSIONS_CHAIN_INVALID');
    expectError(await put(userAdmin, sports, { budgetId: budgetA, read: true, update: false }), 422, 'PERMISSIONS_CHAIN_INVALID');
    // A refused bulk change writes nothing.
    const before = await permissionsOf(userAdmin, sports, secondDocument);
    expectError(
      await putMany(userAdmin, sports, [
        { documentId: secondDocument, read: true, update: false },
        { documentId: secondDocument, budgetId: budgetA, read: true, update: false },
      ]),
      422,
      'PERMISSIONS_CHAIN_INVALID',
    );
    expect(await permissionsOf(userAdmin, sports, secondDocument)).toEqual(before);
    // ...also when the refusal comes from a later stream's grants (here: what the document gives, narrowed below it).
    expectError(
      await putMany(userAdmin, sports, [
        { documentId: secondDocument, read: true, update: false },
        { documentId, budgetId: budgetB, read: true, update: false },
      ]),
      422,
      'PERMISSIONS_CHAIN_INVALID',
    );
    expect(await permissionsOf(userAdmin, sports, secondDocument)).toEqual(before);
  });

  it('answers 400 for malformed requests', async () => {
    const target = await occupation();
    expectError(await put(userAdmin, target, { documentId, read: true }), 400, 'SCHEMA_VALIDATION_ERROR');
    expectError(await put(userAdmin, target, { documentId: 'not-an-id', read: true, update: false }), 400, 'SCHEMA_VALIDATION_ERROR');
    expectError(await putMany(userAdmin, target, []), 400, 'SCHEMA_VALIDATION_ERROR');
    expectError(await userAdmin.request({ method: 'GET', url: `/api/occupation/${target}/permissions?documentId=nope` }), 400, 'SCHEMA_VALIDATION_ERROR');
    expectError(await userAdmin.request({ method: 'POST', url: `/api/occupation/${target}/permissions/copy`, payload: {} }), 400, 'SCHEMA_VALIDATION_ERROR');
  });

  it('answers 403 without USER_VIEW or USER_ADMIN to read, and without USER_ADMIN to change or copy', async () => {
    const target = await occupation();
    expectError(await clerk.request({ method: 'GET', url: `/api/occupation/${target}/permissions` }), 403, 'INSUFFICIENT_PERMISSIONS');
    expectError(await clerk.request({ method: 'GET', url: `/api/document/${documentId}/permissions` }), 403, 'INSUFFICIENT_PERMISSIONS');
    expectError(await put(userViewer, target, { documentId, read: true, update: false }), 403, 'INSUFFICIENT_PERMISSIONS');
    expectError(await putMany(userViewer, target, [{ documentId, read: true, update: false }]), 403, 'INSUFFICIENT_PERMISSIONS');
    expectError(
      await userViewer.request({ method: 'POST', url: `/api/occupation/${target}/permissions/copy`, payload: { fromOccupationId: target } }),
      403,
      'INSUFFICIENT_PERMISSIONS',
    );
  });

  it("answers 404 for another organisation's occupation, document, budget or sub-budget, and for ids that do not exist", async () => {
    const target = await occupation();
    expectError(await outsider.request({ method: 'GET', url: `/api/occupation/${target}/permissions` }), 404, 'OCCUPATION_NOT_FOUND');
    expectError(await put(outsider, target, { read: true, update: false }), 404, 'OCCUPATION_NOT_FOUND');
    expectError(await userAdmin.request({ method: 'GET', url: `/api/occupation/${otherOccupation}/permissions` }), 404, 'OCCUPATION_NOT_FOUND');
    expectError(await userAdmin.request({ method: 'GET', url: `/api/occupation/${target}/permissions?documentId=${otherDocument}` }), 404, 'OBJECT_NOT_FOUND');
    expectError(await userAdmin.request({ method: 'GET', url: `/api/document/${otherDocument}/permissions` }), 404, 'OBJECT_NOT_FOUND');
    expectError(await outsider.request({ method: 'GET', url: `/api/document/${documentId}/permissions` }), 404, 'OBJECT_NOT_FOUND');
    expectError(await put(userAdmin, target, { documentId: otherDocument, read: true, update: false }), 404, 'OBJECT_NOT_FOUND');
    expectError(await put(userAdmin, target, { documentId, budgetId: randomUUID(), read: true, update: false }), 404, 'BUDGET_NOT_FOUND');
    expectError(
      await put(userAdmin, target, { documentId, budgetId: budgetA, subBudgetId: randomUUID(), read: true, update: false }),
      404,
      'SUB_BUDGET_NOT_FOUND',
    );
    expectError(await put(userAdmin, randomUUID(), { read: true, update: false }), 404, 'OCCUPATION_NOT_FOUND');
    expectError(
      await userAdmin.request({ method: 'POST', url: `/api/occupation/${target}/permissions/copy`, payload: { fromOccupationId: otherOccupation } }),
      404,
      'OCCUPATION_NOT_FOUND',
    );
  });

  it('copies permissions from one occupation to another: the target ends with exactly the source grants', async () => {
    const source = await occupation();
    const target = await occupation();
    await putMany(userAdmin, source, [
      { read: true, update: false },
      { documentId, budgetId: budgetB, read: true, update: true },
      { documentId, budgetId: budgetA, subBudgetId: subBudgets[2], read: true, update: false },
    ]);
    // The target's own grants elsewhere are replaced.
    await put(userAdmin, target, { documentId: secondDocument, read: true, update: true });
    const copied = await userAdmin.request({ method: 'POST', url: `/api/occupation/${target}/permissions/copy`, payload: { fromOccupationId: source } });
    expect(copied.statusCode, copied.body).toBe(200);
    for (const document of [documentId, secondDocument]) {
      const strip = (rows: Awaited<ReturnType<typeof permissionsOf>>) => rows.map(flags);
      expect(strip(await permissionsOf(userAdmin, target, document))).toEqual(strip(await permissionsOf(userAdmin, source, document)));
    }
    expect(flags(rowOf(await permissionsOf(userAdmin, target, secondDocument), null))).toEqual({
      read: true,
      update: false,
      inheritedRead: false,
      inheritedUpdate: false,
    });
  });

  it('16 administrators granting one occupation different sub-budgets at once all succeed', async () => {
    const target = await occupation();
    const answers = await Promise.all(
      subBudgets.map((subBudgetId) => put(userAdmin, target, { documentId, budgetId: budgetB, subBudgetId, read: true, update: false })),
    );
    expect(answers.map((answer) => answer.statusCode)).toEqual(subBudgets.map(() => 200));
    const rows = await permissionsOf(userAdmin, target, documentId);
    expect(
      rows
        .filter((row) => row.budgetId === budgetB && row.subBudgetId && row.read)
        .map((row) => row.subBudgetId)
        .sort(),
    ).toEqual([...subBudgets].sort());
  });

  it('a platform administrator reads any organisation', async () => {
    const rows = await permissionsOf(admin, otherOccupation, otherDocument);
    expect(rows.map((row) => row.documentId)).toEqual([null, otherDocument]);
  });

  it('authorize.ts decides from the grants: own, inherited, read through a grant below, and privileges only where readable', async () => {
    const reader = await occupation();
    await putMany(userAdmin, reader, [
      { documentId, budgetId: budgetA, read: true, update: false },
      { documentId, budgetId: budgetA, subBudgetId: subBudgets[3], read: true, update: true },
    ]);
    const auth = (occupationId: string, privileges: string[] = []): AuthContext => ({
      session: {} as never,
      userId: randomUUID(),
      occupationId,
      organizationId,
      privileges,
    });
    const ask = async (occupationId: string, resource: object, action: 'read' | 'update', privileges: string[] = []) =>
      (await resourceAccess(server.app, auth(occupationId, privileges), { organizationId, ...resource }, { privileges: ['SCHEMA_ADMIN'] }))[action];
    expect(await ask(reader, { documentId, budgetId: budgetA }, 'read')).toBe(true);
    expect(await ask(reader, { documentId, budgetId: budgetB }, 'read')).toBe(false);
    // The document is readable through the budget granted in it (to navigate there), not updatable.
    expect(await ask(reader, { documentId }, 'read')).toBe(true);
    expect(await ask(reader, { documentId }, 'update')).toBe(false);
    expect(await ask(reader, { documentId: secondDocument }, 'read')).toBe(false);
    expect(await ask(reader, { documentId, budgetId: budgetA }, 'update')).toBe(false);
    expect(await ask(reader, { documentId, budgetId: budgetA, subBudgetId: subBudgets[3] }, 'update')).toBe(true);
    expect(await ask(reader, { documentId, budgetId: budgetA, subBudgetId: subBudgets[4] }, 'read')).toBe(true);
    // A privilege that grants update (SCHEMA_ADMIN here) does so only where the grants let the occupation read.
    expect(await ask(reader, { documentId, budgetId: budgetA }, 'update', ['SCHEMA_ADMIN'])).toBe(true);
    expect(await ask(reader, { documentId, budgetId: budgetB }, 'update', ['SCHEMA_ADMIN'])).toBe(false);
    // Every occupation reads its organisation; updating it (creating documents) needs a grant.
    expect(await ask(reader, {}, 'read')).toBe(true);
    expect(await ask(reader, {}, 'update')).toBe(false);
    const assigned = await admin.request({ method: 'POST', url: `/api/admin/${organizationId}` });
    expect(assigned.statusCode, assigned.body).toBe(200);
    const adminOccupation = await readModels(server.app.db)
      .selectFrom('occupations')
      .select('id')
      .where('organization_id', '=', organizationId)
      .where('type', '=', 'ADMIN')
      .executeTakeFirst();
    expect(adminOccupation).toBeDefined();
    // The organisation's ADMIN occupation holds every grant.
    expect(await ask(adminOccupation?.id as string, { documentId, budgetId: budgetB }, 'update')).toBe(true);
  });

  it('names every budget, scheme and sub-budget of a document to user viewers, whatever their own grants', async () => {
    const resources = await userViewer.request({ method: 'GET', url: `/api/document/${documentId}/permission-resources` });
    expect(resources.statusCode, resources.body).toBe(200);
    const { budgets, schemes } = resources.json() as never as { budgets: { id: string }[]; schemes: { id: string; name: string }[] };
    expect(budgets.map((budget) => budget.id).sort()).toEqual([budgetA, budgetB].sort());
    const scheme = schemes.find((candidate) => candidate.name === 'Kulud');
    const listed = await userViewer.request({ method: 'GET', url: `/api/schema/${scheme?.id}/permission-sub-budgets` });
    expect(listed.statusCode, listed.body).toBe(200);
    expect((listed.json() as never as { id: string }[]).map((row) => row.id).sort()).toEqual([...subBudgets].sort());
    expectError(await clerk.request({ method: 'GET', url: `/api/document/${documentId}/permission-resources` }), 403, 'INSUFFICIENT_PERMISSIONS');
    expectError(await outsider.request({ method: 'GET', url: `/api/document/${documentId}/permission-resources` }), 404, 'OBJECT_NOT_FOUND');
    expectError(await outsider.request({ method: 'GET', url: `/api/schema/${scheme?.id}/permission-sub-budgets` }), 404, 'SCHEME_NOT_FOUND');
  });

  it('tells the web through me whether the occupation may update its organisation (create and reorder documents)', async () => {
    const clerkOfOrganization = await member(organizationId, ['DATA_VIEW']);
    const me = async () =>
      (await clerkOfOrganization.client.request({ method: 'GET', url: '/api/auth/me' })).json() as never as { mayUpdateOrganization: boolean };
    expect((await me()).mayUpdateOrganization).toBe(false);
    expectError(
      await clerkOfOrganization.client.request({
        method: 'POST',
        url: `/api/organization/${organizationId}/document`,
        payload: { name: 'Uus', period: { year: 2028, month: 1, duration: 1 } },
      }),
      403,
      'INSUFFICIENT_PERMISSIONS',
    );
    await putMany(userAdmin, clerkOfOrganization.occupationId, [{ documentId: null, read: true, update: true }]);
    expect((await me()).mayUpdateOrganization).toBe(true);
    const created = await clerkOfOrganization.client.request({
      method: 'POST',
      url: `/api/organization/${organizationId}/document`,
      payload: { name: 'Uus', period: { year: 2028, month: 1, duration: 1 } },
    });
    expect(created.statusCode, created.body).toBe(201);
  });

  it('a department granted read on one budget and update on one sub-budget sees exactly that through the API', async () => {
    const department = await member(organizationId, ['DATA_VIEW']);
    await putMany(userAdmin, department.occupationId, [
      { documentId, budgetId: budgetA, read: true, update: false },
      { documentId, budgetId: budgetB, subBudgetId: subBudgets[5], read: true, update: true },
    ]);
    const get = async (url: string) => {
      const response = await department.client.request({ method: 'GET', url });
      expect(response.statusCode, response.body).toBe(200);
      return response.json() as never as { id: string; permissions?: { read: boolean; update: boolean } }[];
    };
    const documents = await get(`/api/organization/${organizationId}/documents`);
    expect(documents.map((document) => document.id)).toEqual([documentId]);
    const budgets = await get(`/api/document/${documentId}/budgets`);
    expect(budgets.map((budget) => [budget.id, budget.permissions?.read, budget.permissions?.update]).sort()).toEqual(
      [
        [budgetA, true, false],
        [budgetB, true, false],
      ].sort(),
    );
    expectError(await department.client.request({ method: 'GET', url: `/api/document/${secondDocument}` }), 403, 'INSUFFICIENT_PERMISSIONS');
    expectError(await department.client.request({ method: 'GET', url: `/api/budget/${budgetElsewhere}` }), 403, 'INSUFFICIENT_PERMISSIONS');
    const { scheme_id: schemeId } = await readModels(server.app.db)
      .selectFrom('sub_budgets')
      .select('scheme_id')
      .where('id', '=', subBudgets[0] as string)
      .executeTakeFirstOrThrow();
    // Budget A is read as a whole: every sub-budget, none updatable; budget B only through its one sub-budget.
    const ofA = await get(`/api/budget/${budgetA}/schema/${schemeId}/sub-budgets`);
    expect(ofA).toHaveLength(16);
    expect(ofA.every((row) => row.permissions?.update === false)).toBe(true);
    const ofB = await get(`/api/budget/${budgetB}/schema/${schemeId}/sub-budgets`);
    expect(ofB.map((row) => [row.id, row.permissions])).toEqual([[subBudgets[5], { read: true, update: true }]]);
  });
});
