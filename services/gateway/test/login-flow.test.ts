import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashToken } from '../src/features/auth/sessions';
import { startTestServer, type TestServer } from '@eelarve/testing/server';
import { awayFromStepEdge, Browser, codeFor, createOrganization, createUser } from './auth-fixtures';
import { type Client, login } from './helpers';

let server: TestServer;
let admin: Client;
let loginOrganization: string;
let otherLoginOrganization: string;
let mfaOrganization: string;
let passOrganization: string;

beforeAll(async () => {
  server = await startTestServer({ listen: false });
  admin = await login(server.app, server.admin.email, server.admin.password);
  loginOrganization = await createOrganization(admin, { name: 'Alpha vald', allowedAuthenticationTypes: ['LOGIN'] });
  otherLoginOrganization = await createOrganization(admin, { name: 'Beta vald', allowedAuthenticationTypes: ['LOGIN', 'PASS'] });
  mfaOrganization = await createOrganization(admin, { name: 'Gamma vald', allowedAuthenticationTypes: ['LOGIN_WITH_MFA', 'PASS'] });
  passOrganization = await createOrganization(admin, { name: 'Delta vald', allowedAuthenticationTypes: ['PASS'] });
});
afterAll(async () => server?.close());

async function sessionRow(browser: Browser) {
  const token = browser.cookie!.split('=')[1]!;
  return server.app.db.selectFrom('operational.sessions').selectAll().where('token_hash', '=', hashToken(token)).executeTakeFirstOrThrow();
}

describe('occupation selection', () => {
  it('enters the single occupation usable with a password at sign-in', async () => {
    const user = await createUser(server.app, [loginOrganization, passOrganization]);
    const response = await new Browser(server.app).login(user.email, user.password);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ occupationId: user.occupationIds[0], organizationId: loginOrganization, authenticationType: 'LOGIN' });
    // A remembered occupation that is no longer the user's is ignored.
    const stale = await new Browser(server.app).login(user.email, user.password, { occupationId: '00000000-0000-4000-8000-000000000000' });
    expect(stale.statusCode).toBe(200);
    expect(stale.json().occupationId).toBe(user.occupationIds[0]);
  });

  it('leaves the choice to the user when several fit, and orders them last used, usable, alphabetical', async () => {
    const user = await createUser(server.app, [passOrganization, otherLoginOrganization, loginOrganization]);
    const browser = new Browser(server.app);
    const me = (await browser.login(user.email, user.password)).json();
    expect(me.occupationId).toBeNull();
    // Usable with a password first (by occupation name: Occupation 2, Occupation 3), then the PASS-only one.
    expect(me.occupations.map((occupation: { organizationName: string }) => occupation.organizationName)).toEqual(['Beta vald', 'Alpha vald', 'Delta vald']);
    expect(me.occupations.find((occupation: { id: string }) => occupation.id === user.occupationIds[2]).allowedAuthenticationTypes).toEqual(['LOGIN', 'BASIC']);

    const selected = await browser.request({ method: 'POST', url: '/initial/auth/select-occupation', payload: { occupationId: user.occupationIds[2] } });
    expect(selected.statusCode).toBe(200);
    expect(selected.json()).toMatchObject({ occupationId: user.occupationIds[2], organizationId: loginOrganization, privileges: ['DATA_VIEW'] });
    const switched = await browser.request({ method: 'POST', url: '/api/auth/switch', payload: { user: { occupationId: user.occupationIds[1] } } });
    expect(switched.json()).toMatchObject({ occupationId: user.occupationIds[1], lastOccupationId: user.occupationIds[1] });
    expect(switched.json().occupations[0].id).toBe(user.occupationIds[1]);

    const pass = await browser.request({ method: 'POST', url: '/api/auth/switch', payload: { occupationId: user.occupationIds[0] } });
    expect(pass.statusCode).toBe(403);
    expect(pass.json()).toMatchObject({
      code: 'ORGANIZATION_UNSUITABLE',
      details: { occupationId: user.occupationIds[0], requiredAuthenticationTypes: ['PASS'] },
    });
    // Still where it was.
    expect((await browser.request({ method: 'GET', url: '/api/auth/me' })).json().occupationId).toBe(user.occupationIds[1]);

    const foreign = await browser.request({ method: 'POST', url: '/api/auth/switch', payload: { occupationId: '00000000-0000-4000-8000-000000000000' } });
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json().code).toBe('OCCUPATION_NOT_FOUND');
  });

  it('asks for MFA setup or a code when a password session picks an MFA organisation, then enters it', async () => {
    const user = await createUser(server.app, [loginOrganization, mfaOrganization]);
    const browser = new Browser(server.app);
    expect((await browser.login(user.email, user.password)).json().occupationId).toBe(user.occupationIds[0]);
    const toMfa = await browser.request({ method: 'POST', url: '/api/auth/switch', payload: { occupationId: user.occupationIds[1] } });
    expect(toMfa.statusCode).toBe(403);
    expect(toMfa.json()).toMatchObject({ code: 'MFA_NOT_SET_UP', details: { occupationId: user.occupationIds[1] } });

    await awayFromStepEdge();
    const { code: secret } = (await browser.request({ method: 'GET', url: '/api/auth/mfa-secret' })).json();
    const entered = await browser.request({
      method: 'POST',
      url: '/api/auth/confirm-mfa-code',
      payload: { code: codeFor(secret), occupationId: user.occupationIds[1] },
    });
    expect(entered.statusCode, entered.body).toBe(200);
    expect(entered.json()).toMatchObject({ occupationId: user.occupationIds[1], authenticationType: 'LOGIN_WITH_MFA' });
    // An MFA session may go back to the password organisation.
    const back = await browser.request({ method: 'POST', url: '/api/auth/switch', payload: { occupationId: user.occupationIds[0] } });
    expect(back.json()).toMatchObject({ occupationId: user.occupationIds[0], authenticationType: 'LOGIN_WITH_MFA' });

    // A new password session: the MFA organisation now asks for a code.
    const later = new Browser(server.app);
    const signedIn = await later.login(user.email, user.password, { occupationId: user.occupationIds[1] });
    expect(signedIn.statusCode).toBe(403);
    expect(signedIn.json()).toMatchObject({ code: 'ENTER_MFA_CODE', details: { occupationId: user.occupationIds[1] } });
    const cookie = signedIn.cookies.find((candidate) => candidate.name === 'eelarve_session');
    expect(cookie?.httpOnly).toBe(true);
    expect((await later.request({ method: 'GET', url: '/initial/auth/me' })).json()).toMatchObject({
      occupationId: null,
      mfaAdded: true,
      authenticationType: 'LOGIN',
    });
    const upgraded = await later.request({
      method: 'POST',
      url: '/initial/auth/upgrade-session-to-mfa',
      payload: { code: codeFor(secret, 1), occupationId: user.occupationIds[1] },
    });
    expect(upgraded.statusCode, upgraded.body).toBe(200);
    expect(upgraded.json()).toMatchObject({ occupationId: user.occupationIds[1], authenticationType: 'LOGIN_WITH_MFA' });
  });

  it('tells a password session whose occupations all need MFA to go to setup, without an occupation when there are several', async () => {
    const secondMfa = await createOrganization(admin, { allowedAuthenticationTypes: ['LOGIN_WITH_MFA'] });
    const user = await createUser(server.app, [mfaOrganization, secondMfa]);
    const response = await new Browser(server.app).login(user.email, user.password);
    expect(response.statusCode).toBe(403);
    expect(response.json()).toMatchObject({ code: 'MFA_NOT_SET_UP', details: { occupationId: null } });
  });

  it('answers a password sign-in to a PASS-only organisation with the user and no occupation', async () => {
    const user = await createUser(server.app, [passOrganization]);
    const browser = new Browser(server.app);
    const response = await browser.login(user.email, user.password);
    expect(response.statusCode).toBe(200);
    expect(response.json().occupationId).toBeNull();
    const selected = await browser.request({ method: 'POST', url: '/initial/auth/select-occupation', payload: { occupationId: user.occupationIds[0] } });
    expect(selected.statusCode).toBe(403);
    expect(selected.json()).toMatchObject({ code: 'ORGANIZATION_UNSUITABLE', details: { requiredAuthenticationTypes: ['PASS'] } });
  });

  it('refuses sign-in before the e-mail is confirmed, and answers the same for an unknown address and a wrong password', async () => {
    const user = await createUser(server.app, [loginOrganization], { confirmed: false });
    const browser = new Browser(server.app, '10.9.9.9');
    const unconfirmed = await browser.login(user.email, user.password);
    expect(unconfirmed.statusCode).toBe(403);
    expect(unconfirmed.json().code).toBe('EMAIL_NOT_CONFIRMED');
    expect(unconfirmed.cookies).toHaveLength(0);
    const unknown = await browser.login('nobody@example.com', user.password);
    const wrong = await browser.login(user.email, 'Wrong-Password-1');
    expect([unknown.statusCode, wrong.statusCode]).toEqual([401, 401]);
    expect(unknown.json().code).toBe(wrong.json().code);
  });
});

describe('session length', () => {
  it('lasts the organisation session length once an occupation is entered (hours multiplier)', async () => {
    const shortOrganization = await createOrganization(admin, { allowedAuthenticationTypes: ['LOGIN'], sessionLength: 2, sessionLengthMultiplier: 3_600_000 });
    const user = await createUser(server.app, [shortOrganization]);
    const browser = new Browser(server.app);
    const before = Date.now();
    const response = await browser.login(user.email, user.password, { rememberMe: true });
    expect(response.statusCode).toBe(200);
    const cookie = response.cookies.find((candidate) => candidate.name === 'eelarve_session')!;
    const twoHours = 2 * 3_600_000;
    expect((cookie.expires as Date).getTime() - before).toBeGreaterThan(twoHours - 60_000);
    expect((cookie.expires as Date).getTime() - before).toBeLessThan(twoHours + 60_000);
    const row = await sessionRow(browser);
    expect(Math.abs(row.expires_at.getTime() - before - twoHours)).toBeLessThan(60_000);
    expect(row.remember_me).toBe(true);
  });

  it('lasts days for a days organisation, and a session cookie without remember-me', async () => {
    const user = await createUser(server.app, [otherLoginOrganization]);
    const browser = new Browser(server.app);
    const before = Date.now();
    const response = await browser.login(user.email, user.password);
    const cookie = response.cookies.find((candidate) => candidate.name === 'eelarve_session')!;
    expect(cookie.expires).toBeUndefined();
    const row = await sessionRow(browser);
    expect((row.expires_at.getTime() - before) / 86_400_000).toBeCloseTo(30, 1);
  });

  it('lasts a day until an occupation is chosen', async () => {
    const user = await createUser(server.app, [loginOrganization, otherLoginOrganization]);
    const browser = new Browser(server.app);
    const before = Date.now();
    await browser.login(user.email, user.password, { rememberMe: true });
    const row = await sessionRow(browser);
    expect((row.expires_at.getTime() - before) / 86_400_000).toBeCloseTo(1, 1);
    expect(row.occupation_id).toBeNull();
  });
});

describe('Me', () => {
  it('reports password, MFA, electronic ID, language and active sessions as they are', async () => {
    const user = await createUser(server.app, [loginOrganization]);
    const browser = new Browser(server.app);
    await browser.login(user.email, user.password);
    await login(server.app, user.email, user.password);
    const me = (await browser.request({ method: 'GET', url: '/api/auth/me' })).json();
    expect(me).toMatchObject({ hasPassword: true, mfaAdded: false, hasPersonalCode: false, userLanguage: null, activeSessionCount: 2 });
    expect((await browser.request({ method: 'GET', url: '/api/auth/session-count' })).json()).toEqual({ activeSessionCount: 2 });
    const language = await browser.request({ method: 'PUT', url: '/api/user-settings/language', payload: { language: 'en' } });
    expect(language.statusCode).toBe(200);
    expect(language.json().userLanguage).toBe('en');
    expect((await browser.request({ method: 'GET', url: '/api/auth/me' })).json().userLanguage).toBe('en');
    const withoutPassword = await createUser(server.app, [loginOrganization], { password: null });
    expect(withoutPassword.password).toBe('');
  });
});

describe('throttling', () => {
  it('answers 429 with Retry-After after five failures for an account from one address, even with the right password; the owner elsewhere signs in', async () => {
    const user = await createUser(server.app, [loginOrganization]);
    const attacker = new Browser(server.app, '10.1.0.1');
    for (let i = 0; i < 5; i++) expect((await attacker.login(user.email, 'Wrong-Password-1')).statusCode).toBe(401);
    const blocked = await attacker.login(user.email.toUpperCase(), user.password);
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json().code).toBe('TOO_MANY_ATTEMPTS');
    const retryAfter = Number(blocked.headers['retry-after']);
    expect(retryAfter).toBeGreaterThan(14 * 60);
    expect(retryAfter).toBeLessThanOrEqual(15 * 60);
    expect(blocked.cookies).toHaveLength(0);
    // The owner, from another address, is not locked out.
    expect((await new Browser(server.app, '10.1.0.99').login(user.email, user.password)).statusCode).toBe(200);
    // An unknown address is throttled just the same (nothing revealed).
    const ghost = new Browser(server.app, '10.1.1.1');
    for (let i = 0; i < 5; i++) await ghost.login('ghost@example.com', 'Wrong-Password-1');
    expect((await ghost.login('ghost@example.com', 'Wrong-Password-1')).statusCode).toBe(429);
    // Once the window has passed, sign-in from the first address works again.
    await server.app.db
      .updateTable('operational.auth_failures')
      .set({ window_started_at: new Date(Date.now() - 16 * 60_000) })
      .execute();
    expect((await attacker.login(user.email, user.password)).statusCode).toBe(200);
  });

  it('stops distributed guessing at a ceiling of 100 per account, but never at an address the owner signed in from', async () => {
    const user = await createUser(server.app, [loginOrganization]);
    expect((await new Browser(server.app, '10.5.9.9').login(user.email, user.password)).statusCode).toBe(200);
    // Twenty addresses, five guesses each: each address reaches its own limit and the account its ceiling.
    for (let address = 1; address <= 20; address++) {
      const guesser = new Browser(server.app, `10.5.0.${address}`);
      const statuses = await Promise.all(
        Array.from({ length: 5 }, () => guesser.login(user.email, 'Wrong-Password-1').then((response) => response.statusCode)),
      );
      expect(statuses).toEqual([401, 401, 401, 401, 401]);
    }
    const fromNewPlace = await new Browser(server.app, '10.5.1.1').login(user.email, user.password);
    expect({ status: fromNewPlace.statusCode, code: fromNewPlace.json().code }).toEqual({ status: 429, code: 'TOO_MANY_ATTEMPTS' });
    expect((await new Browser(server.app, '10.5.9.9').login(user.email, user.password)).statusCode).toBe(200);
    // The owner's success at their usual address does not reopen the account to the guessers.
    expect((await new Browser(server.app, '10.5.1.2').login(user.email, user.password)).statusCode).toBe(429);
  });

  it('lets no more than five of many concurrent guesses from one address be checked', async () => {
    const user = await createUser(server.app, [loginOrganization]);
    const responses = await Promise.all(Array.from({ length: 12 }, () => new Browser(server.app, '10.4.0.1').login(user.email, 'Wrong-Password-1')));
    const statuses = responses.map((response) => response.statusCode);
    expect(statuses.filter((status) => status === 401)).toHaveLength(5);
    expect(statuses.filter((status) => status === 429)).toHaveLength(7);
  });

  it('starts the account count again after a success', async () => {
    const user = await createUser(server.app, [loginOrganization]);
    const browser = new Browser(server.app, '10.2.0.1');
    for (let i = 0; i < 4; i++) expect((await browser.login(user.email, 'Wrong-Password-1')).statusCode).toBe(401);
    expect((await browser.login(user.email, user.password)).statusCode).toBe(200);
    for (let i = 0; i < 4; i++) expect((await browser.login(user.email, 'Wrong-Password-1')).statusCode).toBe(401);
    expect((await browser.login(user.email, user.password)).statusCode).toBe(200);
  });

  it('limits one address to twenty failures whatever the accounts', async () => {
    const users = await Promise.all(Array.from({ length: 5 }, () => createUser(server.app, [loginOrganization])));
    const browser = new Browser(server.app, '10.3.0.1');
    for (const user of users) {
      for (let i = 0; i < 4; i++) expect((await browser.login(user.email, 'Wrong-Password-1')).statusCode).toBe(401);
    }
    const fresh = await createUser(server.app, [loginOrganization]);
    const blocked = await browser.login(fresh.email, fresh.password);
    expect(blocked.statusCode).toBe(429);
    expect(blocked.headers['retry-after']).toBeDefined();
    expect((await new Browser(server.app, '10.3.0.2').login(fresh.email, fresh.password)).statusCode).toBe(200);
  });
});
