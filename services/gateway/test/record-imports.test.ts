import { randomBytes, randomUUID } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import { recordImportStreamName } from '@eelarve/domain';
import { importedRecordId } from '@eelarve/domain/records/import';
import type { ImportRow } from '@eelarve/shared';
import { startWorker } from '@eelarve/testing/worker';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PASSWORD } from '@eelarve/testing/accounts';
import { type Client, login } from './helpers';
import { type SchemesWorld, schemesWorld } from './schemes-world';

/**
 * Record imports through the HTTP API on a real PostgreSQL (issue 11, point 4): the gzip JSON
 * body, the job in the worker, every message key of spec 3 section 5 in the error report, the
 * status and report calls, one import per import id, all or nothing, and the preview.
 */
let world: SchemesWorld;
let admin: Client;
let documentId: string;
let budgetId: string;
let subBudget01: string;
let master: string;
let source: string;
let project: string;

const gzipJson = (value: unknown) => gzipSync(JSON.stringify(value));

function postImport(url: string, body: unknown, headers: Record<string, string> = { 'content-type': 'application/json', 'content-encoding': 'gzip' }) {
  return admin.request({ method: 'POST', url, headers, payload: Buffer.isBuffer(body) ? body : gzipJson(body) });
}

async function get(url: string) {
  const response = await admin.request({ method: 'GET', url });
  return { status: response.statusCode, body: response.json() };
}

/** Polls the import's status until it ends. */
async function finished(statusUrl: string) {
  await expect.poll(async () => (await get(statusUrl)).body.status, { timeout: 60_000, interval: 100 }).toMatch(/SUCCESS|ERROR/);
  return (await get(statusUrl)).body;
}

async function importStream(importId: string) {
  return world.server.app.store.readStream(recordImportStreamName(importId));
}

const row = (overrides: Partial<ImportRow> = {}): ImportRow => ({
  name: 'Palgad',
  amount: '1200',
  months: null,
  classifiers: { tegevusala: '01', allikas: 'RE' },
  ...overrides,
});

beforeAll(async () => {
  world = await schemesWorld('Tartu Linnavalitsus', 'Viljandi Linnavalitsus');
  admin = world.admin;
  const { fixture, organizationId } = world;
  documentId = await fixture.document(organizationId);
  master = await fixture.classifier(documentId, organizationId, 'tegevusala', { '01': false, '02': false, '09': true });
  // '04' has no sub-budget: its records fall in the unfit row (-2).
  await fixture.items(master, ['04']);
  await fixture.setMaster(documentId, master);
  source = await fixture.classifier(documentId, organizationId, 'allikas', { RE: false, AB: false });
  project = await fixture.classifier(documentId, organizationId, 'projekt', { P1: false, PX: true }, false);
  budgetId = await fixture.budget(documentId, organizationId);
  const scheme = await admin.request({
    method: 'POST',
    url: `/api/document/${documentId}/schema`,
    payload: { name: 'Kulud', classifierList: [{ classifierId: master, type: 'MAIN' }] },
  });
  expect(scheme.statusCode, scheme.body).toBe(201);
  const subBudgets: string[] = [];
  for (const code of ['01', '02']) {
    const made = await admin.request({
      method: 'POST',
      url: `/api/schema/${scheme.json().id}/sub-budget`,
      payload: { name: `Tegevus ${code}`, classifiers: { [master]: code } },
    });
    expect(made.statusCode, made.body).toBe(201);
    subBudgets.push(made.json().id);
  }
  subBudget01 = subBudgets[0]!;
}, 300_000);

afterAll(async () => {
  await world?.server.close();
});

describe('an import from a file into a budget', () => {
  it('answers IMPORT_NOT_FOUND before the budget has any import', async () => {
    for (const path of ['status', 'report', 'error']) {
      const answer = await get(`/api/budget/${budgetId}/import/${path}`);
      expect([answer.status, answer.body.code]).toEqual([404, 'IMPORT_NOT_FOUND']);
    }
  });

  it('runs as a job: critical rows are skipped, every message key of spec 3 section 5 is in the error report', async () => {
    const rows: ImportRow[] = [
      row({ name: 'Õpetajate palgad', amount: '1 200,50', classifiers: { tegevusala: '01', allikas: 're', projekt: 'P1' } }),
      row({ name: '' }), // emptyNameMaster: takes the master item's name
      row({ name: null, classifiers: { allikas: 'RE' } }), // emptyName + validation.required (critical)
      row({ name: 'x'.repeat(257) }), // validation.max (critical)
      row({ months: ['100', 'sada'] }), // periodValueNotNumeric (critical)
      row({ months: [...Array(12).fill(null), '5'] }), // periodOutsideDocument (critical)
      row({ amount: 'palju' }), // sumNotNumeric (critical)
      row({ amount: null }), // sumAndPeriodizedInfoMissing
      row({ amount: '1000', months: ['1', '2'] }), // sumAndPeriodizedInfoMismatch: months dropped
      row({ amount: '', months: ['0'] }), // emptySum
      row({ classifiers: { tegevusala: '03', allikas: 'RE' } }), // referenceItemNotFound (critical)
      row({ classifiers: { tegevusala: '01', allikas: 'RE', projekt: 'P9' } }), // optionalReferenceItemNotFound
      row({ classifiers: { tegevusala: '01', allikas: 'R E!' } }), // codeTypeError (critical)
      row({ classifiers: { tegevusala: '01', allikas: 'RE;AB' } }), // uniqueCode: one code per cell (critical)
      row({ classifiers: { tegevusala: '09', allikas: 'RE' } }), // referenceItemUnselectable (critical)
      row({ amount: 12.3, months: [1.1, 1.1, 10.1] }), // spreadsheet numbers, exact
    ];
    const started = await postImport(`/api/budget/${budgetId}/records?originResourceName=eelarve.xlsx`, { list: rows });
    expect(started.statusCode, started.body).toBe(202);
    const { id: importId, status } = started.json();
    expect(status).toBe('UNPROCESSED');

    const answer = await finished(`/api/budget/${budgetId}/import/status`);
    expect(answer).toMatchObject({
      id: importId,
      status: 'SUCCESS',
      result: { recordsInserted: 7, totalErrorsCount: 15, criticalErrorsCount: 10 },
      extra: { originResourceName: 'eelarve.xlsx' },
    });
    expect((await get(`/api/budget/${budgetId}/import/report`)).body).toEqual(answer);

    const report = (await get(`/api/budget/${budgetId}/import/error`)).body;
    expect(report.totalErrorsCount).toBe(15);
    const errorsOf = (rowNumber: number) => report.list.find((entry: { rowData: { rowNumber: number } }) => entry.rowData.rowNumber === rowNumber)?.errors;
    expect(errorsOf(1)).toBeUndefined();
    expect(errorsOf(2)).toEqual({ emptyNameMaster: { critical: false, fieldName: 'name' } });
    expect(errorsOf(3)).toEqual({ 'validation.required': { critical: true, fieldName: 'tegevusala' }, emptyName: { critical: true, fieldName: 'name' } });
    expect(errorsOf(4)).toEqual({ 'validation.max': { critical: true, fieldName: 'name' } });
    expect(errorsOf(5)).toEqual({ periodValueNotNumeric: { critical: true, fieldName: 'months.1' } });
    expect(errorsOf(6)).toEqual({ periodOutsideDocument: { critical: true, fieldName: 'months.12' } });
    expect(errorsOf(7)).toEqual({ sumNotNumeric: { critical: true, fieldName: 'amount' } });
    expect(errorsOf(8)).toEqual({ sumAndPeriodizedInfoMissing: { critical: false, fieldName: 'amount' } });
    expect(errorsOf(9)).toEqual({ sumAndPeriodizedInfoMismatch: { critical: false, fieldName: 'months' } });
    expect(errorsOf(10)).toEqual({ emptySum: { critical: false, fieldName: 'amount' } });
    expect(errorsOf(11)).toEqual({ referenceItemNotFound: { critical: true, fieldName: 'tegevusala' } });
    expect(errorsOf(12)).toEqual({ optionalReferenceItemNotFound: { critical: false, fieldName: 'projekt' } });
    expect(errorsOf(13)).toEqual({ codeTypeError: { critical: true, fieldName: 'allikas' } });
    expect(errorsOf(14)).toEqual({ uniqueCode: { critical: true, fieldName: 'allikas' } });
    expect(errorsOf(15)).toEqual({ referenceItemUnselectable: { critical: true, fieldName: 'tegevusala' } });
    expect(report.list.find((entry: { rowData: { rowNumber: number } }) => entry.rowData.rowNumber === 9)).toMatchObject({
      rowData: { name: 'Palgad', amount: '1000', months: ['1', '2'], tegevusala: '01', allikas: 'RE' },
      keys: { month: null, year: null, amount: '1000' },
    });

    // One chunk event holds the importable rows, each with the id fixed by its row number.
    const events = await importStream(importId);
    expect(events.map((event) => event.type)).toEqual(['RecordsImported']);
    const records = (
      events[0]!.data as { records: { recordId: string; name: string; amount: string; months: string[] | null; classifiers: Record<string, string> }[] }
    ).records;
    expect(records.map((record) => record.recordId)).toEqual([0, 1, 7, 8, 9, 11, 15].map((index) => importedRecordId(importId, index)));
    expect(records[0]).toMatchObject({
      name: 'Õpetajate palgad',
      amount: '1200.5',
      months: null,
      classifiers: { [master]: '01', [source]: 'RE', [project]: 'P1' },
    });
    expect(records[1]).toMatchObject({ name: 'Item 01' });
    expect(records[3]).toMatchObject({ amount: '1000', months: null });
    expect(records[6]).toMatchObject({ amount: '12.3', months: ['1.1', '1.1', '10.1', ...Array(9).fill('0')] });
    expect(events[0]!.data).toMatchObject({
      importId,
      budgetId,
      documentId,
      organizationId: world.organizationId,
      chunk: 0,
      originResourceName: 'eelarve.xlsx',
    });

    // SUCCESS waited for the records read model: the rows are visible, with exact amounts.
    const visible = await sql<{
      id: string;
      amount: string;
    }>`select id, amount::text from read.records where import_id = ${importId} order by name, id`.execute(world.server.app.db);
    expect(visible.rows).toHaveLength(7);
    expect(visible.rows.find((record) => record.id === importedRecordId(importId, 0))?.amount).toMatch(/^1200\.50*$/);
  });

  it('the same import id again answers the first import and imports nothing more', async () => {
    const importId = randomUUID();
    const body = { importId, list: [row(), row({ name: 'Teine' })] };
    const first = await postImport(`/api/budget/${budgetId}/records?originResourceName=a.csv`, body);
    expect(first.statusCode, first.body).toBe(202);
    const again = await postImport(`/api/budget/${budgetId}/records?originResourceName=a.csv`, body);
    expect(again.statusCode, again.body).toBe(202);
    expect(again.json().id).toBe(importId);
    await finished(`/api/budget/${budgetId}/import/status`);
    const late = await postImport(`/api/budget/${budgetId}/records?originResourceName=a.csv`, body);
    expect(late.json()).toEqual({ id: importId, status: 'SUCCESS' });
    expect((await importStream(importId)).flatMap((event) => (event.data as { records: unknown[] }).records)).toHaveLength(2);
    // Used for another place, the id is refused rather than answered across budgets.
    const elsewhere = await postImport(`/api/budget/${budgetId}/sub-budget/${subBudget01}/records`, body);
    expect([elsewhere.statusCode, elsewhere.json().code]).toEqual([400, 'SCHEMA_VALIDATION_ERROR']);
  });

  it('takes application/gzip, and answers 400 and 413 for bodies that are not gzip JSON or are too large', async () => {
    const typed = await postImport(`/api/budget/${budgetId}/records`, { list: [row()] }, { 'content-type': 'application/gzip' });
    expect(typed.statusCode, typed.body).toBe(202);
    await finished(`/api/budget/${budgetId}/import/status`);

    const notGzip = await postImport(`/api/budget/${budgetId}/records`, Buffer.from('{"list":'), {
      'content-type': 'application/json',
      'content-encoding': 'gzip',
    });
    expect([notGzip.statusCode, notGzip.json().code]).toEqual([400, 'IMPORT_BODY_INVALID']);
    const notJson = await postImport(`/api/budget/${budgetId}/records`, gzipSync('not json'), { 'content-type': 'application/gzip' });
    expect([notJson.statusCode, notJson.json().code]).toEqual([400, 'IMPORT_BODY_INVALID']);
    const noRows = await postImport(`/api/budget/${budgetId}/records`, { list: [] });
    expect([noRows.statusCode, noRows.json().code]).toEqual([400, 'SCHEMA_VALIDATION_ERROR']);

    const large = await postImport(`/api/budget/${budgetId}/records`, randomBytes(20 * 1024 * 1024 + 1), { 'content-type': 'application/gzip' });
    expect([large.statusCode, large.json().code]).toEqual([413, 'IMPORT_BODY_TOO_LARGE']);
    // A small body that unpacks beyond 200 MB (a gzip bomb).
    const bomb = gzipSync(Buffer.alloc(200 * 1024 * 1024 + 1, 0x20));
    expect(bomb.length).toBeLessThan(1024 * 1024);
    const bombed = await postImport(`/api/budget/${budgetId}/records`, bomb, { 'content-type': 'application/gzip' });
    expect([bombed.statusCode, bombed.json().code]).toEqual([413, 'IMPORT_BODY_TOO_LARGE']);
  }, 60_000);

  it('a sum budget takes no imports', async () => {
    const made = await admin.request({
      method: 'POST',
      url: `/api/document/${documentId}/budget`,
      payload: { type: 'SUM_BUDGET', name: 'Kokku', sumBudgetComponentIds: [budgetId] },
    });
    expect(made.statusCode, made.body).toBe(201);
    const sum = made.json().id;
    const refused = await postImport(`/api/budget/${sum}/records`, { list: [row()] });
    expect([refused.statusCode, refused.json().code]).toEqual([422, 'IMPORT_BUDGET_TYPE_INVALID']);
  });

  it('an import refused by its job (the budget deleted meanwhile) ends ERROR with nothing written', async () => {
    const doomed = await world.fixture.budget(documentId, world.organizationId);
    const worker = world.server.worker!;
    await worker.stop({ timeoutMs: 5_000 });
    try {
      const started = await postImport(`/api/budget/${doomed}/records`, { list: [row()] });
      expect(started.statusCode, started.body).toBe(202);
      const statusBefore = await get(`/api/budget/${doomed}/import/status`);
      expect(statusBefore.body.status).toBe('UNPROCESSED');
      await world.fixture.deleteBudget(doomed);
      const replacement = await startWorker({ context: world.server.app, policy: { retryDelaySeconds: 1 } });
      world.server.worker = replacement;
      const importId = started.json().id;
      await expect
        .poll(
          async () =>
            (await world.server.app.db.selectFrom('operational.record_imports').select('status').where('id', '=', importId).executeTakeFirst())?.status,
          {
            timeout: 60_000,
          },
        )
        .toBe('ERROR');
      expect(await importStream(importId)).toEqual([]);
    } finally {
      if (world.server.worker === worker) world.server.worker = await startWorker({ context: world.server.app, policy: { retryDelaySeconds: 1 } });
    }
  });
});

describe('an import into a sub-budget', () => {
  it('rows take the sub-budget’s values and must fit it (doesNotMatchSubBudget); the sub-budget has its own status', async () => {
    const url = `/api/budget/${budgetId}/sub-budget/${subBudget01}`;
    const started = await postImport(`${url}/records?originResourceName=alam.xlsx`, {
      list: [row({ classifiers: { allikas: 'RE' } }), row({ classifiers: { tegevusala: '02', allikas: 'RE' } })],
    });
    expect(started.statusCode, started.body).toBe(202);
    const answer = await finished(`${url}/import/status`);
    expect(answer).toMatchObject({ id: started.json().id, status: 'SUCCESS', result: { recordsInserted: 1, totalErrorsCount: 1, criticalErrorsCount: 1 } });
    expect((await get(`${url}/import/report`)).body).toEqual(answer);
    // The budget's latest import is this one too.
    expect((await get(`/api/budget/${budgetId}/import/status`)).body.id).toBe(started.json().id);
    const report = (await get(`/api/budget/${budgetId}/import/error`)).body;
    expect(report.list).toEqual([expect.objectContaining({ errors: { doesNotMatchSubBudget: { critical: true, fieldName: 'tegevusala' } } })]);
    const [event] = await importStream(started.json().id);
    expect((event!.data as { records: { classifiers: unknown }[] }).records[0]!.classifiers).toEqual({ [master]: '01', [source]: 'RE' });
  });

  it('a sub-budget of another document is not found', async () => {
    const other = await world.fixture.document(world.organizationId);
    const otherBudget = await world.fixture.budget(other, world.organizationId);
    const refused = await postImport(`/api/budget/${otherBudget}/sub-budget/${subBudget01}/records`, { list: [row()] });
    expect([refused.statusCode, refused.json().code]).toEqual([404, 'SUB_BUDGET_NOT_FOUND']);
  });
});

describe('the preview', () => {
  it('answers rows per sub-budget of each scheme (and -2) with exact totals before → after, and writes nothing', async () => {
    const fresh = await world.fixture.budget(documentId, world.organizationId);
    const preview = await postImport(`/api/budget/${fresh}/records/preview`, {
      list: [
        row({ amount: '0.1' }),
        row({ amount: '0.2' }),
        row({ amount: '5', classifiers: { tegevusala: '02', allikas: 'RE' } }),
        row({ amount: 'x' }),
        row({ amount: '-1.25', classifiers: { tegevusala: '04', allikas: 'RE' } }),
      ],
    });
    expect(preview.statusCode, preview.body).toBe(200);
    const body = preview.json();
    expect(body.rows).toEqual({ total: 5, importable: 4, critical: 1 });
    expect(body.total).toEqual({ before: '0', after: '4.05' });
    expect(body.schemes).toHaveLength(1);
    expect(body.schemes[0].subBudgets).toEqual([
      { subBudgetId: subBudget01, name: 'Tegevus 01', recordsBefore: 0, recordsAdded: 2, totalBefore: '0', totalAfter: '0.3' },
      expect.objectContaining({ name: 'Tegevus 02', recordsAdded: 1, totalAfter: '5' }),
      { subBudgetId: '-2', name: null, recordsBefore: 0, recordsAdded: 1, totalBefore: '0', totalAfter: '-1.25' },
    ]);
    const none = await get(`/api/budget/${fresh}/import/status`);
    expect(none.status).toBe(404);

    // After an import, the same preview starts from the records now there.
    const started = await postImport(`/api/budget/${fresh}/records`, {
      list: [row({ amount: '0.1' }), row({ amount: '7', classifiers: { tegevusala: '04', allikas: 'RE' } })],
    });
    expect(started.statusCode, started.body).toBe(202);
    expect((await finished(`/api/budget/${fresh}/import/status`)).status).toBe('SUCCESS');
    const again = (await postImport(`/api/budget/${fresh}/records/preview`, { list: [row({ amount: '0.2' })] })).json();
    expect(again.total).toEqual({ before: '7.1', after: '7.3' });
    expect(again.schemes[0].subBudgets).toEqual([
      { subBudgetId: subBudget01, name: 'Tegevus 01', recordsBefore: 1, recordsAdded: 1, totalBefore: '0.1', totalAfter: '0.3' },
    ]);
  });
});

describe('who may import (spec 3 section 6)', () => {
  async function memberWith(permissions: Parameters<SchemesWorld['accounts']['grant']>[1]): Promise<Client> {
    const made = await world.accounts.member(world.organizationId, []);
    await world.accounts.grant(made.occupationId, permissions);
    return login(world.server.app, made.email, PASSWORD);
  }
  const gzipPost = (client: Client, url: string) =>
    client.request({ method: 'POST', url, headers: { 'content-type': 'application/gzip' }, payload: gzipJson({ list: [row({ classifiers: {} })] }) });

  it('reading the budget shows its imports but does not import', async () => {
    const reader = await memberWith([{ documentId, read: true }]);
    expect((await gzipPost(admin, `/api/budget/${budgetId}/records`)).statusCode).toBe(202);
    await finished(`/api/budget/${budgetId}/import/status`);
    const refused = await gzipPost(reader, `/api/budget/${budgetId}/records`);
    expect([refused.statusCode, refused.json().code]).toEqual([403, 'INSUFFICIENT_PERMISSIONS']);
    const preview = await gzipPost(reader, `/api/budget/${budgetId}/records/preview`);
    expect(preview.statusCode).toBe(403);
    for (const path of ['status', 'report', 'error'])
      expect((await reader.request({ method: 'GET', url: `/api/budget/${budgetId}/import/${path}` })).statusCode).toBe(200);
  });

  it('an update grant on one sub-budget imports into that sub-budget only', async () => {
    const department = await memberWith([{ documentId, budgetId, subBudgetId: subBudget01, read: true, update: true }]);
    const own = await gzipPost(department, `/api/budget/${budgetId}/sub-budget/${subBudget01}/records`);
    expect(own.statusCode, own.body).toBe(202);
    expect((await department.request({ method: 'GET', url: `/api/budget/${budgetId}/sub-budget/${subBudget01}/import/status` })).statusCode).toBe(200);
    const whole = await gzipPost(department, `/api/budget/${budgetId}/records`);
    expect([whole.statusCode, whole.json().code]).toEqual([403, 'INSUFFICIENT_PERMISSIONS']);
  });

  it('another organisation’s budget is not found', async () => {
    const refused = await gzipPost(world.outsider, `/api/budget/${budgetId}/records`);
    expect([refused.statusCode, refused.json().code]).toEqual([404, 'BUDGET_NOT_FOUND']);
    const status = await world.outsider.request({ method: 'GET', url: `/api/budget/${budgetId}/import/status` });
    expect([status.statusCode, status.json().code]).toEqual([404, 'BUDGET_NOT_FOUND']);
  });
});
