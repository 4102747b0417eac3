import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { schemesFixture } from '@eelarve/testing/schemes';
import type { TestServer } from '@eelarve/testing/server';
import type { Client } from './helpers';
import { schemesWorld } from './schemes-world';

let server: TestServer;
let admin: Client;
let fixture: ReturnType<typeof schemesFixture>;
let organizationId: string;
/** SCHEMA_ADMIN in the organisation. */
let schemaAdmin: Client;
let schemaViewer: Client;
/** SCHEMA_ADMIN in another organisation. */
let outsider: Client;

beforeAll(async () => {
  ({ server, admin, fixture, organizationId, schemaAdmin, schemaViewer, outsider } = await schemesWorld('Pärnu Linnavalitsus', 'Rakvere Linnavalitsus'));
});
afterAll(async () => server?.close());

function expectError(response: { statusCode: number; body: string; json(): { code: string } }, status: number, code: string) {
  expect({ status: response.statusCode, code: response.json().code }, response.body).toEqual({ status, code });
}

async function created(response: { statusCode: number; body: string; json(): { id: string } }): Promise<string> {
  expect(response.statusCode, response.body).toBe(201);
  return response.json().id;
}

/** A document with a master classifier `kind` (01, 02, 03, unselectable 0) and an optional `source` (A, B), and a scheme using both. */
async function setup(options: { master?: boolean } = {}) {
  const documentId = await fixture.document(organizationId);
  const kind = await fixture.classifier(documentId, organizationId, 'tegevusala', { '0': true, '01': false, '02': false, '03': false });
  const source = await fixture.classifier(documentId, organizationId, 'allikas', { A: false, B: false }, false);
  const other = await fixture.classifier(documentId, organizationId, 'konto', { '4500': false, '5500': false }, false);
  if (options.master ?? true) await fixture.setMaster(documentId, kind);
  const schemeId = await created(
    await schemaAdmin.request({
      method: 'POST',
      url: `/api/document/${documentId}/schema`,
      payload: {
        name: 'Kulud',
        classifierList: [
          { classifierId: kind, type: 'MAIN' },
          { classifierId: source, type: 'SECONDARY' },
        ],
      },
    }),
  );
  return { documentId, kind, source, other, schemeId };
}

const createSubBudget = (schemeId: string, payload: object, client: Client = schemaAdmin) =>
  client.request({ method: 'POST', url: `/api/schema/${schemeId}/sub-budget`, payload });
const importRows = (schemeId: string, importType: string, list: object[], client: Client = schemaAdmin) =>
  client.request({ method: 'POST', url: `/api/schema/${schemeId}/sub-budgets/import`, payload: { importType, list } });

type SubBudgetRow = { id: string; name: string; classifiers: Record<string, string>; pinned: boolean; hasRecords: boolean; budgetId: string | null };
async function subBudgets(schemeId: string, client: Client = schemaAdmin): Promise<SubBudgetRow[]> {
  const response = await client.request({ method: 'GET', url: `/api/schema/${schemeId}/sub-budgets` });
  expect(response.statusCode, response.body).toBe(200);
  return response.json();
}

describe('sub-budgets: create, update, delete', () => {
  it('creates sub-budgets the next read shows, sorted by name', async () => {
    const { schemeId, kind, source, documentId } = await setup();
    const second = await created(await createSubBudget(schemeId, { name: 'Sotsiaal', classifiers: { [kind]: '02' } }));
    const first = await created(await createSubBudget(schemeId, { name: ' Haridus ', classifiers: { [kind]: '01', [source]: 'A' } }));
    expect(await subBudgets(schemeId)).toEqual([
      {
        id: first,
        name: 'Haridus',
        schemaId: schemeId,
        documentId,
        budgetId: null,
        classifiers: { [kind]: '01', [source]: 'A' },
        pinned: false,
        hasRecords: false,
        recordsCount: 0,
        attachmentsCount: 0,
        hasComments: false,
      },
      expect.objectContaining({ id: second, name: 'Sotsiaal', classifiers: { [kind]: '02' } }),
    ]);
    const counts = await schemaAdmin.request({ method: 'GET', url: `/api/schema/${schemeId}/sub-budget-counts` });
    expect(counts.json()).toEqual({ total: 2, pinnedByBudget: {} });
    const hasRecords = await schemaViewer.request({ method: 'GET', url: `/api/sub-budget/${first}/has-records` });
    expect(hasRecords.json()).toEqual({ hasRecords: false, recordsCount: 0 });
  });

  it('keeps classifier value combinations unique within the scheme', async () => {
    const { schemeId, kind, source } = await setup();
    await created(await createSubBudget(schemeId, { name: 'Üks', classifiers: { [kind]: '01' } }));
    const duplicate = await createSubBudget(schemeId, { name: 'Kaks', classifiers: { [kind]: '01' } });
    expectError(duplicate, 409, 'SUB_BUDGET_NOT_UNIQUE');
    expect(duplicate.json().message).toBe('classifierValuesMustBeUnique');
    // Another secondary value is another combination; field names work as keys too.
    await created(await createSubBudget(schemeId, { name: 'Kolm', classifiers: { tegevusala: '01', [source]: 'A' } }));
  });

  it('holds uniqueness under concurrent requests', async () => {
    const { schemeId, kind } = await setup();
    const responses = await Promise.all(
      Array.from({ length: 5 }, (_, index) => createSubBudget(schemeId, { name: `Samaaegne ${index}`, classifiers: { [kind]: '03' } })),
    );
    expect(responses.filter((response) => response.statusCode === 201)).toHaveLength(1);
    for (const response of responses.filter((candidate) => candidate.statusCode !== 201))
      expect(['SUB_BUDGET_NOT_UNIQUE', 'CONCURRENT_MODIFICATION']).toContain(response.json().code);
    expect(await subBudgets(schemeId)).toHaveLength(1);
  });

  it('requires the main classifier values and existing selectable items', async () => {
    const { schemeId, kind, source, other } = await setup();
    const missing = await createSubBudget(schemeId, { name: 'Ilma', classifiers: { [source]: 'A' } });
    expectError(missing, 422, 'MAIN_CLASSIFIER_NOT_SELECTED');
    expect(missing.json().details).toEqual([{ path: `body.classifiers.${kind}`, message: 'mainClassifierNotSelected' }]);
    const unknown = await createSubBudget(schemeId, { name: 'Tundmatu', classifiers: { [kind]: '99' } });
    expectError(unknown, 422, 'SUB_BUDGET_CLASSIFIER_VALUE_INVALID');
    expect(unknown.json().details).toEqual([{ path: `body.classifiers.${kind}`, message: 'referenceItemNotFound' }]);
    expect((await createSubBudget(schemeId, { name: 'Valimatu', classifiers: { [kind]: '0' } })).json().message).toBe('referenceItemUnselectable');
    expectError(
      await createSubBudget(schemeId, { name: 'Väljas', classifiers: { [kind]: '01', [other]: '4500' } }),
      422,
      'SUB_BUDGET_CLASSIFIER_VALUE_INVALID',
    );
  });

  it('answers 400 with field paths for a bad body', async () => {
    const { schemeId } = await setup();
    const response = await createSubBudget(schemeId, { name: ' ', classifiers: { 'not-a-uuid': 5 } });
    expectError(response, 400, 'SCHEMA_VALIDATION_ERROR');
    expect(response.json().details.map((issue: { path: string }) => issue.path)).toEqual(expect.arrayContaining(['body.name']));
    expectError(
      await schemaAdmin.request({ method: 'DELETE', url: `/api/schema/${schemeId}/sub-budgets`, payload: { ids: [] } }),
      400,
      'SCHEMA_VALIDATION_ERROR',
    );
  });

  it('needs a master classifier and a scheme with classifiers', async () => {
    const withoutMaster = await setup({ master: false });
    expectError(
      await createSubBudget(withoutMaster.schemeId, { name: 'X', classifiers: { [withoutMaster.kind]: '01' } }),
      422,
      'DOCUMENT_MISSING_MASTER_CLASSIFIER',
    );
    const { documentId } = await setup();
    const empty = await created(await schemaAdmin.request({ method: 'POST', url: `/api/document/${documentId}/schema`, payload: { name: 'Tühi' } }));
    expectError(await createSubBudget(empty, { name: 'X', classifiers: {} }), 422, 'SCHEME_HAS_NO_CLASSIFIERS');
    expectError(await createSubBudget(crypto.randomUUID(), { name: 'X', classifiers: {} }), 404, 'SCHEME_NOT_FOUND');
  });

  it('refuses sub-budgets while a classifier of the scheme is missing', async () => {
    const { documentId, kind } = await setup();
    const gone = await fixture.classifier(documentId, organizationId, 'kadunud', {}, false);
    const schemeId = await created(
      await schemaAdmin.request({
        method: 'POST',
        url: `/api/document/${documentId}/schema`,
        payload: {
          name: 'Kadunuga',
          classifierList: [
            { classifierId: kind, type: 'MAIN' },
            { classifierId: gone, type: 'SECONDARY' },
          ],
        },
      }),
    );
    await fixture.deleteClassifier(gone);
    expectError(await createSubBudget(schemeId, { name: 'X', classifiers: { [kind]: '01' } }), 422, 'CLASSIFIER_MISSING');
  });

  it("updates a sub-budget, refusing another's combination", async () => {
    const { schemeId, kind } = await setup();
    const first = await created(await createSubBudget(schemeId, { name: 'Üks', classifiers: { [kind]: '01' } }));
    await created(await createSubBudget(schemeId, { name: 'Kaks', classifiers: { [kind]: '02' } }));
    const update = (payload: object) => schemaAdmin.request({ method: 'PUT', url: `/api/schema/${schemeId}/sub-budget/${first}`, payload });
    expectError(await update({ name: 'Üks', classifiers: { [kind]: '02' } }), 409, 'SUB_BUDGET_NOT_UNIQUE');
    expect((await update({ name: 'Esimene', classifiers: { [kind]: '03' } })).statusCode).toBe(200);
    expect((await subBudgets(schemeId)).find((row) => row.id === first)).toMatchObject({ name: 'Esimene', classifiers: { [kind]: '03' } });
    expectError(
      await schemaAdmin.request({
        method: 'PUT',
        url: `/api/schema/${schemeId}/sub-budget/${crypto.randomUUID()}`,
        payload: { name: 'X', classifiers: { [kind]: '01' } },
      }),
      404,
      'SUB_BUDGET_NOT_FOUND',
    );
  });

  it('deletes one or several sub-budgets; their combination is free again', async () => {
    const { schemeId, kind } = await setup();
    const ids = [];
    for (const code of ['01', '02', '03']) ids.push(await created(await createSubBudget(schemeId, { name: code, classifiers: { [kind]: code } })));
    expect((await schemaAdmin.request({ method: 'DELETE', url: `/api/schema/${schemeId}/sub-budget/${ids[0]}` })).statusCode).toBe(200);
    expect((await schemaAdmin.request({ method: 'DELETE', url: `/api/schema/${schemeId}/sub-budgets`, payload: { ids: [ids[1], ids[2]] } })).statusCode).toBe(
      200,
    );
    expect(await subBudgets(schemeId)).toEqual([]);
    await created(await createSubBudget(schemeId, { name: 'Uuesti', classifiers: { [kind]: '01' } }));
    expectError(
      await schemaAdmin.request({ method: 'DELETE', url: `/api/schema/${schemeId}/sub-budgets`, payload: { ids: [ids[0]] } }),
      404,
      'SUB_BUDGET_NOT_FOUND',
    );
  });
});

describe('read models', () => {
  it("drops a deleted budget's pins", async () => {
    const { schemeId, kind, documentId } = await setup();
    const budgetId = await fixture.budget(documentId, organizationId);
    const id = await created(await createSubBudget(schemeId, { name: 'Kinnitatud', classifiers: { [kind]: '01' } }));
    expect((await admin.request({ method: 'PUT', url: `/api/budget/${budgetId}/schema/${schemeId}/settings`, payload: { pinned: [id] } })).statusCode).toBe(
      200,
    );
    await fixture.deleteBudget(budgetId);
    expect((await schemaAdmin.request({ method: 'GET', url: `/api/schema/${schemeId}/sub-budget-counts` })).json()).toEqual({ total: 1, pinnedByBudget: {} });
  });

  it("drops a deleted document's schemes, sub-budgets and pins", async () => {
    const { schemeId, kind, documentId } = await setup();
    const budgetId = await fixture.budget(documentId, organizationId);
    const id = await created(await createSubBudget(schemeId, { name: 'Lahkuv', classifiers: { [kind]: '01' } }));
    expect((await admin.request({ method: 'PUT', url: `/api/budget/${budgetId}/schema/${schemeId}/settings`, payload: { pinned: [id] } })).statusCode).toBe(
      200,
    );
    await fixture.deleteDocument(documentId);
    const db = server.app.db.withSchema('read');
    for (const table of ['schemes', 'scheme_classifiers', 'sub_budgets', 'sub_budget_values', 'sub_budget_pins'] as const) {
      expect(await db.selectFrom(table).select('document_id').where('document_id', '=', documentId).execute()).toEqual([]);
    }
    expectError(await schemaAdmin.request({ method: 'GET', url: `/api/schema/${schemeId}/sub-budgets` }), 404, 'SCHEME_NOT_FOUND');
  });
});

describe('classifier preselections', () => {
  it('sets and reads preselections of existing items', async () => {
    const { schemeId, kind, other } = await setup();
    const id = await created(await createSubBudget(schemeId, { name: 'Haridus', classifiers: { [kind]: '01' } }));
    const put = (preselections: object) =>
      schemaAdmin.request({ method: 'PUT', url: `/api/sub-budget/${id}/classifier-preselections`, payload: { preselections } });
    expect((await put({ [other]: ['4500', '4500', '5500'] })).statusCode).toBe(200);
    expect((await schemaViewer.request({ method: 'GET', url: `/api/sub-budget/${id}/classifier-preselections` })).json()).toEqual({
      subBudgetId: id,
      preselections: { [other]: ['4500', '5500'] },
    });
    expect((await schemaViewer.request({ method: 'GET', url: `/api/schema/${schemeId}/classifier-preselections` })).json()).toEqual([
      { subBudgetId: id, preselections: { [other]: ['4500', '5500'] } },
    ]);
    const bad = await put({ [other]: ['9999'] });
    expectError(bad, 422, 'SUB_BUDGET_CLASSIFIER_VALUE_INVALID');
    expect(bad.json().details).toEqual([{ path: `body.preselections.${other}.0`, message: 'referenceItemNotFound' }]);
    expectError(
      await schemaViewer.request({ method: 'PUT', url: `/api/sub-budget/${id}/classifier-preselections`, payload: { preselections: {} } }),
      403,
      'INSUFFICIENT_PERMISSIONS',
    );
  });
});

describe('sub-budget import', () => {
  it('imports sub-budgets with preselections, cutting long names', async () => {
    const { schemeId, kind, source, other } = await setup();
    const response = await importRows(schemeId, 'SUB_BUDGETS_WITH_PRESELECTIONS', [
      { name: 'x'.repeat(300), classifiers: { tegevusala: '01', allikas: 'A' }, preselections: { [other]: ['4500'] } },
      { name: 'Teine', classifiers: { [kind]: '02', [source]: null } },
    ]);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json().imported).toBe(2);
    const rows = await subBudgets(schemeId);
    expect(rows.map((row) => row.name.length).sort()).toEqual([256, 5]);
    const preselections = (await schemaAdmin.request({ method: 'GET', url: `/api/schema/${schemeId}/classifier-preselections` })).json();
    expect(preselections).toContainEqual({ subBudgetId: rows.find((row) => row.name.length === 256)!.id, preselections: { [other]: ['4500'] } });
  });

  it('imports nothing when any row has errors, and reports every row', async () => {
    const { schemeId, kind } = await setup();
    await created(await createSubBudget(schemeId, { name: 'Olemas', classifiers: { [kind]: '01' } }));
    const response = await importRows(schemeId, 'SUB_BUDGETS_WITH_PRESELECTIONS', [
      { name: 'Korras', classifiers: { [kind]: '03' } },
      { name: 'Olemas', classifiers: { [kind]: '01' } },
      { name: 'Uus', classifiers: { [kind]: '02' } },
      { name: 'Kordus', classifiers: { [kind]: '02' } },
      { name: '', classifiers: { [kind]: '0' } },
    ]);
    expectError(response, 422, 'SUB_BUDGET_IMPORT_INVALID');
    expect(response.json().details).toEqual([
      { row: 1, errors: [{ path: 'classifiers', message: 'subBudgetExists' }] },
      { row: 3, errors: [{ path: 'classifiers', message: 'classifierValuesMustBeUnique' }] },
      {
        row: 4,
        errors: [
          { path: 'name', message: 'validation.required' },
          { path: `classifiers.${kind}`, message: 'referenceItemUnselectable' },
        ],
      },
    ]);
    expect((await subBudgets(schemeId)).map((row) => row.name)).toEqual(['Olemas']);
  });

  it('imports preselections of existing sub-budgets only', async () => {
    const { schemeId, kind, other } = await setup();
    const id = await created(await createSubBudget(schemeId, { name: 'Olemas', classifiers: { [kind]: '01' } }));
    const missing = await importRows(schemeId, 'PRESELECTIONS_ONLY', [
      { classifiers: { [kind]: '01' }, preselections: { [other]: ['5500'] } },
      { classifiers: { [kind]: '02' }, preselections: { [other]: ['5500'] } },
    ]);
    expectError(missing, 422, 'SUB_BUDGET_IMPORT_INVALID');
    expect(missing.json().details).toEqual([{ row: 1, errors: [{ path: 'classifiers', message: 'subBudgetNotFound' }] }]);
    const ok = await importRows(schemeId, 'PRESELECTIONS_ONLY', [{ classifiers: { [kind]: '01' }, preselections: { [other]: ['5500'] } }]);
    expect(ok.json()).toMatchObject({ imported: 1 });
    expect((await schemaAdmin.request({ method: 'GET', url: `/api/sub-budget/${id}/classifier-preselections` })).json().preselections).toEqual({
      [other]: ['5500'],
    });
  });

  it('imports a large file in one go', async () => {
    const documentId = await fixture.document(organizationId);
    const codes = Array.from({ length: 2_000 }, (_, index) => `K${index}`);
    const kind = await fixture.classifier(documentId, organizationId, 'konto', {});
    await fixture.items(kind, codes);
    await fixture.setMaster(documentId, kind);
    const schemeId = await created(
      await schemaAdmin.request({
        method: 'POST',
        url: `/api/document/${documentId}/schema`,
        payload: { name: 'Suur', classifierList: [{ classifierId: kind, type: 'MAIN' }] },
      }),
    );
    const started = Date.now();
    const response = await importRows(
      schemeId,
      'SUB_BUDGETS_WITH_PRESELECTIONS',
      codes.map((code) => ({ name: `Alameelarve ${code}`, classifiers: { konto: code } })),
    );
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json().imported).toBe(2_000);
    expect(Date.now() - started).toBeLessThan(15_000);
    expect((await schemaAdmin.request({ method: 'GET', url: `/api/schema/${schemeId}/sub-budget-counts` })).json().total).toBe(2_000);
    // The stream of 2,000 sub-budgets still answers a single command at once.
    const duplicate = await createSubBudget(schemeId, { name: 'Veel üks', classifiers: { konto: 'K1999' } });
    expectError(duplicate, 409, 'SUB_BUDGET_NOT_UNIQUE');
  }, 60_000);

  it('answers 400 for a bad import type or an empty list', async () => {
    const { schemeId } = await setup();
    const response = await importRows(schemeId, 'EVERYTHING', []);
    expectError(response, 400, 'SCHEMA_VALIDATION_ERROR');
    expect(response.json().details.map((issue: { path: string }) => issue.path)).toEqual(expect.arrayContaining(['body.importType', 'body.list']));
  });
});

describe('budgets: sub-budgets and pinning', () => {
  it("pins sub-budgets of a common budget; the budget's view shows them", async () => {
    const { schemeId, kind, documentId } = await setup();
    const budgetId = await fixture.budget(documentId, organizationId);
    const first = await created(await createSubBudget(schemeId, { name: 'Üks', classifiers: { [kind]: '01' } }));
    await created(await createSubBudget(schemeId, { name: 'Kaks', classifiers: { [kind]: '02' } }));
    const pin = (pinned: string[], client: Client = admin) =>
      client.request({ method: 'PUT', url: `/api/budget/${budgetId}/schema/${schemeId}/settings`, payload: { pinned } });
    expect((await pin([first])).statusCode).toBe(200);
    const view = (await admin.request({ method: 'GET', url: `/api/budget/${budgetId}/schema/${schemeId}/sub-budgets` })).json();
    expect(view.map((row: SubBudgetRow) => [row.name, row.pinned, row.budgetId])).toEqual([
      ['Kaks', false, budgetId],
      ['Üks', true, budgetId],
    ]);
    expect((await schemaAdmin.request({ method: 'GET', url: `/api/schema/${schemeId}/sub-budget-counts` })).json()).toEqual({
      total: 2,
      pinnedByBudget: { [budgetId]: 1 },
    });
    // The budget itself names its pinned sub-budgets and its schemes.
    expect((await admin.request({ method: 'GET', url: `/api/budget/${budgetId}` })).json()).toMatchObject({
      pinnedSubBudgetIds: [first],
      schemaIds: [schemeId],
      childrenIds: [],
    });
    expectError(await pin([crypto.randomUUID()]), 404, 'SUB_BUDGET_NOT_FOUND');
    // Writing to the budget is needed: a schema administrator without budget write may not pin.
    expectError(await pin([first], schemaAdmin), 403, 'INSUFFICIENT_PERMISSIONS');
    expect((await pin([])).statusCode).toBe(200);
  });

  it('refuses a scheme of another document and budgets that are not common', async () => {
    const { schemeId, documentId } = await setup();
    const elsewhere = await setup();
    const budgetId = await fixture.budget(documentId, organizationId);
    expectError(await admin.request({ method: 'GET', url: `/api/budget/${budgetId}/schema/${elsewhere.schemeId}/sub-budgets` }), 404, 'SCHEME_NOT_FOUND');
    const monitoring = await fixture.budget(documentId, organizationId, 'MONITORING');
    expectError(await admin.request({ method: 'GET', url: `/api/budget/${monitoring}/schema/${schemeId}/sub-budgets` }), 404, 'OBJECT_NOT_FOUND');
    expectError(await admin.request({ method: 'GET', url: `/api/budget/${crypto.randomUUID()}/schema/${schemeId}/sub-budgets` }), 404, 'BUDGET_NOT_FOUND');
  });
});

describe('sub-budgets: access and isolation', () => {
  it('needs SCHEMA_ADMIN to edit', async () => {
    const { schemeId, kind } = await setup();
    expectError(await createSubBudget(schemeId, { name: 'X', classifiers: { [kind]: '01' } }, schemaViewer), 403, 'INSUFFICIENT_PERMISSIONS');
    expectError(await importRows(schemeId, 'PRESELECTIONS_ONLY', [{}], schemaViewer), 403, 'INSUFFICIENT_PERMISSIONS');
    expect(await subBudgets(schemeId, schemaViewer)).toEqual([]);
  });

  it("hides another organisation's schemes and sub-budgets (404)", async () => {
    const { schemeId, kind, documentId } = await setup();
    const id = await created(await createSubBudget(schemeId, { name: 'Oma', classifiers: { [kind]: '01' } }));
    const budgetId = await fixture.budget(documentId, organizationId);
    const calls = [
      { method: 'GET', url: `/api/schema/${schemeId}/sub-budgets`, code: 'SCHEME_NOT_FOUND' },
      { method: 'GET', url: `/api/schema/${schemeId}/sub-budget-counts`, code: 'SCHEME_NOT_FOUND' },
      { method: 'GET', url: `/api/schema/${schemeId}/classifier-preselections`, code: 'SCHEME_NOT_FOUND' },
      { method: 'POST', url: `/api/schema/${schemeId}/sub-budget`, payload: { name: 'X', classifiers: { [kind]: '02' } }, code: 'SCHEME_NOT_FOUND' },
      { method: 'PUT', url: `/api/schema/${schemeId}/sub-budget/${id}`, payload: { name: 'X', classifiers: { [kind]: '02' } }, code: 'SCHEME_NOT_FOUND' },
      { method: 'DELETE', url: `/api/schema/${schemeId}/sub-budget/${id}`, code: 'SCHEME_NOT_FOUND' },
      { method: 'DELETE', url: `/api/schema/${schemeId}/sub-budgets`, payload: { ids: [id] }, code: 'SCHEME_NOT_FOUND' },
      {
        method: 'POST',
        url: `/api/schema/${schemeId}/sub-budgets/import`,
        payload: { importType: 'PRESELECTIONS_ONLY', list: [{}] },
        code: 'SCHEME_NOT_FOUND',
      },
      { method: 'GET', url: `/api/sub-budget/${id}/classifier-preselections`, code: 'SUB_BUDGET_NOT_FOUND' },
      { method: 'PUT', url: `/api/sub-budget/${id}/classifier-preselections`, payload: { preselections: {} }, code: 'SUB_BUDGET_NOT_FOUND' },
      { method: 'GET', url: `/api/sub-budget/${id}/has-records`, code: 'SUB_BUDGET_NOT_FOUND' },
      { method: 'GET', url: `/api/budget/${budgetId}/schema/${schemeId}/sub-budgets`, code: 'BUDGET_NOT_FOUND' },
      { method: 'PUT', url: `/api/budget/${budgetId}/schema/${schemeId}/settings`, payload: { pinned: [id] }, code: 'BUDGET_NOT_FOUND' },
    ] as const;
    for (const { code, ...call } of calls) expectError(await outsider.request(call), 404, code);
    expect((await subBudgets(schemeId)).map((row) => row.name)).toEqual(['Oma']);
  });
});
