import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findUserById } from '@eelarve/projections/accounts/queries';
import { readModels } from '../src/infrastructure/database';
import { extractLink, extractToken, mailTo, waitForMail } from '../src/features/mail/mailbox';
import { sendRegistrationConfirmation } from '../src/features/registration/confirmation';
import { hashAccountToken, issueToken } from '../src/features/registration/tokens';
import { startTestServer, type TestServer } from '@eelarve/testing/server';
import { Browser, createOrganization, createUser, type TestUser } from './auth-fixtures';
import { type Client, login } from './helpers';

let server: TestServer;
let admin: Client;
let organizationId: string;

beforeAll(async () => {
  server = await startTestServer({ listen: false });
  admin = await login(server.app, server.admin.email, server.admin.password);
  organizationId = await createOrganization(admin, { allowedAuthenticationTypes: ['LOGIN', 'PASS'], apiUsageAllowed: true });
});
afterAll(async () => server?.close());

const dataDir = () => server.app.config.dataDir;

/** A user as an administrator creates one: no password, not confirmed, a confirmation mailed. */
async function registeredUser(organization = organizationId): Promise<TestUser & { token: string }> {
  const user = await createUser(server.app, [organization], { password: null, confirmed: false });
  const row = (await findUserById(readModels(server.app.db), user.userId))!;
  await sendRegistrationConfirmation(server.app, { userId: user.userId, email: user.email, name: row.name, organizationId: organization });
  const mail = await waitForMail(dataDir(), user.email);
  return { ...user, token: extractToken(mail, '/confirm') };
}

function confirmPassword(payload: { type: string; token: string; password: string }) {
  return server.app.inject({ method: 'POST', url: '/public/auth/confirm-password', payload });
}

describe('registration confirmation', () => {
  it('mails a link that verifies, sets the password once, confirms the e-mail and lets the user sign in', async () => {
    const user = await registeredUser();
    const mail = (await mailTo(dataDir(), user.email))[0]!;
    expect(extractLink(mail, '/confirm')).toBe(`http://localhost/confirm?token=${user.token}`);
    expect(mail.subject).toBe('Eelarve: kinnita oma konto');

    const verify = await server.app.inject({ method: 'POST', url: '/public/token/verify', payload: { token: user.token } });
    expect(verify.statusCode).toBe(200);
    expect(verify.json()).toEqual({ allowedAuthenticationTypes: ['LOGIN', 'PASS'] });

    // Not yet: no password.
    expect(
      (await server.app.inject({ method: 'POST', url: '/initial/auth/login', payload: { username: user.email, password: 'Chosen-Password-1' } })).json().code,
    ).toBe('INVALID_USERNAME_OR_PASSWORD');

    const confirmed = await confirmPassword({ type: 'REGISTRATION', token: user.token, password: 'Chosen-Password-1' });
    expect(confirmed.statusCode).toBe(204);
    expect(confirmed.body).toBe('');

    const browser = new Browser(server.app);
    const signedIn = await browser.login(user.email, 'Chosen-Password-1');
    expect(signedIn.statusCode).toBe(200);
    expect(signedIn.json()).toMatchObject({ email: user.email, hasPassword: true, occupationId: user.occupationIds[0], authenticationType: 'LOGIN' });
    expect((await findUserById(readModels(server.app.db), user.userId))!.confirmed_at).not.toBeNull();
    const events = (await server.app.store.readStream(`user-${user.userId}`)).map((event) => event.type);
    expect(events).toEqual(expect.arrayContaining(['UserPasswordSet', 'UserEmailConfirmed']));
    // Only the hash is stored.
    const stored = await server.app.db.selectFrom('operational.account_tokens').selectAll().where('user_id', '=', user.userId).execute();
    expect(stored).toHaveLength(1);
    expect(stored[0]!.token_hash.equals(hashAccountToken(user.token))).toBe(true);
    expect(JSON.stringify(stored)).not.toContain(user.token);
  });

  it('refuses a used token, a token of the other purpose, an unknown token and an expired one', async () => {
    const user = await registeredUser();
    expect((await confirmPassword({ type: 'RESET', token: user.token, password: 'Chosen-Password-1' })).json().code).toBe('INVALID_OR_EXPIRED_TOKEN');
    expect((await confirmPassword({ type: 'REGISTRATION', token: user.token, password: 'Chosen-Password-1' })).statusCode).toBe(204);
    for (const token of [user.token, 'no-such-token']) {
      const reused = await confirmPassword({ type: 'REGISTRATION', token, password: 'Other-Password-2' });
      expect(reused.statusCode).toBe(422);
      expect(reused.json().code).toBe('INVALID_OR_EXPIRED_TOKEN');
      const verify = await server.app.inject({ method: 'POST', url: '/public/token/verify', payload: { token } });
      expect(verify.statusCode).toBe(422);
      expect(verify.json().code).toBe('INVALID_OR_EXPIRED_TOKEN');
    }
    // The first password still holds.
    expect((await new Browser(server.app).login(user.email, 'Chosen-Password-1')).statusCode).toBe(200);

    const late = await registeredUser();
    await server.app.db
      .updateTable('operational.account_tokens')
      .set({ expires_at: new Date(Date.now() - 1000) })
      .where('token_hash', '=', hashAccountToken(late.token))
      .execute();
    expect((await server.app.inject({ method: 'POST', url: '/public/token/verify', payload: { token: late.token } })).json().code).toBe(
      'INVALID_OR_EXPIRED_TOKEN',
    );
    expect((await confirmPassword({ type: 'REGISTRATION', token: late.token, password: 'Chosen-Password-1' })).json().code).toBe('INVALID_OR_EXPIRED_TOKEN');
  });

  it('gives registration tokens 7 days and reset tokens 1 day, and a new link replaces the old one', async () => {
    const user = await createUser(server.app, [organizationId], { password: null, confirmed: false });
    const before = Date.now();
    const first = await issueToken(server.app.db, user.userId, 'REGISTRATION');
    const second = await issueToken(server.app.db, user.userId, 'REGISTRATION');
    const reset = await issueToken(server.app.db, user.userId, 'RESET');
    const rows = await server.app.db.selectFrom('operational.account_tokens').selectAll().where('user_id', '=', user.userId).execute();
    expect(rows).toHaveLength(2);
    const lifetime = (token: string) => rows.find((row) => row.token_hash.equals(hashAccountToken(token)))!.expires_at.getTime() - before;
    expect(lifetime(second) / 86_400_000).toBeCloseTo(7, 2);
    expect(lifetime(reset) / 86_400_000).toBeCloseTo(1, 2);
    expect((await server.app.inject({ method: 'POST', url: '/public/token/verify', payload: { token: first } })).statusCode).toBe(422);
    expect((await server.app.inject({ method: 'POST', url: '/public/token/verify', payload: { token: second } })).statusCode).toBe(200);
  });

  it('lets only one of two concurrent uses of a token through', async () => {
    const user = await registeredUser();
    const results = await Promise.all([
      confirmPassword({ type: 'REGISTRATION', token: user.token, password: 'First-Password-1' }),
      confirmPassword({ type: 'REGISTRATION', token: user.token, password: 'Second-Password-2' }),
    ]);
    expect(results.map((response) => response.statusCode).sort()).toEqual([204, 422]);
  });
});

describe('password reset and resend confirmation', () => {
  it('answers unknown addresses exactly like known ones and mails nothing to them', async () => {
    const user = await createUser(server.app, [organizationId], { password: 'Old-Password-1' });
    const unconfirmed = await createUser(server.app, [organizationId], { password: null, confirmed: false });
    const responses: LightMyRequestResponse[] = [];
    for (const url of ['/public/auth/request-password-reset', '/public/auth/resend-confirmation']) {
      for (const email of [user.email, unconfirmed.email, 'nobody-here@example.com']) {
        responses.push(await server.app.inject({ method: 'POST', url, payload: { email } }));
      }
    }
    for (const response of responses) {
      expect(response.statusCode).toBe(204);
      expect(response.body).toBe('');
      expect(response.cookies).toHaveLength(0);
    }
    const headerNames = (response: LightMyRequestResponse) => Object.keys(response.headers).sort();
    expect(new Set(responses.map((response) => JSON.stringify(headerNames(response)))).size).toBe(1);
    await server.app.mail.settled();
    expect(await mailTo(dataDir(), 'nobody-here@example.com')).toHaveLength(0);
    // A confirmed user gets the reset only; the unconfirmed one gets both.
    const toUser = await mailTo(dataDir(), user.email);
    expect(toUser.map((mail) => new URL(extractLink(mail)).pathname)).toEqual(['/reset-password']);
    const toUnconfirmed = await mailTo(dataDir(), unconfirmed.email);
    expect(toUnconfirmed.map((mail) => new URL(extractLink(mail)).pathname).sort()).toEqual(['/confirm', '/reset-password']);
  });

  it('sets a new password through the reset link and signs out every session of the old one', async () => {
    const user = await createUser(server.app, [organizationId], { password: 'Old-Password-1' });
    const oldSession = await login(server.app, user.email, 'Old-Password-1');
    expect(
      (await server.app.inject({ method: 'POST', url: '/public/auth/request-password-reset', payload: { email: user.email.toUpperCase() } })).statusCode,
    ).toBe(204);
    const mail = await waitForMail(dataDir(), user.email);
    expect(mail.subject).toBe('Eelarve: parooli lähtestamine');
    const link = extractLink(mail, '/reset-password');
    expect(link.startsWith('http://localhost/reset-password?token=')).toBe(true);
    const token = extractToken(mail, '/reset-password');
    expect((await confirmPassword({ type: 'REGISTRATION', token, password: 'New-Password-2' })).statusCode).toBe(422);
    expect((await confirmPassword({ type: 'RESET', token, password: 'New-Password-2' })).statusCode).toBe(204);
    expect((await oldSession.request({ method: 'GET', url: '/api/auth/me' })).statusCode).toBe(401);
    expect((await new Browser(server.app).login(user.email, 'Old-Password-1')).statusCode).toBe(401);
    expect((await new Browser(server.app).login(user.email, 'New-Password-2')).statusCode).toBe(200);
    expect((await confirmPassword({ type: 'RESET', token, password: 'Third-Password-3' })).json().code).toBe('INVALID_OR_EXPIRED_TOKEN');
  });

  it('mails in the organisation language when the user has none', async () => {
    const english = await createOrganization(admin, {
      localeCode: 'en',
      localeSettings: { language: 'en', dateFormat: 'dd.MM.yyyy', decimalSeparator: 'comma', decimalPlaces: '2', presetResourceStatusIds: 'default' },
    });
    const user = await createUser(server.app, [english], { password: 'Old-Password-1' });
    await server.app.inject({ method: 'POST', url: '/public/auth/request-password-reset', payload: { email: user.email } });
    const mail = await waitForMail(dataDir(), user.email);
    expect(mail.subject).toBe('Eelarve: password reset');
    expect(mail.text).toContain('Hello');
    expect(mail.html).toContain('<a href="http://localhost/reset-password?token=');
  });

  it('caps how many links one address is sent', async () => {
    const user = await createUser(server.app, [organizationId], { password: 'Old-Password-1' });
    for (let i = 0; i < 8; i++) {
      expect((await server.app.inject({ method: 'POST', url: '/public/auth/request-password-reset', payload: { email: user.email } })).statusCode).toBe(204);
    }
    await server.app.mail.settled();
    expect(await mailTo(dataDir(), user.email)).toHaveLength(5);
  });

  it('validates the e-mail like any form', async () => {
    const response = await server.app.inject({ method: 'POST', url: '/public/auth/request-password-reset', payload: { email: 'not-an-address' } });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ code: 'SCHEMA_VALIDATION_ERROR', details: [{ path: 'body.email', message: 'validation.email' }] });
  });
});

describe('change password', () => {
  it('needs the current password, then keeps this session and ends the others', async () => {
    const user = await createUser(server.app, [organizationId], { password: 'Old-Password-1' });
    const here = await login(server.app, user.email, 'Old-Password-1');
    const elsewhere = await login(server.app, user.email, 'Old-Password-1');
    const wrong = await here.request({
      method: 'POST',
      url: '/api/auth/change-password',
      payload: { currentPassword: 'Wrong-Password-1', newPassword: 'New-Password-2' },
    });
    expect(wrong.statusCode).toBe(422);
    expect(wrong.json()).toMatchObject({ code: 'INVALID_CURRENT_PASSWORD', details: [{ path: 'currentPassword' }] });
    const changed = await here.request({
      method: 'POST',
      url: '/api/auth/change-password',
      payload: { currentPassword: 'Old-Password-1', newPassword: 'New-Password-2' },
    });
    expect(changed.statusCode).toBe(204);
    expect((await here.request({ method: 'GET', url: '/api/auth/me' })).statusCode).toBe(200);
    expect((await elsewhere.request({ method: 'GET', url: '/api/auth/me' })).statusCode).toBe(401);
    expect((await new Browser(server.app).login(user.email, 'Old-Password-1')).statusCode).toBe(401);
    expect((await new Browser(server.app).login(user.email, 'New-Password-2')).statusCode).toBe(200);
    const anonymous = await server.app.inject({
      method: 'POST',
      url: '/api/auth/change-password',
      payload: { currentPassword: 'New-Password-2', newPassword: 'Other-Password-3' },
    });
    expect(anonymous.statusCode).toBe(401);
    // The owner is told (in the organisation's language, Estonian here), without the password.
    const notice = await waitForMail(server.app.config.dataDir, user.email);
    expect(notice.subject).toBe('Eelarve: parool muudetud');
    expect(notice.text).toContain('parool muudeti');
    expect(notice.text).not.toContain('New-Password-2');
    expect(await mailTo(server.app.config.dataDir, user.email)).toHaveLength(1);
  });

  it('applies the password rules', async () => {
    const user = await createUser(server.app, [organizationId], { password: 'Old-Password-1', email: 'mari.maasikas@example.com' });
    const client = await login(server.app, user.email, 'Old-Password-1');
    const cases: Array<[string, string]> = [
      ['Short-1', 'validation.passwordMinLength'],
      ['alllowercase1', 'validation.passwordStrength'],
      ['ALLUPPERCASE1', 'validation.passwordStrength'],
      ['NoDigitsHere', 'validation.passwordStrength'],
    ];
    for (const [newPassword, message] of cases) {
      const response = await client.request({ method: 'POST', url: '/api/auth/change-password', payload: { currentPassword: 'Old-Password-1', newPassword } });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({ code: 'SCHEMA_VALIDATION_ERROR', details: [{ path: 'body.newPassword', message }] });
    }
    const missing = await client.request({ method: 'POST', url: '/api/auth/change-password', payload: { currentPassword: '', newPassword: 'New-Password-2' } });
    expect(missing.json()).toMatchObject({ code: 'SCHEMA_VALIDATION_ERROR', details: [{ path: 'body.currentPassword', message: 'validation.required' }] });
    const personal = await client.request({
      method: 'POST',
      url: '/api/auth/change-password',
      payload: { currentPassword: 'Old-Password-1', newPassword: 'Mari.Maasikas1' },
    });
    expect(personal.statusCode).toBe(422);
    expect(personal.json()).toMatchObject({ code: 'PASSWORD_NOT_STRONG', details: [{ path: 'newPassword' }] });
    const registered = await registeredUser();
    const weak = await confirmPassword({ type: 'REGISTRATION', token: registered.token, password: 'weak' });
    expect(weak.statusCode).toBe(400);
    expect(weak.json().details[0]).toMatchObject({ path: 'body.password', message: 'validation.passwordMinLength' });
    // A refused password does not use up the token.
    expect((await confirmPassword({ type: 'REGISTRATION', token: registered.token, password: 'Good-Password-1' })).statusCode).toBe(204);
  });
});
