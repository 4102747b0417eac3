import { gzipSync } from 'node:zlib';
import { accountsFixture, organizationPayload } from '@eelarve/testing/accounts';
import { schemesFixture } from '@eelarve/testing/schemes';
import { startTestServer, type TestServer } from '@eelarve/testing/server';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type Client, login } from './helpers';

/**
 * ERP rows keyed by month and year (spec 3, section 3: the import error rows' keys month, year
 * and amount; section 8: period month must be 1-12, period out of range; issue 11, point 5): an
 * ERP job posts a month's amounts to the monitoring budget's import address. A row's amount goes
 * into its month of the document period (2026, twelve months, in the fixture); a month that is not
 * 1-12, a month outside the period, or monthly values beside the keys make the row critical with
 * the catalogue's RECORD_* code, and the error report gives its keys.
 */
let server: TestServer;
let admin: Client;
let budgetId: string;
let apiKey: string;

beforeAll(async () => {
  server = await startTestServer({ listen: false });
  admin = await login(server.app, server.admin.email, server.admin.password);
  const organizationId = await accountsFixture(server.app, admin).organization('ERP Vallavalitsus');
  const allowed = await admin.request({
    method: 'PUT',
    url: `/api/organization/${organizationId}`,
    payload: { ...organizationPayload('ERP Vallavalitsus'), allowedAuthenticationTypes: ['LOGIN', 'BASIC'], apiUsageAllowed: true },
  });
  expect(allowed.statusCode, allowed.body).toBe(200);
  const fixture = schemesFixture(server.app);
  const documentId = await fixture.document(organizationId);
  await fixture.setMaster(documentId, await fixture.classifier(documentId, organizationId, 'tegevusala', { '01': false }));
  budgetId = await fixture.budget(documentId, organizationId, 'MONITORING');
  apiKey = (await admin.request({ method: 'GET', url: `/api/budget/${budgetId}/api-key` })).json().apiKey;
}, 300_000);

afterAll(async () => {
  await server?.close();
});

const erpRow = (name: string, keys: Record<string, unknown>) => ({ name, amount: '100', classifiers: { tegevusala: '01' }, ...keys });

it('places each keyed row’s amount in its month, and refuses months outside 1-12 or the period with the catalogue’s codes', async () => {
  const list = [
    erpRow('Jaanuar', { month: 1, year: 2026, amount: '1 200,50' }),
    erpRow('Detsember', { month: '12', year: '2026' }),
    erpRow('Kuu 13', { month: 13, year: 2026 }),
    erpRow('Järgmine aasta', { month: 1, year: 2027 }),
    erpRow('Aastata', { month: 5 }),
    erpRow('Kuud ka', { month: 3, year: 2026, months: ['100'] }),
  ];
  const started = await server.app.inject({
    method: 'POST',
    url: `/budgets/${budgetId}/import?originResourceName=ERP`,
    headers: {
      authorization: `Basic ${Buffer.from(`erp:${apiKey}`).toString('base64')}`,
      'content-type': 'application/json',
      'content-encoding': 'gzip',
    },
    payload: gzipSync(JSON.stringify({ list })),
  });
  expect(started.statusCode, started.body).toBe(202);

  const status = async () => (await admin.request({ method: 'GET', url: `/api/budget/${budgetId}/import/status` })).json();
  await expect.poll(async () => (await status()).status, { timeout: 60_000, interval: 100 }).toBe('SUCCESS');
  expect((await status()).result).toEqual({ recordsInserted: 2, totalErrorsCount: 4, criticalErrorsCount: 4 });

  const report = (await admin.request({ method: 'GET', url: `/api/budget/${budgetId}/import/error` })).json();
  expect(report.totalErrorsCount).toBe(4);
  expect(report.list.map((entry: { rowData: { name: string }; errors: unknown; keys: unknown }) => [entry.rowData.name, entry.errors, entry.keys])).toEqual([
    ['Kuu 13', { RECORD_PERIOD_MONTH_INVALID: { critical: true, fieldName: 'month' } }, { month: 13, year: 2026, amount: '100' }],
    ['Järgmine aasta', { RECORD_PERIOD_OUT_OF_RANGE: { critical: true, fieldName: 'year' } }, { month: 1, year: 2027, amount: '100' }],
    ['Aastata', { RECORD_PERIOD_OUT_OF_RANGE: { critical: true, fieldName: 'year' } }, { month: 5, year: null, amount: '100' }],
    ['Kuud ka', { RECORD_FACTORS_INVALID: { critical: true, fieldName: 'months' } }, { month: 3, year: 2026, amount: '100' }],
  ]);

  const records = (await admin.request({ method: 'GET', url: `/api/budget/${budgetId}/records?include-comments=false` })).json();
  const byName = new Map<string, { amount: string; factors: { months: string[] | null } }>(
    (Array.isArray(records) ? records : records.list).map((record: { name: string }) => [record.name, record]),
  );
  expect([...byName.keys()].sort()).toEqual(['Detsember', 'Jaanuar']);
  expect(byName.get('Jaanuar')).toMatchObject({ amount: '1200.5', factors: { months: ['1200.5', ...Array(11).fill('0')] } });
  expect(byName.get('Detsember')).toMatchObject({ amount: '100', factors: { months: [...Array(11).fill('0'), '100'] } });
});
