import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { itemsWorkbook } from '../src/features/classifiers/files';
import { schemesFixture } from '@eelarve/testing/schemes';
import { accountsFixture, PASSWORD } from '@eelarve/testing/accounts';
import { startTestServer, type TestServer } from '@eelarve/testing/server';
import { type Client, login } from './helpers';

let server: TestServer;
let admin: Client;
let accounts: ReturnType<typeof accountsFixture>;
let documents: ReturnType<typeof schemesFixture>;
let organizationId: string;
let documentId: string;
/** CLASSIFICATION_ADMIN in the organisation. */
let editor: Client;
/** CLASSIFICATION_VIEW only. */
let viewer: Client;
/** DATA_VIEW only. */
let clerk: Client;
let clerkOccupationId: string;
/** CLASSIFICATION_ADMIN in another organisation. */
let outsider: Client;

beforeAll(async () => {
  server = await startTestServer({ listen: false });
  admin = await login(server.app, server.admin.email, server.admin.password);
  accounts = accountsFixture(server.app, admin);
  documents = schemesFixture(server.app);
  organizationId = await accounts.organization('Rakvere Linnavalitsus');
  // Each reads the organisation's documents (a read grant on the organisation); privileges decide the rest.
  const readerWith = async (privileges: string[]) => {
    const member = await accounts.member(organizationId, privileges);
    await accounts.grant(member.occupationId, [{ read: true }]);
    return member;
  };
  editor = await login(server.app, (await readerWith(['CLASSIFICATION_ADMIN'])).email, PASSWORD);
  viewer = await login(server.app, (await readerWith(['CLASSIFICATION_VIEW'])).email, PASSWORD);
  const clerkMember = await readerWith(['DATA_VIEW']);
  clerkOccupationId = clerkMember.occupationId;
  clerk = await login(server.app, clerkMember.email, PASSWORD);
  const other = await accounts.organization('Valga Vallavalitsus');
  outsider = await login(server.app, (await accounts.member(other, ['CLASSIFICATION_ADMIN'])).email, PASSWORD);
  documentId = await documents.document(organizationId);
});
afterAll(async () => server?.close());

// biome-ignore lint/suspicious/noExplicitAny: response bodies are checked by value in the assertions.
type Json = any;
type Response = { statusCode: number; body: string; json(): Json };

function expectError(response: Response, status: number, code: string) {
  expect({ status: response.statusCode, code: response.json().code }, response.body).toEqual({ status, code });
}

async function created(response: Response): Promise<string> {
  expect(response.statusCode, response.body).toBe(201);
  return response.json().id;
}

function ok(response: Response) {
  expect(response.statusCode, response.body).toBe(200);
  return response.json();
}

let counter = 0;
const classifierPayload = (overrides: Record<string, unknown> = {}) => {
  counter += 1;
  return {
    name: `Klassifikaator ${counter}`,
    itemName: `Element ${counter}`,
    fieldName: `field_${counter}`,
    description: '',
    codeSettings: { typeName: 'Code', minLength: 1, maxLength: 20, hierarchical: false },
    ...overrides,
  };
};

const createClassifier = (payload: object, client: Client = editor, document = documentId) =>
  client.request({ method: 'POST', url: `/api/document/${document}/classifier`, payload });
const updateClassifier = (id: string, payload: object, client: Client = editor) => client.request({ method: 'PUT', url: `/api/classifier/${id}`, payload });
const deleteClassifier = (id: string, client: Client = editor) => client.request({ method: 'DELETE', url: `/api/classifier/${id}` });
const addItem = (classifierId: string, payload: object, client: Client = editor) =>
  client.request({ method: 'POST', url: `/api/classifier/${classifierId}/item`, payload });
const updateItem = (classifierId: string, id: string, payload: object) =>
  editor.request({ method: 'PUT', url: `/api/classifier/${classifierId}/item/${id}`, payload });
const deleteItem = (classifierId: string, id: string) => editor.request({ method: 'DELETE', url: `/api/classifier/${classifierId}/item/${id}` });
const importItems = (classifierId: string, payload: object) => editor.request({ method: 'POST', url: `/api/classifier/${classifierId}/items`, payload });

async function classifiers(document = documentId, client: Client = editor, includeMeta = false): Promise<Json[]> {
  return ok(await client.request({ method: 'GET', url: `/api/document/${document}/classifiers?includeMeta=${includeMeta}` }));
}
const classifierById = async (id: string) => (await classifiers()).find((row) => row.id === id);
async function items(classifierId: string, includeMeta = false): Promise<Json[]> {
  return ok(await editor.request({ method: 'GET', url: `/api/classifier/${classifierId}/items?includeMeta=${includeMeta}` }));
}
const item = (code: string, overrides: Record<string, unknown> = {}) => ({ code, name: `Nimi ${code}`, ...overrides });

async function newClassifier(overrides: Record<string, unknown> = {}, codes: string[] = []): Promise<{ id: string; payload: Json; itemIds: string[] }> {
  const payload = classifierPayload(overrides);
  const id = await created(await createClassifier(payload));
  const itemIds: string[] = [];
  for (const code of codes) itemIds.push(await created(await addItem(id, item(code))));
  return { id, payload, itemIds };
}

function multipart(filename: string, content: Buffer | string, contentType: string) {
  const boundary = `----eelarve${randomUUID()}`;
  const head = Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\nContent-Type: ${contentType}\r\n\r\n`);
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  return {
    payload: Buffer.concat([head, Buffer.isBuffer(content) ? content : Buffer.from(content, 'utf8'), tail]),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  };
}
const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
const validate = (classifierId: string, filename: string, content: Buffer | string, type = XLSX, client: Client = editor) =>
  client.request({ method: 'POST', url: `/api/classifier/${classifierId}/items/validate`, ...multipart(filename, content, type) });

describe('classifiers: create, read, update, access', () => {
  it('creates a classifier with every field of spec 2 section 3 and completes the code settings', async () => {
    const payload = classifierPayload({
      description: 'Kulude liigid',
      displayMode: 'CODE',
      required: true,
      codeSettings: { typeName: 'Number', minLength: 2, maxLength: 6, hierarchical: true },
    });
    const id = await created(await createClassifier(payload));
    expect(await classifierById(id)).toEqual({
      id,
      documentId,
      name: payload.name,
      itemName: payload.itemName,
      fieldName: payload.fieldName,
      description: 'Kulude liigid',
      required: true,
      itemCanChangeSign: false,
      primary: false,
      groupingId: null,
      groupedByIds: [],
      primaryGroupedById: null,
      displayOrder: expect.any(Number),
      displayMode: 'CODE',
      isInUseSchema: false,
      master: false,
      codeSettings: { typeName: 'Number', typeRegex: '^[0-9]+$', regexFlag: '', minLength: 2, maxLength: 6, hierarchical: true, ranking: 1 },
    });
    const withMeta = (await classifiers(documentId, editor, true)).find((row) => row.id === id);
    expect(withMeta.itemsCount).toBe(0);
  });

  it('lets viewers read but not edit; others get 403, other organisations 404', async () => {
    const { id } = await newClassifier();
    expect((await classifiers(documentId, viewer)).some((row) => row.id === id)).toBe(true);
    expectError(await createClassifier(classifierPayload(), viewer), 403, 'INSUFFICIENT_PERMISSIONS');
    expectError(await updateClassifier(id, classifierPayload(), viewer), 403, 'INSUFFICIENT_PERMISSIONS');
    expectError(await addItem(id, item('A'), viewer), 403, 'INSUFFICIENT_PERMISSIONS');
    expectError(await clerk.request({ method: 'GET', url: `/api/document/${documentId}/classifiers` }), 403, 'INSUFFICIENT_PERMISSIONS');
    expectError(await outsider.request({ method: 'GET', url: `/api/document/${documentId}/classifiers` }), 404, 'OBJECT_NOT_FOUND');
    expectError(await outsider.request({ method: 'GET', url: `/api/classifier/${id}/items` }), 404, 'CLASSIFIER_NOT_FOUND');
    expectError(await createClassifier(classifierPayload(), outsider), 404, 'OBJECT_NOT_FOUND');
    expectError(await deleteClassifier(id, outsider), 404, 'CLASSIFIER_NOT_FOUND');
  });

  it('lists the classifiers to whoever may update the document, for choosing its master classifier', async () => {
    const { id } = await newClassifier();
    // Document update granted to the clerk, without any classifier privilege.
    await accounts.grant(clerkOccupationId, [{ documentId, update: true }]);
    try {
      const listed = ok(await clerk.request({ method: 'GET', url: `/api/document/${documentId}/classifiers` }));
      expect(listed.some((row: { id: string }) => row.id === id)).toBe(true);
      // Listing is all it gives: the classifiers themselves stay closed.
      expectError(await clerk.request({ method: 'GET', url: `/api/classifier/${id}/items` }), 403, 'INSUFFICIENT_PERMISSIONS');
    } finally {
      await accounts.grant(clerkOccupationId, [{ documentId, read: true, update: false }]);
    }
  });

  it('requires name, item name and a valid field name', async () => {
    for (const fieldName of ['1field', 'väli', 'with space', 'dash-name', '']) {
      expectError(await createClassifier(classifierPayload({ fieldName })), 400, 'SCHEMA_VALIDATION_ERROR');
    }
    expectError(await createClassifier(classifierPayload({ name: ' ' })), 400, 'SCHEMA_VALIDATION_ERROR');
    expectError(await createClassifier(classifierPayload({ itemName: '' })), 400, 'SCHEMA_VALIDATION_ERROR');
    await created(await createClassifier(classifierPayload({ fieldName: '_ok_Field1' })));
  });

  it('keeps field names unique within the document, case-insensitively, and frees a renamed one', async () => {
    const { id, payload } = await newClassifier({ fieldName: 'allikas' });
    expectError(await createClassifier(classifierPayload({ fieldName: 'ALLIKAS' })), 409, 'FIELD_NAME_NOT_UNIQUE');
    expectError(await updateClassifier((await newClassifier()).id, classifierPayload({ fieldName: 'Allikas' })), 409, 'FIELD_NAME_NOT_UNIQUE');
    // Another document may use it.
    const other = await documents.document(organizationId);
    await created(await createClassifier(classifierPayload({ fieldName: 'allikas' }), editor, other));
    ok(await updateClassifier(id, { ...payload, fieldName: 'rahastusallikas' }));
    await created(await createClassifier(classifierPayload({ fieldName: 'allikas' })));
  });

  it('lets only one of two concurrent requests claim a field name', async () => {
    const payload = classifierPayload({ fieldName: 'samaaegne' });
    const responses = await Promise.all([createClassifier(payload), createClassifier({ ...payload, name: 'Teine' })]);
    expect(responses.map((response) => response.statusCode).sort()).toEqual([201, 409]);
    expect((await classifiers()).filter((row) => row.fieldName === 'samaaegne')).toHaveLength(1);
  });

  it('checks code length bounds: 1 to 40, minimum at most 20 without codes, max at least min', async () => {
    expectError(
      await createClassifier(classifierPayload({ codeSettings: { typeName: 'Code', minLength: 5, maxLength: 4, hierarchical: false } })),
      422,
      'CLASSIFIER_MIN_GREATER_THAN_MAX',
    );
    expectError(
      await createClassifier(classifierPayload({ codeSettings: { typeName: 'Code', minLength: 21, maxLength: 30, hierarchical: false } })),
      400,
      'SCHEMA_VALIDATION_ERROR',
    );
    expectError(
      await createClassifier(classifierPayload({ codeSettings: { typeName: 'Code', minLength: 0, maxLength: 30, hierarchical: false } })),
      400,
      'SCHEMA_VALIDATION_ERROR',
    );
    expectError(
      await createClassifier(classifierPayload({ codeSettings: { typeName: 'Code', minLength: 1, maxLength: 41, hierarchical: false } })),
      400,
      'SCHEMA_VALIDATION_ERROR',
    );
    await created(await createClassifier(classifierPayload({ codeSettings: { typeName: 'Code', minLength: 20, maxLength: 40, hierarchical: false } })));
  });

  it('refuses length bounds that conflict with existing codes', async () => {
    const { id, payload } = await newClassifier({}, ['ABC', 'ABCDEF']);
    expectError(await updateClassifier(id, { ...payload, codeSettings: { ...payload.codeSettings, minLength: 4 } }), 422, 'LENGTH_CONFLICTS_WITH_CODES');
    expectError(await updateClassifier(id, { ...payload, codeSettings: { ...payload.codeSettings, maxLength: 5 } }), 422, 'LENGTH_CONFLICTS_WITH_CODES');
    ok(await updateClassifier(id, { ...payload, codeSettings: { ...payload.codeSettings, minLength: 3, maxLength: 6 } }));
  });

  it('lowers the code type only while every code fits it', async () => {
    const { id, payload } = await newClassifier({}, ['A1', '22']);
    expectError(await updateClassifier(id, { ...payload, codeSettings: { ...payload.codeSettings, typeName: 'Number' } }), 422, 'CODE_TYPE_BLOCKED_BY_ITEMS');
    ok(await updateClassifier(id, { ...payload, codeSettings: { ...payload.codeSettings, typeName: 'International' } }));
    expect((await classifierById(id)).codeSettings).toMatchObject({ typeName: 'International', ranking: 3, regexFlag: 'u' });
    const numeric = await newClassifier({}, ['10', '20']);
    ok(await updateClassifier(numeric.id, { ...numeric.payload, codeSettings: { ...numeric.payload.codeSettings, typeName: 'Number' } }));
  });

  it('reorders the classifiers of a document', async () => {
    const a = await newClassifier();
    const b = await newClassifier();
    ok(
      await editor.request({
        method: 'PUT',
        url: `/api/document/${documentId}/classifier-order`,
        payload: {
          list: [
            { id: a.id, displayOrder: 900 },
            { id: b.id, displayOrder: 899 },
          ],
        },
      }),
    );
    expect((await classifierById(a.id)).displayOrder).toBe(900);
    expect((await classifierById(b.id)).displayOrder).toBe(899);
    expectError(
      await editor.request({ method: 'PUT', url: `/api/document/${documentId}/classifier-order`, payload: { list: [{ id: randomUUID(), displayOrder: 1 }] } }),
      404,
      'CLASSIFIER_NOT_FOUND',
    );
  });
});

describe('master, grouping, sign and required rules', () => {
  let master: { id: string; payload: Json; itemIds: string[] };
  let grouping: { id: string; payload: Json; itemIds: string[] };

  beforeAll(async () => {
    master = await newClassifier({ required: true }, ['100', '200']);
    await documents.setMaster(documentId, master.id);
  });

  it('keeps the master classifier required and undeletable', async () => {
    expectError(await updateClassifier(master.id, { ...master.payload, required: false }), 422, 'MASTER_CLASSIFIER_MUST_BE_REQUIRED');
    expect((await classifierById(master.id)).master).toBe(true);
    const empty = await newClassifier({ required: true });
    const otherDocument = await documents.document(organizationId);
    void otherDocument;
    await documents.setMaster(documentId, empty.id);
    expectError(await deleteClassifier(empty.id), 422, 'CLASSIFIER_IN_USE');
    await documents.setMaster(documentId, master.id);
  });

  it('lets only a grouping classifier of the master change sign', async () => {
    expectError(await createClassifier(classifierPayload({ itemCanChangeSign: true })), 422, 'ONLY_GROUPING_CAN_CHANGE_SIGN');
    const plain = await newClassifier();
    expectError(await createClassifier(classifierPayload({ groupingId: plain.id, itemCanChangeSign: true })), 422, 'ONLY_GROUPING_CAN_CHANGE_SIGN');
    expectError(await updateClassifier(master.id, { ...master.payload, itemCanChangeSign: true }), 422, 'ONLY_GROUPING_CAN_CHANGE_SIGN');
    grouping = await newClassifier({ groupingId: master.id, itemCanChangeSign: true });
    expect((await classifierById(grouping.id)).groupingId).toBe(master.id);
    expect((await classifierById(master.id)).groupedByIds).toEqual([grouping.id]);
    // A grouping classifier cannot itself be grouped.
    expectError(await createClassifier(classifierPayload({ groupingId: grouping.id })), 422, 'INVALID_GROUPING');
  });

  it('stores item signs of a sign-changing classifier and refuses signs elsewhere', async () => {
    const income = await created(await addItem(grouping.id, item('TULU', { sign: 1 })));
    const cost = await created(await addItem(grouping.id, item('KULU', { sign: -1 })));
    const hidden = await created(await addItem(grouping.id, item('PEIDUS', { unselectable: true })));
    grouping.itemIds.push(income, cost, hidden);
    const rows = await items(grouping.id);
    expect(rows.map((row) => [row.code, row.sign])).toEqual([
      ['TULU', 1],
      ['KULU', -1],
      ['PEIDUS', 1],
    ]);
    expectError(await addItem(master.id, item('300', { sign: -1 })), 422, 'ONLY_GROUPING_CAN_CHANGE_SIGN');
    expectError(await updateClassifier(grouping.id, { ...grouping.payload, itemCanChangeSign: false }), 422, 'HAS_SIGN_CHANGING_ITEMS');
  });

  it('needs a primary grouping once the classifier is grouped, chosen among its grouping classifiers', async () => {
    expectError(await updateClassifier(master.id, { ...master.payload, primaryGroupedById: null }), 422, 'INVALID_PRIMARY_GROUPING');
    expectError(await updateClassifier(master.id, { ...master.payload, primaryGroupedById: randomUUID() }), 422, 'INVALID_PRIMARY_GROUPING');
    master.payload = { ...master.payload, primaryGroupedById: grouping.id };
    ok(await updateClassifier(master.id, master.payload));
    expect((await classifierById(master.id)).primaryGroupedById).toBe(grouping.id);
    const lone = await newClassifier();
    expectError(await updateClassifier(lone.id, { ...lone.payload, primaryGroupedById: grouping.id }), 422, 'INVALID_PRIMARY_GROUPING');
  });

  it('refuses grouping references that do not exist or are unselectable, and shows them with code and sign', async () => {
    const [income, cost, hidden] = grouping.itemIds as [string, string, string];
    expectError(await addItem(master.id, item('300', { groupedBy: [{ classifierId: grouping.id, itemId: hidden }] })), 422, 'INVALID_GROUPING');
    expectError(await addItem(master.id, item('300', { groupedBy: [{ classifierId: grouping.id, itemId: randomUUID() }] })), 422, 'INVALID_GROUPING');
    expectError(await addItem(master.id, item('300', { groupedBy: [{ classifierId: randomUUID(), itemId: income }] })), 422, 'INVALID_GROUPING');
    ok(await updateItem(master.id, master.itemIds[0]!, item('100', { groupedBy: [{ classifierId: grouping.id, itemId: income }] })));
    const first = (await items(master.id)).find((row) => row.id === master.itemIds[0]);
    expect(first.groupedBy).toEqual([{ classifierId: grouping.id, id: income, code: 'TULU', sign: 1 }]);
    void cost;
  });

  it('makes a grouping classifier required only when every grouped item has a value for it, then demands one', async () => {
    const [income, cost] = grouping.itemIds as [string, string];
    expectError(await updateClassifier(grouping.id, { ...grouping.payload, required: true }), 422, 'CANNOT_BE_REQUIRED');
    ok(
      await editor.request({
        method: 'PUT',
        url: `/api/classifier/${master.id}/items`,
        payload: { itemIds: [master.itemIds[1]], groupedBy: [{ classifierId: grouping.id, itemId: cost }] },
      }),
    );
    grouping.payload = { ...grouping.payload, required: true };
    ok(await updateClassifier(grouping.id, grouping.payload));
    const response = await addItem(master.id, item('300'));
    expectError(response, 422, 'INVALID_GROUPING');
    expect(response.json().details).toEqual([{ field: grouping.payload.fieldName, message: 'mandatoryClassifier' }]);
    master.itemIds.push(await created(await addItem(master.id, item('300', { groupedBy: [{ classifierId: grouping.id, itemId: income }] }))));
  });

  it('refuses to delete a grouping item in use, and a classifier that others group or that has items', async () => {
    const [income] = grouping.itemIds as [string];
    expectError(await deleteItem(grouping.id, income), 422, 'ITEM_IN_USE');
    const meta = await items(grouping.id, true);
    expect(meta.find((row) => row.id === income)).toMatchObject({ isInUseGroupings: true, isInUseSubBudgets: false, isInUseRecords: false });
    expectError(await deleteClassifier(grouping.id), 422, 'CLASSIFIER_HAS_ITEMS');
    const parent = await newClassifier();
    await newClassifier({ groupingId: parent.id });
    expectError(await deleteClassifier(parent.id), 422, 'CLASSIFIER_HAS_GROUPED_BY');
  });

  it('reads the items of several classifiers at once', async () => {
    const body = ok(await viewer.request({ method: 'GET', url: `/api/classifier-items?classifierIds=${master.id},${grouping.id}` }));
    expect(body.classifiers.map((row: { id: string }) => row.id).sort()).toEqual([master.id, grouping.id].sort());
    expect(body.list).toHaveLength(master.itemIds.length + grouping.itemIds.length);
    expectError(await viewer.request({ method: 'GET', url: '/api/classifier-items?classifierIds=nope' }), 400, 'SCHEMA_VALIDATION_ERROR');
  });
});

describe('schemes and sub-budgets', () => {
  it('refuses to delete a classifier a scheme uses, or to make a secondary one required; items of sub-budgets are in use', async () => {
    const document = await documents.document(organizationId);
    const newIn = async (overrides: Record<string, unknown>, codes: string[]) => {
      const payload = classifierPayload(overrides);
      const id = await created(await createClassifier(payload, editor, document));
      const itemIds: string[] = [];
      for (const code of codes) itemIds.push(await created(await addItem(id, item(code))));
      return { id, payload, itemIds };
    };
    const main = await newIn({ required: true }, ['A', 'B']);
    const secondary = await newIn({}, []);
    await documents.setMaster(document, main.id);
    const scheme = await created(
      await admin.request({
        method: 'POST',
        url: `/api/document/${document}/schema`,
        payload: {
          name: `Skeem ${randomUUID().slice(0, 6)}`,
          fieldName: `skeem_${randomUUID().slice(0, 6)}`,
          classifierList: [
            { classifierId: main.id, type: 'MAIN' },
            { classifierId: secondary.id, type: 'SECONDARY' },
          ],
        },
      }),
    );
    const classifierById = async (id: string) => (await classifiers(document)).find((row) => row.id === id);
    expect((await classifierById(secondary.id)).isInUseSchema).toBe(true);
    expectError(await deleteClassifier(secondary.id), 422, 'CLASSIFIER_IN_USE');
    expectError(await updateClassifier(secondary.id, { ...secondary.payload, required: true }), 422, 'CANNOT_BE_REQUIRED');
    await created(await admin.request({ method: 'POST', url: `/api/schema/${scheme}/sub-budget`, payload: { name: 'Alam', classifiers: { [main.id]: 'A' } } }));
    expectError(await deleteItem(main.id, main.itemIds[0]!), 422, 'ITEM_IN_USE');
    expectError(await updateItem(main.id, main.itemIds[0]!, item('C')), 422, 'ITEM_IN_USE');
    // The name of an item in use may change; its code may not.
    ok(await updateItem(main.id, main.itemIds[0]!, item('A', { name: 'Uus nimi' })));
    const meta = await items(main.id, true);
    expect(meta.map((row) => [row.code, row.isInUseSubBudgets])).toEqual([
      ['A', true],
      ['B', false],
    ]);
    ok(await deleteItem(main.id, main.itemIds[1]!));
  });
});

describe('items: form, bulk edit and delete', () => {
  it('checks codes against the type pattern, length and uniqueness', async () => {
    const { id } = await newClassifier({ codeSettings: { typeName: 'Number', minLength: 2, maxLength: 4, hierarchical: false } }, ['10']);
    expectError(await addItem(id, item('1A')), 422, 'INVALID_CODE');
    expectError(await addItem(id, item('1')), 422, 'INVALID_CODE');
    expectError(await addItem(id, item('12345')), 422, 'INVALID_CODE');
    expectError(await addItem(id, item('10')), 409, 'ITEM_CODE_IN_USE');
    expectError(await addItem(id, item('11', { name: '' })), 400, 'SCHEMA_VALIDATION_ERROR');
    expectError(await addItem(id, item('11', { description: 'x'.repeat(4097) })), 400, 'SCHEMA_VALIDATION_ERROR');
    const code = await newClassifier({}, ['abc']);
    expectError(await addItem(code.id, item('ABC')), 409, 'ITEM_CODE_IN_USE');
    expectError(await addItem(code.id, item('õun')), 422, 'INVALID_CODE');
    const international = await newClassifier({ codeSettings: { typeName: 'International', minLength: 1, maxLength: 20, hierarchical: false } });
    await created(await addItem(international.id, item('õun')));
  });

  it('edits an item, keeps its code unique, and bulk-edits several', async () => {
    const { id, itemIds } = await newClassifier({}, ['A', 'B', 'C']);
    expectError(await updateItem(id, itemIds[0]!, item('B')), 409, 'ITEM_CODE_IN_USE');
    ok(await updateItem(id, itemIds[0]!, item('A1', { description: 'kirjeldus' })));
    ok(
      await editor.request({
        method: 'PUT',
        url: `/api/classifier/${id}/items`,
        payload: { itemIds: [itemIds[1], itemIds[2]], unselectable: true, description: 'mitu' },
      }),
    );
    expect((await items(id)).map((row) => [row.code, row.unselectable, row.description])).toEqual([
      ['A1', false, 'kirjeldus'],
      ['B', true, 'mitu'],
      ['C', true, 'mitu'],
    ]);
    expectError(
      await editor.request({ method: 'PUT', url: `/api/classifier/${id}/items`, payload: { itemIds: [randomUUID()], unselectable: true } }),
      404,
      'CLASSIFIER_ITEM_NOT_FOUND',
    );
    expectError(
      await editor.request({ method: 'PUT', url: `/api/classifier/${id}/items`, payload: { itemIds: [itemIds[1]], sign: -1 } }),
      422,
      'ONLY_GROUPING_CAN_CHANGE_SIGN',
    );
  });

  it('deletes one or several items, after which the classifier can be deleted', async () => {
    const { id, itemIds } = await newClassifier({}, ['A', 'B', 'C']);
    expectError(await deleteClassifier(id), 422, 'CLASSIFIER_HAS_ITEMS');
    ok(await deleteItem(id, itemIds[0]!));
    expectError(await deleteItem(id, itemIds[0]!), 404, 'CLASSIFIER_ITEM_NOT_FOUND');
    ok(await editor.request({ method: 'POST', url: `/api/classifier/${id}/items/delete`, payload: { itemIds: [itemIds[1], itemIds[2]] } }));
    expect(await items(id)).toEqual([]);
    ok(await deleteClassifier(id));
    expect(await classifierById(id)).toBeUndefined();
    expectError(await deleteClassifier(id), 404, 'CLASSIFIER_NOT_FOUND');
  });
});

describe('import', () => {
  let target: { id: string; payload: Json; itemIds: string[] };
  let group: { id: string; payload: Json; itemIds: string[] };

  beforeAll(async () => {
    target = await newClassifier({ codeSettings: { typeName: 'Number', minLength: 1, maxLength: 6, hierarchical: false } }, ['1']);
    group = await newClassifier({ groupingId: target.id, fieldName: 'ruhm', required: false }, ['G1', 'G2']);
    ok(await editor.request({ method: 'PUT', url: `/api/classifier/${group.id}/items`, payload: { itemIds: [group.itemIds[1]], unselectable: true } }));
    target.payload = { ...target.payload, primaryGroupedById: group.id };
  });

  it('imports valid rows through the API in one go', async () => {
    const response = await importItems(target.id, {
      documentId,
      classifierId: target.id,
      items: [
        { code: '10', name: 'Kümme', description: '', unselectable: false, groupedBy: [{ classifierId: group.id, itemId: group.itemIds[0] }] },
        { code: ' 11 ', name: 'Üksteist', unselectable: 'TRUE', groupedBy: { ruhm: 'g1' } },
      ],
    });
    expect(ok(response)).toMatchObject({ imported: 2, skipped: [] });
    const rows = (await items(target.id)).filter((row) => row.code !== '1');
    expect(rows.map((row) => [row.code, row.name, row.unselectable, row.groupedBy.map((ref: { code: string }) => ref.code)])).toEqual([
      ['10', 'Kümme', false, ['G1']],
      ['11', 'Üksteist', true, ['G1']],
    ]);
  });

  it('imports nothing when Json row has errors, and reports every row', async () => {
    const before = (await items(target.id)).length;
    const response = await importItems(target.id, {
      items: [
        { code: '20', name: 'Hea', unselectable: false },
        { code: 'X', name: '', unselectable: false },
      ],
    });
    expectError(response, 422, 'CLASSIFIER_IMPORT_INVALID');
    expect(response.json().details).toEqual([
      {
        row: 2,
        errors: [
          { field: 'code', message: 'codeTypeError' },
          { field: 'name', message: 'validation.required' },
        ],
      },
    ]);
    expect(await items(target.id)).toHaveLength(before);
  });

  it('imports only the valid rows in loose mode', async () => {
    const response = await importItems(target.id, {
      loose: true,
      items: [
        { code: '30', name: 'Kolmkümmend', unselectable: false },
        { code: '10', name: 'Olemas', unselectable: false },
      ],
    });
    expect(ok(response)).toMatchObject({ imported: 1, skipped: [{ row: 2, errors: [{ field: 'code', message: 'uniqueCode' }] }] });
    expectError(await importItems(target.id, { loose: true, items: [{ code: '10', name: 'Olemas', unselectable: false }] }), 422, 'CLASSIFIER_IMPORT_INVALID');
  });

  it('validates an .xlsx file row by row with the spec messages', async () => {
    const file = await itemsWorkbook(
      ['code', 'name', 'description', 'unselectable', 'ruhm'],
      [
        ['40', 'Nelikümmend', '', 'false', 'G1'],
        ['', 'Koodita', '', 'false', ''],
        ['41', 'Tundmatu rühm', '', 'false', 'G9'],
        ['42', 'Valimatu rühm', '', 'false', 'g2'],
        ['4A', 'Vale tüüp', '', 'false', ''],
        ['43', 'Kaks korda', '', 'false', ''],
        ['43', 'Kaks korda', '', 'true', ''],
        ['10', 'Olemas', '', 'false', ''],
        ['44', 'Valikuta', '', '', ''],
      ],
    );
    const body = ok(await validate(target.id, 'items.xlsx', file));
    expect(body.valid).toBe(false);
    expect(body.columns).toEqual(['code', 'name', 'description', 'unselectable', 'ruhm']);
    expect(body.rows.map((row: { row: number; errors: unknown[] }) => [row.row, row.errors])).toEqual([
      [2, []],
      [3, [{ field: 'code', message: 'validation.required' }]],
      [4, [{ field: 'ruhm', message: 'referenceItemNotFound' }]],
      [5, [{ field: 'ruhm', message: 'referenceItemUnselectable' }]],
      [6, [{ field: 'code', message: 'codeTypeError' }]],
      [7, [{ field: 'code', message: 'unique' }]],
      [8, [{ field: 'code', message: 'unique' }]],
      [9, [{ field: 'code', message: 'uniqueCode' }]],
      [10, [{ field: 'unselectable', message: 'validation.required' }]],
    ]);
    expect(body.rows[0].values).toMatchObject({ code: '40', name: 'Nelikümmend', ruhm: 'G1' });
  });

  it('validates a .csv file (semicolons, BOM) and the valid rows then import', async () => {
    const csv = '\uFEFFCode;Name;Description;Unselectable;RUHM\r\n50;"Viiskümmend; pool";;0;G1\r\n51;Viiskümmend üks;;1;\r\n';
    const body = ok(await validate(target.id, 'items.csv', csv, 'text/csv'));
    expect(body.valid).toBe(true);
    expect(body.rows.map((row: { values: { name: string } }) => row.values.name)).toEqual(['Viiskümmend; pool', 'Viiskümmend üks']);
    expect(ok(await importItems(target.id, { items: body.rows.map((row: { values: object }) => row.values) }))).toMatchObject({ imported: 2 });
  });

  it('requires the sign column (1, +, -1 or -) when signs may change', async () => {
    const document = await documents.document(organizationId);
    const master = await created(await createClassifier(classifierPayload({ required: true }), editor, document));
    await documents.setMaster(document, master);
    const signed = await created(await createClassifier(classifierPayload({ groupingId: master, itemCanChangeSign: true }), editor, document));
    const file = await itemsWorkbook(
      ['code', 'name', 'unselectable', 'sign'],
      [
        ['A', 'A', 'false', ''],
        ['B', 'B', 'false', '-'],
        ['C', 'C', 'false', '2'],
        ['D', 'D', 'false', '+'],
      ],
    );
    const body = ok(await validate(signed, 'signs.xlsx', file));
    expect(body.columns).toEqual(['code', 'name', 'description', 'unselectable', 'sign']);
    expect(body.rows.map((row: { errors: unknown[] }) => row.errors)).toEqual([
      [{ field: 'sign', message: 'validation.required' }],
      [],
      [{ field: 'sign', message: 'validation.format' }],
      [],
    ]);
    expect(ok(await importItems(signed, { loose: true, items: body.rows.map((row: { values: object }) => row.values) }))).toMatchObject({ imported: 2 });
    expect((await items(signed)).map((row) => [row.code, row.sign])).toEqual([
      ['B', -1],
      ['D', 1],
    ]);
  });

  it('refuses other file types and answers templates in both formats', async () => {
    expectError(await validate(target.id, 'items.txt', 'code\n1', 'text/plain'), 400, 'SCHEMA_VALIDATION_ERROR');
    expectError(await validate(target.id, 'items.xlsx', 'not a workbook'), 400, 'SCHEMA_VALIDATION_ERROR');
    expectError(await validate(target.id, 'items.xlsx', await itemsWorkbook(['code']), XLSX, viewer), 403, 'INSUFFICIENT_PERMISSIONS');
    const csv = await viewer.request({ method: 'GET', url: `/api/classifier/${target.id}/items/template?format=csv` });
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-type']).toContain('text/csv');
    expect(csv.body.replace('\uFEFF', '')).toBe('code,name,description,unselectable,ruhm\r\n');
    const xlsx = await viewer.request({ method: 'GET', url: `/api/classifier/${target.id}/items/template?format=xlsx` });
    expect(xlsx.statusCode).toBe(200);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(xlsx.rawPayload as unknown as ArrayBuffer);
    expect((workbook.worksheets[0]!.getRow(1).values as unknown[]).slice(1)).toEqual(['code', 'name', 'description', 'unselectable', 'ruhm']);
  });

  it('reads a file without the yes/no column as "no": its rows import as selectable items', async () => {
    const body = ok(await validate(target.id, 'no-yes-no.csv', 'code;name;ruhm\r\n60;Kuuskümmend;G1\r\n61;Kuuskümmend üks;\r\n', 'text/csv'));
    expect(body.rows.map((row: { errors: unknown[] }) => row.errors)).toEqual([[], []]);
    expect(body.rows.map((row: { values: { unselectable: unknown } }) => row.values.unselectable)).toEqual([false, false]);
    expect(body.valid).toBe(true);
    expect(ok(await importItems(target.id, { items: body.rows.map((row: { values: object }) => row.values) }))).toMatchObject({ imported: 2 });
    expect((await items(target.id)).filter((row) => ['60', '61'].includes(row.code)).map((row) => [row.code, row.unselectable])).toEqual([
      ['60', false],
      ['61', false],
    ]);
    // A present column still needs a value in every row.
    const empty = ok(await validate(target.id, 'empty-cell.csv', 'code;name;unselectable\r\n62;Kuuskümmend kaks;\r\n', 'text/csv'));
    expect(empty.rows[0].errors).toEqual([{ field: 'unselectable', message: 'validation.required' }]);
  });

  it('reports every row error as a message key the web translates, on a column of the file', async () => {
    const csv = [
      'code;name;description;unselectable;ruhm',
      ';Koodita;;ei;',
      '7A;Vale tüüp;;ei;',
      '1234567;Liiga pikk;;ei;',
      '70;;;ei;',
      `71;Juht\u0001märk;;ei;`,
      '72;Vale jah/ei;;võib-olla;',
      '73;Tühi jah/ei;;;',
      '74;Tundmatu rühm;;ei;G9',
      '75;Valimatu rühm;;ei;G2',
      '76;Kaks korda;;ei;',
      '76;Kaks korda;;ei;',
      '10;Olemas;;ei;',
    ].join('\r\n');
    const body = ok(await validate(target.id, 'errors.csv', csv, 'text/csv'));
    const errors: { field: string; message: string }[] = body.rows.flatMap((row: { errors: unknown[] }) => row.errors);
    expect(body.rows.every((row: { errors: unknown[] }) => row.errors.length > 0)).toBe(true);
    // The web shows `validation.*` keys as they are and the item import's own messages as classifiers.importError.<message>.
    const webMessages = ['web/src/i18n/messages/et.ts', 'web/src/i18n/messages/en.ts', 'web/src/features/classifiers/messages.ts']
      .map((path) => readFileSync(new URL(`../../../${path}`, import.meta.url), 'utf8'))
      .join('\n');
    const webKey = (message: string) => (message.startsWith('validation.') ? message : `classifiers.importError.${message}`);
    expect(errors.filter((error) => !webMessages.includes(`'${webKey(error.message)}':`))).toEqual([]);
    expect(errors.filter((error) => !body.columns.includes(error.field))).toEqual([]);
    expect(new Set(errors.map((error) => error.message))).toEqual(
      new Set([
        'validation.required',
        'codeTypeError',
        'validation.maxLength',
        'validation.controlCharacters',
        'validation.format',
        'referenceItemNotFound',
        'referenceItemUnselectable',
        'unique',
        'uniqueCode',
      ]),
    );
  });
});
