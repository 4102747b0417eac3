import { randomUUID } from 'node:crypto';
import { documentDecider } from '@eelarve/domain';
import { formatPosition } from '@eelarve/eventstore';
import { DEFAULT_RESOURCE_STATUSES } from '@eelarve/shared';
import { accountsFixture, organizationPayload, PASSWORD } from '@eelarve/testing/accounts';
import { startTestServer, type TestServer } from '@eelarve/testing/server';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { executeCommand } from '../src/infrastructure/commands';
import { type Client, login } from './helpers';

/**
 * The status field of the document and budget forms (issue 10, point 5; spec 2, section 2):
 * required when the organisation uses statuses, and only a status of the organisation (a default
 * one or its own) is taken. An organisation without statuses has none, so any id is refused there.
 */

let server: TestServer;
let admin: Client;
let fixture: ReturnType<typeof accountsFixture>;
/** Uses statuses; has an own status. */
let withStatuses: string;
/** Uses statuses too; its own status must not be usable elsewhere. */
let other: string;
/** Does not use statuses. */
let without: string;
let editor: Client;
let withoutEditor: Client;
let ownStatusId: string;
let otherOwnStatusId: string;

const inPreparation = DEFAULT_RESOURCE_STATUSES[0]!.id;
const approved = DEFAULT_RESOURCE_STATUSES[2]!.id;

async function organization(enableStatuses: boolean): Promise<string> {
  const id = await fixture.organization();
  const payload = { ...organizationPayload(`Statuses ${randomUUID().slice(0, 8)}`), enableResourceStatuses: enableStatuses, allowResourceStatusEditing: true };
  const response = await admin.request({ method: 'PUT', url: `/api/organization/${id}`, payload });
  expect(response.statusCode, response.body).toBe(200);
  return id;
}

async function memberOf(organizationId: string, privileges: string[]): Promise<Client> {
  const member = await fixture.member(organizationId, privileges);
  return login(server.app, member.email, PASSWORD);
}

/**
 * The platform administrator in the organisation's ADMIN occupation: creates and edits everything
 * there. The assignment is made from the platform session; a new login then has several
 * occupations, so it switches to this one explicitly.
 */
async function adminOf(organizationId: string): Promise<Client> {
  const assigned = await admin.request({ method: 'POST', url: `/api/admin/${organizationId}` });
  expect(assigned.statusCode, assigned.body).toBe(200);
  const occupation = await server.app.db
    .withSchema('read')
    .selectFrom('occupations')
    .select('id')
    .where('organization_id', '=', organizationId)
    .where('type', '=', 'ADMIN')
    .executeTakeFirstOrThrow();
  const client = await login(server.app, server.admin.email, server.admin.password);
  const switched = await client.request({ method: 'POST', url: '/api/auth/switch', payload: { occupationId: occupation.id } });
  expect(switched.statusCode, switched.body).toBe(200);
  return client;
}

/**
 * A document budgets can be created in: it needs a master classifier, which only a classifier the
 * document owns can be through the API, so its events are appended directly (as budgets.test does).
 */
async function budgetDocument(organizationId: string): Promise<string> {
  const documentId = randomUUID();
  const actor = { correlationId: 'resource-status-fields-test', userId: null, occupationId: null, organizationId: null };
  const settings = {
    name: 'Eelarve 2027',
    description: '',
    period: { year: 2027, month: 1, duration: 1 },
    recordAmountKey: 'summa',
    allowCommentingWithReadPermissions: false,
  };
  await executeCommand(server.app.store, documentDecider, { type: 'CreateDocument', documentId, organizationId, now: new Date(), ...settings }, actor);
  const outcome = await executeCommand(
    server.app.store,
    documentDecider,
    { type: 'UpdateDocument', documentId, masterClassifierId: randomUUID(), recordsCount: 0, platformAdmin: true, resourceStatusId: null, ...settings },
    actor,
  );
  if (outcome.position) await server.app.projections.waitForPosition(['documents'], outcome.position, 5_000);
  return documentId;
}

async function ownStatus(organizationId: string): Promise<string> {
  const statusAdmin = await memberOf(organizationId, ['STATUS_ADMIN']);
  const payload = { name: { et: 'Ülevaatusel', en: 'In review' }, description: { et: 'Osakond vaatab üle', en: '' }, icon: 'flag', rules: [] };
  const response = await statusAdmin.request({ method: 'POST', url: '/api/resource-statuses', payload });
  expect(response.statusCode, response.body).toBe(201);
  return response.json().id;
}

beforeAll(async () => {
  server = await startTestServer({ listen: false });
  admin = await login(server.app, server.admin.email, server.admin.password);
  fixture = accountsFixture(server.app, admin);
  [withStatuses, other, without] = [await organization(true), await organization(true), await organization(false)];
  [ownStatusId, otherOwnStatusId] = [await ownStatus(withStatuses), await ownStatus(other)];
  editor = await adminOf(withStatuses);
  withoutEditor = await adminOf(without);
}, 60_000);
afterAll(async () => server?.close());

type Response = LightMyRequestResponse;

const documentPayload = (changes: object = {}) => ({ name: 'Eelarve 2027', description: '', period: { year: 2027, month: 1, duration: 1 }, ...changes });
const budgetPayload = (changes: object = {}) => ({ type: 'COMMON', name: 'Operating budget', description: '', ...changes });

const createDocument = (payload: object, client = editor, organizationId = withStatuses) =>
  client.request({ method: 'POST', url: `/api/organization/${organizationId}/document`, payload });
const updateDocument = (id: string, payload: object, client = editor) => client.request({ method: 'PUT', url: `/api/document/${id}`, payload });
const createBudget = (documentId: string, payload: object, client = editor) =>
  client.request({ method: 'POST', url: `/api/document/${documentId}/budget`, payload });
const updateBudget = (id: string, payload: object, client = editor) => client.request({ method: 'PUT', url: `/api/budget/${id}`, payload });

function createdId(response: Response): string {
  expect(response.statusCode, response.body).toBe(201);
  return response.json().id;
}

/** The response is the field error, and the request appended nothing. */
async function expectRefused(send: () => Promise<Response>, status: number, code: string, message?: string) {
  const before = formatPosition(await server.app.store.headPosition());
  const response = await send();
  const body = response.json();
  expect({ status: response.statusCode, code: body.code }, response.body).toEqual({ status, code });
  const issue = (body.details as { path: string; message: string }[]).find((detail) => detail.path === 'body.resourceStatusId');
  expect(issue, response.body).toBeDefined();
  if (message) expect(issue?.message).toBe(message);
  expect(formatPosition(await server.app.store.headPosition()), 'appended').toBe(before);
}

const get = async (client: Client, url: string) => {
  const response = await client.request({ method: 'GET', url });
  expect(response.statusCode, response.body).toBe(200);
  return response.json();
};

/** Ids that name no status of the organisation using statuses (read when the test runs, after setup). */
const foreignIds = (): [string, () => string][] => [
  ['an unknown id', () => randomUUID()],
  ["another organisation's own status", () => otherOwnStatusId],
];

describe('documents in an organisation that uses statuses', () => {
  it('creates and edits with a default or an own status, which detail and list show', async () => {
    const id = createdId(await createDocument(documentPayload({ resourceStatusId: inPreparation })));
    expect((await get(editor, `/api/document/${id}`)).resourceStatusId).toBe(inPreparation);
    expect(await updateDocument(id, documentPayload({ resourceStatusId: ownStatusId }))).toMatchObject({ statusCode: 200 });
    expect((await get(editor, `/api/document/${id}`)).resourceStatusId).toBe(ownStatusId);
    const listed = (await get(editor, `/api/organization/${withStatuses}/documents`)).find((document: { id: string }) => document.id === id);
    expect(listed.resourceStatusId).toBe(ownStatusId);
  });

  it('requires the status on create and on edit', async () => {
    await expectRefused(() => createDocument(documentPayload()), 400, 'SCHEMA_VALIDATION_ERROR', 'validation.required');
    await expectRefused(() => createDocument(documentPayload({ resourceStatusId: null })), 400, 'SCHEMA_VALIDATION_ERROR', 'validation.required');
    const id = createdId(await createDocument(documentPayload({ resourceStatusId: approved })));
    await expectRefused(() => updateDocument(id, documentPayload()), 400, 'SCHEMA_VALIDATION_ERROR', 'validation.required');
    expect((await get(editor, `/api/document/${id}`)).resourceStatusId).toBe(approved);
  });

  it.each(foreignIds())('refuses %s on create and on edit', async (_, statusId) => {
    await expectRefused(() => createDocument(documentPayload({ resourceStatusId: statusId() })), 404, 'RESOURCE_STATUS_NOT_FOUND');
    const id = createdId(await createDocument(documentPayload({ resourceStatusId: inPreparation })));
    await expectRefused(() => updateDocument(id, documentPayload({ resourceStatusId: statusId() })), 404, 'RESOURCE_STATUS_NOT_FOUND');
    expect((await get(editor, `/api/document/${id}`)).resourceStatusId).toBe(inPreparation);
  });
});

describe('budgets in an organisation that uses statuses', () => {
  let documentId: string;
  beforeAll(async () => {
    documentId = await budgetDocument(withStatuses);
  });

  it('creates and edits with a default or an own status, which detail and list show', async () => {
    const id = createdId(await createBudget(documentId, budgetPayload({ resourceStatusId: ownStatusId })));
    expect((await get(editor, `/api/budget/${id}`)).resourceStatusId).toBe(ownStatusId);
    expect(await updateBudget(id, budgetPayload({ resourceStatusId: approved }))).toMatchObject({ statusCode: 200 });
    expect((await get(editor, `/api/budget/${id}`)).resourceStatusId).toBe(approved);
    const listed = (await get(editor, `/api/document/${documentId}/budgets`)).find((budget: { id: string }) => budget.id === id);
    expect(listed.resourceStatusId).toBe(approved);
  });

  it('requires the status on create and on edit', async () => {
    await expectRefused(() => createBudget(documentId, budgetPayload()), 400, 'SCHEMA_VALIDATION_ERROR', 'validation.required');
    const id = createdId(await createBudget(documentId, budgetPayload({ resourceStatusId: inPreparation })));
    await expectRefused(() => updateBudget(id, budgetPayload({ resourceStatusId: null })), 400, 'SCHEMA_VALIDATION_ERROR', 'validation.required');
    expect((await get(editor, `/api/budget/${id}`)).resourceStatusId).toBe(inPreparation);
  });

  it.each(foreignIds())('refuses %s on create and on edit', async (_, statusId) => {
    await expectRefused(() => createBudget(documentId, budgetPayload({ resourceStatusId: statusId() })), 404, 'RESOURCE_STATUS_NOT_FOUND');
    const id = createdId(await createBudget(documentId, budgetPayload({ resourceStatusId: inPreparation })));
    await expectRefused(() => updateBudget(id, budgetPayload({ resourceStatusId: statusId() })), 404, 'RESOURCE_STATUS_NOT_FOUND');
    expect((await get(editor, `/api/budget/${id}`)).resourceStatusId).toBe(inPreparation);
  });
});

describe('an organisation that does not use statuses', () => {
  it('creates and edits documents and budgets without a status', async () => {
    const documentId = createdId(await createDocument(documentPayload(), withoutEditor, without));
    expect(await updateDocument(documentId, documentPayload({ name: 'Renamed' }), withoutEditor)).toMatchObject({ statusCode: 200 });
    expect((await get(withoutEditor, `/api/document/${documentId}`)).resourceStatusId).toBeNull();
    const budgetDocumentId = await budgetDocument(without);
    const budgetId = createdId(await createBudget(budgetDocumentId, budgetPayload(), withoutEditor));
    expect(await updateBudget(budgetId, budgetPayload({ name: 'Renamed' }), withoutEditor)).toMatchObject({ statusCode: 200 });
    expect((await get(withoutEditor, `/api/budget/${budgetId}`)).resourceStatusId).toBeNull();
  });

  it('refuses any status id, a default one too: the organisation has no statuses', async () => {
    await expectRefused(() => createDocument(documentPayload({ resourceStatusId: inPreparation }), withoutEditor, without), 404, 'RESOURCE_STATUS_NOT_FOUND');
    const documentId = createdId(await createDocument(documentPayload(), withoutEditor, without));
    await expectRefused(() => updateDocument(documentId, documentPayload({ resourceStatusId: approved }), withoutEditor), 404, 'RESOURCE_STATUS_NOT_FOUND');
    const budgetDocumentId = await budgetDocument(without);
    await expectRefused(
      () => createBudget(budgetDocumentId, budgetPayload({ resourceStatusId: ownStatusId }), withoutEditor),
      404,
      'RESOURCE_STATUS_NOT_FOUND',
    );
    const budgetId = createdId(await createBudget(budgetDocumentId, budgetPayload(), withoutEditor));
    await expectRefused(() => updateBudget(budgetId, budgetPayload({ resourceStatusId: inPreparation }), withoutEditor), 404, 'RESOURCE_STATUS_NOT_FOUND');
  });
});
