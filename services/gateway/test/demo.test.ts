import { DEFAULT_RESOURCE_STATUSES, sumAmounts } from '@eelarve/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_DEPARTMENT, demoDepartmentLogin, seedDemoData } from '@eelarve/testing/demo';
import { startTestServer, type TestServer } from '@eelarve/testing/server';
import { type Client, login } from './helpers';

let server: TestServer;
let admin: Client;

beforeAll(async () => {
  server = await startTestServer({ listen: false });
  await seedDemoData(server.app);
  admin = await login(server.app, server.admin.email, server.admin.password);
}, 240_000);
afterAll(async () => server?.close());

// biome-ignore lint/suspicious/noExplicitAny: response bodies are checked by value below.
const getAs = async (client: Client, url: string): Promise<any> => {
  const response = await client.request({ method: 'GET', url });
  expect(response.statusCode, response.body).toBe(200);
  return response.json();
};
const get = (url: string) => getAs(admin, url);

const statusId = (name: string) => DEFAULT_RESOURCE_STATUSES.find((status) => status.name.et === name)?.id;
const names = (rows: { name: string }[]) => rows.map((row) => row.name).sort();

/** The administrator at work in Tartu's ADMIN occupation: its organisation id and the demo document. */
async function tartuAsAdministrator(): Promise<{ organizationId: string; document: { id: string; resourceStatusId: string } }> {
  const me = await get('/api/auth/me');
  const occupation = me.occupations.find(
    (candidate: { type: string; organizationName: string }) => candidate.type === 'ADMIN' && candidate.organizationName === 'Tartu Linnavalitsus',
  );
  const selected = await admin.request({ method: 'POST', url: '/initial/auth/select-occupation', payload: { occupationId: occupation.id } });
  expect(selected.statusCode, selected.body).toBe(200);
  const [document] = await get(`/api/organization/${occupation.organizationId}/documents`);
  return { organizationId: occupation.organizationId, document };
}

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

  it('fills every pinned sub-budget of the common budgets with lines, most split by month, through the import', async () => {
    const { document } = await tartuAsAdministrator();
    const [scheme] = await get(`/api/document/${document.id}/schemas`);
    const budgets = await get(`/api/document/${document.id}/budgets`);
    const common = budgets.filter((budget: { type: string }) => budget.type === 'COMMON');
    let total = 0;
    for (const budget of common) {
      const subBudgets = await get(`/api/budget/${budget.id}/schema/${scheme.id}/sub-budgets`);
      const pinned = subBudgets.filter((subBudget: { pinned: boolean }) => subBudget.pinned);
      expect(pinned.length).toBeGreaterThan(1);
      for (const subBudget of pinned) expect(subBudget.recordsCount, `${budget.name} / ${subBudget.name}`).toBeGreaterThan(50);
      // Every line falls in one of the budget's pinned sub-budgets: none in the -2 row.
      expect(subBudgets.some((subBudget: { id: string }) => subBudget.id === '-2')).toBe(false);
      total += pinned.reduce((sum: number, subBudget: { recordsCount: number }) => sum + subBudget.recordsCount, 0);
      const status = await get(`/api/budget/${budget.id}/import/status`);
      expect(status).toMatchObject({ status: 'SUCCESS', result: { totalErrorsCount: 0 }, extra: { originResourceName: expect.stringMatching(/\.xlsx$/) } });
    }
    expect(total).toBeGreaterThan(1_500);
    expect((await get(`/api/document/${document.id}`)).recordsCount).toBe(total);
    const main = common.find((budget: { name: string }) => budget.name === 'Linna põhitegevus');
    const records = await get(`/api/budget/${main.id}/records`);
    const split = records.filter((record: { factors: { months: string[] | null } }) => record.factors.months !== null);
    expect(split.length / records.length).toBeGreaterThan(0.5);
    // The months add up to the amount exactly.
    for (const record of split) expect(sumAmounts(record.factors.months), record.name).toBe(record.amount);
  });

  it('uses resource statuses: the document and budgets are in preparation, the investments budget is submitted and locked', async () => {
    const { document } = await tartuAsAdministrator();
    const me = await get('/api/auth/me');
    expect(me).toMatchObject({ organizationEnableResourceStatuses: true, organizationAllowResourceStatusEditing: true });
    expect(me.resourceStatuses.map((status: { id: string }) => status.id)).toEqual(expect.arrayContaining([statusId('Koostamisel'), statusId('Kinnitamisel')]));
    expect(document.resourceStatusId).toBe(statusId('Koostamisel'));
    const budgets = await get(`/api/document/${document.id}/budgets`);
    const statuses = Object.fromEntries(budgets.map((budget: { name: string; resourceStatusId: string }) => [budget.name, budget.resourceStatusId]));
    expect(statuses).toEqual({
      'Linna põhitegevus': statusId('Koostamisel'),
      Investeeringud: statusId('Kinnitamisel'),
      'Täitmine (ERP)': statusId('Koostamisel'),
      Kokku: statusId('Koostamisel'),
    });
    const investments = budgets.find((budget: { name: string }) => budget.name === 'Investeeringud');
    expect(investments.permissions.restrictions).toEqual(expect.arrayContaining(['RESOURCE_WRITE_DISABLED', 'METADATA_WRITE_DISABLED']));
    const approval = await get(`/api/budget/${investments.id}/approval`);
    expect(approval.state.step).toBe('SUBMITTED');
    expect(approval.history).toEqual([
      expect.objectContaining({ action: 'SUBMIT', fromStep: 'DRAFT', toStep: 'SUBMITTED', reason: expect.any(String), userId: me.id }),
    ]);
    expect(approval.history[0].reason).not.toBe('');
    // Four eyes: the administrator submitted it, so approving is left to someone else.
    expect(approval.actions).not.toContain('APPROVE');
    expect(approval.actions).toContain('SEND_BACK');
  });

  it('has a department that signs in with the demo password and sees its one budget, with sub-budget 09 to update', async () => {
    const department = await login(server.app, DEMO_DEPARTMENT.email, server.admin.password);
    const me = await getAs(department, '/api/auth/me');
    expect(me).toMatchObject({ name: 'Liis Kask', organizationName: 'Tartu Linnavalitsus' });
    expect(me.occupations.map((occupation: { name: string }) => occupation.name)).toEqual(['Haridusosakond']);
    const documents = await getAs(department, `/api/organization/${me.organizationId}/documents`);
    expect(names(documents)).toEqual([expect.stringMatching(/^Eelarve \d{4}$/)]);
    const budgets = await getAs(department, `/api/document/${documents[0].id}/budgets`);
    expect(names(budgets)).toEqual(['Linna põhitegevus']);
    expect(budgets[0].permissions).toMatchObject({ read: true, update: false });
    const [scheme] = await getAs(department, `/api/document/${documents[0].id}/schemas`);
    const subBudgets = await getAs(department, `/api/budget/${budgets[0].id}/schema/${scheme.id}/sub-budgets`);
    const updatable = subBudgets.filter((subBudget: { permissions?: { update: boolean } }) => subBudget.permissions?.update);
    expect(names(updatable)).toEqual(['Haridus']);
    expect(subBudgets.length).toBeGreaterThan(1);

    const { document } = await tartuAsAdministrator();
    const investments = (await get(`/api/document/${document.id}/budgets`)).find((budget: { name: string }) => budget.name === 'Investeeringud');
    expect([403, 404]).toContain((await department.request({ method: 'GET', url: `/api/budget/${investments.id}` })).statusCode);
  });

  it('gives the department a password only when the administrator has the demo password (never a chosen one)', () => {
    expect(demoDepartmentLogin({ bootstrapAdmin: server.admin })).toBe(DEMO_DEPARTMENT.email);
    expect(demoDepartmentLogin({ bootstrapAdmin: { email: server.admin.email, password: 'A-Chosen-Password-1' } })).toBeNull();
    expect(demoDepartmentLogin({})).toBeNull();
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
