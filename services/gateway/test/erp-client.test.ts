import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { organizationPayload } from '@eelarve/testing/accounts';
import { schemesFixture } from '@eelarve/testing/schemes';
import { startTestServer, type TestServer } from '@eelarve/testing/server';
import type { FastifyInstance } from 'fastify';
import createClient from 'openapi-fetch';
import openapiTS, { astToString, type OpenAPI3 } from 'openapi-typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { paths } from './erp-api.generated';
import { type Client, login } from './helpers';

/**
 * Issue 11, point 5: an ERP integrator generates a client from the document at /api/docs/json
 * and its job imports records over HTTP with the budget's API key. Here the job is that client:
 * openapi-typescript's types of the ERP paths (committed as erp-api.generated.ts and checked to be
 * what the served document generates now; `-u` regenerates them) and openapi-fetch calling the
 * app listening on a real port.
 */
const GENERATED = path.join(import.meta.dirname, 'erp-api.generated.ts');
const REGENERATE_HINT = '// Regenerate: npx vitest run services/gateway/test/erp-client.test.ts -u\n';
const biome = path.join(path.dirname(createRequire(import.meta.url).resolve('@biomejs/biome/package.json')), 'bin/biome');
/** The ERP job's part of the API: the import address and its status. */
const ERP_PATH_PREFIX = '/budgets/';

let server: TestServer;
let baseUrl: string;
let served: OpenAPI3;
let budgetId: string;
let apiKey: string;

/** The rules' own range for test servers (3400-3499), from a random start so parallel runs rarely meet. */
async function listenInTestRange(app: FastifyInstance): Promise<string> {
  const start = 3400 + Math.floor(Math.random() * 100);
  for (let attempt = 0; attempt < 100; attempt++) {
    const port = 3400 + ((start - 3400 + attempt) % 100);
    try {
      await app.listen({ port, host: '127.0.0.1' });
      return `http://127.0.0.1:${port}`;
    } catch (error) {
      if ((error as { code?: string }).code !== 'EADDRINUSE') throw error;
    }
  }
  throw new Error('no free port in 3400-3499');
}

/** A monitoring budget in an organisation that allows API usage, and the API key its form shows an administrator. */
async function monitoringBudget(admin: Client): Promise<{ budgetId: string; apiKey: string }> {
  const organization = await admin.request({
    method: 'POST',
    url: '/api/organization',
    payload: { ...organizationPayload('ERP Linnavalitsus'), apiUsageAllowed: true, allowedAuthenticationTypes: ['LOGIN', 'BASIC'] },
  });
  expect(organization.statusCode, organization.body).toBe(201);
  const organizationId = organization.json().id as string;
  const fixture = schemesFixture(server.app);
  const documentId = await fixture.document(organizationId);
  const activity = await fixture.classifier(documentId, organizationId, 'tegevusala', { '01': false, '02': false });
  await fixture.updateDocument(documentId, { masterClassifierId: activity });
  const budget = await admin.request({
    method: 'POST',
    url: `/api/document/${documentId}/budget`,
    payload: { type: 'MONITORING', name: 'Täitmine', description: '' },
  });
  expect(budget.statusCode, budget.body).toBe(201);
  const id = budget.json().id as string;
  const key = await admin.request({ method: 'GET', url: `/api/budget/${id}/api-key` });
  expect(key.statusCode, key.body).toBe(200);
  return { budgetId: id, apiKey: key.json().apiKey as string };
}

/** The served document cut to the ERP paths (components stay: the error model is shared). */
function erpDocument(document: OpenAPI3): OpenAPI3 {
  const erpPaths = Object.fromEntries(Object.entries(document.paths ?? {}).filter(([route]) => route.startsWith(ERP_PATH_PREFIX)));
  return { ...document, paths: erpPaths, tags: undefined };
}

/** openapi-typescript's output, formatted as the repository formats TypeScript (biome). */
async function generatedTypes(document: OpenAPI3): Promise<string> {
  const types = astToString(await openapiTS(document, { alphabetize: true }));
  const formatted = execFileSync(process.execPath, [biome, 'format', `--stdin-file-path=${GENERATED}`], { input: types, encoding: 'utf8' });
  return REGENERATE_HINT + formatted;
}

function erpClient(key: string) {
  return createClient<paths>({
    baseUrl,
    headers: { authorization: `Basic ${Buffer.from(`:${key}`).toString('base64')}` },
  });
}

/** The import body as the spec wants it: gzip-compressed JSON. */
const gzipJson = (body: unknown) => gzipSync(JSON.stringify(body));

beforeAll(async () => {
  server = await startTestServer({ listen: false });
  baseUrl = await listenInTestRange(server.app);
  server.app.config.publicUrl = baseUrl;
  const admin = await login(server.app, server.admin.email, server.admin.password);
  ({ budgetId, apiKey } = await monitoringBudget(admin));
  const response = await fetch(`${baseUrl}/api/docs/json`);
  expect(response.status).toBe(200);
  served = (await response.json()) as OpenAPI3;
});
afterAll(async () => {
  await server?.close();
});

describe('an ERP job with a client generated from /api/docs (issue 11, point 5)', () => {
  it('generates types from the whole served document', async () => {
    const types = astToString(await openapiTS(served));
    expect(types).toContain('"/budgets/{budgetId}/import": {');
    expect(types).toContain('Error: {');
  });

  it('has the committed ERP types generated from the document served now', async () => {
    await expect(await generatedTypes(erpDocument(served))).toMatchFileSnapshot(GENERATED);
  });

  it('imports records: gzip JSON with the budget API key, then the job reports them', async () => {
    const client = erpClient(apiKey);
    const list = [
      { name: 'Koolitoit', amount: '1200.50', classifiers: { tegevusala: '01' } },
      { name: 'Raamatukogu', amount: 120, months: [10, 10, 10, 10, 10, 10, 10, 10, 10, 10, 10, 10], classifiers: { tegevusala: '02' } },
    ];
    const started = await client.POST('/budgets/{budgetId}/import', {
      params: { path: { budgetId }, query: { originResourceName: 'SAP' } },
      body: { list },
      bodySerializer: gzipJson,
      headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' },
    });
    expect(started.response.status, JSON.stringify(started.error)).toBe(202);
    expect(started.data?.id).toBeTruthy();

    const finished = await waitForImport(client);
    expect(finished?.status).toBe('SUCCESS');
    expect(finished?.result).toMatchObject({ recordsInserted: 2, totalErrorsCount: 0, criticalErrorsCount: 0 });
    expect(finished?.extra.originResourceName).toBe('SAP');
  });

  it('answers a wrong key with 401 in the error model', async () => {
    const { response, error } = await erpClient('not-the-key').POST('/budgets/{budgetId}/import', {
      params: { path: { budgetId }, query: {} },
      body: { list: [{ name: 'Rida', amount: 1, classifiers: { tegevusala: '01' } }] },
      bodySerializer: gzipJson,
      headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' },
    });
    expect(response.status).toBe(401);
    expect(error?.code).toBe('UNAUTHORIZED');
  });
});

/** Polls the import status as the ERP job would, every 200 ms for at most 30 s. */
async function waitForImport(client: ReturnType<typeof erpClient>) {
  for (let attempt = 0; attempt < 150; attempt++) {
    const { data, error } = await client.GET('/budgets/{budgetId}/import/status', { params: { path: { budgetId } } });
    if (error) throw new Error(`status answered ${JSON.stringify(error)}`);
    if (data.status === 'SUCCESS' || data.status === 'ERROR') return data;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error('the import did not finish in 30 s');
}
