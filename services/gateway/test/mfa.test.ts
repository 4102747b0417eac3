import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitForMail } from '../src/features/mail/mailbox';
import { startTestServer, type TestServer } from '@eelarve/testing/server';
import { awayFromStepEdge, Browser, codeFor, createOrganization, createUser, type TestUser } from './auth-fixtures';
import { type Client, login } from './helpers';

let server: TestServer;
let admin: Client;
let loginOrganization: string;
let mfaOrganization: string;

beforeAll(async () => {
  server = await startTestServer({ listen: false });
  admin = await login(server.app, server.admin.email, server.admin.password);
  loginOrganization = await createOrganization(admin, { allowedAuthenticationTypes: ['LOGIN'] });
  mfaOrganization = await createOrganization(admin, { allowedAuthenticationTypes: ['LOGIN_WITH_MFA'] });
});
afterAll(async () => server?.close());

async function signedIn(user: TestUser, ip?: string): Promise<Browser> {
  const browser = new Browser(server.app, ip);
  const response = await browser.login(user.email, user.password);
  expect(response.statusCode, response.body).toBe(200);
  return browser;
}

/** Sets up MFA through the API as the account settings screen does; returns the secret. */
async function setUpMfa(browser: Browser, prefix = '/api'): Promise<string> {
  await awayFromStepEdge();
  const secret = await browser.request({ method: 'GET', url: `${prefix}/auth/mfa-secret` });
  expect(secret.statusCode, secret.body).toBe(200);
  const { code } = secret.json();
  const confirmed = await browser.request({ method: 'POST', url: `${prefix}/auth/confirm-mfa-code`, payload: { code: codeFor(code) } });
  expect(confirmed.statusCode, confirmed.body).toBe(200);
  return code;
}

describe('MFA setup', () => {
  it('hands out a TOTP secret with its otpauth URI and QR code, and activates it with a real code', async () => {
    const user = await createUser(server.app, [loginOrganization]);
    const browser = await signedIn(user);
    const response = await browser.request({ method: 'GET', url: '/api/auth/mfa-secret' });
    expect(response.statusCode).toBe(200);
    const { uri, code, qrCode } = response.json();
    expect(code).toMatch(/^[A-Z2-7]{32}$/);
    const parsed = new URL(uri);
    expect(parsed.protocol).toBe('otpauth:');
    expect(parsed.host).toBe('totp');
    expect(decodeURIComponent(parsed.pathname)).toBe(`/Eelarve:${user.email}`);
    expect(Object.fromEntries(parsed.searchParams)).toEqual({ issuer: 'Eelarve', secret: code, algorithm: 'SHA1', digits: '6', period: '30' });
    expect(qrCode).toMatch(/^data:image\/png;base64,[A-Za-z0-9+/=]+$/);

    const wrong = await browser.request({
      method: 'POST',
      url: '/api/auth/confirm-mfa-code',
      payload: { code: codeFor(code) === '000000' ? '111111' : '000000' },
    });
    expect(wrong.statusCode).toBe(422);
    expect(wrong.json().code).toBe('INVALID_MFA_CODE');
    const malformed = await browser.request({ method: 'POST', url: '/api/auth/confirm-mfa-code', payload: { code: '12345a' } });
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json().details[0]).toMatchObject({ path: 'body.code', message: 'validation.mfaCode' });

    const before = browser.cookie;
    const confirmed = await browser.request({ method: 'POST', url: '/api/auth/confirm-mfa-code', payload: { code: codeFor(code) } });
    expect(confirmed.statusCode).toBe(200);
    expect(confirmed.json()).toMatchObject({ mfaAdded: true, authenticationType: 'LOGIN_WITH_MFA', occupationId: user.occupationIds[0] });
    // The upgraded session has a new token; the old one is gone.
    expect(browser.cookie).not.toBe(before);
    expect((await server.app.inject({ method: 'GET', url: '/api/auth/me', headers: { cookie: before! } })).statusCode).toBe(401);
    expect((await browser.request({ method: 'GET', url: '/api/auth/me' })).json()).toMatchObject({ mfaAdded: true, authenticationType: 'LOGIN_WITH_MFA' });
    const events = (await server.app.store.readStream(`user-${user.userId}`)).map((event) => event.type);
    expect(events).toContain('UserMfaEnabled');
  });

  it('refuses a second setup unless the MFA session asks to edit', async () => {
    const user = await createUser(server.app, [loginOrganization]);
    const browser = await signedIn(user);
    const firstSecret = await setUpMfa(browser);
    const again = await browser.request({ method: 'GET', url: '/api/auth/mfa-secret' });
    expect(again.statusCode).toBe(422);
    expect(again.json().code).toBe('MFA_ALREADY_SET_UP');
    const edit = await browser.request({ method: 'GET', url: '/api/auth/mfa-secret?edit=true' });
    expect(edit.statusCode).toBe(200);
    expect(edit.json().code).not.toBe(firstSecret);

    // A password-only session may not replace the secret.
    const passwordOnly = await signedIn(user, '10.0.0.2');
    expect((await passwordOnly.request({ method: 'GET', url: '/api/auth/mfa-secret' })).json().code).toBe('MFA_ALREADY_SET_UP');
    const refused = await passwordOnly.request({ method: 'GET', url: '/api/auth/mfa-secret?edit=true' });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().code).toBe('ENTER_MFA_CODE');
  });

  it('answers MFA_NOT_INITIALIZED when no secret was handed out', async () => {
    const user = await createUser(server.app, [loginOrganization]);
    const browser = await signedIn(user);
    const response = await browser.request({ method: 'POST', url: '/initial/auth/confirm-mfa-code', payload: { code: '123456' } });
    expect(response.statusCode).toBe(422);
    expect(response.json().code).toBe('MFA_NOT_INITIALIZED');
    const upgrade = await browser.request({ method: 'POST', url: '/initial/auth/upgrade-session-to-mfa', payload: { code: '123456' } });
    expect(upgrade.statusCode).toBe(422);
    expect(upgrade.json().code).toBe('MFA_NOT_SET_UP');
  });
});

describe('signing in to an organisation that requires MFA', () => {
  it('sends a user without MFA to setup, then one with MFA to code entry, and enters with a real code', async () => {
    const user = await createUser(server.app, [mfaOrganization]);
    const browser = new Browser(server.app);
    const first = await browser.login(user.email, user.password);
    expect(first.statusCode).toBe(403);
    expect(first.json()).toMatchObject({ code: 'MFA_NOT_SET_UP', details: { occupationId: user.occupationIds[0] } });
    // The password was right: the session continues with setup.
    expect(browser.cookie).toBeDefined();
    expect((await browser.request({ method: 'GET', url: '/initial/auth/me' })).json()).toMatchObject({
      occupationId: null,
      authenticationType: 'LOGIN',
      mfaAdded: false,
    });
    // Not in yet: API calls that need an occupation are refused.
    expect((await browser.request({ method: 'GET', url: '/api/user-settings?type=REPORT' })).statusCode).toBe(403);

    await awayFromStepEdge();
    const { code: secret } = (await browser.request({ method: 'GET', url: '/initial/auth/mfa-secret' })).json();
    const setupCode = codeFor(secret);
    const confirmed = await browser.request({
      method: 'POST',
      url: '/initial/auth/confirm-mfa-code',
      payload: { code: setupCode, occupationId: user.occupationIds[0] },
    });
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    expect(confirmed.json()).toMatchObject({ occupationId: user.occupationIds[0], authenticationType: 'LOGIN_WITH_MFA', mfaAdded: true });
    expect((await browser.request({ method: 'POST', url: '/api/auth/logout', payload: {} })).statusCode).toBe(204);

    const second = new Browser(server.app);
    const again = await second.login(user.email, user.password, { occupationId: user.occupationIds[0] });
    expect(again.statusCode).toBe(403);
    expect(again.json()).toMatchObject({ code: 'ENTER_MFA_CODE', details: { occupationId: user.occupationIds[0] } });

    const wrong = await second.request({
      method: 'POST',
      url: '/initial/auth/upgrade-session-to-mfa',
      payload: { code: setupCode === '000000' ? '111111' : '000000', occupationId: user.occupationIds[0] },
    });
    expect(wrong.statusCode).toBe(422);
    expect(wrong.json().code).toBe('INVALID_MFA_CODE');
    // The setup code was used: replaying it within its window is refused.
    const replay = await second.request({
      method: 'POST',
      url: '/initial/auth/upgrade-session-to-mfa',
      payload: { code: setupCode, occupationId: user.occupationIds[0] },
    });
    expect(replay.statusCode).toBe(422);
    expect(replay.json().code).toBe('INVALID_MFA_CODE');

    const nextCode = codeFor(secret, 1);
    const upgraded = await second.request({
      method: 'POST',
      url: '/initial/auth/upgrade-session-to-mfa',
      payload: { code: nextCode, occupationId: user.occupationIds[0] },
    });
    expect(upgraded.statusCode, upgraded.body).toBe(200);
    expect(upgraded.json()).toMatchObject({ occupationId: user.occupationIds[0], authenticationType: 'LOGIN_WITH_MFA' });
    expect((await second.request({ method: 'GET', url: '/api/user-settings?type=REPORT' })).statusCode).toBe(200);

    // Another sign-in cannot reuse the code either.
    const third = new Browser(server.app);
    expect((await third.login(user.email, user.password)).json().code).toBe('ENTER_MFA_CODE');
    const reused = await third.request({ method: 'POST', url: '/initial/auth/upgrade-session-to-mfa', payload: { code: nextCode } });
    expect(reused.json().code).toBe('INVALID_MFA_CODE');
  });

  it('enters the only occupation automatically after the code when none is named', async () => {
    const user = await createUser(server.app, [mfaOrganization]);
    const browser = new Browser(server.app);
    await browser.login(user.email, user.password);
    await awayFromStepEdge();
    const { code: secret } = (await browser.request({ method: 'GET', url: '/initial/auth/mfa-secret' })).json();
    const confirmed = await browser.request({ method: 'POST', url: '/initial/auth/confirm-mfa-code', payload: { code: codeFor(secret) } });
    expect(confirmed.json()).toMatchObject({ occupationId: user.occupationIds[0], authenticationType: 'LOGIN_WITH_MFA' });
  });
});

describe('disabling MFA', () => {
  it('needs an MFA session, removes the secret and records it', async () => {
    const user = await createUser(server.app, [loginOrganization]);
    const browser = await signedIn(user);
    const secret = await setUpMfa(browser);

    const passwordOnly = await signedIn(user, '10.0.0.3');
    expect((await passwordOnly.request({ method: 'GET', url: '/api/auth/me' })).json()).toMatchObject({ authenticationType: 'LOGIN', mfaAdded: true });
    const refused = await passwordOnly.request({ method: 'POST', url: '/api/auth/disable-mfa' });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().code).toBe('ENTER_MFA_CODE');
    const upgraded = await passwordOnly.request({ method: 'POST', url: '/initial/auth/upgrade-session-to-mfa', payload: { code: codeFor(secret, 1) } });
    expect(upgraded.statusCode, upgraded.body).toBe(200);
    // LOGIN_WITH_MFA may stay in a LOGIN organisation.
    expect(upgraded.json()).toMatchObject({ authenticationType: 'LOGIN_WITH_MFA', occupationId: user.occupationIds[0] });

    const disabled = await passwordOnly.request({ method: 'POST', url: '/api/auth/disable-mfa' });
    expect(disabled.statusCode).toBe(200);
    expect(disabled.json().mfaAdded).toBe(false);
    expect((await server.app.store.readStream(`user-${user.userId}`)).map((event) => event.type)).toContain('UserMfaDisabled');
    expect(await server.app.db.selectFrom('operational.mfa_secrets').selectAll().where('user_id', '=', user.userId).execute()).toHaveLength(0);
    const again = await passwordOnly.request({ method: 'POST', url: '/api/auth/disable-mfa' });
    expect(again.json().code).toBe('MFA_NOT_SET_UP');
    const upgrade = await browser.request({ method: 'POST', url: '/initial/auth/upgrade-session-to-mfa', payload: { code: codeFor(secret) } });
    expect(upgrade.json().code).toBe('MFA_NOT_SET_UP');
    // The owner is told by mail, in their language.
    const notice = await waitForMail(server.app.config.dataDir, user.email);
    expect(notice.subject).toBe('Eelarve: mitmeastmeline autentimine eemaldatud');
  });

  it('tells the owner in English when that is their language', async () => {
    const user = await createUser(server.app, [loginOrganization]);
    const browser = await signedIn(user);
    expect((await browser.request({ method: 'PUT', url: '/api/user-settings/language', payload: { language: 'en' } })).statusCode).toBe(200);
    await setUpMfa(browser);
    expect((await browser.request({ method: 'POST', url: '/api/auth/disable-mfa' })).statusCode).toBe(200);
    const notice = await waitForMail(server.app.config.dataDir, user.email);
    expect(notice.subject).toBe('Eelarve: multi-factor authentication removed');
    expect(notice.text).toContain('A password alone now signs you in.');
  });
});

describe('MFA code throttling', () => {
  it('answers 429 after five wrong codes for the account from one address, even for a right one; the owner elsewhere still enters', async () => {
    const user = await createUser(server.app, [loginOrganization]);
    const browser = await signedIn(user, '10.0.1.1');
    const secret = await setUpMfa(browser);
    const passwordOnly = await signedIn(user, '10.0.1.2');
    const wrongCode = codeFor(secret, 1) === '000000' ? '111111' : '000000';
    for (let i = 0; i < 5; i++) {
      expect((await passwordOnly.request({ method: 'POST', url: '/initial/auth/upgrade-session-to-mfa', payload: { code: wrongCode } })).json().code).toBe(
        'INVALID_MFA_CODE',
      );
    }
    const blocked = await passwordOnly.request({ method: 'POST', url: '/initial/auth/upgrade-session-to-mfa', payload: { code: codeFor(secret, 1) } });
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json().code).toBe('TOO_MANY_ATTEMPTS');
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
    expect(Number(blocked.headers['retry-after'])).toBeLessThanOrEqual(15 * 60);
    const owner = await signedIn(user, '10.0.1.3');
    const entered = await owner.request({ method: 'POST', url: '/initial/auth/upgrade-session-to-mfa', payload: { code: codeFor(secret, 1) } });
    expect(entered.statusCode, entered.body).toBe(200);
  });
});
