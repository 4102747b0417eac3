import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Fastify, { type LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppConfig } from '../src/config';
import { securityHeadersPlugin } from '../src/plugins/security-headers';
import { CSP_NONCE_PLACEHOLDER } from '../src/plugins/web';
import { startTestServer, type TestServer } from '@eelarve/testing/server';
import { type Client, login } from './helpers';

/**
 * Issue 8, finding 5: a strict Content-Security-Policy, no framing, HSTS only in production and
 * `Cache-Control: no-store` on API answers. (The browser test web/e2e/security-headers.test.ts
 * shows that the web client works under this policy.)
 */
let server: TestServer;
let webDist: string;
let admin: Client;

/** The directives of a CSP header, by name. */
function directives(response: LightMyRequestResponse): Map<string, string[]> {
  const header = String(response.headers['content-security-policy'] ?? '');
  return new Map(
    header
      .split(';')
      .map((part) => part.trim().split(/\s+/))
      .filter((words) => words[0])
      .map(([name, ...values]) => [name!, values]),
  );
}

const INDEX_HTML = `<!doctype html><html><head><meta property="csp-nonce" nonce="${CSP_NONCE_PLACEHOLDER}"><script type="module" src="/assets/app.js" nonce="${CSP_NONCE_PLACEHOLDER}"></script></head><body></body></html>`;

beforeAll(async () => {
  webDist = mkdtempSync(path.join(os.tmpdir(), 'eelarve-headers-'));
  writeFileSync(path.join(webDist, 'index.html'), INDEX_HTML);
  server = await startTestServer({ listen: false, webDist });
  admin = await login(server.app, server.admin.email, server.admin.password);
});
afterAll(async () => {
  await server?.close();
  if (webDist) rmSync(webDist, { recursive: true, force: true });
});

describe('security headers (issue 8, finding 5)', () => {
  it('serves the login page with a strict CSP that nothing may frame', async () => {
    const page = await server.app.inject({ method: 'GET', url: '/login' });
    expect(page.statusCode).toBe(200);
    const csp = directives(page);
    expect(csp.get('default-src')).toEqual(["'self'"]);
    expect(csp.get('script-src')?.filter((source) => !source.startsWith("'nonce-"))).toEqual(["'self'"]);
    expect(csp.get('object-src')).toEqual(["'none'"]);
    expect(csp.get('base-uri')).toEqual(["'self'"]);
    expect(csp.get('form-action')).toEqual(["'self'"]);
    expect(csp.get('frame-ancestors')).toEqual(["'none'"]);
    const header = String(page.headers['content-security-policy']);
    expect(header).not.toContain('unsafe-eval');
    expect(header).not.toContain('unsafe-inline');
    expect(page.headers['x-frame-options']).toBe('DENY');
    expect(page.headers['x-content-type-options']).toBe('nosniff');
    // Not in development or tests: HSTS would pin HTTPS for localhost.
    expect(page.headers['strict-transport-security']).toBeUndefined();
  });

  it('hands each page load its own style nonce, the one its CSP admits', async () => {
    const nonces: string[] = [];
    for (const url of ['/login', '/index.html', '/']) {
      const page = await server.app.inject({ method: 'GET', url });
      expect(page.statusCode).toBe(200);
      const styleNonce = directives(page)
        .get('style-src')
        ?.find((source) => source.startsWith("'nonce-"));
      expect(styleNonce).toMatch(/^'nonce-[0-9a-f]{32}'$/);
      const nonce = styleNonce!.slice("'nonce-".length, -1);
      expect(page.body).not.toContain(CSP_NONCE_PLACEHOLDER);
      expect(page.body).toContain(`<meta property="csp-nonce" nonce="${nonce}">`);
      nonces.push(nonce);
    }
    expect(new Set(nonces).size).toBe(nonces.length);
  });

  it('answers every API call with Cache-Control: no-store, refusals included', async () => {
    const calls = [
      await admin.request({ method: 'GET', url: '/api/auth/me' }),
      await admin.request({ method: 'GET', url: '/api/organizations' }),
      await server.app.inject({ method: 'GET', url: '/api/auth/me' }),
      await server.app.inject({ method: 'POST', url: '/initial/auth/login', payload: { username: server.admin.email, password: server.admin.password } }),
      await server.app.inject({ method: 'POST', url: '/initial/auth/login', payload: { username: server.admin.email, password: 'wrong-password-1A' } }),
      await server.app.inject({ method: 'POST', url: '/public/auth/request-password-reset', payload: { email: 'nobody@example.com' } }),
      await server.app.inject({ method: 'GET', url: '/api/no-such-route' }),
      await server.app.inject({ method: 'GET', url: '/%61pi/organizations' }),
    ];
    expect(calls.map((response) => `${response.statusCode} ${response.headers['cache-control']}`)).toEqual(
      calls.map((response) => `${response.statusCode} no-store`),
    );
    // Every one carries the frame and sniffing protections too.
    expect(calls.every((response) => response.headers['x-frame-options'] === 'DENY' && response.headers['x-content-type-options'] === 'nosniff')).toBe(true);
  });

  it('keeps the OpenAPI docs working under their own policy, not framable either', async () => {
    const docs = await server.app.inject({ method: 'GET', url: '/api/docs/' });
    expect(docs.statusCode).toBe(200);
    const csp = directives(docs);
    expect(csp.get('frame-ancestors')).toEqual(["'none'"]);
    expect(csp.get('object-src')).toEqual(["'none'"]);
    expect(csp.has('upgrade-insecure-requests')).toBe(false);
    expect(csp.get('script-src')).toEqual(["'self'"]);
    // swagger-ui injects <style> elements: inline styles, never inline or eval'd scripts.
    expect(csp.get('style-src')).toEqual(["'self'", "'unsafe-inline'"]);
    expect(String(docs.headers['content-security-policy'])).not.toContain('unsafe-eval');
    expect((await server.app.inject({ method: 'GET', url: '/api/docs/json' })).json().openapi).toMatch(/^3\./);
  });
});

describe('HSTS in production', () => {
  /**
   * The plugin on its own with a production configuration (a whole production gateway needs its
   * secrets key and administrator set up, which is not what this checks).
   */
  async function productionApp(environment: AppConfig['environment']) {
    const app = Fastify();
    app.decorate('config', { environment } as AppConfig);
    await app.register(securityHeadersPlugin);
    app.get('/api/auth/me', async () => ({ name: 'Mari Maasikas' }));
    app.get('/login', async (_request, reply) => reply.type('text/html').send('<!doctype html>'));
    return app;
  }

  it('pins HTTPS for a year and asks for upgrades in production only', async () => {
    const production = await productionApp('production');
    const page = await production.inject({ method: 'GET', url: '/login' });
    expect(page.headers['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
    expect(directives(page).has('upgrade-insecure-requests')).toBe(true);
    const api = await production.inject({ method: 'GET', url: '/api/auth/me' });
    expect(api.headers['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
    expect(api.headers['cache-control']).toBe('no-store');
    await production.close();
    const development = await productionApp('development');
    const local = await development.inject({ method: 'GET', url: '/login' });
    expect(local.headers['strict-transport-security']).toBeUndefined();
    expect(directives(local).has('upgrade-insecure-requests')).toBe(false);
    await development.close();
  });
});
