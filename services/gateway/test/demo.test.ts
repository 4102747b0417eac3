import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedDemoData } from '@eelarve/testing/demo';
import { startTestServer, type TestServer } from '@eelarve/testing/server';
import { type Client, login } from './helpers';

let server: TestServer;
let admin: Client;

beforeAll(async () => {
  server = await startTestServer({ listen: false });
  await seedDemoData(server.app);
  admin = await login(server.app, server.admin.email, server.admin.password);
}, 120_000);
afterAll(async () => server?.close());

// biome-ignore lint/suspicious/noExplicitAny: response bodies are checked by value below.
const get = async (url: string): Promise<any> => {
  const response = await admin.request({ method: 'GET', url });
  expect(response.statusCode, response.body).toBe(200);
  return response.json();
};

describe('demo data (npm start)', () => {
  it('gives the administrator a document to work in, in the first organisation, made through the real rules', async () => {
    const me = await get('/api/auth/me');
    const organization = me.occupations.find(
      (occupation: { type: string; organizationName: string }) => occupation.type === 'ADMIN' && occupation.organizationName === 'Tartu Linnavalitsus',
    );
    expect(organization).toBeDefined();
    // Holding two occupations now, the administrator picks one after signing in.
    const selected = await admin.request({ method: 'POST', url: '/initial/auth/select-occupation', payload: { occupationId: organization.id } });
    expect(selected.statusCode, selected.body).toBe(200);
    const [document] = await get(`/api/organization/${organization.organizationId}/documents`);
    expect(document).toMatchObject({ name: expect.stringMatching(/^Eelarve \d{4}$/), masterClassifierId: expect.any(String) });
    const classifiers = await get(`/api/document/${document.id}/classifiers?includeMeta=true`);
    expect(classifiers.map((classifier: { fieldName: string; itemsCount: number }) => [classifier.fieldName, classifier.itemsCount])).toEqual([
      ['tegevusala', 4],
      ['kululiik', 4],
      ['allikas', 3],
    ]);
    const [scheme] = await get(`/api/document/${document.id}/schemas`);
    expect(await get(`/api/schema/${scheme.id}/sub-budgets`)).toHaveLength(4);
    const budgets = await get(`/api/document/${document.id}/budgets?includeMeta=true`);
    expect(budgets.map((budget: { type: string }) => budget.type).sort()).toEqual(['COMMON', 'COMMON', 'MONITORING', 'SUM_BUDGET']);
    const common = budgets.find((budget: { name: string }) => budget.name === 'Linna põhitegevus');
    expect(common.pinnedSubBudgetIds).toHaveLength(3);
    expect(budgets.find((budget: { type: string }) => budget.type === 'SUM_BUDGET').info).toBe('Linna põhitegevus; Investeeringud');
  });

  it('runs once: a database with organisations is left alone', async () => {
    const platform = await login(server.app, server.admin.email, server.admin.password);
    const me = (await platform.request({ method: 'GET', url: '/api/auth/me' })).json();
    const home = me.occupations.find((occupation: { organizationName: string }) => occupation.organizationName !== 'Tartu Linnavalitsus');
    await platform.request({ method: 'POST', url: '/initial/auth/select-occupation', payload: { occupationId: home.id } });
    const count = async () => (await platform.request({ method: 'GET', url: '/api/organizations' })).json().length;
    const before = await count();
    await seedDemoData(server.app);
    expect(await count()).toBe(before);
  });
});
