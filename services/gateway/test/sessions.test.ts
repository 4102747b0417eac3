import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_ADMIN, configFromEnvironment, parseEnvironment } from '../src/config';
import { readModels } from '../src/infrastructure/database';
import { startTestServer, type TestServer } from '@eelarve/testing/server';
import { Browser, codeFor, createOrganization, createUser } from './auth-fixtures';
import { login } from './helpers';

/** Idle sessions, the __Host- cookie, and what production refuses (demo administrator, admin without MFA). */

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({ listen: false });
});
afterAll(async () => server?.close());

/** As if the session's last request was `ms` ago. */
async function idleFor(app: TestServer['app'], userId: string, ms: number): Promise<void> {
  await app.db
    .updateTable('operational.sessions')
    .set({ last_seen_at: new Date(Date.now() - ms) })
    .where('user_id', '=', userId)
    .execute();
}

const HOUR = 60 * 60_000;

/** Production creates no key file: the key comes from SECRETS_KEY (or an existing KEY_FILE). */
const productionSecrets = () => ({ key: randomBytes(32).toString('base64') });

describe('idle sessions', () => {
  it('ends a session without remember-me after 12 idle hours by default, and keeps a remember-me one', async () => {
    const admin = await login(server.app, server.admin.email, server.admin.password);
    const organization = await createOrganization(admin, { allowedAuthenticationTypes: ['LOGIN'] });
    const user = await createUser(server.app, [organization]);
    const browser = new Browser(server.app);
    expect((await browser.login(user.email, user.password)).statusCode).toBe(200);
    await idleFor(server.app, user.userId, 11 * HOUR);
    expect((await browser.request({ method: 'GET', url: '/api/auth/me' })).statusCode).toBe(200);
    await idleFor(server.app, user.userId, 12 * HOUR + 60_000);
    expect((await browser.request({ method: 'GET', url: '/api/auth/me' })).statusCode).toBe(401);

    const remembered = new Browser(server.app);
    expect((await remembered.login(user.email, user.password, { rememberMe: true })).statusCode).toBe(200);
    await idleFor(server.app, user.userId, 13 * HOUR);
    expect((await remembered.request({ method: 'GET', url: '/api/auth/me' })).statusCode).toBe(200);
  });

  it('takes the idle time from SESSION_IDLE_TIMEOUT_MINUTES', async () => {
    expect(configFromEnvironment(parseEnvironment({}), 'postgres://x').sessionIdleTimeoutMs).toBe(12 * HOUR);
    expect(configFromEnvironment(parseEnvironment({ SESSION_IDLE_TIMEOUT_MINUTES: '30' }), 'postgres://x').sessionIdleTimeoutMs).toBe(30 * 60_000);
    expect(() => parseEnvironment({ SESSION_IDLE_TIMEOUT_MINUTES: '0' })).toThrow(/SESSION_IDLE_TIMEOUT_MINUTES/);
    const short = await startTestServer({ listen: false, config: { sessionIdleTimeoutMs: 30 * 60_000 } });
    try {
      const browser = new Browser(short.app);
      const signedIn = await browser.login(short.admin.email, short.admin.password);
      expect(signedIn.statusCode).toBe(200);
      await idleFor(short.app, signedIn.json().id, 29 * 60_000);
      expect((await browser.request({ method: 'GET', url: '/api/auth/me' })).statusCode).toBe(200);
      await idleFor(short.app, signedIn.json().id, 31 * 60_000);
      expect((await browser.request({ method: 'GET', url: '/api/auth/me' })).statusCode).toBe(401);
    } finally {
      await short.close();
    }
  });
});

describe('the session cookie', () => {
  it('is plain eelarve_session on http://localhost', async () => {
    const response = await new Browser(server.app).login(server.admin.email, server.admin.password);
    expect(response.cookies.map((cookie) => cookie.name)).toContain('eelarve_session');
  });

  it('is __Host- prefixed, Secure, Path=/ and without Domain where served over HTTPS', async () => {
    const https = await startTestServer({ listen: false, config: { publicUrl: 'https://eelarve.example.ee' } });
    try {
      const response = await https.app.inject({
        method: 'POST',
        url: '/initial/auth/login',
        payload: { username: https.admin.email, password: https.admin.password },
      });
      expect(response.statusCode).toBe(200);
      const cookie = response.cookies.find((candidate) => candidate.name === '__Host-eelarve_session');
      expect(cookie).toMatchObject({ path: '/', secure: true, httpOnly: true });
      expect(cookie?.domain).toBeUndefined();
      expect(response.cookies.find((candidate) => candidate.name === 'eelarve_session')).toBeUndefined();
      const me = (name: string) => https.app.inject({ method: 'GET', url: '/api/auth/me', headers: { cookie: `${name}=${cookie!.value}` } });
      expect((await me('__Host-eelarve_session')).statusCode).toBe(200);
      // A cookie without the prefix (which a sibling domain or plain-http page could plant) is not read.
      expect((await me('eelarve_session')).statusCode).toBe(401);
      const logout = await https.app.inject({
        method: 'POST',
        url: '/api/auth/logout',
        payload: {},
        headers: { cookie: `__Host-eelarve_session=${cookie!.value}` },
      });
      expect(logout.cookies.find((candidate) => candidate.name === '__Host-eelarve_session')).toMatchObject({ value: '', secure: true, path: '/' });
    } finally {
      await https.close();
    }
  });
});

describe('production', () => {
  it('never creates the published demo administrator: without BOOTSTRAP_ADMIN_* it starts without one', async () => {
    expect(configFromEnvironment(parseEnvironment({ NODE_ENV: 'production' }), 'postgres://x').bootstrapAdmin).toBeUndefined();
    expect(() =>
      configFromEnvironment(parseEnvironment({ NODE_ENV: 'production', BOOTSTRAP_ADMIN_EMAIL: 'a@b.ee', BOOTSTRAP_ADMIN_PASSWORD: DEMO_ADMIN.password }), 'x'),
    ).toThrow(/demo password/);
    expect(configFromEnvironment(parseEnvironment({ NODE_ENV: 'development' }), 'postgres://x').bootstrapAdmin).toEqual(DEMO_ADMIN);
    const production = await startTestServer({ listen: false, config: { environment: 'production', bootstrapAdmin: undefined, secrets: productionSecrets() } });
    try {
      expect((await production.app.inject({ method: 'GET', url: '/ready' })).statusCode).toBe(200);
      const demo = await production.app.inject({
        method: 'POST',
        url: '/initial/auth/login',
        payload: { username: DEMO_ADMIN.email, password: DEMO_ADMIN.password },
      });
      expect({ status: demo.statusCode, code: demo.json().code }).toEqual({ status: 401, code: 'INVALID_USERNAME_OR_PASSWORD' });
      expect(await readModels(production.app.db).selectFrom('users').select('email').execute()).toEqual([]);
    } finally {
      await production.close();
    }
  });

  it('creates the administrator given by BOOTSTRAP_ADMIN_*, who must set up MFA before entering', async () => {
    const bootstrapAdmin = { email: 'platvorm@eelarve.example.ee', password: 'Production-Admin-Password-1' };
    const production = await startTestServer({
      listen: false,
      config: { environment: 'production', publicUrl: 'https://eelarve.example.ee', bootstrapAdmin, secrets: productionSecrets() },
    });
    try {
      const browser = new Browser(production.app);
      const signedIn = await browser.login(bootstrapAdmin.email, bootstrapAdmin.password);
      expect({ status: signedIn.statusCode, code: signedIn.json().code }).toEqual({ status: 403, code: 'MFA_NOT_SET_UP' });
      const occupationId = signedIn.json().details.occupationId as string;
      expect(occupationId).toEqual(expect.any(String));
      // Choosing the occupation by hand meets the same step.
      const chosen = await browser.request({ method: 'POST', url: '/initial/auth/select-occupation', payload: { occupationId } });
      expect({ status: chosen.statusCode, code: chosen.json().code }).toEqual({ status: 403, code: 'MFA_NOT_SET_UP' });
      expect((await browser.request({ method: 'GET', url: '/api/auth/me' })).json().occupationId).toBeNull();

      const { code: secret } = (await browser.request({ method: 'GET', url: '/initial/auth/mfa-secret' })).json();
      const confirmed = await browser.request({ method: 'POST', url: '/initial/auth/confirm-mfa-code', payload: { code: codeFor(secret), occupationId } });
      expect(confirmed.statusCode, confirmed.body).toBe(200);
      expect(confirmed.json()).toMatchObject({ occupationId, authenticationType: 'LOGIN_WITH_MFA' });
      expect(confirmed.json().privileges).toContain('IS_ADMIN');

      // An ordinary user of a LOGIN organisation still enters with a password alone.
      const admin = browser;
      const organization = await createOrganization(
        { cookie: admin.cookie!, request: (options) => admin.request(options) },
        { allowedAuthenticationTypes: ['LOGIN'] },
      );
      const user = await createUser(production.app, [organization]);
      const clerk = await new Browser(production.app).login(user.email, user.password);
      expect(clerk.statusCode, clerk.body).toBe(200);
      expect(clerk.json().occupationId).toBe(user.occupationIds[0]);
    } finally {
      await production.close();
    }
  });

  it('lets a platform administrator in with a password alone outside production', async () => {
    const response = await new Browser(server.app).login(server.admin.email, server.admin.password);
    expect(response.statusCode).toBe(200);
    expect(response.json().privileges).toContain('IS_ADMIN');
  });
});
