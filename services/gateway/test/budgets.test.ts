import { randomUUID } from 'node:crypto';
import { type BudgetEvent, budgetDecider, documentDecider, foldEvents, schemeDecider } from '@eelarve/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BudgetCopyContext, registerBudgetCopyPart } from '../src/features/budgets/copy';
import { executeCommand } from '../src/infrastructure/commands';
import { accountsFixture, PASSWORD } from '@eelarve/testing/accounts';
import { schemesFixture } from '@eelarve/testing/schemes';
import { startTestServer, type TestServer } from '@eelarve/testing/server';
import { type Client, login } from './helpers';

let server: TestServer;
/** Platform administrator (IS_ADMIN). */
let admin: Client;
/** May update the organisation's documents and budgets (a grant), no IS_ADMIN. */
let writer: Client;
/** Reads only. */
let reader: Client;
/** Acts in another organisation. */
let stranger: Client;
let fixture: ReturnType<typeof accountsFixture>;
let documents: ReturnType<typeof schemesFixture>;
let organizationId: string;
let otherOrganizationId: string;
let documentId: string;
let bareDocumentId: string;

const actor = { correlationId: 'budgets-test', userId: null, occupationId: null, organizationId: null };

beforeAll(async () => {
  server = await startTestServer({ listen: false });
  admin = await login(server.app, server.admin.email, server.admin.password);
  fixture = accountsFixture(server.app, admin);
  documents = schemesFixture(server.app);
  organizationId = await fixture.organization('Tartu Linnavalitsus');
  otherOrganizationId = await fixture.organization('Narva Linnavalitsus');
  const writerMember = await fixture.member(organizationId, ['USER_VIEW']);
  const readerMember = await fixture.member(organizationId, ['DATA_VIEW']);
  const strangerMember = await fixture.member(otherOrganizationId, ['DATA_VIEW']);
  // The writer may update the organisation's documents and budgets; the reader reads them.
  await fixture.grant(writerMember.occupationId, [{ update: true }]);
  await fixture.grant(readerMember.occupationId, [{ read: true }]);
  writer = await login(server.app, writerMember.email, PASSWORD);
  reader = await login(server.app, readerMember.email, PASSWORD);
  stranger = await login(server.app, strangerMember.email, PASSWORD);
  documentId = await documents.documentWithMaster(organizationId);
  bareDocumentId = await documents.document(organizationId);
});
afterAll(async () => {
  await server?.close();
});

type Response = { statusCode: number; json(): { code: string; details?: unknown } };
function expectError(response: Response, status: number, code: string) {
  expect({ status: response.statusCode, code: response.json().code }).toEqual({ status, code });
}
function expectField(response: Response, path: string) {
  expectError(response, 400, 'SCHEMA_VALIDATION_ERROR');
  expect((response.json().details as { path: string }[]).map((issue) => issue.path)).toContain(path);
}

const create = (payload: object, client: Client = writer, document = documentId) =>
  client.request({ method: 'POST', url: `/api/document/${document}/budget`, payload });
async function createBudget(payload: object, client: Client = writer, document = documentId): Promise<string> {
  const response = await create({ description: '', ...payload }, client, document);
  if (response.statusCode !== 201) throw new Error(`expected 201, got ${response.statusCode} ${response.body}`);
  return response.json().id;
}
const update = (id: string, payload: object, client: Client = writer) => client.request({ method: 'PUT', url: `/api/budget/${id}`, payload });
type BudgetJson = Record<string, unknown> & { id: string; name: string; order: number; info?: string | null };
async function list(client: Client = writer, document = documentId): Promise<BudgetJson[]> {
  const response = await client.request({ method: 'GET', url: `/api/document/${document}/budgets?includeMeta=true` });
  expect(response.statusCode).toBe(200);
  return response.json();
}
const find = async (id: string, client: Client = writer) => (await list(client)).find((budget) => budget.id === id);

describe('creating budgets', () => {
  it('creates a common budget the list shows at once, last in order', async () => {
    const first = await createBudget({ type: 'COMMON', name: 'First' });
    const response = await create({ type: 'COMMON', name: ' Operating budget ', description: 'Running costs', tags: ['ops', ' ops ', 'city'] });
    expect(response.statusCode).toBe(201);
    const { id, position } = response.json();
    expect(position).toMatch(/^\d+\/\d+$/);
    const budgets = await list();
    const ids = budgets.map((budget) => budget.id);
    expect(ids.indexOf(first)).toBeLessThan(ids.indexOf(id));
    expect(budgets.find((budget) => budget.id === id)).toMatchObject({
      id,
      documentId,
      organizationId,
      name: 'Operating budget',
      description: 'Running costs',
      type: 'COMMON',
      tags: ['ops', 'city'],
      resourceStatusId: null,
      sumBudgetComponentIds: [],
      childrenIds: [],
      pinnedSubBudgetIds: [],
      schemaIds: [],
      apiUrl: null,
      result: { lastExecutionTime: null },
      permissions: { read: true, update: true },
      info: null,
    });
  });

  it('answers 400 with field paths for bad input', async () => {
    expectField(await create({ type: 'COMMON', name: '' }), 'body.name');
    expectField(await create({ type: 'COMMON', name: 'x'.repeat(101) }), 'body.name');
    expectField(await create({ type: 'COMMON', name: 'ok', description: 'x'.repeat(4097) }), 'body.description');
    expectField(await create({ type: 'OTHER', name: 'ok' }), 'body.type');
    expectField(await create({ name: 'ok' }), 'body.type');
    expectField(await create({ type: 'COMMON', name: 'ok', tags: ['a', 'b', 'c', 'd'] }), 'body.tags');
    expectField(await create({ type: 'COMMON', name: 'ok', sumBudgetComponentIds: ['nope'] }), 'body.sumBudgetComponentIds.0');
    expectField(await create({ type: 'MONITORING', name: 'ok', gwUrl: 'not a url' }, admin), 'body.gwUrl');
    expectField(await create({ type: 'MONITORING', name: 'ok', erpUrl: `https://example.com/${'x'.repeat(2048)}` }, admin), 'body.erpUrl');
    expectField(await create({ type: 'MONITORING', name: 'ok', erpUrl: 'javascript:alert(1)' }, admin), 'body.erpUrl');
    expectField(await create({ type: 'COMMON', name: 'ok', sumBudgetComponentIds: [randomUUID()] }), 'body.sumBudgetComponentIds');
    expectField(await create({ type: 'COMMON', name: 'ok', copy: { copyPermissions: true } }), 'body.copy.sourceBudgetId');
    expectError(
      await writer.request({ method: 'POST', url: `/api/document/${documentId}/budget`, payload: 'junk', headers: { 'content-type': 'application/json' } }),
      400,
      'SCHEMA_VALIDATION_ERROR',
    );
  });

  it('accepts SUM as the sum budget type', async () => {
    const component = await createBudget({ type: 'COMMON', name: 'Component for SUM' });
    const id = await createBudget({ type: 'SUM', name: 'Written SUM', sumBudgetComponentIds: [component] });
    expect((await find(id))?.type).toBe('SUM_BUDGET');
  });

  it('refuses a budget when the document has no master classifier', async () => {
    expectError(await create({ type: 'COMMON', name: 'No master' }, writer, bareDocumentId), 422, 'DOCUMENT_MISSING_MASTER_CLASSIFIER');
  });

  it('refuses callers without write permission, and other organisations with 404', async () => {
    expectError(await create({ type: 'COMMON', name: 'Reader' }, reader), 403, 'INSUFFICIENT_PERMISSIONS');
    expectError(await create({ type: 'COMMON', name: 'Stranger' }, stranger), 404, 'OBJECT_NOT_FOUND');
    expectError(await create({ type: 'COMMON', name: 'Nowhere' }, writer, randomUUID()), 404, 'OBJECT_NOT_FOUND');
  });
});

describe('sum budgets', () => {
  let a: string;
  let b: string;
  let sum: string;

  beforeAll(async () => {
    a = await createBudget({ type: 'COMMON', name: 'Schools' });
    b = await createBudget({ type: 'COMMON', name: 'Roads' });
    sum = await createBudget({ type: 'SUM_BUDGET', name: 'Schools and roads', sumBudgetComponentIds: [a, b] });
  });

  it('lists the components names joined by "; " as info', async () => {
    expect(await find(sum)).toMatchObject({ type: 'SUM_BUDGET', sumBudgetComponentIds: [a, b], childrenIds: [a, b], schemaIds: [], info: 'Schools; Roads' });
  });

  it('needs at least one component', async () => {
    expectError(await create({ type: 'SUM_BUDGET', name: 'Empty' }), 422, 'SUM_BUDGET_NO_COMPONENTS');
    expectError(await update(sum, { name: 'Schools and roads', sumBudgetComponentIds: [] }), 422, 'SUM_BUDGET_NO_COMPONENTS');
  });

  it('refuses a self reference', async () => {
    expectError(await update(sum, { name: 'Schools and roads', sumBudgetComponentIds: [sum, a] }), 422, 'SUM_BUDGET_SELF_REFERENCE');
  });

  it('refuses cycles through nested sum budgets', async () => {
    const outer = await createBudget({ type: 'SUM_BUDGET', name: 'Outer', sumBudgetComponentIds: [sum] });
    expectError(await update(sum, { name: 'Schools and roads', sumBudgetComponentIds: [outer] }), 422, 'SUM_BUDGET_CYCLE');
    const top = await createBudget({ type: 'SUM_BUDGET', name: 'Top', sumBudgetComponentIds: [outer] });
    expectError(await update(sum, { name: 'Schools and roads', sumBudgetComponentIds: [a, top] }), 422, 'SUM_BUDGET_CYCLE');
  });

  it('refuses a component a selected sum budget already adds up', async () => {
    const response = await create({ type: 'SUM_BUDGET', name: 'Twice', sumBudgetComponentIds: [a, sum] });
    expectError(response, 422, 'COMPONENT_ALREADY_IN_USE');
    expect(response.json().details).toMatchObject({ componentId: a, usedBy: sum });
  });

  it('refuses components that are not readable budgets of the document', async () => {
    const elsewhere = await documents.documentWithMaster(organizationId);
    const foreign = await createBudget({ type: 'COMMON', name: 'Elsewhere' }, writer, elsewhere);
    expectError(await create({ type: 'SUM_BUDGET', name: 'Foreign', sumBudgetComponentIds: [foreign] }), 422, 'SUM_BUDGET_COMPONENT_NOT_FOUND');
    expectError(await create({ type: 'SUM_BUDGET', name: 'Unknown', sumBudgetComponentIds: [randomUUID()] }), 422, 'SUM_BUDGET_COMPONENT_NOT_FOUND');
  });

  it('changes components and keeps the type fixed', async () => {
    expect((await update(sum, { name: 'Schools only', sumBudgetComponentIds: [a] })).statusCode).toBe(200);
    expect(await find(sum)).toMatchObject({ name: 'Schools only', sumBudgetComponentIds: [a], info: 'Schools' });
    expectError(await update(sum, { type: 'COMMON', name: 'Schools only', sumBudgetComponentIds: [a] }), 422, 'BUDGET_TYPE_IMMUTABLE');
    expect((await update(sum, { type: 'SUM_BUDGET', name: 'Schools only', sumBudgetComponentIds: [a] })).statusCode).toBe(200);
  });

  it('refuses to delete a budget a sum budget adds up', async () => {
    const response = await writer.request({ method: 'DELETE', url: `/api/budget/${a}` });
    expectError(response, 422, 'BUDGET_USED_AS_SUM_COMPONENT');
    expect(response.json().details).toEqual({ sumBudgetIds: [sum] });
  });

  it('shows the hierarchy with direct and nested components', async () => {
    const outer = await createBudget({ type: 'SUM_BUDGET', name: 'Outer 2', sumBudgetComponentIds: [sum] });
    const response = await reader.request({ method: 'GET', url: `/api/document/${documentId}/budgets/hierarchy` });
    expect(response.statusCode).toBe(200);
    const node = response.json().find((entry: { id: string }) => entry.id === outer);
    expect(node).toMatchObject({ name: 'Outer 2', type: 'SUM_BUDGET', childrenIds: [sum], permissions: { read: true, update: false } });
    expect(node.descendantIds.sort()).toEqual([sum, a].sort());
  });
});

describe('sum budgets under concurrency', () => {
  let document: string;
  beforeAll(async () => {
    document = await documents.documentWithMaster(organizationId);
  });

  /** A budget's components as stored in its stream (not as projected). */
  async function storedComponents(id: string): Promise<string[] | null> {
    const state = foldEvents(budgetDecider, (await server.app.store.readStream(`budget-${id}`)) as unknown as BudgetEvent[]);
    return state.status === 'active' ? state.sumBudgetComponentIds : null;
  }
  const outcomeOf = (response: { statusCode: number; json(): { code: string } }) => (response.statusCode === 200 ? 'OK' : response.json().code);

  it('never lets two concurrent edits form a cycle (A adds B while B adds A)', async () => {
    for (let round = 0; round < 10; round++) {
      const x = await createBudget({ type: 'COMMON', name: `X${round}` }, writer, document);
      const y = await createBudget({ type: 'COMMON', name: `Y${round}` }, writer, document);
      const a = await createBudget({ type: 'SUM_BUDGET', name: `A${round}`, sumBudgetComponentIds: [x] }, writer, document);
      const b = await createBudget({ type: 'SUM_BUDGET', name: `B${round}`, sumBudgetComponentIds: [y] }, writer, document);
      const outcomes = (
        await Promise.all([update(a, { name: `A${round}`, sumBudgetComponentIds: [x, b] }), update(b, { name: `B${round}`, sumBudgetComponentIds: [y, a] })])
      ).map(outcomeOf);
      expect(outcomes, `round ${round}`).toContain('OK');
      expect(
        outcomes.filter((outcome) => outcome !== 'OK'),
        `round ${round}`,
      ).toHaveLength(1);
      expect(['SUM_BUDGET_CYCLE', 'CONCURRENT_MODIFICATION']).toContain(outcomes.find((outcome) => outcome !== 'OK'));
      const [ofA, ofB] = [await storedComponents(a), await storedComponents(b)];
      expect(ofA?.includes(b) && ofB?.includes(a), `round ${round}: a cycle was stored`).toBe(false);
      const listed = await list(writer, document);
      const listedOf = (id: string) => (listed.find((budget) => budget.id === id)?.sumBudgetComponentIds ?? []) as string[];
      expect(listedOf(a).includes(b) && listedOf(b).includes(a)).toBe(false);
    }
  });

  it('never deletes a budget that a concurrent edit adds as a component', async () => {
    for (let round = 0; round < 5; round++) {
      const x = await createBudget({ type: 'COMMON', name: `Kept${round}` }, writer, document);
      const c = await createBudget({ type: 'COMMON', name: `Doomed${round}` }, writer, document);
      const sum = await createBudget({ type: 'SUM_BUDGET', name: `Sum${round}`, sumBudgetComponentIds: [x] }, writer, document);
      const outcomes = (
        await Promise.all([update(sum, { name: `Sum${round}`, sumBudgetComponentIds: [x, c] }), writer.request({ method: 'DELETE', url: `/api/budget/${c}` })])
      ).map(outcomeOf);
      expect([
        ['OK', 'BUDGET_USED_AS_SUM_COMPONENT'],
        ['SUM_BUDGET_COMPONENT_NOT_FOUND', 'OK'],
      ]).toContainEqual(outcomes);
      if ((await storedComponents(c)) === null) expect(await storedComponents(sum)).toEqual([x]);
    }
  });
});

describe('editing and deleting', () => {
  it('updates name and description; components only for sum budgets', async () => {
    const id = await createBudget({ type: 'COMMON', name: 'Editable' });
    expect((await update(id, { name: 'Edited', description: 'Now described' })).statusCode).toBe(200);
    expect(await find(id)).toMatchObject({ name: 'Edited', description: 'Now described' });
    expectField(await update(id, { name: 'Edited', sumBudgetComponentIds: [randomUUID()] }), 'body.sumBudgetComponentIds');
    expectField(await update(id, { name: '' }), 'body.name');
    expectError(await update(id, { name: 'By reader' }, reader), 403, 'INSUFFICIENT_PERMISSIONS');
    expectError(await update(id, { name: 'By stranger' }, stranger), 404, 'BUDGET_NOT_FOUND');
    expectError(await update(randomUUID(), { name: 'Missing' }), 404, 'BUDGET_NOT_FOUND');
    expectField(await writer.request({ method: 'PUT', url: '/api/budget/not-a-uuid', payload: { name: 'x' } }), 'params.id');
  });

  it('deletes a budget', async () => {
    const id = await createBudget({ type: 'COMMON', name: 'Short-lived' });
    expectError(await reader.request({ method: 'DELETE', url: `/api/budget/${id}` }), 403, 'INSUFFICIENT_PERMISSIONS');
    expectError(await stranger.request({ method: 'DELETE', url: `/api/budget/${id}` }), 404, 'BUDGET_NOT_FOUND');
    expect((await writer.request({ method: 'DELETE', url: `/api/budget/${id}` })).statusCode).toBe(200);
    expect(await find(id)).toBeUndefined();
    expectError(await writer.request({ method: 'DELETE', url: `/api/budget/${id}` }), 404, 'BUDGET_NOT_FOUND');
  });
});

describe('tags', () => {
  it('sets at most three tags', async () => {
    const id = await createBudget({ type: 'COMMON', name: 'Tagged' });
    const put = (tags: unknown, client: Client = writer) => client.request({ method: 'PUT', url: `/api/budget/${id}/tags`, payload: { tags } });
    expect((await put(['a', 'b', 'c'])).statusCode).toBe(200);
    expect((await find(id))?.tags).toEqual(['a', 'b', 'c']);
    expectField(await put(['a', 'b', 'c', 'd']), 'body.tags');
    expectField(await put(['']), 'body.tags.0');
    expectField(await put('a'), 'body.tags');
    expectError(await put(['x'], reader), 403, 'INSUFFICIENT_PERMISSIONS');
    expectError(await put(['x'], stranger), 404, 'BUDGET_NOT_FOUND');
    expect((await put([])).statusCode).toBe(200);
    expect((await find(id))?.tags).toEqual([]);
  });
});

describe('monitoring budgets', () => {
  let id: string;

  beforeAll(async () => {
    id = await createBudget({ type: 'MONITORING', name: 'ERP feed', gwUrl: 'https://gw.example.com/feed', erpUrl: 'https://erp.example.com' }, admin);
  });

  it('shows the import address to everyone, the admin fields only to IS_ADMIN', async () => {
    const forAdmin = await find(id, admin);
    expect(forAdmin).toMatchObject({
      apiUrl: `http://localhost/budgets/${id}/import`,
      gwUrl: 'https://gw.example.com/feed',
      erpUrl: 'https://erp.example.com',
      syncEnabled: false,
    });
    expect(forAdmin).not.toHaveProperty('apiKey');
    for (const client of [writer, reader]) {
      const seen = await find(id, client);
      expect(seen).toMatchObject({ apiUrl: `http://localhost/budgets/${id}/import`, type: 'MONITORING', info: null });
      for (const field of ['gwUrl', 'erpUrl', 'syncEnabled', 'apiKey']) expect(seen).not.toHaveProperty(field);
      const single = (await client.request({ method: 'GET', url: `/api/budget/${id}` })).json();
      for (const field of ['gwUrl', 'erpUrl', 'syncEnabled', 'apiKey']) expect(single).not.toHaveProperty(field);
    }
    const organizationList = (await reader.request({ method: 'GET', url: `/api/organization/${organizationId}/budgets` })).json();
    expect(organizationList.find((budget: { id: string }) => budget.id === id)).not.toHaveProperty('gwUrl');
  });

  it('lets only IS_ADMIN set the gateway and ERP URLs; omitted keeps them', async () => {
    const own = await createBudget({ type: 'MONITORING', name: 'Writer feed' });
    expectError(await create({ type: 'MONITORING', name: 'x', gwUrl: 'https://gw.example.com' }), 403, 'INSUFFICIENT_PERMISSIONS');
    expectError(await update(own, { name: 'Writer feed', erpUrl: 'https://erp.example.com' }), 403, 'INSUFFICIENT_PERMISSIONS');
    expect((await update(id, { name: 'ERP feed renamed' })).statusCode).toBe(200);
    expect(await find(id, admin)).toMatchObject({ name: 'ERP feed renamed', gwUrl: 'https://gw.example.com/feed', erpUrl: 'https://erp.example.com' });
    expect((await update(id, { name: 'ERP feed renamed', gwUrl: '', erpUrl: 'https://erp2.example.com/x' }, admin)).statusCode).toBe(200);
    expect(await find(id, admin)).toMatchObject({ gwUrl: null, erpUrl: 'https://erp2.example.com/x' });
    expectField(await update(own, { name: 'Writer feed', gwUrl: 'ftp://gw' }, admin), 'body.gwUrl');
    // The sync flag changes only through PUT api/admin/budgets/{budgetId}/sync.
    expect((await update(id, { name: 'ERP feed renamed', syncEnabled: true }, admin)).statusCode).toBe(200);
    expect((await find(id, admin))?.syncEnabled).toBe(false);
  });

  it('refuses gateway and ERP URLs on other types', async () => {
    expectField(await create({ type: 'COMMON', name: 'x', gwUrl: 'https://gw.example.com' }, admin), 'body.gwUrl');
  });

  it('gives IS_ADMIN the API key, stored encrypted, and nobody else', async () => {
    const response = await admin.request({ method: 'GET', url: `/api/budget/${id}/api-key` });
    expect(response.statusCode).toBe(200);
    const { apiKey } = response.json();
    expect(apiKey).toMatch(/^[A-Za-z0-9_-]{40,}$/);
    expect((await admin.request({ method: 'GET', url: `/api/budget/${id}/api-key` })).json().apiKey).toBe(apiKey);
    const { rows } = await import('kysely').then(({ sql }) =>
      sql<{ key_ciphertext: Buffer }>`select key_ciphertext from operational.budget_api_keys where budget_id = ${id}`.execute(server.app.db),
    );
    expect(rows).toHaveLength(1);
    expect(rows[0]?.key_ciphertext.toString('utf8')).not.toContain(apiKey);
    expectError(await writer.request({ method: 'GET', url: `/api/budget/${id}/api-key` }), 403, 'INSUFFICIENT_PERMISSIONS');
    const common = await createBudget({ type: 'COMMON', name: 'No key' });
    expectError(await admin.request({ method: 'GET', url: `/api/budget/${common}/api-key` }), 422, 'BUDGET_NOT_MONITORING');
    expectError(await admin.request({ method: 'GET', url: `/api/budget/${randomUUID()}/api-key` }), 404, 'BUDGET_NOT_FOUND');
  });

  it('switches sync on and off for IS_ADMIN only, and lists monitoring budgets for the admin view', async () => {
    const sync = (enabled: unknown, client: Client = admin, budget = id) =>
      client.request({ method: 'PUT', url: `/api/admin/budgets/${budget}/sync`, payload: { enabled } });
    expect((await sync(true)).statusCode).toBe(200);
    expect((await find(id, admin))?.syncEnabled).toBe(true);
    expectError(await sync(false, writer), 403, 'INSUFFICIENT_PERMISSIONS');
    expectField(await sync('yes'), 'body.enabled');
    const common = await createBudget({ type: 'COMMON', name: 'No sync' });
    expectError(await sync(true, admin, common), 422, 'BUDGET_NOT_MONITORING');
    expectError(await sync(true, admin, randomUUID()), 404, 'BUDGET_NOT_FOUND');

    const monitoring = (await admin.request({ method: 'GET', url: '/api/admin/budgets?type=MONITORING' })).json();
    expect(monitoring.every((budget: { type: string }) => budget.type === 'MONITORING')).toBe(true);
    expect(monitoring.find((budget: { id: string }) => budget.id === id)).toEqual({
      id,
      name: 'ERP feed renamed',
      type: 'MONITORING',
      documentId,
      documentName: expect.any(String),
      organizationId,
      syncEnabled: true,
      result: { lastExecutionTime: null, status: null },
    });
    const included = (await admin.request({ method: 'GET', url: `/api/admin/budgets?inclusionList=${common},${id}` })).json();
    expect(included.map((budget: { id: string }) => budget.id).sort()).toEqual([common, id].sort());
    expectError(await writer.request({ method: 'GET', url: '/api/admin/budgets' }), 403, 'INSUFFICIENT_PERMISSIONS');
    expectField(await admin.request({ method: 'GET', url: '/api/admin/budgets?type=NOPE' }), 'querystring.type');
    expect((await sync(false)).statusCode).toBe(200);
  });
});

describe('order', () => {
  it('orders budgets by the given values, highest first', async () => {
    const document = await documents.documentWithMaster(organizationId);
    const [x, y, z] = [
      await createBudget({ type: 'COMMON', name: 'X' }, writer, document),
      await createBudget({ type: 'COMMON', name: 'Y' }, writer, document),
      await createBudget({ type: 'COMMON', name: 'Z' }, writer, document),
    ];
    expect((await list(writer, document)).map((budget) => budget.id)).toEqual([x, y, z]);
    const order = (payload: object, client: Client = writer) => client.request({ method: 'PUT', url: `/api/document/${document}/budgets/order`, payload });
    expect(
      (
        await order({
          documentId: document,
          list: [
            { id: z, order: 3 },
            { id: x, order: 2 },
            { id: y, order: 1 },
          ],
        })
      ).statusCode,
    ).toBe(200);
    const ordered = await list(writer, document);
    expect(ordered.map((budget) => budget.id)).toEqual([z, x, y]);
    expect(ordered.map((budget) => budget.order)).toEqual([3, 2, 1]);
    expectField(
      await order({
        list: [
          { id: x, order: 1 },
          { id: x, order: 2 },
        ],
      }),
      'body.list',
    );
    expectField(await order({ list: [] }), 'body.list');
    expectField(await order({ list: [{ id: x, order: 'first' }] }), 'body.list.0.order');
    expectError(await order({ list: [{ id: randomUUID(), order: 1 }] }), 404, 'BUDGET_NOT_FOUND');
    expectError(await order({ list: [{ id: x, order: 1 }] }, reader), 403, 'INSUFFICIENT_PERMISSIONS');
    expectError(await order({ list: [{ id: x, order: 1 }] }, stranger), 404, 'OBJECT_NOT_FOUND');
  });
});

describe('isolation and reading', () => {
  it("hides another organisation's budgets", async () => {
    const id = await createBudget({ type: 'COMMON', name: 'Private' });
    expectError(await stranger.request({ method: 'GET', url: `/api/document/${documentId}/budgets` }), 404, 'OBJECT_NOT_FOUND');
    expectError(await stranger.request({ method: 'GET', url: `/api/document/${documentId}/budgets/hierarchy` }), 404, 'OBJECT_NOT_FOUND');
    expectError(await stranger.request({ method: 'GET', url: `/api/budget/${id}` }), 404, 'BUDGET_NOT_FOUND');
    expectError(await stranger.request({ method: 'GET', url: `/api/organization/${organizationId}/budgets` }), 404, 'OBJECT_NOT_FOUND');
    expectError(await stranger.request({ method: 'GET', url: `/api/budget/${id}/copy-schemes` }), 404, 'BUDGET_NOT_FOUND');
    const own = (await stranger.request({ method: 'GET', url: `/api/organization/${otherOrganizationId}/budgets` })).json();
    expect(own).toEqual([]);
  });

  it('drops the budgets of a deleted document', async () => {
    const document = await documents.documentWithMaster(organizationId);
    const id = await createBudget({ type: 'COMMON', name: 'Doomed' }, writer, document);
    const outcome = await executeCommand(server.app.store, documentDecider, { type: 'DeleteDocument', documentId: document }, actor);
    if (outcome.position) await server.app.projections.waitForPosition(['documents', 'budgets'], outcome.position, 5_000);
    expectError(await writer.request({ method: 'GET', url: `/api/budget/${id}` }), 404, 'BUDGET_NOT_FOUND');
  });

  it("lists the organisation's budgets and reads one budget", async () => {
    const id = await createBudget({ type: 'COMMON', name: 'Readable' });
    const all = (await reader.request({ method: 'GET', url: `/api/organization/${organizationId}/budgets` })).json();
    expect(all.find((budget: { id: string }) => budget.id === id)).toMatchObject({ name: 'Readable', permissions: { read: true, update: false } });
    expect(all.find((budget: { id: string }) => budget.id === id)).not.toHaveProperty('info');
    const one = await reader.request({ method: 'GET', url: `/api/budget/${id}` });
    expect(one.json()).toMatchObject({ id, name: 'Readable' });
    expectField(await reader.request({ method: 'GET', url: `/api/document/${documentId}/budgets?includeMeta=maybe` }), 'querystring.includeMeta');
  });
});

describe('copy from an existing budget', () => {
  const master = randomUUID();
  let document: string;
  let schemeId: string;
  let subBudgetIds: string[];
  let source: string;

  beforeAll(async () => {
    document = await documents.documentWithMaster(organizationId, { masterClassifierId: master });
    schemeId = randomUUID();
    subBudgetIds = [randomUUID(), randomUUID()];
    await executeCommand(
      server.app.store,
      schemeDecider,
      {
        type: 'CreateScheme',
        documentId: document,
        organizationId,
        schemeId,
        documentClassifierIds: [master],
        name: 'Activities',
        fieldName: 'activities',
        description: '',
        classifierList: [{ classifierId: master, type: 'MAIN' }],
      },
      actor,
    );
    const catalogue = {
      masterClassifierId: master,
      classifiers: { [master]: { fieldName: 'activity', items: { '01': { selectable: true }, '02': { selectable: true } } } },
    };
    await executeCommand(
      server.app.store,
      schemeDecider,
      {
        type: 'CreateSubBudget',
        documentId: document,
        schemeId,
        subBudgetId: subBudgetIds[0] as string,
        name: 'Activity 01',
        classifiers: { [master]: '01' },
        catalogue,
      },
      actor,
    );
    await executeCommand(
      server.app.store,
      schemeDecider,
      {
        type: 'CreateSubBudget',
        documentId: document,
        schemeId,
        subBudgetId: subBudgetIds[1] as string,
        name: 'Activity 02',
        classifiers: { [master]: '02' },
        catalogue,
      },
      actor,
    );
    source = await createBudget({ type: 'COMMON', name: 'Source' }, writer, document);
    const outcome = await executeCommand(
      server.app.store,
      schemeDecider,
      { type: 'PinSubBudgets', documentId: document, schemeId, budgetId: source, pinned: [subBudgetIds[0] as string], withRecords: [], confirmed: true },
      actor,
    );
    if (outcome.position) await server.app.projections.waitForPosition(['schemes'], outcome.position, 5_000);
  });

  const copy = (options: object) => ({ sourceBudgetId: source, copyPermissions: false, schemes: [], ...options });

  it('finds the matching schemes and the transferrable sub-budgets', async () => {
    const schemes = await writer.request({ method: 'GET', url: `/api/budget/${source}/copy-schemes?targetDocumentId=${document}` });
    expect(schemes.json()).toEqual([{ schemeId, name: 'Activities', fieldName: 'activities', targetSchemeId: schemeId, pinnedCount: 1 }]);
    expect((await writer.request({ method: 'GET', url: `/api/budget/${source}/copy-schemes?targetDocumentId=${documentId}` })).json()).toEqual([]);
    const transferrable = await writer.request({ method: 'GET', url: `/api/document/${document}/budgets/transferrable-sub-budgets?sourceBudgetId=${source}` });
    expect(transferrable.json()).toEqual([
      { sourceSubBudgetId: subBudgetIds[0], sourceSchemeId: schemeId, name: 'Activity 01', targetSchemeId: schemeId, targetSubBudgetId: subBudgetIds[0] },
    ]);
    expectField(await writer.request({ method: 'GET', url: `/api/document/${document}/budgets/transferrable-sub-budgets` }), 'querystring.sourceBudgetId');
  });

  it('copies pinned sub-budgets into a new common budget', async () => {
    const id = await createBudget(
      {
        type: 'COMMON',
        name: 'Copy',
        copy: copy({ schemes: [{ schemeId, copyPinnedPreselections: true, copySubBudgetPermissions: false, copyComments: false }] }),
      },
      writer,
      document,
    );
    const pins = await import('kysely').then(({ sql }) =>
      sql<{ sub_budget_id: string }>`select sub_budget_id from read.sub_budget_pins where budget_id = ${id}`.execute(server.app.db),
    );
    expect(pins.rows.map((row) => row.sub_budget_id)).toEqual([subBudgetIds[0]]);
  });

  it('copies into another document by scheme field name and sub-budget name, and records the choice', async () => {
    const otherMaster = randomUUID();
    const target = await documents.documentWithMaster(organizationId, { masterClassifierId: otherMaster });
    const targetScheme = randomUUID();
    const targetSubBudget = randomUUID();
    await executeCommand(
      server.app.store,
      schemeDecider,
      {
        type: 'CreateScheme',
        documentId: target,
        organizationId,
        schemeId: targetScheme,
        documentClassifierIds: [otherMaster],
        name: 'Tegevused',
        fieldName: 'Activities',
        description: '',
        classifierList: [{ classifierId: otherMaster, type: 'MAIN' }],
      },
      actor,
    );
    const catalogue = { masterClassifierId: otherMaster, classifiers: { [otherMaster]: { fieldName: 'activity', items: { '01': { selectable: true } } } } };
    const outcome = await executeCommand(
      server.app.store,
      schemeDecider,
      {
        type: 'CreateSubBudget',
        documentId: target,
        schemeId: targetScheme,
        subBudgetId: targetSubBudget,
        name: 'activity 01',
        classifiers: { [otherMaster]: '01' },
        catalogue,
      },
      actor,
    );
    if (outcome.position) await server.app.projections.waitForPosition(['schemes'], outcome.position, 5_000);
    expect((await writer.request({ method: 'GET', url: `/api/budget/${source}/copy-schemes?targetDocumentId=${target}` })).json()).toEqual([
      { schemeId, name: 'Activities', fieldName: 'activities', targetSchemeId: targetScheme, pinnedCount: 1 },
    ]);
    const transferrable = await writer.request({ method: 'GET', url: `/api/document/${target}/budgets/transferrable-sub-budgets?sourceBudgetId=${source}` });
    expect(transferrable.json()).toEqual([
      { sourceSubBudgetId: subBudgetIds[0], sourceSchemeId: schemeId, name: 'Activity 01', targetSchemeId: targetScheme, targetSubBudgetId: targetSubBudget },
    ]);
    const option = { schemeId, copyPinnedPreselections: true, copySubBudgetPermissions: true, copyComments: true };
    // Permissions and comments are copied by their features' steps (stand-ins here, which record what they were given).
    const ran: string[] = [];
    const record = (part: string) => async (context: BudgetCopyContext) => {
      ran.push(`${part}:${context.source.id}->${context.budgetId}:${context.schemeIds.join(',')}`);
    };
    const off = [
      registerBudgetCopyPart('permissions', record('permissions')),
      registerBudgetCopyPart('subBudgetPermissions', record('subBudgetPermissions')),
      registerBudgetCopyPart('comments', record('comments')),
    ];
    let id: string;
    try {
      expect((await admin.request({ method: 'GET', url: '/api/budget-copy/parts' })).json()).toEqual({
        parts: ['permissions', 'pinnedPreselections', 'subBudgetPermissions', 'comments'],
      });
      id = await createBudget({ type: 'COMMON', name: 'Copied across', copy: copy({ copyPermissions: true, schemes: [option] }) }, admin, target);
    } finally {
      for (const unregister of off) unregister();
    }
    expect(ran).toEqual([`permissions:${source}->${id}:`, `subBudgetPermissions:${source}->${id}:${schemeId}`, `comments:${source}->${id}:${schemeId}`]);
    const { sql } = await import('kysely');
    const pins = await sql<{ sub_budget_id: string }>`select sub_budget_id from read.sub_budget_pins where budget_id = ${id}`.execute(server.app.db);
    expect(pins.rows.map((row) => row.sub_budget_id)).toEqual([targetSubBudget]);
    const recorded = await sql<{ copied_from: unknown }>`select copied_from from read.budgets where id = ${id}`.execute(server.app.db);
    expect(recorded.rows[0]?.copied_from).toEqual({ sourceBudgetId: source, copyPermissions: true, schemes: [option] });
  });

  it('validates the copy choices', async () => {
    expectError(await create({ type: 'COMMON', name: 'Nothing', copy: copy({}) }, writer, document), 422, 'BUDGET_COPY_INVALID_SCHEME_PARAMETERS');
    expectError(
      await create(
        { type: 'COMMON', name: 'Unknown scheme', copy: copy({ schemes: [{ schemeId: randomUUID(), copyPinnedPreselections: true }] }) },
        writer,
        document,
      ),
      422,
      'BUDGET_COPY_INVALID_SCHEME_PARAMETERS',
    );
    expectError(
      await create({ type: 'MONITORING', name: 'Monitoring copy', copy: copy({ schemes: [{ schemeId, copyComments: true }] }) }, writer, document),
      422,
      'BUDGET_COPY_INVALID_SCHEME_PARAMETERS',
    );
    expectField(
      await create({ type: 'SUM_BUDGET', name: 'Sum copy', sumBudgetComponentIds: [source], copy: copy({ copyPermissions: true }) }, admin, document),
      'body.copy',
    );
    expectError(
      await create({ type: 'COMMON', name: 'Missing source', copy: copy({ sourceBudgetId: randomUUID(), copyPermissions: true }) }, admin, document),
      404,
      'BUDGET_NOT_FOUND',
    );
    // Copying permissions needs USER_ADMIN (the writer has USER_VIEW only).
    expectError(
      await create({ type: 'COMMON', name: 'Permissions', copy: copy({ copyPermissions: true }) }, writer, document),
      403,
      'INSUFFICIENT_PERMISSIONS',
    );
    // Parts whose feature is not there yet are refused before anything is created.
    expect((await writer.request({ method: 'GET', url: '/api/budget-copy/parts' })).json()).toEqual({
      parts: ['permissions', 'pinnedPreselections', 'subBudgetPermissions'],
    });
    const before = (await list(admin, document)).length;
    const refused = await create(
      { type: 'COMMON', name: 'Permissions and comments copy', copy: copy({ copyPermissions: true, schemes: [{ schemeId, copyComments: true }] }) },
      admin,
      document,
    );
    expectError(refused, 422, 'COPY_PART_NOT_AVAILABLE');
    expect(refused.json().details).toEqual([{ path: 'body.copy.schemes.0.copyComments', message: 'copyPartUnavailable' }]);
    expectError(
      await create({ type: 'COMMON', name: 'Comments copy', copy: copy({ schemes: [{ schemeId, copyComments: true }] }) }, writer, document),
      422,
      'COPY_PART_NOT_AVAILABLE',
    );
    expect((await list(admin, document)).length).toBe(before);
  });
});
