import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { schemesFixture } from '@eelarve/testing/schemes';
import type { TestServer } from '@eelarve/testing/server';
import type { Client } from './helpers';
import { schemesWorld } from './schemes-world';

let server: TestServer;
let fixture: ReturnType<typeof schemesFixture>;
let organizationId: string;
let documentId: string;
let kind: string;
let source: string;
/** SCHEMA_ADMIN in the organisation. */
let schemaAdmin: Client;
/** SCHEMA_VIEW only. */
let schemaViewer: Client;
/** SCHEMA_ADMIN in another organisation. */
let outsider: Client;

beforeAll(async () => {
  ({ server, fixture, organizationId, schemaAdmin, schemaViewer, outsider } = await schemesWorld('Tartu Linnavalitsus', 'Narva Linnavalitsus'));
  documentId = await fixture.document(organizationId);
  kind = await fixture.classifier(documentId, organizationId, 'tegevusala', { '01': false, '02': false });
  source = await fixture.classifier(documentId, organizationId, 'allikas', { A: false }, false);
  await fixture.setMaster(documentId, kind);
});
afterAll(async () => server?.close());

type SchemeRow = {
  id: string;
  name: string;
  fieldName: string;
  description: string;
  displayOrder: number;
  classifierList: { classifierId: string; type: string }[];
  subBudgetsCount: number;
};

function expectError(response: { statusCode: number; json(): { code: string } }, status: number, code: string) {
  expect({ status: response.statusCode, code: response.json().code }).toEqual({ status, code });
}

const createScheme = (payload: object, client: Client = schemaAdmin, document = documentId) =>
  client.request({ method: 'POST', url: `/api/document/${document}/schema`, payload });
const updateScheme = (schemeId: string, payload: object, client: Client = schemaAdmin) =>
  client.request({ method: 'PUT', url: `/api/schema/${schemeId}`, payload });
const deleteScheme = (schemeId: string, client: Client = schemaAdmin) => client.request({ method: 'DELETE', url: `/api/schema/${schemeId}` });

async function schemes(client: Client = schemaAdmin, document = documentId): Promise<SchemeRow[]> {
  const response = await client.request({ method: 'GET', url: `/api/document/${document}/schemas` });
  expect(response.statusCode).toBe(200);
  return response.json();
}

async function created(response: { statusCode: number; body: string; json(): { id: string } }): Promise<string> {
  expect(response.statusCode, response.body).toBe(201);
  return response.json().id;
}

describe('schemes: create, list, update', () => {
  it('creates a scheme, deriving the technical name from the name', async () => {
    const document = await fixture.document(organizationId);
    const id = await created(await createScheme({ name: 'Kulud ja tulud 2026!', classifierList: [] }, schemaAdmin, document));
    expect(await schemes(schemaAdmin, document)).toEqual([
      {
        id,
        documentId: document,
        organizationId,
        name: 'Kulud ja tulud 2026!',
        fieldName: 'kulud_ja_tulud_2026',
        description: '',
        displayOrder: 1,
        classifierList: [],
        subBudgetsCount: 0,
      },
    ]);
  });

  it('keeps names and technical names unique within the document, but not across documents', async () => {
    const document = await fixture.document(organizationId);
    await created(await createScheme({ name: 'Põhi', fieldName: 'pohi' }, schemaAdmin, document));
    const duplicate = await createScheme({ name: ' PÕHI ', fieldName: 'other' }, schemaAdmin, document);
    expectError(duplicate, 409, 'SCHEME_NAME_NOT_UNIQUE');
    expect(duplicate.json().message).toBe('nameNotUnique');
    expectError(await createScheme({ name: 'Teine', fieldName: 'POHI' }, schemaAdmin, document), 409, 'SCHEME_FIELD_NAME_NOT_UNIQUE');
    await created(await createScheme({ name: 'Põhi', fieldName: 'pohi' }, schemaAdmin, await fixture.document(organizationId)));
  });

  it('answers 400 with field paths for bad input', async () => {
    const response = await createScheme({ name: '', fieldName: '1abc', classifierList: [{ classifierId: 'x', type: 'OTHER' }] });
    expectError(response, 400, 'SCHEMA_VALIDATION_ERROR');
    const paths = response.json().details.map((issue: { path: string }) => issue.path);
    expect(paths).toEqual(expect.arrayContaining(['body.name', 'body.fieldName', 'body.classifierList.0.classifierId', 'body.classifierList.0.type']));
    // A name from which no valid technical name can be derived.
    const derived = await createScheme({ name: '2026' });
    expectError(derived, 400, 'SCHEMA_VALIDATION_ERROR');
    expect(derived.json().details).toEqual([{ path: 'body.fieldName', message: 'validation.fieldName' }]);
    const secondaryOnly = await createScheme({ name: 'Ainult lisa', classifierList: [{ classifierId: source, type: 'SECONDARY' }] });
    expectError(secondaryOnly, 400, 'SCHEMA_VALIDATION_ERROR');
    expect(secondaryOnly.json().details[0].message).toBe('validation.mainClassifierRequired');
    expectError(await schemaAdmin.request({ method: 'PUT', url: '/api/schema/not-a-uuid', payload: {} }), 400, 'SCHEMA_VALIDATION_ERROR');
  });

  it('refuses classifiers of another document', async () => {
    const other = await fixture.document(organizationId);
    const foreign = await fixture.classifier(other, organizationId, 'muu', { X: false });
    const response = await createScheme({ name: 'Võõras', classifierList: [{ classifierId: foreign, type: 'MAIN' }] });
    expectError(response, 422, 'CLASSIFIER_MISSING');
    expect(response.json().details).toEqual([{ path: 'body.classifierList.0.classifierId', message: 'classifierMissing' }]);
  });

  it('updates a scheme, which the next read shows', async () => {
    const id = await created(await createScheme({ name: 'Muudetav', classifierList: [{ classifierId: kind, type: 'MAIN' }] }));
    const response = await updateScheme(id, {
      name: 'Muudetud',
      fieldName: 'muudetud',
      description: 'Uus kirjeldus',
      classifierList: [
        { classifierId: kind, type: 'MAIN' },
        { classifierId: source, type: 'SECONDARY' },
      ],
    });
    expect(response.statusCode, response.body).toBe(200);
    expect((await schemes()).find((scheme) => scheme.id === id)).toMatchObject({
      name: 'Muudetud',
      fieldName: 'muudetud',
      description: 'Uus kirjeldus',
      classifierList: [
        { classifierId: kind, type: 'MAIN' },
        { classifierId: source, type: 'SECONDARY' },
      ],
    });
  });

  it('reorders the schemes', async () => {
    const document = await fixture.document(organizationId);
    const first = await created(await createScheme({ name: 'Esimene' }, schemaAdmin, document));
    const second = await created(await createScheme({ name: 'Teine' }, schemaAdmin, document));
    expect((await schemes(schemaAdmin, document)).map((scheme) => scheme.id)).toEqual([first, second]);
    const response = await schemaAdmin.request({
      method: 'PUT',
      url: `/api/document/${document}/schema-display-order`,
      payload: [
        { id: first, displayOrder: 2 },
        { id: second, displayOrder: 1 },
      ],
    });
    expect(response.statusCode, response.body).toBe(200);
    expect((await schemes(schemaAdmin, document)).map((scheme) => scheme.id)).toEqual([second, first]);
    const unknown = await schemaAdmin.request({
      method: 'PUT',
      url: `/api/document/${document}/schema-display-order`,
      payload: [{ id: crypto.randomUUID(), displayOrder: 1 }],
    });
    expectError(unknown, 404, 'SCHEME_NOT_FOUND');
  });

  it("lists the organisation's schemes", async () => {
    const response = await schemaViewer.request({ method: 'GET', url: `/api/organization/${organizationId}/schemas` });
    expect(response.statusCode).toBe(200);
    expect(response.json().length).toBeGreaterThan(0);
    expect(response.json().every((scheme: { organizationId: string }) => scheme.organizationId === organizationId)).toBe(true);
  });
});

describe('schemes: delete', () => {
  it('never deletes the last scheme of a document', async () => {
    const document = await fixture.document(organizationId);
    const first = await created(await createScheme({ name: 'Esimene' }, schemaAdmin, document));
    const second = await created(await createScheme({ name: 'Teine' }, schemaAdmin, document));
    expect((await deleteScheme(first)).statusCode).toBe(200);
    expectError(await deleteScheme(second), 422, 'LAST_SCHEME');
    expect((await schemes(schemaAdmin, document)).map((scheme) => scheme.id)).toEqual([second]);
    expectError(await deleteScheme(first), 404, 'SCHEME_NOT_FOUND');
  });

  it('neither deletes a scheme with sub-budgets nor changes its classifiers', async () => {
    const id = await created(await createScheme({ name: 'Alameelarvetega', classifierList: [{ classifierId: kind, type: 'MAIN' }] }));
    await created(await createScheme({ name: 'Veel üks' }));
    const subBudget = await schemaAdmin.request({
      method: 'POST',
      url: `/api/schema/${id}/sub-budget`,
      payload: { name: 'Haridus', classifiers: { [kind]: '01' } },
    });
    expect(subBudget.statusCode, subBudget.body).toBe(201);
    expectError(await deleteScheme(id), 422, 'SCHEME_HAS_SUB_BUDGETS');
    expectError(
      await updateScheme(id, {
        name: 'Alameelarvetega',
        fieldName: 'alameelarvetega',
        classifierList: [
          { classifierId: kind, type: 'MAIN' },
          { classifierId: source, type: 'SECONDARY' },
        ],
      }),
      422,
      'SCHEME_HAS_SUB_BUDGETS',
    );
    // The name may still change.
    expect(
      (await updateScheme(id, { name: 'Ümber nimetatud', fieldName: 'alameelarvetega', classifierList: [{ classifierId: kind, type: 'MAIN' }] })).statusCode,
    ).toBe(200);
    expect((await schemes()).find((scheme) => scheme.id === id)?.subBudgetsCount).toBe(1);
  });
});

describe('schemes: access', () => {
  it('needs SCHEMA_ADMIN to edit; SCHEMA_VIEW reads', async () => {
    expect((await schemes(schemaViewer)).length).toBeGreaterThan(0);
    expectError(await createScheme({ name: 'Vaataja' }, schemaViewer), 403, 'INSUFFICIENT_PERMISSIONS');
    const id = (await schemes())[0]!.id;
    expectError(await updateScheme(id, { name: 'x', fieldName: 'x' }, schemaViewer), 403, 'INSUFFICIENT_PERMISSIONS');
    expectError(await deleteScheme(id, schemaViewer), 403, 'INSUFFICIENT_PERMISSIONS');
  });

  it("hides another organisation's document and schemes (404)", async () => {
    const id = (await schemes())[0]!.id;
    expectError(await outsider.request({ method: 'GET', url: `/api/document/${documentId}/schemas` }), 404, 'OBJECT_NOT_FOUND');
    expectError(await createScheme({ name: 'Sissetung' }, outsider), 404, 'OBJECT_NOT_FOUND');
    expectError(await updateScheme(id, { name: 'Sissetung', fieldName: 'sissetung' }, outsider), 404, 'SCHEME_NOT_FOUND');
    expectError(await deleteScheme(id, outsider), 404, 'SCHEME_NOT_FOUND');
    expectError(await outsider.request({ method: 'GET', url: `/api/organization/${organizationId}/schemas` }), 404, 'OBJECT_NOT_FOUND');
    expectError(
      await outsider.request({ method: 'PUT', url: `/api/document/${documentId}/schema-display-order`, payload: [{ id, displayOrder: 1 }] }),
      404,
      'OBJECT_NOT_FOUND',
    );
  });

  it('answers 404 for a document that does not exist', async () => {
    expectError(await schemaAdmin.request({ method: 'GET', url: `/api/document/${crypto.randomUUID()}/schemas` }), 404, 'OBJECT_NOT_FOUND');
    expectError(await createScheme({ name: 'Eikuskil' }, schemaAdmin, crypto.randomUUID()), 404, 'OBJECT_NOT_FOUND');
  });
});
