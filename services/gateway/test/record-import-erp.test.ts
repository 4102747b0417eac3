import { gzipSync } from 'node:zlib';
import { recordImportStreamName } from '@eelarve/domain';
import { accountsFixture, organizationPayload } from '@eelarve/testing/accounts';
import { schemesFixture } from '@eelarve/testing/schemes';
import { startTestServer, type TestServer } from '@eelarve/testing/server';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type Client, login } from './helpers';

/**
 * An ERP job imports through the monitoring budget's import address over real HTTP (issue 11,
 * point 5): the address the budget form shows, HTTP Basic with the budget's API key, the same
 * gzip JSON body, job and status as the web's import; only where the organisation allows API use.
 */
const PORTS = { first: 3400, last: 3499 };

let server: TestServer;
let admin: Client;
let base: string;
let organizationId: string;
let budgetId: string;
let otherBudgetId: string;
let importAddress: string;
let apiKey: string;

/** The app on a free port of the range the team uses for test servers. */
async function listenInRange(): Promise<string> {
  const start = PORTS.first + Math.floor(Math.random() * (PORTS.last - PORTS.first + 1));
  for (let offset = 0; offset <= PORTS.last - PORTS.first; offset++) {
    const port = PORTS.first + ((start - PORTS.first + offset) % (PORTS.last - PORTS.first + 1));
    try {
      await server.app.listen({ port, host: '127.0.0.1' });
      return `http://127.0.0.1:${port}`;
    } catch (error) {
      if ((error as { code?: string }).code !== 'EADDRINUSE') throw error;
    }
  }
  throw new Error('no free port in 3400-3499');
}

const basic = (user: string, password: string) => `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;

function erpPost(url: string, authorization: string | null, rows: unknown[]) {
  return fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'content-encoding': 'gzip', ...(authorization ? { authorization } : {}) },
    body: gzipSync(JSON.stringify({ list: rows })),
  });
}

async function allowApiUsage(allowed: boolean) {
  const payload = {
    ...organizationPayload('ERP Linnavalitsus'),
    allowedAuthenticationTypes: allowed ? ['LOGIN', 'BASIC'] : ['LOGIN'],
    apiUsageAllowed: allowed,
  };
  const response = await admin.request({ method: 'PUT', url: `/api/organization/${organizationId}`, payload });
  expect(response.statusCode, response.body).toBe(200);
}

beforeAll(async () => {
  server = await startTestServer({ listen: false });
  base = await listenInRange();
  server.app.config.publicUrl = base;
  admin = await login(server.app, server.admin.email, server.admin.password);
  organizationId = await accountsFixture(server.app, admin).organization('ERP Linnavalitsus');
  await allowApiUsage(true);
  const fixture = schemesFixture(server.app);
  const documentId = await fixture.document(organizationId);
  const master = await fixture.classifier(documentId, organizationId, 'tegevusala', { '01': false, '02': false });
  await fixture.setMaster(documentId, master);
  budgetId = await fixture.budget(documentId, organizationId, 'MONITORING');
  otherBudgetId = await fixture.budget(documentId, organizationId, 'MONITORING');
  importAddress = (await admin.request({ method: 'GET', url: `/api/budget/${budgetId}` })).json().apiUrl;
  apiKey = (await admin.request({ method: 'GET', url: `/api/budget/${budgetId}/api-key` })).json().apiKey;
}, 300_000);

afterAll(async () => {
  await server?.close();
});

it('an ERP job posts gzip JSON to the budget form’s import address with the API key, and follows the same job and status', async () => {
  expect(importAddress).toBe(`${base}/budgets/${budgetId}/import`);
  const rows = [
    { name: 'Konto 4500', amount: 1500.25, classifiers: { tegevusala: '01' } },
    { name: 'Konto 5500', amount: '-200', classifiers: { tegevusala: '99' } },
  ];
  const started = await erpPost(`${importAddress}?originResourceName=${encodeURIComponent('SAP eksport')}`, basic('erp', apiKey), rows);
  expect(started.status, await started.clone().text()).toBe(202);
  const { id: importId, status } = (await started.json()) as { id: string; status: string };
  expect(status).toBe('UNPROCESSED');

  const statusOf = async () => {
    const response = await fetch(`${importAddress}/status`, { headers: { authorization: basic('erp', apiKey) } });
    expect(response.status).toBe(200);
    return (await response.json()) as { id: string; status: string; result: unknown; extra: unknown };
  };
  await expect.poll(async () => (await statusOf()).status, { timeout: 60_000, interval: 200 }).toBe('SUCCESS');
  const answer = await statusOf();
  expect(answer).toMatchObject({
    id: importId,
    result: { recordsInserted: 1, totalErrorsCount: 1, criticalErrorsCount: 1 },
    extra: { originResourceName: 'SAP eksport' },
  });
  // The product's users see the same import.
  expect((await admin.request({ method: 'GET', url: `/api/budget/${budgetId}/import/status` })).json()).toEqual(answer);
  const report = (await admin.request({ method: 'GET', url: `/api/budget/${budgetId}/import/error` })).json();
  expect(report.list).toEqual([expect.objectContaining({ errors: { referenceItemNotFound: { critical: true, fieldName: 'tegevusala' } } })]);

  // The events name no user: the ERP job acted for the budget's organisation.
  const [event] = await server.app.store.readStream(recordImportStreamName(importId));
  if (!event) throw new Error('the import appended no event');
  expect(event.metadata).toMatchObject({ userId: null, occupationId: null, organizationId });
  expect((event.data as { records: { amount: string }[] }).records.map((record) => record.amount)).toEqual(['1500.25']);
});

it('the key alone is the credential: as the password or as the user name', async () => {
  const response = await erpPost(`${importAddress}?originResourceName=x`, basic(apiKey, ''), [{ name: 'A', amount: 1, classifiers: { tegevusala: '01' } }]);
  expect(response.status).toBe(202);
});

it('refuses a missing or wrong key, another budget’s key, and an organisation without API usage', async () => {
  const rows = [{ name: 'A', amount: 1, classifiers: { tegevusala: '01' } }];
  for (const authorization of [null, basic('erp', 'wrong'), 'Bearer something']) {
    const response = await erpPost(importAddress, authorization, rows);
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toMatch(/^Basic /);
    expect(((await response.json()) as { code: string }).code).toBe('UNAUTHORIZED');
  }
  const otherAddress = `${base}/budgets/${otherBudgetId}/import`;
  const misused = await erpPost(otherAddress, basic('erp', apiKey), rows);
  expect(misused.status).toBe(401);

  await allowApiUsage(false);
  try {
    const refused = await erpPost(importAddress, basic('erp', apiKey), rows);
    expect(refused.status).toBe(403);
    expect(((await refused.json()) as { code: string }).code).toBe('API_USAGE_NOT_ALLOWED');
  } finally {
    await allowApiUsage(true);
  }
});
