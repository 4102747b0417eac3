import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mailTo, waitForMail } from '../src/features/mail/mailbox';
import { startTestServer, type TestServer } from '../src/testing';
import { Browser, createOrganization, createUser } from './auth-fixtures';
import { type Client, login } from './helpers';

let server: TestServer;
let admin: Client;
let organizationId: string;
let secondOrganizationId: string;

beforeAll(async () => {
  server = await startTestServer({ listen: false });
  admin = await login(server.app, server.admin.email, server.admin.password);
  organizationId = await createOrganization(admin, { allowedAuthenticationTypes: ['LOGIN'] });
  secondOrganizationId = await createOrganization(admin, { allowedAuthenticationTypes: ['LOGIN'] });
});
afterAll(async () => server?.close());

describe('user settings', () => {
  it('answers empty settings for nothing stored, and round-trips what is put', async () => {
    const user = await createUser(server.app, [organizationId]);
    const client = await login(server.app, user.email, user.password);
    const documentId = randomUUID();
    const empty = await client.request({ method: 'GET', url: `/api/user-settings?type=OCCUPATION_DOCUMENT` });
    expect(empty.statusCode).toBe(200);
    expect(empty.json()).toEqual({ type: 'OCCUPATION_DOCUMENT', settings: {} });

    const put = await client.request({ method: 'PUT', url: '/api/user-settings', payload: { type: 'OCCUPATION_DOCUMENT', settings: { rememberedDocumentId: documentId } } });
    expect(put.statusCode).toBe(200);
    expect(put.json()).toEqual({ type: 'OCCUPATION_DOCUMENT', settings: { rememberedDocumentId: documentId } });
    expect((await client.request({ method: 'GET', url: '/api/user-settings?type=OCCUPATION_DOCUMENT' })).json().settings).toEqual({ rememberedDocumentId: documentId });

    // Overwritten, not merged.
    await client.request({ method: 'PUT', url: '/api/user-settings', payload: { type: 'OCCUPATION_DOCUMENT', settings: { other: [1, 2, { deep: true }] } } });
    expect((await client.request({ method: 'GET', url: '/api/user-settings?type=OCCUPATION_DOCUMENT' })).json().settings).toEqual({ other: [1, 2, { deep: true }] });
  });

  it('keys settings by type and by document, budget and sub-budget', async () => {
    const user = await createUser(server.app, [organizationId]);
    const client = await login(server.app, user.email, user.password);
    const [documentId, budgetId, subBudgetId] = [randomUUID(), randomUUID(), randomUUID()];
    const scopes: Array<Record<string, string>> = [
      { documentId },
      { documentId, budgetId },
      { documentId, budgetId, subBudgetId },
    ];
    for (const [index, scope] of scopes.entries()) {
      expect((await client.request({ method: 'PUT', url: '/api/user-settings', payload: { type: 'REPORT_COLUMNS', ...scope, settings: { index } } })).statusCode).toBe(200);
    }
    for (const [index, scope] of scopes.entries()) {
      const query = new URLSearchParams({ type: 'REPORT_COLUMNS', ...scope }).toString();
      expect((await client.request({ method: 'GET', url: `/api/user-settings?${query}` })).json().settings).toEqual({ index });
    }
    expect((await client.request({ method: 'GET', url: '/api/user-settings?type=REPORT_COLUMNS' })).json().settings).toEqual({});
    expect((await client.request({ method: 'GET', url: `/api/user-settings?type=REPORT&documentId=${documentId}` })).json().settings).toEqual({});
  });

  it('keeps each user and each occupation to its own settings', async () => {
    const first = await createUser(server.app, [organizationId]);
    const second = await createUser(server.app, [organizationId]);
    const firstClient = await login(server.app, first.email, first.password);
    const secondClient = await login(server.app, second.email, second.password);
    await firstClient.request({ method: 'PUT', url: '/api/user-settings', payload: { type: 'BUDGET_SCHEME', settings: { mine: true } } });
    expect((await secondClient.request({ method: 'GET', url: '/api/user-settings?type=BUDGET_SCHEME' })).json().settings).toEqual({});
    await secondClient.request({ method: 'PUT', url: '/api/user-settings', payload: { type: 'BUDGET_SCHEME', settings: { theirs: true } } });
    expect((await firstClient.request({ method: 'GET', url: '/api/user-settings?type=BUDGET_SCHEME' })).json().settings).toEqual({ mine: true });

    const twoJobs = await createUser(server.app, [organizationId, secondOrganizationId]);
    const browser = new Browser(server.app);
    await browser.login(twoJobs.email, twoJobs.password, { occupationId: twoJobs.occupationIds[0] });
    await browser.request({ method: 'PUT', url: '/api/user-settings', payload: { type: 'BUDGET_ERP', settings: { occupation: 1 } } });
    await browser.request({ method: 'POST', url: '/api/auth/switch', payload: { occupationId: twoJobs.occupationIds[1] } });
    expect((await browser.request({ method: 'GET', url: '/api/user-settings?type=BUDGET_ERP' })).json().settings).toEqual({});
  });

  it('validates the type and ids, and needs an occupation', async () => {
    const user = await createUser(server.app, [organizationId, secondOrganizationId]);
    const browser = new Browser(server.app);
    expect((await browser.login(user.email, user.password)).json().occupationId).toBeNull();
    expect((await browser.request({ method: 'GET', url: '/api/user-settings?type=REPORT' })).statusCode).toBe(403);
    await browser.request({ method: 'POST', url: '/initial/auth/select-occupation', payload: { occupationId: user.occupationIds[0] } });
    const badType = await browser.request({ method: 'GET', url: '/api/user-settings?type=NOPE' });
    expect(badType.statusCode).toBe(400);
    expect(badType.json().code).toBe('SCHEMA_VALIDATION_ERROR');
    const badId = await browser.request({ method: 'PUT', url: '/api/user-settings', payload: { type: 'REPORT', documentId: 'x', settings: {} } });
    expect(badId.statusCode).toBe(400);
    const tooLarge = await browser.request({ method: 'PUT', url: '/api/user-settings', payload: { type: 'REPORT', settings: { blob: 'x'.repeat(70_000) } } });
    expect(tooLarge.statusCode).toBe(400);
    expect((await server.app.inject({ method: 'GET', url: '/api/user-settings?type=REPORT' })).statusCode).toBe(401);
  });
});

describe('language', () => {
  it('records the language (event and Me) and mails the user in it from then on', async () => {
    const user = await createUser(server.app, [organizationId]);
    const client = await login(server.app, user.email, user.password);
    const response = await client.request({ method: 'PUT', url: '/api/user-settings/language', payload: { language: 'en' } });
    expect(response.statusCode).toBe(200);
    expect(response.json().userLanguage).toBe('en');
    expect((await server.app.store.readStream(`user-${user.userId}`)).map((event) => event.type)).toContain('UserLanguageSet');
    await server.app.inject({ method: 'POST', url: '/public/auth/request-password-reset', payload: { email: user.email } });
    expect((await waitForMail(server.app.config.dataDir, user.email)).subject).toBe('Eelarve: password reset');
    const invalid = await client.request({ method: 'PUT', url: '/api/user-settings/language', payload: { language: 'de' } });
    expect(invalid.statusCode).toBe(400);
  });
});

describe('own e-mail', () => {
  it('changes the sign-in address and tells the old address', async () => {
    const user = await createUser(server.app, [organizationId]);
    const client = await login(server.app, user.email, user.password);
    const newEmail = `new-${randomUUID().slice(0, 8)}@example.com`;
    const response = await client.request({ method: 'PUT', url: '/api/user-settings/email', payload: { email: newEmail.toUpperCase() } });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json().email).toBe(newEmail);
    expect((await new Browser(server.app).login(newEmail, user.password)).statusCode).toBe(200);
    expect((await new Browser(server.app).login(user.email, user.password)).statusCode).toBe(401);
    const notice = await waitForMail(server.app.config.dataDir, user.email);
    expect(notice.subject).toBe('Eelarve: e-posti aadress muudetud');
    expect(notice.text).toContain(newEmail);
    expect(await mailTo(server.app.config.dataDir, newEmail)).toHaveLength(0);
  });

  it('refuses an address another user has, whatever its case', async () => {
    const user = await createUser(server.app, [organizationId]);
    const other = await createUser(server.app, [organizationId]);
    const client = await login(server.app, user.email, user.password);
    for (const email of [other.email, other.email.toUpperCase(), server.admin.email]) {
      const response = await client.request({ method: 'PUT', url: '/api/user-settings/email', payload: { email } });
      expect(response.statusCode).toBe(409);
      expect(response.json().code).toBe('EMAIL_IN_USE');
    }
    expect((await client.request({ method: 'GET', url: '/api/auth/me' })).json().email).toBe(user.email);
    // Its own address is no change.
    expect((await client.request({ method: 'PUT', url: '/api/user-settings/email', payload: { email: user.email } })).statusCode).toBe(200);
  });

  it('frees the old address for someone else', async () => {
    const user = await createUser(server.app, [organizationId]);
    const client = await login(server.app, user.email, user.password);
    const oldEmail = user.email;
    await client.request({ method: 'PUT', url: '/api/user-settings/email', payload: { email: `moved-${randomUUID().slice(0, 8)}@example.com` } });
    const other = await createUser(server.app, [organizationId]);
    const otherClient = await login(server.app, other.email, other.password);
    const taken = await otherClient.request({ method: 'PUT', url: '/api/user-settings/email', payload: { email: oldEmail } });
    expect(taken.statusCode, taken.body).toBe(200);
  });
});
