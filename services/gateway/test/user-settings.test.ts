import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { extractLink, extractToken, mailTo, waitForMail } from '../src/features/mail/mailbox';
import { startTestServer, type TestServer } from '@eelarve/testing/server';
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

    const put = await client.request({
      method: 'PUT',
      url: '/api/user-settings',
      payload: { type: 'OCCUPATION_DOCUMENT', settings: { rememberedDocumentId: documentId } },
    });
    expect(put.statusCode).toBe(200);
    expect(put.json()).toEqual({ type: 'OCCUPATION_DOCUMENT', settings: { rememberedDocumentId: documentId } });
    expect((await client.request({ method: 'GET', url: '/api/user-settings?type=OCCUPATION_DOCUMENT' })).json().settings).toEqual({
      rememberedDocumentId: documentId,
    });

    // Overwritten, not merged.
    await client.request({ method: 'PUT', url: '/api/user-settings', payload: { type: 'OCCUPATION_DOCUMENT', settings: { rememberedDocumentId: null } } });
    expect((await client.request({ method: 'GET', url: '/api/user-settings?type=OCCUPATION_DOCUMENT' })).json().settings).toEqual({
      rememberedDocumentId: null,
    });
  });

  it('keys settings by type and by document, budget and sub-budget', async () => {
    const user = await createUser(server.app, [organizationId]);
    const client = await login(server.app, user.email, user.password);
    const [documentId, budgetId, subBudgetId] = [randomUUID(), randomUUID(), randomUUID()];
    const scopes: Array<Record<string, string>> = [{ budgetId }, { documentId, budgetId }, { documentId, budgetId, subBudgetId }];
    const columnsOf = (index: number) => ({ reportColumns: [`column-${index}`], comparisonBudgetIds: [], calcColumns: [] });
    for (const [index, scope] of scopes.entries()) {
      const put = await client.request({ method: 'PUT', url: '/api/user-settings', payload: { type: 'REPORT_COLUMNS', ...scope, settings: columnsOf(index) } });
      expect(put.statusCode, put.body).toBe(200);
    }
    for (const [index, scope] of scopes.entries()) {
      const query = new URLSearchParams({ type: 'REPORT_COLUMNS', ...scope }).toString();
      expect((await client.request({ method: 'GET', url: `/api/user-settings?${query}` })).json().settings).toEqual(columnsOf(index));
    }
    expect((await client.request({ method: 'GET', url: '/api/user-settings?type=REPORT_COLUMNS' })).json().settings).toEqual({});
    expect((await client.request({ method: 'GET', url: `/api/user-settings?type=REPORT&documentId=${documentId}` })).json().settings).toEqual({});
  });

  it('keeps each user and each occupation to its own settings', async () => {
    const first = await createUser(server.app, [organizationId]);
    const second = await createUser(server.app, [organizationId]);
    const firstClient = await login(server.app, first.email, first.password);
    const secondClient = await login(server.app, second.email, second.password);
    const [budgetId, mine, theirs] = [randomUUID(), randomUUID(), randomUUID()];
    const schemeUrl = `/api/user-settings?type=BUDGET_SCHEME&budgetId=${budgetId}`;
    await firstClient.request({ method: 'PUT', url: '/api/user-settings', payload: { type: 'BUDGET_SCHEME', budgetId, settings: { schemeId: mine } } });
    expect((await secondClient.request({ method: 'GET', url: schemeUrl })).json().settings).toEqual({});
    await secondClient.request({ method: 'PUT', url: '/api/user-settings', payload: { type: 'BUDGET_SCHEME', budgetId, settings: { schemeId: theirs } } });
    expect((await firstClient.request({ method: 'GET', url: schemeUrl })).json().settings).toEqual({ schemeId: mine });

    const twoJobs = await createUser(server.app, [organizationId, secondOrganizationId]);
    const browser = new Browser(server.app);
    await browser.login(twoJobs.email, twoJobs.password, { occupationId: twoJobs.occupationIds[0] });
    const erp = { selectedColumns: ['konto'], showEmptyColumns: true, showErpRows: true, selectedViewTitle: 'Koond' };
    const erpUrl = `/api/user-settings?type=BUDGET_ERP&budgetId=${budgetId}`;
    expect((await browser.request({ method: 'PUT', url: '/api/user-settings', payload: { type: 'BUDGET_ERP', budgetId, settings: erp } })).statusCode).toBe(
      200,
    );
    expect((await browser.request({ method: 'GET', url: erpUrl })).json().settings).toEqual(erp);
    await browser.request({ method: 'POST', url: '/api/auth/switch', payload: { occupationId: twoJobs.occupationIds[1] } });
    expect((await browser.request({ method: 'GET', url: erpUrl })).json().settings).toEqual({});
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

describe('user settings by type (spec 1, section 3; spec 3, section 3)', () => {
  const put = (client: Client, payload: Record<string, unknown>) => client.request({ method: 'PUT', url: '/api/user-settings', payload });
  const get = async (client: Client, query: Record<string, string>) =>
    (await client.request({ method: 'GET', url: `/api/user-settings?${new URLSearchParams(query)}` })).json().settings;

  it('remembers the report’s scheme, grouping classifier and filters per budget', async () => {
    const user = await createUser(server.app, [organizationId]);
    const client = await login(server.app, user.email, user.password);
    const [documentId, first, second, schemeId, classifierId] = [randomUUID(), randomUUID(), randomUUID(), randomUUID(), randomUUID()];
    const filter = { key: { id: schemeId, type: 'SUB_BUDGET' }, enabled: true, selectedItems: ['a'], regex: '^a', visible: true };
    const report = { rememberedSchemeId: schemeId, rememberedGroupingClassifierId: classifierId, filters: [filter], filterChanges: [], filtersOrder: [] };
    expect((await put(client, { type: 'REPORT', documentId, budgetId: first, settings: report })).statusCode).toBe(200);
    expect((await put(client, { type: 'REPORT', documentId, budgetId: second, settings: { rememberedSchemeId: null } })).statusCode).toBe(200);
    expect(await get(client, { type: 'REPORT', documentId, budgetId: first })).toEqual(report);
    // Omitted lists are stored empty.
    expect(await get(client, { type: 'REPORT', documentId, budgetId: second })).toEqual({
      rememberedSchemeId: null,
      filters: [],
      filterChanges: [],
      filtersOrder: [],
    });
  });

  it('refuses settings that do not fit their type, or a type without its place; nothing is stored', async () => {
    const user = await createUser(server.app, [organizationId]);
    const client = await login(server.app, user.email, user.password);
    const budgetId = randomUUID();
    const refusals: Array<[Record<string, unknown>, string]> = [
      [{ type: 'REPORT', settings: {} }, 'body.budgetId'],
      [{ type: 'REPORT', budgetId, settings: { filters: [{ key: { id: 'x', type: 'SUB_BUDGET' }, regex: '(' }] } }, 'body.settings.filters.0.regex'],
      [{ type: 'REPORT', budgetId, settings: { unknown: true } }, 'body.settings'],
      [
        { type: 'REPORT_COLUMNS', budgetId, settings: { calcColumns: [{ id: 'c', firstOperand: 'a', secondOperand: 'b', operation: 'divide' }] } },
        'body.settings.calcColumns.0.operation',
      ],
      [{ type: 'BUDGET_SCHEME', budgetId, settings: { schemeId: 'not-an-id' } }, 'body.settings.schemeId'],
      [{ type: 'BUDGET_ERP', settings: {} }, 'body.budgetId'],
      [{ type: 'BUDGET_SCHEME', settings: { schemeId: null } }, 'body.budgetId'],
      [{ type: 'REPORT', documentId: budgetId, subBudgetId: budgetId, settings: {} }, 'body.budgetId'],
      [{ type: 'OCCUPATION_DOCUMENT', budgetId, settings: { rememberedDocumentId: null } }, 'body.budgetId'],
      [{ type: 'OCCUPATION_DOCUMENT', settings: { rememberedDocumentId: 'x' } }, 'body.settings.rememberedDocumentId'],
    ];
    for (const [payload, path] of refusals) {
      const response = await put(client, payload);
      expect({ status: response.statusCode, code: response.json().code }, JSON.stringify(payload)).toEqual({ status: 400, code: 'SCHEMA_VALIDATION_ERROR' });
      expect(response.json().details.map((detail: { path: string }) => detail.path)).toContain(path);
    }
    expect(await get(client, { type: 'REPORT', budgetId })).toEqual({});
    expect(await get(client, { type: 'OCCUPATION_DOCUMENT' })).toEqual({});
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
  const PASSWORD = { currentPassword: 'Valid-Password-1' };
  const change = (client: Client, email: string, currentPassword = PASSWORD.currentPassword) =>
    client.request({ method: 'PUT', url: '/api/user-settings/email', payload: { email, currentPassword } });
  const confirm = (token: string) => server.app.inject({ method: 'POST', url: '/public/email-change/confirm', payload: { token } });

  it('needs the current password', async () => {
    const user = await createUser(server.app, [organizationId]);
    const client = await login(server.app, user.email, user.password);
    const newEmail = `new-${randomUUID().slice(0, 8)}@example.com`;
    const missing = await client.request({ method: 'PUT', url: '/api/user-settings/email', payload: { email: newEmail } });
    expect(missing.statusCode).toBe(400);
    const wrong = await change(client, newEmail, 'Wrong-Password-1');
    expect(wrong.statusCode).toBe(422);
    expect(wrong.json()).toMatchObject({ code: 'INVALID_CURRENT_PASSWORD', details: [{ path: 'currentPassword' }] });
    expect(await mailTo(server.app.config.dataDir, newEmail)).toHaveLength(0);
    expect((await client.request({ method: 'GET', url: '/api/user-settings/email' })).json()).toEqual({ pendingEmail: null });
  });

  it('changes the sign-in address only once the new address confirms the mailed link, once, and tells the old address', async () => {
    const user = await createUser(server.app, [organizationId]);
    const client = await login(server.app, user.email, user.password);
    const newEmail = `new-${randomUUID().slice(0, 8)}@example.com`;
    const response = await change(client, newEmail.toUpperCase());
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toEqual({ pendingEmail: newEmail });
    expect((await client.request({ method: 'GET', url: '/api/user-settings/email' })).json()).toEqual({ pendingEmail: newEmail });

    // Requested, not made: the old address still signs in and is told of the request.
    expect((await client.request({ method: 'GET', url: '/api/auth/me' })).json().email).toBe(user.email);
    expect((await new Browser(server.app).login(user.email, user.password)).statusCode).toBe(200);
    expect((await new Browser(server.app).login(newEmail, user.password)).statusCode).toBe(401);
    const requested = await waitForMail(server.app.config.dataDir, user.email);
    expect(requested.subject).toBe('Eelarve: e-posti aadressi muutmise taotlus');
    expect(requested.text).toContain(newEmail);
    expect(requested.text).not.toMatch(/confirm-email\?token=/);

    const confirmation = await waitForMail(server.app.config.dataDir, newEmail);
    expect(confirmation.subject).toBe('Eelarve: kinnita uus e-posti aadress');
    const token = extractToken(confirmation, '/confirm-email');
    expect(extractLink(confirmation, '/confirm-email')).toMatch(/^http:\/\/localhost\/confirm-email\?token=/);
    const confirmed = await confirm(token);
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    expect(confirmed.json()).toEqual({ email: newEmail });
    expect((await confirm(token)).json().code).toBe('INVALID_OR_EXPIRED_TOKEN');

    expect((await client.request({ method: 'GET', url: '/api/auth/me' })).json().email).toBe(newEmail);
    expect((await new Browser(server.app).login(newEmail, user.password)).statusCode).toBe(200);
    expect((await new Browser(server.app).login(user.email, user.password)).statusCode).toBe(401);
    const notice = await waitForMail(server.app.config.dataDir, user.email, { seen: [requested.file] });
    expect(notice.subject).toBe('Eelarve: e-posti aadress muudetud');
    expect(notice.text).toContain(newEmail);
    expect((await client.request({ method: 'GET', url: '/api/user-settings/email' })).json()).toEqual({ pendingEmail: null });
  });

  it('refuses an address another user has, whatever its case, and holds a pending one for the requester', async () => {
    const user = await createUser(server.app, [organizationId]);
    const other = await createUser(server.app, [organizationId]);
    const client = await login(server.app, user.email, user.password);
    for (const email of [other.email, other.email.toUpperCase(), server.admin.email]) {
      const response = await change(client, email);
      expect(response.statusCode).toBe(409);
      expect(response.json().code).toBe('EMAIL_IN_USE');
    }
    expect((await client.request({ method: 'GET', url: '/api/auth/me' })).json().email).toBe(user.email);
    // Its own address is no change.
    expect((await change(client, user.email)).json()).toEqual({ pendingEmail: null });
    // An address awaiting confirmation is not free for someone else meanwhile.
    const wanted = `wanted-${randomUUID().slice(0, 8)}@example.com`;
    expect((await change(client, wanted)).statusCode).toBe(200);
    const otherClient = await login(server.app, other.email, other.password);
    expect((await change(otherClient, wanted)).json().code).toBe('EMAIL_IN_USE');
  });

  it('refuses an unknown, expired or replaced token', async () => {
    const user = await createUser(server.app, [organizationId]);
    const client = await login(server.app, user.email, user.password);
    expect((await confirm('not-a-token')).json().code).toBe('INVALID_OR_EXPIRED_TOKEN');
    const first = `first-${randomUUID().slice(0, 8)}@example.com`;
    const second = `second-${randomUUID().slice(0, 8)}@example.com`;
    await change(client, first);
    const firstToken = extractToken(await waitForMail(server.app.config.dataDir, first), '/confirm-email');
    await change(client, second);
    const secondToken = extractToken(await waitForMail(server.app.config.dataDir, second), '/confirm-email');
    // The later request replaces the earlier one, whose address is free again.
    expect((await confirm(firstToken)).json().code).toBe('INVALID_OR_EXPIRED_TOKEN');
    const other = await createUser(server.app, [organizationId]);
    expect((await change(await login(server.app, other.email, other.password), first)).statusCode).toBe(200);
    await server.app.db
      .updateTable('operational.email_changes')
      .set({ expires_at: new Date(Date.now() - 1000) })
      .where('user_id', '=', user.userId)
      .execute();
    const expired = await confirm(secondToken);
    expect({ status: expired.statusCode, code: expired.json().code }).toEqual({ status: 422, code: 'INVALID_OR_EXPIRED_TOKEN' });
    expect((await client.request({ method: 'GET', url: '/api/auth/me' })).json().email).toBe(user.email);
  });

  it('frees the old address for someone else once confirmed', async () => {
    const user = await createUser(server.app, [organizationId]);
    const client = await login(server.app, user.email, user.password);
    const oldEmail = user.email;
    const moved = `moved-${randomUUID().slice(0, 8)}@example.com`;
    await change(client, moved);
    expect((await confirm(extractToken(await waitForMail(server.app.config.dataDir, moved), '/confirm-email'))).statusCode).toBe(200);
    const other = await createUser(server.app, [organizationId]);
    const otherClient = await login(server.app, other.email, other.password);
    const taken = await change(otherClient, oldEmail);
    expect(taken.statusCode, taken.body).toBe(200);
  });
});
