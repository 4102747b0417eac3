import { randomUUID } from 'node:crypto';
import { recordImportStreamName } from '@eelarve/domain';
import { eventMetadata } from '@eelarve/gateway/infrastructure/commands';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerDocumentCopyStep } from '../src/features/documents/copy';
import { copyReportViews, unregisterReportViewsCopy } from '../src/features/stored-settings/copy-step';
import { assertResourceAccess, canAccess, findDocumentOrganization } from '../src/features/permissions/authorize';
import { accountsFixture, PASSWORD } from '@eelarve/testing/accounts';
import { startTestServer, type TestServer } from '@eelarve/testing/server';
import type { AuthContext } from '../src/types';
import { type Client, login } from './helpers';

let server: TestServer;
/** Platform administrator (IS_ADMIN). */
let admin: Client;
let fixture: ReturnType<typeof accountsFixture>;
let organizationId: string;
let otherOrganizationId: string;
/** The platform administrator acting in the organisation's ADMIN occupation (every privilege but IS_ADMIN). */
let orgAdmin: Client;
/** An ordinary occupation of the organisation: reads documents only. */
let reader: Client;
let readerOccupationId: string;
/** An organisation administrator of another organisation. */
let stranger: Client;

type Doc = {
  id: string;
  organizationId: string;
  name: string;
  description: string;
  period: { year: number; month: number; duration: number };
  masterClassifierId: string | null;
  recordAmountKey: string;
  allowCommentingWithReadPermissions: boolean;
  resourceStatusId: string | null;
  order: number;
  recordsCount: number;
  createdAt: string;
  permissions: { read: boolean; update: boolean; restrictions: string[] };
};

const payload = (changes: object = {}) => ({ name: 'Eelarve 2027', description: 'Aasta eelarve', period: { year: 2027, month: 1, duration: 1 }, ...changes });

async function adminOccupationClient(targetOrganizationId: string): Promise<Client> {
  const client = await login(server.app, server.admin.email, server.admin.password);
  const assigned = await client.request({ method: 'POST', url: `/api/admin/${targetOrganizationId}` });
  expect(assigned.statusCode).toBe(200);
  const occupation = await server.app.db
    .withSchema('read')
    .selectFrom('occupations')
    .select('id')
    .where('organization_id', '=', targetOrganizationId)
    .where('type', '=', 'ADMIN')
    .executeTakeFirstOrThrow();
  const switched = await client.request({ method: 'POST', url: '/api/auth/switch', payload: { occupationId: occupation.id } });
  expect(switched.statusCode).toBe(200);
  return client;
}

beforeAll(async () => {
  server = await startTestServer({ listen: false });
  admin = await login(server.app, server.admin.email, server.admin.password);
  fixture = accountsFixture(server.app, admin);
  organizationId = await fixture.organization('Tartu Linnavalitsus');
  otherOrganizationId = await fixture.organization('Võru Vallavalitsus');
  orgAdmin = await adminOccupationClient(organizationId);
  const member = await fixture.member(organizationId, ['DATA_VIEW']);
  readerOccupationId = member.occupationId;
  await fixture.grant(readerOccupationId, [{ read: true }]);
  reader = await login(server.app, member.email, PASSWORD);
  const strangerMember = await fixture.reader(otherOrganizationId, ['USER_ADMIN']);
  stranger = await login(server.app, strangerMember.email, PASSWORD);
}, 60_000);
afterAll(async () => server?.close());

function expectError(response: { statusCode: number; body: string }, status: number, code: string) {
  expect({ status: response.statusCode, code: JSON.parse(response.body).code }).toEqual({ status, code });
}

function expectFieldError(response: { statusCode: number; body: string }, path: string, message?: string) {
  expectError(response, 400, 'SCHEMA_VALIDATION_ERROR');
  const issues = JSON.parse(response.body).details as { path: string; message: string }[];
  expect(issues.map((issue) => issue.path)).toContain(path);
  if (message) expect(issues.find((issue) => issue.path === path)?.message).toBe(message);
}

const create = (body: object = payload(), client: Client = orgAdmin, organization = organizationId) =>
  client.request({ method: 'POST', url: `/api/organization/${organization}/document`, payload: body });
const update = (id: string, body: object, client: Client = orgAdmin) => client.request({ method: 'PUT', url: `/api/document/${id}`, payload: body });
const getDocument = (id: string, client: Client = orgAdmin) => client.request({ method: 'GET', url: `/api/document/${id}` });
const list = async (client: Client = orgAdmin, organization = organizationId): Promise<Doc[]> => {
  const response = await client.request({ method: 'GET', url: `/api/organization/${organization}/documents` });
  expect(response.statusCode).toBe(200);
  return response.json();
};

async function createDocument(body: object = payload(), client: Client = orgAdmin, organization = organizationId): Promise<string> {
  const response = await create(body, client, organization);
  expect(response.statusCode, response.body).toBe(201);
  return response.json().id;
}

async function waitForTask(taskId: string, client: Client = orgAdmin) {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const response = await client.request({ method: 'GET', url: `/api/task/${taskId}` });
    expect(response.statusCode, response.body).toBe(200);
    const task = response.json();
    if (task.status === 'SUCCESS' || task.status === 'ERROR') return task;
    if (Date.now() > deadline) throw new Error(`task ${taskId} still ${task.status}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('documents: create and read', () => {
  it('creates a document the next read shows, with defaults', async () => {
    const response = await create(payload({ name: '  Eelarve 2027  ' }));
    expect(response.statusCode).toBe(201);
    const { id, position } = response.json();
    expect(position).toMatch(/^\d+\/\d+$/);
    const document: Doc = (await getDocument(id)).json();
    expect(document).toEqual({
      id,
      organizationId,
      name: 'Eelarve 2027',
      description: 'Aasta eelarve',
      period: { year: 2027, month: 1, duration: 1 },
      masterClassifierId: null,
      recordAmountKey: 'summa',
      allowCommentingWithReadPermissions: false,
      resourceStatusId: null,
      order: expect.any(Number),
      recordsCount: 0,
      createdAt: expect.any(String),
      permissions: { read: true, update: true, restrictions: [] },
      copyStatus: null,
    });
    expect((await list()).map((doc) => doc.id)).toContain(id);
  });

  it('puts a new document at the top of the list', async () => {
    const first = await createDocument(payload({ name: 'First' }));
    const second = await createDocument(payload({ name: 'Second' }));
    const ids = (await list()).map((doc) => doc.id);
    expect(ids.indexOf(second)).toBeLessThan(ids.indexOf(first));
    expect(ids[0]).toBe(second);
  });

  it('lets every occupation of the organisation read, but not update', async () => {
    const id = await createDocument();
    const seen = (await list(reader)).find((doc) => doc.id === id);
    expect(seen?.permissions).toEqual({ read: true, update: false, restrictions: [] });
    expect((await getDocument(id, reader)).statusCode).toBe(200);
    const all = await reader.request({ method: 'GET', url: `/api/organization/${organizationId}/all-documents` });
    expect(all.statusCode).toBe(200);
    expect(all.json().map((doc: Doc) => doc.id)).toContain(id);
  });

  it('refuses creating, editing, deleting and reordering without organisation or document update permission', async () => {
    const id = await createDocument();
    expectError(await create(payload(), reader), 403, 'INSUFFICIENT_PERMISSIONS');
    expectError(await update(id, payload({ name: 'X' }), reader), 403, 'INSUFFICIENT_PERMISSIONS');
    expectError(await reader.request({ method: 'DELETE', url: `/api/document/${id}` }), 403, 'INSUFFICIENT_PERMISSIONS');
    const order = await reader.request({ method: 'PUT', url: `/api/organization/${organizationId}/documents/order`, payload: { list: [{ id, order: 1 }] } });
    expectError(order, 403, 'INSUFFICIENT_PERMISSIONS');
  });

  it('answers 404 for documents and organisations of another organisation', async () => {
    const id = await createDocument();
    expectError(await getDocument(id, stranger), 404, 'OBJECT_NOT_FOUND');
    expectError(await update(id, payload(), stranger), 404, 'OBJECT_NOT_FOUND');
    expectError(await stranger.request({ method: 'DELETE', url: `/api/document/${id}` }), 404, 'OBJECT_NOT_FOUND');
    expectError(await stranger.request({ method: 'GET', url: `/api/organization/${organizationId}/documents` }), 404, 'OBJECT_NOT_FOUND');
    expectError(await stranger.request({ method: 'GET', url: `/api/organization/${organizationId}/all-documents` }), 404, 'OBJECT_NOT_FOUND');
    expectError(await create(payload(), stranger), 404, 'OBJECT_NOT_FOUND');
    expectError(await getDocument(randomUUID()), 404, 'OBJECT_NOT_FOUND');
    expectError(await create(payload(), admin, randomUUID()), 404, 'OBJECT_NOT_FOUND');
  });

  it('lets a platform administrator see and edit every organisation', async () => {
    const id = await createDocument(payload(), admin, otherOrganizationId);
    expect((await list(admin, otherOrganizationId)).map((doc) => doc.id)).toContain(id);
    expect((await update(id, payload({ name: 'Renamed' }), admin)).statusCode).toBe(200);
    expect((await list(stranger, otherOrganizationId)).find((doc) => doc.id === id)?.name).toBe('Renamed');
  });
});

describe('documents: validation', () => {
  it('requires a name of at most 100 characters', async () => {
    expectFieldError(await create(payload({ name: '' })), 'body.name', 'validation.required');
    expectFieldError(await create(payload({ name: '   ' })), 'body.name', 'validation.required');
    expectFieldError(await create(payload({ name: 'x'.repeat(101) })), 'body.name', 'validation.maxLength');
    expect((await create(payload({ name: 'x'.repeat(100) }))).statusCode).toBe(201);
    const { name: _name, ...withoutName } = payload();
    expectFieldError(await create(withoutName), 'body.name');
  });

  it('limits the description to a text area', async () => {
    expectFieldError(await create(payload({ description: 'x'.repeat(4097) })), 'body.description', 'validation.maxLength');
    expect((await create(payload({ description: 'x'.repeat(4096) }))).statusCode).toBe(201);
  });

  it('requires year, month and a duration of 1 to 5 years', async () => {
    expectFieldError(await create(payload({ period: { month: 1, duration: 1 } })), 'body.period.year');
    expectFieldError(await create(payload({ period: { year: 2027, duration: 1 } })), 'body.period.month');
    expectFieldError(await create(payload({ period: { year: 2027, month: 1 } })), 'body.period.duration');
    expectFieldError(await create(payload({ period: { year: 2027, month: 0, duration: 1 } })), 'body.period.month', 'validation.min');
    expectFieldError(await create(payload({ period: { year: 2027, month: 13, duration: 1 } })), 'body.period.month', 'validation.max');
    expectFieldError(await create(payload({ period: { year: 2027, month: 1, duration: 0 } })), 'body.period.duration', 'validation.min');
    expectFieldError(await create(payload({ period: { year: 2027, month: 1, duration: 6 } })), 'body.period.duration', 'validation.max');
    expectFieldError(await create(payload({ period: { year: 2027.5, month: 1, duration: 1 } })), 'body.period.year', 'validation.number');
    expectFieldError(await create(payload({ period: { year: '2027', month: 1, duration: 1 } })), 'body.period.year');
    expectFieldError(await create(payload({ period: null })), 'body.period');
    expect((await create(payload({ period: { year: 2027, month: 12, duration: 5 } }))).statusCode).toBe(201);
  });

  it('defaults the record amount key to summa but refuses an empty one', async () => {
    const id = await createDocument(payload({ recordAmountKey: 'amount' }));
    expect((await getDocument(id)).json().recordAmountKey).toBe('amount');
    expectFieldError(await create(payload({ recordAmountKey: '' })), 'body.recordAmountKey', 'validation.required');
  });

  it('refuses malformed ids and bodies with 400, never 500', async () => {
    expectFieldError(await create(payload({ resourceStatusId: 'nope' })), 'body.resourceStatusId', 'validation.format');
    expectFieldError(await create(payload({ masterClassifierId: 'nope' })), 'body.masterClassifierId', 'validation.format');
    expectError(await orgAdmin.request({ method: 'GET', url: '/api/document/not-a-uuid' }), 400, 'SCHEMA_VALIDATION_ERROR');
    expectError(await orgAdmin.request({ method: 'GET', url: '/api/organization/not-a-uuid/documents' }), 400, 'SCHEMA_VALIDATION_ERROR');
    expectError(await orgAdmin.request({ method: 'GET', url: '/api/task/not-a-uuid' }), 400, 'SCHEMA_VALIDATION_ERROR');
    const raw = await orgAdmin.request({
      method: 'POST',
      url: `/api/organization/${organizationId}/document`,
      payload: 'not json',
      headers: { 'content-type': 'application/json' },
    });
    expectError(raw, 400, 'SCHEMA_VALIDATION_ERROR');
    expectFieldError(await create(payload({ organizationId: otherOrganizationId })), 'body.organizationId', 'validation.mismatch');
  });

  it('lets only a platform administrator set allowCommentingWithReadPermissions', async () => {
    expectError(await create(payload({ allowCommentingWithReadPermissions: true })), 403, 'INSUFFICIENT_PERMISSIONS');
    const id = await createDocument(payload({ allowCommentingWithReadPermissions: false }));
    // Unchanged (or omitted) is accepted from anyone who may edit.
    expect((await update(id, payload({ name: 'Same flag', allowCommentingWithReadPermissions: false }))).statusCode).toBe(200);
    expect((await update(id, payload({ name: 'Omitted flag' }))).statusCode).toBe(200);
    expectError(await update(id, payload({ allowCommentingWithReadPermissions: true })), 403, 'INSUFFICIENT_PERMISSIONS');
    expect((await update(id, payload({ allowCommentingWithReadPermissions: true }), admin)).statusCode).toBe(200);
    expect((await getDocument(id)).json().allowCommentingWithReadPermissions).toBe(true);
    // An organisation administrator's later edit keeps it.
    expect((await update(id, payload({ name: 'Kept flag' }))).statusCode).toBe(200);
    expect((await getDocument(id)).json()).toMatchObject({ name: 'Kept flag', allowCommentingWithReadPermissions: true });
    const byAdmin = await create(payload({ allowCommentingWithReadPermissions: true }), admin);
    expect(byAdmin.statusCode).toBe(201);
  });
});

describe('documents: edit and delete', () => {
  it('updates the settings the next read shows', async () => {
    const id = await createDocument();
    const response = await update(id, {
      ...payload({ name: 'Eelarve 2028', description: '', period: { year: 2028, month: 4, duration: 3 }, recordAmountKey: 'kogus' }),
      id,
      organizationId,
    });
    expect(response.statusCode).toBe(200);
    expect(response.json().position).toMatch(/^\d+\/\d+$/);
    expect((await getDocument(id)).json()).toMatchObject({
      name: 'Eelarve 2028',
      description: '',
      period: { year: 2028, month: 4, duration: 3 },
      recordAmountKey: 'kogus',
    });
    const unchanged = await update(
      id,
      payload({ name: 'Eelarve 2028', description: '', period: { year: 2028, month: 4, duration: 3 }, recordAmountKey: 'kogus' }),
    );
    expect(unchanged.json().position).toBeNull();
    expectFieldError(await update(id, { ...payload(), id: randomUUID() }), 'body.id', 'validation.mismatch');
  });

  it('restricts the period (duration included) once the document has records', async () => {
    const id = await createDocument();
    // Five records of one of its budgets, imported as the import job appends them (record-guards.test.ts makes them through the API).
    const importId = randomUUID();
    const records = Array.from({ length: 5 }, (_, index) => ({ recordId: randomUUID(), name: `Rida ${index}`, amount: '1', months: null, classifiers: {} }));
    const data = { importId, budgetId: randomUUID(), documentId: id, organizationId, chunk: 0, originResourceName: 'kirjed.xlsx', records };
    const actor = { correlationId: importId, userId: null, occupationId: null, organizationId };
    const appended = await server.app.store.append(
      recordImportStreamName(importId),
      [{ id: randomUUID(), type: 'RecordsImported', data, metadata: eventMetadata(actor, new Date()) }],
      {
        expectedRevision: 'no_stream',
      },
    );
    await server.app.projections.waitForPosition(['documents'], appended.position, 10_000);
    expectError(await update(id, payload({ period: { year: 2027, month: 1, duration: 2 } })), 422, 'DOCUMENT_PERIOD_UPDATE_RESTRICTED');
    expectError(await update(id, payload({ period: { year: 2028, month: 1, duration: 1 } })), 422, 'DOCUMENT_PERIOD_UPDATE_RESTRICTED');
    expectError(await update(id, payload({ period: { year: 2027, month: 2, duration: 1 } })), 422, 'DOCUMENT_PERIOD_UPDATE_RESTRICTED');
    expect((await update(id, payload({ name: 'Name only' }))).statusCode).toBe(200);
    expect((await getDocument(id)).json().recordsCount).toBe(5);
  });

  it('deletes a document, after which it is gone', async () => {
    const id = await createDocument();
    const response = await orgAdmin.request({ method: 'DELETE', url: `/api/document/${id}` });
    expect(response.statusCode).toBe(200);
    expectError(await getDocument(id), 404, 'OBJECT_NOT_FOUND');
    expect((await list()).map((doc) => doc.id)).not.toContain(id);
    expectError(await orgAdmin.request({ method: 'DELETE', url: `/api/document/${id}` }), 404, 'OBJECT_NOT_FOUND');
    expectError(await update(id, payload()), 404, 'OBJECT_NOT_FOUND');
  });
});

describe('documents: master classifier', () => {
  /**
   * Classifiers and schemes belong to other features; their rows are put straight into the read
   * models here (through the read views), as their projectors would after the events.
   */
  const documentIds: { id?: string } = {};
  const classifiers = { required: randomUUID(), optional: randomUUID(), grouping: randomUUID(), inScheme: randomUUID(), foreign: randomUUID() };

  beforeAll(async () => {
    const db = server.app.db.withSchema('read');
    documentIds.id = await createDocument(payload({ name: 'With classifiers' }));
    const other = await createDocument(payload({ name: 'Other' }));
    const doc = documentIds.id;
    const row = (id: string, documentId: string, required: boolean, groupingId: string | null, order: number) => ({
      id,
      document_id: documentId,
      organization_id: organizationId,
      name: `Classifier ${order}`,
      item_name: 'Item',
      field_name: `classifier_${order}`,
      description: '',
      required,
      item_can_change_sign: false,
      is_primary: false,
      grouping_id: groupingId,
      primary_grouped_by_id: null,
      display_order: order,
      display_mode: 'CODE_AND_NAME',
      code_type: 'Code',
      type_regex: '',
      regex_flag: '',
      min_length: 1,
      max_length: 20,
      hierarchical: false,
      ranking: 0,
    });
    await db
      .insertInto('classifiers')
      .values([
        row(classifiers.required, doc, true, null, 1),
        row(classifiers.optional, doc, false, null, 2),
        row(classifiers.grouping, doc, true, classifiers.required, 3),
        row(classifiers.inScheme, doc, true, null, 4),
        row(classifiers.foreign, other, true, null, 5),
      ])
      .execute();
    await db
      .insertInto('scheme_classifiers')
      .values({ scheme_id: randomUUID(), classifier_id: classifiers.inScheme, document_id: doc, type: 'MAIN' })
      .execute();
  });

  it('is refused when it is no classifier of the document', async () => {
    const id = await createDocument();
    expectError(await update(id, payload({ masterClassifierId: randomUUID() })), 422, 'INVALID_MASTER_CLASSIFIER');
  });

  it('is required on edit once the document has classifiers, and must be required, non-grouping and in no scheme', async () => {
    const id = documentIds.id!;
    expectFieldError(await update(id, payload()), 'body.masterClassifierId', 'validation.required');
    expectFieldError(await update(id, payload({ masterClassifierId: null })), 'body.masterClassifierId', 'validation.required');
    expectError(await update(id, payload({ masterClassifierId: classifiers.foreign })), 422, 'INVALID_MASTER_CLASSIFIER');
    expectError(await update(id, payload({ masterClassifierId: classifiers.grouping })), 422, 'INVALID_MASTER_CLASSIFIER');
    expectError(await update(id, payload({ masterClassifierId: classifiers.optional })), 422, 'MASTER_CLASSIFIER_MUST_BE_REQUIRED');
    expectError(await update(id, payload({ masterClassifierId: classifiers.inScheme })), 422, 'MASTER_CLASSIFIER_USED_IN_SCHEME');
    expect((await update(id, payload({ masterClassifierId: classifiers.required }))).statusCode).toBe(200);
    expect((await getDocument(id)).json().masterClassifierId).toBe(classifiers.required);
    // Omitted on a later edit: the current one stays.
    expect((await update(id, payload({ name: 'Renamed' }))).statusCode).toBe(200);
    expect((await getDocument(id)).json()).toMatchObject({ name: 'Renamed', masterClassifierId: classifiers.required });
  });

  it('gives a copy the copy of the source master classifier', async () => {
    const copied = randomUUID();
    const off = registerDocumentCopyStep('classifiers', async (context) => {
      context.ids.set(classifiers.required, copied);
    });
    try {
      const response = await create(payload({ name: 'Copy with master', copy: { sourceDocumentId: documentIds.id, classifiers: true } }));
      expect(response.statusCode, response.body).toBe(201);
      expect((await waitForTask(response.json().taskId)).status).toBe('SUCCESS');
      expect((await getDocument(response.json().id)).json()).toMatchObject({ name: 'Copy with master', masterClassifierId: copied });
    } finally {
      off();
    }
  });
});

describe('documents: order', () => {
  it('orders the documents by the given values, highest first', async () => {
    const organization = await fixture.organization();
    const a = await createDocument(payload({ name: 'A' }), admin, organization);
    const b = await createDocument(payload({ name: 'B' }), admin, organization);
    const c = await createDocument(payload({ name: 'C' }), admin, organization);
    expect((await list(admin, organization)).map((doc) => doc.id)).toEqual([c, b, a]);
    const response = await admin.request({
      method: 'PUT',
      url: `/api/organization/${organization}/documents/order`,
      payload: {
        organizationId: organization,
        list: [
          { id: a, order: 3 },
          { id: c, order: 2 },
          { id: b, order: 1 },
        ],
      },
    });
    expect(response.statusCode, response.body).toBe(200);
    const after = await list(admin, organization);
    expect(after.map((doc) => doc.id)).toEqual([a, c, b]);
    expect(after.map((doc) => doc.order)).toEqual([3, 2, 1]);
  });

  it('lets an organisation administrator reorder', async () => {
    const a = await createDocument();
    const response = await orgAdmin.request({
      method: 'PUT',
      url: `/api/organization/${organizationId}/documents/order`,
      payload: { list: [{ id: a, order: 1000 }] },
    });
    expect(response.statusCode).toBe(200);
    expect((await list())[0]!.id).toBe(a);
  });

  it('refuses documents of another organisation, duplicates and malformed lists', async () => {
    const own = await createDocument();
    const foreign = await createDocument(payload(), admin, otherOrganizationId);
    const order = (body: object) => orgAdmin.request({ method: 'PUT', url: `/api/organization/${organizationId}/documents/order`, payload: body });
    expectError(
      await order({
        list: [
          { id: own, order: 2 },
          { id: foreign, order: 1 },
        ],
      }),
      404,
      'OBJECT_NOT_FOUND',
    );
    expectError(
      await order({
        list: [
          { id: own, order: 2 },
          { id: own, order: 1 },
        ],
      }),
      400,
      'SCHEMA_VALIDATION_ERROR',
    );
    expectFieldError(await order({ list: [] }), 'body.list', 'validation.required');
    expectFieldError(await order({ list: [{ id: 'x', order: 1 }] }), 'body.list.0.id', 'validation.format');
    expectFieldError(await order({ list: [{ id: own, order: -1 }] }), 'body.list.0.order', 'validation.min');
    expectFieldError(await order({ list: [{ id: own, order: 1 }], organizationId: otherOrganizationId }), 'body.organizationId', 'validation.mismatch');
    expectError(
      await stranger.request({ method: 'PUT', url: `/api/organization/${organizationId}/documents/order`, payload: { list: [{ id: own, order: 1 }] } }),
      404,
      'OBJECT_NOT_FOUND',
    );
  });
});

describe('documents: copy', () => {
  it('copies as a task that reaches SUCCESS, and the copy appears', async () => {
    const source = await createDocument(payload({ name: 'Source' }));
    const response = await create(payload({ name: 'Copy', copy: { sourceDocumentId: source } }));
    expect(response.statusCode, response.body).toBe(201);
    const { id, taskId } = response.json();
    expect(taskId).toEqual(expect.any(String));
    const task = await waitForTask(taskId);
    expect(task).toMatchObject({ id: taskId, type: 'DOCUMENT_COPY', status: 'SUCCESS', organizationId, documentId: id, error: null });
    expect(task.params).toMatchObject({ sourceDocumentId: source, permissions: false, classifiers: false, schemes: false, reportViews: false });
    expect((await list()).find((doc) => doc.id === id)?.name).toBe('Copy');
    // A task of another organisation is not found; an unknown one neither.
    expectError(await stranger.request({ method: 'GET', url: `/api/task/${taskId}` }), 404, 'OBJECT_NOT_FOUND');
    expectError(await orgAdmin.request({ method: 'GET', url: `/api/task/${randomUUID()}` }), 404, 'OBJECT_NOT_FOUND');
  });

  it('runs the registered copy steps in order with the chosen options', async () => {
    const source = await createDocument(payload({ name: 'Source with parts' }));
    const ran: string[] = [];
    const off = [
      registerDocumentCopyStep('classifiers', async (context) => {
        ran.push(`classifiers:${context.sourceDocumentId}->${context.targetDocumentId}`);
      }),
      registerDocumentCopyStep('schemes', async () => {
        ran.push('schemes');
      }),
      registerDocumentCopyStep('permissions', async () => {
        ran.push('permissions');
      }),
      registerDocumentCopyStep('reportViews', async () => {
        ran.push('reportViews');
      }),
    ];
    try {
      const response = await create(
        payload({ name: 'Full copy', copy: { sourceDocumentId: source, permissions: true, classifiers: true, schemes: true, reportViews: true } }),
      );
      expect(response.statusCode, response.body).toBe(201);
      const task = await waitForTask(response.json().taskId);
      expect(task.status).toBe('SUCCESS');
      expect(task.steps.map((step: { name: string }) => step.name)).toEqual(['classifiers', 'masterClassifier', 'schemes', 'permissions', 'reportViews']);
      expect(ran).toEqual([`classifiers:${source}->${response.json().id}`, 'schemes', 'permissions', 'reportViews']);
    } finally {
      for (const unregister of off) unregister();
    }
  });

  it('refuses a part that cannot be copied yet, and fails the task when a step fails', async () => {
    const source = await createDocument();
    // A part without its step (here report views, taken out for the test) is refused before any document is made.
    const before = (await list()).length;
    unregisterReportViewsCopy();
    try {
      const refused = await create(payload({ copy: { sourceDocumentId: source, classifiers: true, schemes: true, reportViews: true } }));
      expectError(refused, 422, 'COPY_PART_NOT_AVAILABLE');
      expect(refused.json().details).toEqual([{ path: 'body.copy.reportViews', message: 'copyPartUnavailable' }]);
    } finally {
      registerDocumentCopyStep('reportViews', copyReportViews);
    }
    expect((await list()).length).toBe(before);
    const off = registerDocumentCopyStep('permissions', async () => {
      throw new Error('boom');
    });
    try {
      const failing = await create(payload({ copy: { sourceDocumentId: source, permissions: true } }));
      expect(await waitForTask(failing.json().taskId)).toMatchObject({ status: 'ERROR', error: 'boom' });
    } finally {
      off();
    }
  });

  it('validates the copy options', async () => {
    const source = await createDocument();
    expectFieldError(await create(payload({ copy: {} })), 'body.copy.sourceDocumentId', 'validation.required');
    expectFieldError(
      await create(payload({ copy: { sourceDocumentId: source, schemes: true } })),
      'body.copy.schemes',
      'validation.copySchemesNeedsClassifiers',
    );
    expectFieldError(
      await create(payload({ copy: { sourceDocumentId: source, classifiers: true, reportViews: true } })),
      'body.copy.reportViews',
      'validation.copyReportViewsNeedsSchemes',
    );
    expectError(await create(payload({ copy: { sourceDocumentId: randomUUID() } })), 404, 'OBJECT_NOT_FOUND');
    const foreign = await createDocument(payload(), admin, otherOrganizationId);
    expectError(await create(payload({ copy: { sourceDocumentId: foreign } })), 404, 'OBJECT_NOT_FOUND');
  });

  it('needs USER_ADMIN, CLASSIFICATION_ADMIN and SCHEMA_ADMIN for the parts that need them', async () => {
    const source = await createDocument();
    // An organisation-update grant: this reader may create documents.
    await fixture.grant(readerOccupationId, [{ update: true }]);
    try {
      expect((await create(payload({ name: 'Granted' }), reader)).statusCode).toBe(201);
      const refused = await create(payload({ copy: { sourceDocumentId: source, permissions: true } }), reader);
      expectError(refused, 403, 'INSUFFICIENT_PERMISSIONS');
      expect(refused.json().details).toEqual([{ path: 'body.copy.permissions', message: 'validation.privilege' }]);
      expectError(await create(payload({ copy: { sourceDocumentId: source, classifiers: true } }), reader), 403, 'INSUFFICIENT_PERMISSIONS');
      expectError(await create(payload({ copy: { sourceDocumentId: source, classifiers: true, schemes: true } }), reader), 403, 'INSUFFICIENT_PERMISSIONS');
      const plain = await create(payload({ copy: { sourceDocumentId: source } }), reader);
      expect(plain.statusCode).toBe(201);
      expect((await waitForTask(plain.json().taskId, reader)).status).toBe('SUCCESS');
    } finally {
      await fixture.grant(readerOccupationId, [{ read: true }]);
    }
    expectError(await create(payload(), reader), 403, 'INSUFFICIENT_PERMISSIONS');
  });
});

describe('remembered document', () => {
  it('remembers a document id as the occupation document', async () => {
    const id = await createDocument();
    const saved = await orgAdmin.request({
      method: 'PUT',
      url: '/api/user-settings',
      payload: { type: 'OCCUPATION_DOCUMENT', settings: { rememberedDocumentId: id } },
    });
    expect(saved.statusCode, saved.body).toBeLessThan(300);
    const read = await orgAdmin.request({ method: 'GET', url: '/api/user-settings?type=OCCUPATION_DOCUMENT' });
    expect(read.statusCode).toBe(200);
    expect(JSON.stringify(read.json())).toContain(id);
    const scoped = await orgAdmin.request({
      method: 'PUT',
      url: '/api/user-settings',
      payload: { type: 'BUDGET_SCHEME', documentId: id, settings: { schemeId: randomUUID() } },
    });
    expect(scoped.statusCode, scoped.body).toBeLessThan(300);
    expect((await orgAdmin.request({ method: 'GET', url: `/api/user-settings?type=BUDGET_SCHEME&documentId=${id}` })).statusCode).toBe(200);
  });
});

describe('resource access (features/permissions/authorize)', () => {
  const authOf = (changes: Partial<AuthContext>): AuthContext => ({
    session: {} as AuthContext['session'],
    userId: randomUUID(),
    occupationId: randomUUID(),
    organizationId,
    privileges: [],
    ...changes,
  });

  it('lets a privilege named by the caller grant update, only inside the organisation', async () => {
    const app = server.app;
    // The reader's occupation, granted read on the organisation, holding SCHEMA_ADMIN.
    const schemaAdmin = authOf({ occupationId: readerOccupationId, privileges: ['SCHEMA_ADMIN'] });
    const resource = { organizationId, documentId: await createDocument() };
    expect(await canAccess(app, schemaAdmin, resource, 'read')).toBe(true);
    expect(await canAccess(app, schemaAdmin, resource, 'update')).toBe(false);
    expect(await canAccess(app, schemaAdmin, resource, 'update', { privileges: ['SCHEMA_ADMIN'] })).toBe(true);
    expect(await canAccess(app, schemaAdmin, { organizationId: otherOrganizationId }, 'read')).toBe(false);
    await expect(assertResourceAccess(app, schemaAdmin, { organizationId: otherOrganizationId }, 'read')).rejects.toMatchObject({ code: 'OBJECT_NOT_FOUND' });
    await expect(assertResourceAccess(app, schemaAdmin, resource, 'update')).rejects.toMatchObject({ code: 'INSUFFICIENT_PERMISSIONS' });
    await expect(assertResourceAccess(app, schemaAdmin, resource, 'update', { privileges: ['SCHEMA_ADMIN'] })).resolves.toMatchObject({ update: true });
    expect(await canAccess(app, authOf({ organizationId: otherOrganizationId, privileges: ['IS_ADMIN'] }), resource, 'update')).toBe(true);
    expect(await findDocumentOrganization(app, resource.documentId)).toBe(organizationId);
    expect(await findDocumentOrganization(app, randomUUID())).toBeNull();
  });

  it('gives an occupation without grants nothing but the organisation itself', async () => {
    const resource = { organizationId, documentId: await createDocument() };
    const member = await fixture.member(organizationId, ['DATA_VIEW']);
    const ungranted = await login(server.app, member.email, PASSWORD);
    expectError(await getDocument(resource.documentId, ungranted), 403, 'INSUFFICIENT_PERMISSIONS');
    expect((await list(ungranted)).map((doc) => doc.id)).not.toContain(resource.documentId);
    // The whole tree is only for those who grant on it (USER_VIEW, USER_ADMIN): others see what they read.
    const all = (await ungranted.request({ method: 'GET', url: `/api/organization/${organizationId}/all-documents` })).json() as Doc[];
    expect(all.map((doc) => doc.id)).not.toContain(resource.documentId);
    // A grant on the document opens it.
    await fixture.grant(member.occupationId, [{ documentId: resource.documentId, read: true }]);
    expect((await getDocument(resource.documentId, ungranted)).statusCode).toBe(200);
    expect((await list(ungranted)).map((doc) => doc.id)).toContain(resource.documentId);
  });
});

describe('documents: copy of classifiers and schemes', () => {
  // biome-ignore lint/suspicious/noExplicitAny: response bodies are checked by value in the assertions.
  const json = async (response: Promise<{ statusCode: number; body: string; json(): any }>, status = 200) => {
    const answered = await response;
    expect(answered.statusCode, answered.body).toBe(status);
    return answered.json();
  };
  const post = (url: string, payload: object) => json(orgAdmin.request({ method: 'POST', url, payload }), 201).then((body) => body.id as string);
  const get = (url: string) => json(orgAdmin.request({ method: 'GET', url }));
  const classifier = (documentId: string, fieldName: string, changes: object = {}) =>
    post(`/api/document/${documentId}/classifier`, {
      name: `Klassifikaator ${fieldName}`,
      itemName: fieldName,
      fieldName,
      required: true,
      codeSettings: { typeName: 'Code', minLength: 1, maxLength: 10, hierarchical: false },
      ...changes,
    });
  const item = (classifierId: string, code: string, changes: object = {}) =>
    post(`/api/classifier/${classifierId}/item`, { code, name: `Nimetus ${code}`, ...changes });

  /** A document with a master classifier grouped by a sign-changing grouping classifier, a second classifier, a scheme with sub-budgets and preselections. */
  async function sourceDocument() {
    const documentId = await createDocument(payload({ name: 'Allikas' }));
    const expense = await classifier(documentId, 'kulu', { displayMode: 'CODE' });
    await json(update(documentId, payload({ name: 'Allikas', masterClassifierId: expense })));
    const group = await classifier(documentId, 'grupp', {
      groupingId: expense,
      itemCanChangeSign: true,
      required: false,
      codeSettings: { typeName: 'Number', minLength: 1, maxLength: 4, hierarchical: true },
    });
    const plus = await item(group, '1', { sign: 1 });
    const minus = await item(group, '2', { sign: -1, description: 'Tulu' });
    await item(group, '3', { unselectable: true });
    await item(expense, '100', { groupedBy: [{ classifierId: group, itemId: plus }] });
    await item(expense, '200', { groupedBy: [{ classifierId: group, itemId: minus }] });
    const unit = await classifier(documentId, 'asutus', { required: false });
    await item(unit, 'A');
    await item(unit, 'B');
    const scheme = await post(`/api/document/${documentId}/schema`, {
      name: 'Kulud asutuseti',
      description: 'Skeem',
      classifierList: [
        { classifierId: expense, type: 'MAIN' },
        { classifierId: unit, type: 'SECONDARY' },
      ],
    });
    const first = await post(`/api/schema/${scheme}/sub-budget`, { name: 'Personal', classifiers: { [expense]: '100', [unit]: 'A' } });
    await post(`/api/schema/${scheme}/sub-budget`, { name: 'Majandus', classifiers: { [expense]: '200' } });
    await json(
      orgAdmin.request({ method: 'PUT', url: `/api/sub-budget/${first}/classifier-preselections`, payload: { preselections: { [unit]: ['A', 'B'] } } }),
    );
    return { documentId, expense, group, unit, scheme };
  }

  it('copies classifiers with their items, groupings, signs and master, and schemes with sub-budgets and preselections', async () => {
    const source = await sourceDocument();
    const response = await create(payload({ name: 'Koopia', copy: { sourceDocumentId: source.documentId, classifiers: true, schemes: true } }));
    expect(response.statusCode, response.body).toBe(201);
    const { id: copyId, taskId } = response.json();
    const task = await waitForTask(taskId);
    expect(task.status, JSON.stringify(task)).toBe('SUCCESS');
    expect(task.steps.map((step: { name: string; status: string }) => `${step.name}:${step.status}`)).toEqual([
      'classifiers:SUCCESS',
      'masterClassifier:SUCCESS',
      'schemes:SUCCESS',
    ]);

    const sourceClassifiers = await get(`/api/document/${source.documentId}/classifiers?includeMeta=true`);
    const copied = await get(`/api/document/${copyId}/classifiers?includeMeta=true`);
    const byField = (list: { fieldName: string }[]) => new Map(list.map((entry) => [entry.fieldName, entry]));
    // biome-ignore lint/suspicious/noExplicitAny: compared field by field below.
    const original = byField(sourceClassifiers) as Map<string, any>;
    // biome-ignore lint/suspicious/noExplicitAny: compared field by field below.
    const copies = byField(copied) as Map<string, any>;
    expect([...copies.keys()].sort()).toEqual(['asutus', 'grupp', 'kulu']);
    const expense = copies.get('kulu');
    const group = copies.get('grupp');
    const unit = copies.get('asutus');
    for (const copy of [expense, group, unit]) expect(copy.id).not.toBe(original.get(copy.fieldName).id);
    const { id: _a, documentId: _b, groupingId: _c, groupedByIds: _d, primaryGroupedById: _e, ...expenseRest } = original.get('kulu');
    expect(expense).toMatchObject({ ...expenseRest, documentId: copyId, master: true, groupedByIds: [group.id], itemsCount: 2 });
    expect(group).toMatchObject({
      documentId: copyId,
      groupingId: expense.id,
      itemCanChangeSign: true,
      codeSettings: { typeName: 'Number', hierarchical: true },
    });
    expect((await getDocument(copyId)).json().masterClassifierId).toBe(expense.id);

    const groupItems = await get(`/api/classifier/${group.id}/items`);
    expect(groupItems.map((entry: object) => ({ ...entry, id: undefined }))).toEqual([
      expect.objectContaining({ code: '1', sign: 1, unselectable: false, classifierId: group.id }),
      expect.objectContaining({ code: '2', sign: -1, unselectable: false, description: 'Tulu', classifierId: group.id }),
      expect.objectContaining({ code: '3', sign: 1, unselectable: true, classifierId: group.id }),
    ]);
    const expenseItems = await get(`/api/classifier/${expense.id}/items`);
    const groupItemId = (code: string) => groupItems.find((entry: { code: string }) => entry.code === code).id;
    expect(expenseItems.map((entry: { code: string; groupedBy: object[] }) => [entry.code, entry.groupedBy])).toEqual([
      ['100', [{ classifierId: group.id, id: groupItemId('1'), code: '1', sign: 1 }]],
      ['200', [{ classifierId: group.id, id: groupItemId('2'), code: '2', sign: -1 }]],
    ]);

    const schemes = await get(`/api/document/${copyId}/schemas`);
    expect(schemes).toHaveLength(1);
    expect(schemes[0]).toMatchObject({
      name: 'Kulud asutuseti',
      description: 'Skeem',
      documentId: copyId,
      classifierList: [
        { classifierId: expense.id, type: 'MAIN' },
        { classifierId: unit.id, type: 'SECONDARY' },
      ],
    });
    expect(schemes[0].id).not.toBe(source.scheme);
    const subBudgets = await get(`/api/schema/${schemes[0].id}/sub-budgets`);
    expect(subBudgets.map((entry: { name: string; classifiers: object }) => [entry.name, entry.classifiers]).sort()).toEqual([
      ['Majandus', { [expense.id]: '200' }],
      ['Personal', { [expense.id]: '100', [unit.id]: 'A' }],
    ]);
    const personal = subBudgets.find((entry: { name: string }) => entry.name === 'Personal');
    expect(await get(`/api/sub-budget/${personal.id}/classifier-preselections`)).toMatchObject({ preselections: { [unit.id]: ['A', 'B'] } });

    // The copy is a document of its own: its field names are claimed there, the source is untouched.
    expectError(
      await orgAdmin.request({
        method: 'POST',
        url: `/api/document/${copyId}/classifier`,
        payload: { name: 'Veel', itemName: 'x', fieldName: 'KULU', codeSettings: { typeName: 'Code', minLength: 1, maxLength: 10, hierarchical: false } },
      }),
      409,
      'FIELD_NAME_NOT_UNIQUE',
    );
    expect(await get(`/api/document/${source.documentId}/classifiers`)).toHaveLength(3);
    expect(await get(`/api/schema/${source.scheme}/sub-budgets`)).toHaveLength(2);
    // The copy's rules hold on the copied state: combinations stay unique, a scheme with sub-budgets keeps its classifiers.
    expectError(
      await orgAdmin.request({
        method: 'POST',
        url: `/api/schema/${schemes[0].id}/sub-budget`,
        payload: { name: 'Teine', classifiers: { [expense.id]: '100', [unit.id]: 'A' } },
      }),
      409,
      'SUB_BUDGET_NOT_UNIQUE',
    );
    expectError(
      await orgAdmin.request({
        method: 'PUT',
        url: `/api/schema/${schemes[0].id}`,
        payload: { name: 'Kulud', fieldName: schemes[0].fieldName, classifierList: [{ classifierId: expense.id, type: 'MAIN' }] },
      }),
      422,
      'SCHEME_HAS_SUB_BUDGETS',
    );
  });

  it('tells the create form which parts a copy can take now', async () => {
    expect(await get('/api/document-copy/parts')).toEqual({ parts: ['classifiers', 'schemes', 'permissions', 'reportViews'] });
    unregisterReportViewsCopy();
    try {
      expect(await get('/api/document-copy/parts')).toEqual({ parts: ['classifiers', 'schemes', 'permissions'] });
    } finally {
      registerDocumentCopyStep('reportViews', copyReportViews);
    }
    expect((await server.app.inject({ method: 'GET', url: '/api/document-copy/parts' })).statusCode).toBe(401);
  });

  it('copies classifiers alone, leaving schemes out', async () => {
    const source = await sourceDocument();
    const response = await create(payload({ name: 'Ainult klassifikaatorid', copy: { sourceDocumentId: source.documentId, classifiers: true } }));
    const task = await waitForTask(response.json().taskId);
    expect(task.status).toBe('SUCCESS');
    expect(await get(`/api/document/${response.json().id}/classifiers`)).toHaveLength(3);
    expect(await get(`/api/document/${response.json().id}/schemas`)).toEqual([]);
  });
});
