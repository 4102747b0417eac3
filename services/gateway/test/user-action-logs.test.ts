import { randomUUID } from 'node:crypto';
import type { accountsFixture } from '@eelarve/testing/accounts';
import { PASSWORD } from '@eelarve/testing/accounts';
import type { schemesFixture } from '@eelarve/testing/schemes';
import type { TestServer } from '@eelarve/testing/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { USER_ACTION_LOGS_KEPT } from '../src/features/user-action-logs/service';
import { Browser } from './auth-fixtures';
import { type Client, login } from './helpers';
import { schemesWorld } from './schemes-world';

/** Recently visited report views (spec 1, sections 2-3; spec 3, section 7; issue 12, point 4) through the HTTP API on PostgreSQL. */

let server: TestServer;
let accounts: ReturnType<typeof accountsFixture>;
let fixture: ReturnType<typeof schemesFixture>;
let organizationId: string;
let documentId: string;
let documentName: string;
let outsider: Client;

const visit = (client: Client, budgetId: string, document = documentId) =>
  client.request({ method: 'POST', url: '/api/user-action-logs', payload: { actionType: 'REPORT_VIEW', documentId: document, budgetId } });
async function recent(client: Client): Promise<Array<{ budgetId: string; budgetName: string; documentName: string; documentId: string; visitedAt: string }>> {
  const response = await client.request({ method: 'GET', url: '/api/user-action-logs/current-occupation' });
  expect(response.statusCode, response.body).toBe(200);
  return response.json();
}
const budgetIdsOf = async (client: Client) => (await recent(client)).map((row) => row.budgetId);

async function reader(): Promise<Client & { occupationId: string }> {
  const made = await accounts.member(organizationId, ['DATA_VIEW']);
  await accounts.grant(made.occupationId, [{ documentId, read: true }]);
  return { ...(await login(server.app, made.email, PASSWORD)), occupationId: made.occupationId };
}
const budgets = (count: number) => Promise.all(Array.from({ length: count }, () => fixture.budget(documentId, organizationId)));

beforeAll(async () => {
  const world = await schemesWorld('Kuressaare Linnavalitsus', 'Hiiumaa Vallavalitsus');
  ({ server, accounts, fixture, organizationId, outsider } = world);
  documentId = await fixture.documentWithMaster(organizationId);
  documentName = (await server.app.db.withSchema('read').selectFrom('documents').select('name').where('id', '=', documentId).executeTakeFirstOrThrow()).name;
}, 120_000);
afterAll(async () => server?.close());

describe('user action logs', () => {
  it('records a report view with the document and budget names the server resolves, and lists it', async () => {
    const client = await reader();
    const [budgetId] = await budgets(1);
    const response = await visit(client, budgetId!);
    expect(response.statusCode, response.body).toBe(201);
    const budgetName = (await client.request({ method: 'GET', url: `/api/budget/${budgetId}` })).json().name;
    expect(response.json()).toMatchObject({ actionType: 'REPORT_VIEW', documentId, documentName, budgetId, budgetName });
    expect(await recent(client)).toEqual([{ actionType: 'REPORT_VIEW', documentId, documentName, budgetId, budgetName, visitedAt: response.json().visitedAt }]);
  });

  it('lists newest first, one row per budget (a revisit moves it to the top), at most 10', async () => {
    const client = await reader();
    const ids = await budgets(12);
    for (const id of ids) expect((await visit(client, id)).statusCode).toBe(201);
    expect(await budgetIdsOf(client)).toEqual(ids.slice(2).reverse());
    await visit(client, ids[5]!);
    const after = await budgetIdsOf(client);
    expect(after).toHaveLength(10);
    expect(after[0]).toBe(ids[5]);
    expect(after.filter((id) => id === ids[5])).toHaveLength(1);
  });

  it('keeps each occupation to its own visits', async () => {
    const [first, second] = [await reader(), await reader()];
    const [budgetId] = await budgets(1);
    await visit(first, budgetId!);
    expect(await budgetIdsOf(second)).toEqual([]);
  });

  it('leaves out a budget the occupation can no longer read, and a deleted one', async () => {
    const made = await accounts.member(organizationId, ['DATA_VIEW']);
    const [kept, revoked, deleted] = await budgets(3);
    await accounts.grant(made.occupationId, [
      { documentId, budgetId: kept, read: true },
      { documentId, budgetId: revoked, read: true },
      { documentId, budgetId: deleted, read: true },
    ]);
    const client = await login(server.app, made.email, PASSWORD);
    for (const id of [kept!, revoked!, deleted!]) expect((await visit(client, id)).statusCode).toBe(201);
    await accounts.grant(made.occupationId, [{ documentId, budgetId: revoked, read: false }]);
    await fixture.deleteBudget(deleted!);
    expect(await budgetIdsOf(client)).toEqual([kept]);
  });

  it('refuses a budget the caller cannot read, of another document or organisation, and a bad action type; nothing is listed', async () => {
    const made = await accounts.member(organizationId, ['DATA_VIEW']);
    const client = await login(server.app, made.email, PASSWORD);
    const [budgetId] = await budgets(1);
    expect((await visit(client, budgetId!)).json().code).toBe('INSUFFICIENT_PERMISSIONS');
    const granted = await reader();
    expect((await visit(granted, budgetId!, randomUUID())).json().code).toBe('BUDGET_NOT_FOUND');
    expect((await visit(outsider, budgetId!)).json().code).toBe('BUDGET_NOT_FOUND');
    const badType = await granted.request({ method: 'POST', url: '/api/user-action-logs', payload: { actionType: 'RECORD_VIEW', documentId, budgetId } });
    expect({ status: badType.statusCode, code: badType.json().code }).toEqual({ status: 400, code: 'SCHEMA_VALIDATION_ERROR' });
    expect(await budgetIdsOf(client)).toEqual([]);
    expect(await budgetIdsOf(granted)).toEqual([]);
    expect((await server.app.inject({ method: 'GET', url: '/api/user-action-logs/current-occupation' })).statusCode).toBe(401);
  });

  it('needs an occupation', async () => {
    // Two occupations: none is chosen at sign-in.
    const made = await accounts.member(organizationId, ['DATA_VIEW']);
    await accounts.occupation(organizationId, made.userId, [made.roleId]);
    const browser = new Browser(server.app);
    expect((await browser.login(made.email, PASSWORD)).json().occupationId).toBeNull();
    expect((await browser.request({ method: 'GET', url: '/api/user-action-logs/current-occupation' })).statusCode).toBe(403);
  });

  it(`keeps only the newest ${USER_ACTION_LOGS_KEPT} visits of an occupation`, async () => {
    const client = await reader();
    const ids = await budgets(3);
    for (const id of ids) await visit(client, id);
    // Older visits beyond the bound, as if made long ago.
    const occupationId = client.occupationId;
    await server.app.db
      .insertInto('operational.user_action_logs')
      .values(
        Array.from({ length: USER_ACTION_LOGS_KEPT }, (_, index) => ({
          occupation_id: occupationId,
          user_id: randomUUID(),
          action_type: 'REPORT_VIEW',
          document_id: documentId,
          budget_id: randomUUID(),
          visited_at: new Date(Date.UTC(2020, 0, 1, 0, index)),
        })),
      )
      .execute();
    await visit(client, ids[0]!);
    const kept = await server.app.db.selectFrom('operational.user_action_logs').select('budget_id').where('occupation_id', '=', occupationId).execute();
    expect(kept).toHaveLength(USER_ACTION_LOGS_KEPT);
    expect(kept.map((row) => row.budget_id)).toEqual(expect.arrayContaining(ids));
  });
});
