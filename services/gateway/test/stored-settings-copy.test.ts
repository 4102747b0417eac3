import type { accountsFixture } from '@eelarve/testing/accounts';
import { PASSWORD } from '@eelarve/testing/accounts';
import type { TestServer } from '@eelarve/testing/server';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copyReportViews } from '../src/features/stored-settings/copy-step';
import { type Client, login } from './helpers';
import { schemesWorld } from './schemes-world';

/** The document copy's 'reportViews' step (spec 2, section 3; issue 12, point 3) through the HTTP API on PostgreSQL. */

let server: TestServer;
let accounts: ReturnType<typeof accountsFixture>;
let organizationId: string;
let orgAdmin: Client;
/** Reads every document of the organisation. */
let owner: Client & { userId: string };
let colleague: Client;

const actor = { correlationId: 'stored-settings-copy-test', userId: null, occupationId: null, organizationId: null };

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

async function call<T = { id: string }>(client: Client, options: InjectOptions): Promise<T> {
  const response = await client.request(options);
  expect([200, 201], `${options.method} ${options.url}: ${response.body}`).toContain(response.statusCode);
  return response.json();
}
const made = async (client: Client, url: string, payload: object) => (await call(client, { method: 'POST', url, payload })).id;

async function waitForTask(taskId: string) {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const task = await call<{ status: string; error?: string }>(orgAdmin, { method: 'GET', url: `/api/task/${taskId}` });
    if (task.status === 'SUCCESS' || task.status === 'ERROR') return task;
    if (Date.now() > deadline) throw new Error(`task ${taskId} still ${task.status}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const classifierBody = (fieldName: string) => ({
  name: fieldName,
  itemName: fieldName,
  fieldName,
  required: true,
  codeSettings: { typeName: 'Code', minLength: 1, maxLength: 20, hierarchical: false },
});

/** A document with a master classifier (item 01), a second classifier (item 02), a scheme with one sub-budget and a budget. */
async function sourceDocument() {
  const documentId = await made(orgAdmin, `/api/organization/${organizationId}/document`, {
    name: 'Eelarve 2027',
    period: { year: 2027, month: 1, duration: 1 },
  });
  const masterId = await made(orgAdmin, `/api/document/${documentId}/classifier`, classifierBody('tegevusala'));
  const classifierId = await made(orgAdmin, `/api/document/${documentId}/classifier`, classifierBody('allikas'));
  await made(orgAdmin, `/api/classifier/${masterId}/item`, { code: '01', name: 'Haridus' });
  const itemId = await made(orgAdmin, `/api/classifier/${classifierId}/item`, { code: '02', name: 'Riik' });
  await call(orgAdmin, {
    method: 'PUT',
    url: `/api/document/${documentId}`,
    payload: { name: 'Eelarve 2027', description: '', period: { year: 2027, month: 1, duration: 1 }, masterClassifierId: masterId, resourceStatusId: null },
  });
  const schemeId = await made(orgAdmin, `/api/document/${documentId}/schema`, {
    name: 'Kulud',
    fieldName: 'kulud',
    description: '',
    classifierList: [{ classifierId: masterId, type: 'MAIN' }],
  });
  const subBudgetId = await made(orgAdmin, `/api/schema/${schemeId}/sub-budget`, { name: 'Haridus', classifiers: { [masterId]: '01' } });
  const budgetId = await made(orgAdmin, `/api/document/${documentId}/budget`, { type: 'COMMON', name: 'Põhieelarve', description: '', resourceStatusId: null });
  return { documentId, masterId, classifierId, itemId, schemeId, subBudgetId, budgetId };
}

beforeAll(async () => {
  const world = await schemesWorld('Rakvere Linnavalitsus', 'Paide Linnavalitsus');
  ({ server, accounts, organizationId } = world);
  orgAdmin = await adminOccupationClient();
  const reader = async () => {
    const member = await accounts.reader(organizationId, ['DATA_VIEW']);
    return { ...(await login(server.app, member.email, PASSWORD)), userId: member.userId };
  };
  [owner, colleague] = [await reader(), await reader()];
}, 120_000);
afterAll(async () => server?.close());

describe("the document copy's report views", () => {
  it('is a copy part now', async () => {
    expect((await call<{ parts: string[] }>(orgAdmin, { method: 'GET', url: '/api/document-copy/parts' })).parts).toContain('reportViews');
  });

  it('copies general and personal views and column sets to the copy with the ids of the copied schemes, sub-budgets, classifiers and items; a retry adds nothing', async () => {
    const source = await sourceDocument();
    const filter = (key: { id: string; type: string }, items: string[]) => ({ key, name: 'Filter', enabled: true, items, selectedItems: items, visible: true });
    const personal = {
      rememberedSchemeId: source.schemeId,
      rememberedGroupingClassifierId: source.classifierId,
      filters: [
        filter({ id: source.schemeId, type: 'SUB_BUDGET' }, [source.subBudgetId]),
        filter({ id: source.classifierId, type: 'CLASSIFIER' }, [source.itemId]),
      ],
      filterChanges: [],
      filtersOrder: [],
    };
    const save = (client: Client, payload: object) =>
      made(client, '/api/stored-settings', { documentId: source.documentId, budgetId: source.budgetId, ...payload });
    await save(owner, { type: 'REPORT', name: 'Minu vaade', settings: personal });
    const columns = { reportColumns: ['base'], comparisonBudgetIds: [{ budgetId: source.budgetId, copy: false }], calcColumns: [] };
    await save(owner, { type: 'REPORT_COLUMNS', name: 'Minu veerud', settings: columns });
    const general = await save(orgAdmin, { type: 'REPORT', name: 'Kõigile', budgetId: null, settings: { ...personal, filters: [] } });
    await call(orgAdmin, { method: 'POST', url: `/api/stored-settings/${general}/promote` });

    const response = await orgAdmin.request({
      method: 'POST',
      url: `/api/organization/${organizationId}/document`,
      payload: {
        name: 'Eelarve 2028',
        description: '',
        period: { year: 2028, month: 1, duration: 1 },
        copy: { sourceDocumentId: source.documentId, classifiers: true, schemes: true, reportViews: true },
      },
    });
    expect(response.statusCode, response.body).toBe(201);
    const { id: copy, taskId } = response.json();
    expect(await waitForTask(taskId)).toMatchObject({ status: 'SUCCESS' });

    // The copy's own schemes, sub-budgets, classifiers and items, as its screens list them.
    const [scheme] = await call<{ id: string; name: string }[]>(orgAdmin, { method: 'GET', url: `/api/document/${copy}/schemas` });
    const [subBudget] = await call<{ id: string }[]>(orgAdmin, { method: 'GET', url: `/api/schema/${scheme!.id}/sub-budgets` });
    const classifiers = await call<{ id: string; fieldName: string }[]>(orgAdmin, { method: 'GET', url: `/api/document/${copy}/classifiers` });
    const classifier = classifiers.find((candidate) => candidate.fieldName === 'allikas')!;
    const [item] = await call<{ id: string }[]>(orgAdmin, { method: 'GET', url: `/api/classifier/${classifier.id}/items` });

    // A document copy makes no budgets: the budget's views are the whole copy's.
    const menu = async (client: Client, type: string) =>
      call<{ name: string; userId: string | null; budgetId: string | null; settings: Record<string, unknown> }[]>(client, {
        method: 'GET',
        url: `/api/stored-settings?documentId=${copy}&type=${type}`,
      });
    const views = await menu(owner, 'REPORT');
    expect(views.map((view) => [view.name, view.userId, view.budgetId])).toEqual([
      ['Kõigile', null, null],
      ['Minu vaade', owner.userId, null],
    ]);
    expect(views[1]!.settings).toEqual({
      rememberedSchemeId: scheme!.id,
      rememberedGroupingClassifierId: classifier.id,
      filters: [{ ...filter({ id: scheme!.id, type: 'SUB_BUDGET' }, [subBudget!.id]) }, { ...filter({ id: classifier.id, type: 'CLASSIFIER' }, [item!.id]) }],
      filterChanges: [],
      filtersOrder: [],
    });
    // Comparing with the source's budget is what a copied column set is for: it stays.
    expect((await menu(owner, 'REPORT_COLUMNS')).map((view) => view.settings)).toEqual([columns]);
    // Personal views stay their owner's; the general one is everyone's.
    expect((await menu(colleague, 'REPORT')).map((view) => view.name)).toEqual(['Kõigile']);
    // The source keeps its own.
    expect(
      (await call<unknown[]>(owner, { method: 'GET', url: `/api/stored-settings?documentId=${source.documentId}&budgetId=${source.budgetId}&type=REPORT` }))
        .length,
    ).toBe(2);

    // A retried attempt runs the step again: nothing new is written.
    const stream = `stored-settings-${copy}`;
    const before = (await server.app.store.readStream(stream)).length;
    expect(before).toBe(3);
    const { db, store, commands, config, log } = server.app;
    const ids = new Map([
      [source.schemeId, scheme!.id],
      [source.subBudgetId, subBudget!.id],
      [source.classifierId, classifier.id],
      [source.itemId, item!.id],
    ]);
    await copyReportViews({
      db,
      store,
      commands,
      config,
      log,
      actor,
      taskId,
      organizationId,
      sourceDocumentId: source.documentId,
      targetDocumentId: copy,
      options: { sourceDocumentId: source.documentId, permissions: false, classifiers: true, schemes: true, reportViews: true },
      ids,
    });
    expect((await server.app.store.readStream(stream)).length).toBe(before);
  });
});
