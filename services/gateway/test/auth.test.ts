import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '@eelarve/testing/server';
import { login } from './helpers';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ listen: false });
});
afterAll(async () => server?.close());

describe('sign-in with the bootstrapped platform administrator', () => {
  it('logs in, selects the only occupation and reports IS_ADMIN', async () => {
    const response = await server.app.inject({
      method: 'POST',
      url: '/initial/auth/login',
      payload: { username: server.admin.email, password: server.admin.password, rememberMe: true },
    });
    expect(response.statusCode).toBe(200);
    const me = response.json();
    expect(me.email).toBe(server.admin.email);
    expect(me.occupationId).not.toBeNull();
    expect(me.privileges).toContain('IS_ADMIN');
    const cookie = response.cookies.find((candidate) => candidate.name === 'eelarve_session')!;
    expect(cookie.httpOnly).toBe(true);
    expect(cookie.sameSite).toBe('Lax');
    expect(cookie.expires).toBeInstanceOf(Date);
  });

  it('answers the same invalid-credentials error for a wrong password and an unknown e-mail', async () => {
    for (const payload of [
      { username: server.admin.email, password: 'wrong-password' },
      { username: 'nobody@example.com', password: server.admin.password },
    ]) {
      const response = await server.app.inject({ method: 'POST', url: '/initial/auth/login', payload });
      expect(response.statusCode).toBe(401);
      expect(response.json().code).toBe('INVALID_USERNAME_OR_PASSWORD');
      expect(response.cookies).toHaveLength(0);
    }
  });

  it('rejects a malformed login with the schema-validation code', async () => {
    const response = await server.app.inject({ method: 'POST', url: '/initial/auth/login', payload: { username: '', password: 5 } });
    expect(response.statusCode).toBe(400);
    expect(response.json().code).toBe('SCHEMA_VALIDATION_ERROR');
    expect(response.json().details.map((issue: { path: string }) => issue.path)).toEqual(expect.arrayContaining(['body.username', 'body.password']));
  });

  it('serves both readings of the me path and answers 401 without a session', async () => {
    const client = await login(server.app, server.admin.email, server.admin.password);
    for (const url of ['/api/auth/me', '/initial/auth/me']) {
      expect((await client.request({ method: 'GET', url })).statusCode).toBe(200);
      const anonymous = await server.app.inject({ method: 'GET', url });
      expect(anonymous.statusCode).toBe(401);
      expect(anonymous.json().code).toBe('UNAUTHORIZED');
    }
    const forged = await server.app.inject({ method: 'GET', url: '/api/auth/me', headers: { cookie: 'eelarve_session=forged' } });
    expect(forged.statusCode).toBe(401);
  });

  it('logs out this session only, or all sessions', async () => {
    const first = await login(server.app, server.admin.email, server.admin.password);
    const second = await login(server.app, server.admin.email, server.admin.password);
    const third = await login(server.app, server.admin.email, server.admin.password);
    expect((await first.request({ method: 'GET', url: '/api/auth/me' })).json().activeSessionCount).toBeGreaterThanOrEqual(3);
    expect((await first.request({ method: 'POST', url: '/api/auth/logout', payload: { logoutAllSessions: false } })).statusCode).toBe(204);
    expect((await first.request({ method: 'GET', url: '/api/auth/me' })).statusCode).toBe(401);
    expect((await second.request({ method: 'GET', url: '/api/auth/me' })).statusCode).toBe(200);
    expect((await second.request({ method: 'POST', url: '/initial/auth/logout', payload: { logoutAllSessions: true } })).statusCode).toBe(204);
    expect((await third.request({ method: 'GET', url: '/api/auth/me' })).statusCode).toBe(401);
  });

  it('counts active sessions for the logout question, and clears the cookie on logout', async () => {
    const client = await login(server.app, server.admin.email, server.admin.password);
    const count = await client.request({ method: 'GET', url: '/api/auth/session-count' });
    expect(count.statusCode).toBe(200);
    expect(count.json().activeSessionCount).toBeGreaterThanOrEqual(1);
    const logout = await client.request({ method: 'POST', url: '/api/auth/logout', payload: {} });
    const cleared = logout.cookies.find((candidate) => candidate.name === 'eelarve_session');
    expect(cleared?.value).toBe('');
    expect((await server.app.inject({ method: 'GET', url: '/api/auth/session-count' })).statusCode).toBe(401);
  });

  it('reports the real account facts in Me', async () => {
    const client = await login(server.app, server.admin.email, server.admin.password);
    const me = (await client.request({ method: 'GET', url: '/api/auth/me' })).json();
    expect(me).toMatchObject({ hasPassword: true, mfaAdded: false, hasPersonalCode: false, userLanguage: null, authenticationType: 'LOGIN' });
  });

  it('refuses a state-changing call from another site', async () => {
    const client = await login(server.app, server.admin.email, server.admin.password);
    const response = await client.request({ method: 'POST', url: '/api/auth/logout', headers: { origin: 'https://evil.example' }, payload: {} });
    expect(response.statusCode).toBe(403);
    expect(response.json().code).toBe('CROSS_SITE_REQUEST');
    expect((await client.request({ method: 'GET', url: '/api/auth/me' })).statusCode).toBe(200);
  });
});

describe('gateway plumbing', () => {
  it('carries request id and API build headers on every response', async () => {
    const response = await server.app.inject({ method: 'GET', url: '/health', headers: { 'x-request-id': 'trace-123' } });
    expect(response.statusCode).toBe(200);
    expect(response.headers['x-request-id']).toBe('trace-123');
    expect(response.headers['x-api-revision']).toBeTruthy();
    expect(Date.parse(String(response.headers['x-api-build-time']))).not.toBeNaN();
    expect(response.headers['x-api-version']).toMatch(/^\d+\.\d+\.\d+/);
  });

  it('is ready once the read models have caught up', async () => {
    const response = await server.app.inject({ method: 'GET', url: '/ready' });
    expect(response.statusCode).toBe(200);
  });

  it('publishes OpenAPI generated from the route schemas', async () => {
    const response = await server.app.inject({ method: 'GET', url: '/api/docs/json' });
    expect(response.statusCode).toBe(200);
    const document = response.json();
    expect(document.openapi).toMatch(/^3\./);
    expect(Object.keys(document.paths)).toEqual(
      expect.arrayContaining(['/api/organizations', '/api/organization/{id}', '/initial/auth/login', '/api/locales']),
    );
    expect(Object.keys(document.paths)).toEqual(
      expect.arrayContaining([
        '/public/token/verify',
        '/public/auth/confirm-password',
        '/public/auth/request-password-reset',
        '/public/auth/resend-confirmation',
        '/api/auth/change-password',
        '/api/auth/mfa-secret',
        '/initial/auth/mfa-secret',
        '/api/auth/confirm-mfa-code',
        '/initial/auth/confirm-mfa-code',
        '/initial/auth/upgrade-session-to-mfa',
        '/api/auth/disable-mfa',
        '/api/auth/session-count',
        '/api/user-settings',
        '/api/user-settings/language',
        '/api/user-settings/email',
      ]),
    );
    expect(document.paths['/api/organization'].post.requestBody).toBeDefined();
  });

  it('answers unknown API paths with 404 OBJECT_NOT_FOUND', async () => {
    const client = await login(server.app, server.admin.email, server.admin.password);
    const response = await client.request({ method: 'GET', url: '/api/no-such-thing' });
    expect(response.statusCode).toBe(404);
    expect(response.json().code).toBe('OBJECT_NOT_FOUND');
  });

  it('answers a broken JSON body with 400, not 500', async () => {
    const response = await server.app.inject({
      method: 'POST',
      url: '/initial/auth/login',
      headers: { 'content-type': 'application/json' },
      payload: '{"username":',
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().code).toBe('SCHEMA_VALIDATION_ERROR');
  });
});
