import { randomUUID } from 'node:crypto';
import { schemeDecider } from '@eelarve/domain';
import { resourcePermissionsStream } from '@eelarve/domain/permissions/decider';
import type { accountsFixture } from '@eelarve/testing/accounts';
import type { schemesFixture } from '@eelarve/testing/schemes';
import type { TestServer } from '@eelarve/testing/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { executeCommand } from '../src/infrastructure/commands';
import { copyBudgetPermissions, copyDocumentPermissions, copySubBudgetPermissions } from '../src/features/resource-permissions/copy-steps';
import { type Client, login } from './helpers';
import { schemesWorld } from './schemes-world';

/** The permission parts of the document and budget copies (issue 10, point 3) through the HTTP API on PostgreSQL. */

let server: TestServer;
let accounts: ReturnType<typeof accountsFixture>;
let fixture: ReturnType<typeof schemesFixture>;
let organizationId: string;
let orgAdmin: Client;
let documentId: string;
let budgetId: string;
let schemeId: string;
let subBudgets: string[];

const actor = { correlationId: 'permission-copies-test', userId: null, occupationId: null, organizationId: null };

async function adminOccupationClient(): Promise<Client> {
  const client = await login(server.app, server.admin.email, server.admin.password);
  expect((await client.request({ method: 'POST', url: `/api/admin/${organizationId}` })).statusCode).toBe(200);
  const occupation = await server.app.db
    .withSchema('read')
    .selectFrom('occupations')
    .select('id')
    .where('organization_id', '=', organizationId)
    .where('type', '=', 'ADMIN')
    .executeTakeFirstOrThrow();
  expect((await client.request({ method: 'POST', url: '/api/auth/switch', payload: { occupationId: occupation.id } })).statusCode).toBe(200);
  return client;
}

/** A scheme with sub-budgets, three of them pinned on the budget (only pinned sub-budgets transfer in a budget copy). */
async function schemeWithPins(): Promise<void> {
  schemeId = randomUUID();
  subBudgets = Array.from({ length: 4 }, () => randomUUID());
  const scheme = {
    schemeId,
    name: 'Kulud',
    fieldName: 'kulud',
    description: '',
    displayOrder: 1,
    classifierList: [],
    subBudgets: subBudgets.map((subBudgetId, index) => ({ subBudgetId, name: `Allüksus ${index}`, classifiers: {}, preselections: {} })),
  };
  await executeCommand(server.app.store, schemeDecider, { type: 'CopySchemes', documentId, organizationId, schemes: [scheme] }, actor);
  const pinned = await executeCommand(
    server.app.store,
    schemeDecider,
    { type: 'PinSubBudgets', documentId, schemeId, budgetId, pinned: subBudgets.slice(0, 3), withRecords: [], confirmed: true },
    actor,
  );
  if (pinned.position) await server.app.projections.waitForPosition(['schemes'], pinned.position, 5_000);
}

type Row = { documentId: string | null; budgetId: string | null; subBudgetId: string | null; read: boolean; update: boolean };
async function permissionsOf(occupationId: string, document: string): Promise<Row[]> {
  const response = await orgAdmin.request({ method: 'GET', url: `/api/occupation/${occupationId}/permissions?documentId=${document}` });
  expect(response.statusCode, response.body).toBe(200);
  return response.json();
}
/** The explicit grants of a document, as [budget, sub-budget, read, update]. */
const explicit = (rows: Row[]) =>
  rows
    .filter((row) => row.read || row.update)
    .map((row) => [row.budgetId, row.subBudgetId, row.read, row.update])
    .sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)));
const grant = async (occupationId: string, payload: object) => {
  const response = await orgAdmin.request({ method: 'PUT', url: `/api/occupation/${occupationId}/permission`, payload });
  expect(response.statusCode, response.body).toBe(200);
};
const occupation = async () => (await accounts.member(organizationId, ['DATA_VIEW'])).occupationId;
const eventsOf = async (occupationId: string, document: string) =>
  (await server.app.store.readStream(resourcePermissionsStream(occupationId, document))).length;

async function waitForTask(taskId: string) {
  const deadline = Date.now() + 15_000;
  for (;;) {
    const task = (await orgAdmin.request({ method: 'GET', url: `/api/task/${taskId}` })).json();
    if (task.status === 'SUCCESS' || task.status === 'ERROR') return task;
    if (Date.now() > deadline) throw new Error(`task ${taskId} still ${task.status}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

beforeAll(async () => {
  const world = await schemesWorld('Pärnu Linnavalitsus', 'Rapla Vallavalitsus');
  ({ server, accounts, fixture, organizationId } = world);
  orgAdmin = await adminOccupationClient();
  documentId = await fixture.document(organizationId);
  // A budget is made only in a document with a master classifier.
  await fixture.setMaster(documentId, await fixture.classifier(documentId, organizationId, 'tegevusala', { '01': true }));
  budgetId = await fixture.budget(documentId, organizationId);
  await schemeWithPins();
}, 120_000);
afterAll(async () => server?.close());

const context = () => {
  const { db, store, commands, config, log } = server.app;
  return { db, store, commands, config, log, actor };
};

describe('copying permissions', () => {
  it('lists the permission parts as copy parts now', async () => {
    expect((await orgAdmin.request({ method: 'GET', url: '/api/document-copy/parts' })).json()).toEqual({
      parts: ['classifiers', 'schemes', 'permissions', 'reportViews'],
    });
    expect((await orgAdmin.request({ method: 'GET', url: '/api/budget-copy/parts' })).json()).toEqual({
      parts: ['permissions', 'pinnedPreselections', 'subBudgetPermissions'],
    });
  });

  it("gives every occupation's document grants on the document copy, once, and a retried step adds nothing", async () => {
    const [reader, writer, untouched] = [await occupation(), await occupation(), await occupation()];
    await grant(reader, { documentId, read: true, update: false });
    await grant(writer, { documentId, read: true, update: true });
    const response = await orgAdmin.request({
      method: 'POST',
      url: `/api/organization/${organizationId}/document`,
      payload: { name: 'Koopia', description: '', period: { year: 2027, month: 1, duration: 1 }, copy: { sourceDocumentId: documentId, permissions: true } },
    });
    expect(response.statusCode, response.body).toBe(201);
    const { id: copy, taskId } = response.json();
    expect((await waitForTask(taskId)).status).toBe('SUCCESS');
    expect(explicit(await permissionsOf(reader, copy))).toEqual([[null, null, true, false]]);
    expect(explicit(await permissionsOf(writer, copy))).toEqual([[null, null, true, true]]);
    expect(explicit(await permissionsOf(untouched, copy))).toEqual([]);
    // The source keeps its grants.
    expect(explicit(await permissionsOf(writer, documentId))).toEqual([[null, null, true, true]]);

    const before = [await eventsOf(reader, copy), await eventsOf(writer, copy)];
    expect(before).toEqual([1, 1]);
    await copyDocumentPermissions({
      ...context(),
      taskId,
      organizationId,
      sourceDocumentId: documentId,
      targetDocumentId: copy,
      options: { sourceDocumentId: documentId, permissions: true, classifiers: false, schemes: false, reportViews: false },
      ids: new Map(),
    });
    expect([await eventsOf(reader, copy), await eventsOf(writer, copy)]).toEqual(before);
  });

  it("gives the source budget's grants and its pinned sub-budgets' grants of the chosen schemes on the budget copy", async () => {
    const department = await occupation();
    await grant(department, { documentId, budgetId, read: true, update: false });
    await grant(department, { documentId, budgetId, subBudgetId: subBudgets[0], read: true, update: true });
    // Not pinned on the source budget: it does not transfer.
    await grant(department, { documentId, budgetId, subBudgetId: subBudgets[3], read: true, update: true });
    const response = await orgAdmin.request({
      method: 'POST',
      url: `/api/document/${documentId}/budget`,
      payload: {
        type: 'COMMON',
        name: 'Eelarve koopia',
        description: '',
        copy: {
          sourceBudgetId: budgetId,
          copyPermissions: true,
          schemes: [{ schemeId, copyPinnedPreselections: false, copySubBudgetPermissions: true, copyComments: false }],
        },
      },
    });
    expect(response.statusCode, response.body).toBe(201);
    const copied = response.json().id as string;
    const rows = await permissionsOf(department, documentId);
    const ofCopy = explicit(rows.filter((row) => row.budgetId === copied));
    expect(ofCopy).toEqual(
      explicit([
        { documentId, budgetId: copied, subBudgetId: null, read: true, update: false },
        { documentId, budgetId: copied, subBudgetId: subBudgets[0] as string, read: true, update: true },
      ]),
    );

    // A retried attempt runs both parts again: nothing new is written.
    const before = await eventsOf(department, documentId);
    const budgetContext = {
      ...context(),
      source: { id: budgetId, document_id: documentId, organization_id: organizationId },
      budgetId: copied,
      documentId,
    };
    await copyBudgetPermissions({ ...budgetContext, schemeIds: [] });
    await copySubBudgetPermissions({ ...budgetContext, schemeIds: [schemeId] });
    expect(await eventsOf(department, documentId)).toBe(before);
  });

  it('copies no sub-budget grants for schemes not chosen', async () => {
    const department = await occupation();
    await grant(department, { documentId, budgetId, subBudgetId: subBudgets[1], read: true, update: false });
    const response = await orgAdmin.request({
      method: 'POST',
      url: `/api/document/${documentId}/budget`,
      payload: { type: 'COMMON', name: 'Ilma allüksusteta', description: '', copy: { sourceBudgetId: budgetId, copyPermissions: true, schemes: [] } },
    });
    expect(response.statusCode, response.body).toBe(201);
    const copied = response.json().id as string;
    expect(explicit((await permissionsOf(department, documentId)).filter((row) => row.budgetId === copied))).toEqual([]);
  });
});
