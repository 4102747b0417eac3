import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { schemesFixture } from '@eelarve/testing/schemes';
import type { TestServer } from '@eelarve/testing/server';
import type { Client } from './helpers';
import { schemesWorld } from './schemes-world';

/**
 * Issue 8, finding 11: retrying an import that already succeeded (its answer got lost) answers the
 * same success, marked as already done, and appends nothing; before, it answered 422 because the
 * first attempt had already added the codes / sub-budgets.
 */
let server: TestServer;
let admin: Client;
let schemaAdmin: Client;
let fixture: ReturnType<typeof schemesFixture>;
let organizationId: string;

beforeAll(async () => {
  ({ server, admin, fixture, organizationId, schemaAdmin } = await schemesWorld('Tartu Linnavalitsus', 'Võru Vallavalitsus'));
});
afterAll(async () => server?.close());

const eventCount = async () =>
  Number(
    (
      await server.app.db
        .selectFrom('eventstore.events' as never)
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );

describe('classifier item import', () => {
  const importItems = (classifierId: string, payload: object) => admin.request({ method: 'POST', url: `/api/classifier/${classifierId}/items`, payload });

  it('answers a retry with the first result and imports nothing twice', async () => {
    const documentId = await fixture.document(organizationId);
    const classifierId = await fixture.classifier(documentId, organizationId, 'tegevusala', { '01': false });
    const body = {
      importId: randomUUID(),
      items: [
        { code: '02', name: 'Teine', unselectable: false },
        { code: '03', name: 'Kolmas', unselectable: false },
      ],
    };

    const first = await importItems(classifierId, body);
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json()).toMatchObject({ imported: 2, skipped: [] });
    expect(first.json().alreadyDone).toBeUndefined();
    const events = await eventCount();

    const retry = await importItems(classifierId, body);
    expect(retry.statusCode, retry.body).toBe(200);
    expect(retry.json()).toEqual({ ...first.json(), alreadyDone: true });
    expect(await eventCount()).toBe(events);
    const items = (await admin.request({ method: 'GET', url: `/api/classifier/${classifierId}/items` })).json();
    expect(items.map((item: { code: string }) => item.code).sort()).toEqual(['01', '02', '03']);

    // Another attempt (a new import id) with the same rows is a new import: the codes exist now.
    const again = await importItems(classifierId, { ...body, importId: randomUUID() });
    expect({ status: again.statusCode, code: again.json().code }).toEqual({ status: 422, code: 'CLASSIFIER_IMPORT_INVALID' });
  });

  it('lets a retry of a failed import run again, and concurrent retries import once', async () => {
    const documentId = await fixture.document(organizationId);
    const classifierId = await fixture.classifier(documentId, organizationId, 'allikas', { A: false });
    const importId = randomUUID();
    const failing = await importItems(classifierId, { importId, items: [{ code: 'A', name: 'Olemas', unselectable: false }] });
    expect(failing.statusCode, failing.body).toBe(422);

    const body = { importId, items: [{ code: 'B', name: 'Uus', unselectable: false }] };
    const answers = await Promise.all(Array.from({ length: 4 }, () => importItems(classifierId, body)));
    for (const answer of answers) expect(answer.statusCode, answer.body).toBe(200);
    expect(answers.map((answer) => answer.json().imported)).toEqual([1, 1, 1, 1]);
    expect(answers.filter((answer) => answer.json().alreadyDone === true)).toHaveLength(3);
    const items = (await admin.request({ method: 'GET', url: `/api/classifier/${classifierId}/items` })).json();
    expect(items.map((item: { code: string }) => item.code).sort()).toEqual(['A', 'B']);
  });
});

describe('sub-budget import', () => {
  it('answers a retry with the first result and imports nothing twice', async () => {
    const documentId = await fixture.document(organizationId);
    const kind = await fixture.classifier(documentId, organizationId, 'tegevusala', { '01': false, '02': false });
    await fixture.setMaster(documentId, kind);
    const created = await schemaAdmin.request({
      method: 'POST',
      url: `/api/document/${documentId}/schema`,
      payload: { name: 'Kulud', classifierList: [{ classifierId: kind, type: 'MAIN' }] },
    });
    expect(created.statusCode, created.body).toBe(201);
    const schemeId = created.json().id;
    const body = {
      importId: randomUUID(),
      importType: 'SUB_BUDGETS_WITH_PRESELECTIONS',
      list: [
        { name: 'Haridus', classifiers: { tegevusala: '01' } },
        { name: 'Sotsiaal', classifiers: { tegevusala: '02' } },
      ],
    };
    const importRows = () => schemaAdmin.request({ method: 'POST', url: `/api/schema/${schemeId}/sub-budgets/import`, payload: body });

    const first = await importRows();
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json().imported).toBe(2);
    const events = await eventCount();

    const retry = await importRows();
    expect(retry.statusCode, retry.body).toBe(200);
    expect(retry.json()).toEqual({ ...first.json(), alreadyDone: true });
    expect(await eventCount()).toBe(events);
    const rows = (await schemaAdmin.request({ method: 'GET', url: `/api/schema/${schemeId}/sub-budgets` })).json();
    expect(rows.map((row: { name: string }) => row.name)).toEqual(['Haridus', 'Sotsiaal']);
  });
});
