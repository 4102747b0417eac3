import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { schemesFixture } from '@eelarve/testing/schemes';
import { accountsFixture, PASSWORD } from '@eelarve/testing/accounts';
import { startTestServer, type TestServer } from '@eelarve/testing/server';
import { type Client, login } from './helpers';

/**
 * Issue 8, finding 9: many writers of one stream whose changes do not conflict must all succeed.
 * A lost race is decided again on the fresh state (with jittered backoff), not answered 409.
 */
let server: TestServer;
let admin: Client;
let organizationId: string;
let documentId: string;

beforeAll(async () => {
  server = await startTestServer({ listen: false });
  admin = await login(server.app, server.admin.email, server.admin.password);
  organizationId = await accountsFixture(server.app, admin).organization('Jõgeva Vallavalitsus');
  documentId = await schemesFixture(server.app).document(organizationId);
});
afterAll(async () => server?.close());

const answers = (responses: Array<{ statusCode: number; body: string }>) =>
  responses.map((response) => `${response.statusCode} ${response.statusCode >= 300 ? response.body : ''}`.trim());

describe('writers of one stream that do not conflict', () => {
  it('renames one budget 32 times at once, and every rename succeeds', { timeout: 60_000 }, async () => {
    const budgetId = await schemesFixture(server.app).budget(documentId, organizationId);
    const names = Array.from({ length: 32 }, (_, index) => `Eelarve ${index}`);
    const responses = await Promise.all(
      names.map((name) => admin.request({ method: 'PUT', url: `/api/budget/${budgetId}`, payload: { type: 'COMMON', name, description: '' } })),
    );
    expect(answers(responses)).toEqual(names.map(() => '200'));
    const budgets: Array<{ id: string; name: string }> = (await admin.request({ method: 'GET', url: `/api/document/${documentId}/budgets` })).json();
    expect(names).toContain(budgets.find((budget) => budget.id === budgetId)?.name);
  });

  it('lets 16 users add distinct item codes to one classifier at once, and every item is added', { timeout: 120_000 }, async () => {
    const classifier = await admin.request({
      method: 'POST',
      url: `/api/document/${documentId}/classifier`,
      payload: {
        name: 'Tegevusala',
        itemName: 'Tegevus',
        fieldName: 'tegevusala',
        description: '',
        codeSettings: { typeName: 'Code', minLength: 1, maxLength: 20, hierarchical: false },
      },
    });
    expect(classifier.statusCode, classifier.body).toBe(201);
    const classifierId = classifier.json().id;
    const accounts = accountsFixture(server.app, admin);
    const users: Client[] = [];
    for (let index = 0; index < 16; index++)
      users.push(await login(server.app, (await accounts.reader(organizationId, ['CLASSIFICATION_ADMIN'])).email, PASSWORD));
    const codes = users.map((_, index) => `K${String(index).padStart(2, '0')}`);
    const responses = await Promise.all(
      users.map((user, index) =>
        user.request({ method: 'POST', url: `/api/classifier/${classifierId}/item`, payload: { code: codes[index], name: `Tegevus ${index}` } }),
      ),
    );
    expect(answers(responses)).toEqual(codes.map(() => '201'));
    const items: Array<{ code: string }> = (await admin.request({ method: 'GET', url: `/api/classifier/${classifierId}/items` })).json();
    expect(items.map((item) => item.code).sort()).toEqual(codes);
  });
});
