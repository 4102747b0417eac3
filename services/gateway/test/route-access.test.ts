import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountsFixture, PASSWORD } from '@eelarve/testing/accounts';
import { startTestServer, type TestServer } from '@eelarve/testing/server';
import { type Client, login } from './helpers';

/**
 * Issue 8, finding 4: route access is decided by the route a request reaches, not by how its
 * URL is spelled. The router decodes `%61` to `a`, so `/%61pi/...` reaches the `/api/...` handler;
 * every spelling must either reach no route (404) or get the canonical path's answer.
 */
let server: TestServer;
let webDist: string;
let organizationId: string;
let withoutOccupation: Client;
let dataViewer: Client;
let admin: Client;

/** Ways to write the same path that a router, a proxy or a browser may read as it. */
function spellings(canonical: string): string[] {
  const rest = canonical.slice('/api/'.length);
  const [first, ...others] = rest.split('/');
  const encodeFirstLetter = (segment: string) => `%${segment.charCodeAt(0).toString(16)}${segment.slice(1)}`;
  return [
    `/%61pi/${rest}`,
    `/%61%70%69/${rest}`,
    `/%41PI/${rest}`,
    `/a%70i/${rest}`,
    `/api/${encodeFirstLetter(first!)}${others.length ? `/${others.join('/')}` : ''}`,
    `/api/${[first, ...others.slice(0, -1), encodeFirstLetter(others.at(-1) ?? '')].join('/')}`,
    `/api%2F${rest}`,
    `/api%2f${rest}`,
    `/%2561pi/${rest}`,
    `//api/${rest}`,
    `/api//${rest}`,
    `///api/${rest}`,
    `/api/${rest}/`,
    `/api/${rest}//`,
    `/API/${rest}`,
    `/Api/${rest}`,
    `/api/${rest.toUpperCase()}`,
    `/api/./${rest}`,
    `/api/x/../${rest}`,
    `/api/docs/../${rest}`,
    `/api/docs/%2e%2e/${rest}`,
    `/api/docs%2F..%2F${rest}`,
    `/api/${rest}?`,
    `/api/${rest}?a=%2F`,
    `/api/${rest};`,
    `/api/${rest}%00`,
    `/api/${rest}%20`,
    `/api/${rest}%2e`,
  ];
}

const CANONICAL = () => [
  // Default access (no `config.access`): an occupation.
  '/api/document-copy/parts',
  '/api/budget-copy/parts',
  // Privileged routes: USER_* / ROLES_* / IS_ADMIN.
  `/api/organization/${organizationId}/roles`,
  `/api/organization/${organizationId}/users`,
  '/api/organizations',
  '/api/privileges',
];

async function anonymous(url: string) {
  return server.app.inject({ method: 'GET', url });
}

/**
 * Each spelling answers 404 (it reaches no route) or exactly what the canonical path answers;
 * a refused canonical path is never answered 200 under another spelling.
 */
async function expectSameDecision(caller: (url: string) => ReturnType<typeof anonymous>, label: string) {
  const mismatches: string[] = [];
  for (const canonical of CANONICAL()) {
    const expected = (await caller(canonical)).statusCode;
    for (const variant of spellings(canonical)) {
      const response = await caller(variant);
      const fine = response.statusCode === expected || response.statusCode === 404 || response.statusCode === 400;
      const servedWebPage = response.statusCode === 200 && response.body.includes('web-client-marker');
      if (!fine || servedWebPage) mismatches.push(`${label}: GET ${variant} answered ${response.statusCode}, ${canonical} answers ${expected}`);
    }
  }
  expect(mismatches).toEqual([]);
}

beforeAll(async () => {
  // A stand-in web build: unknown non-API paths get its index.html, API-looking ones must not.
  webDist = mkdtempSync(path.join(os.tmpdir(), 'eelarve-route-access-'));
  writeFileSync(path.join(webDist, 'index.html'), '<!doctype html><title>web-client-marker</title>');
  server = await startTestServer({ listen: false, webDist });
  admin = await login(server.app, server.admin.email, server.admin.password);
  const fixture = accountsFixture(server.app, admin);
  organizationId = await fixture.organization();
  // A user with no occupation signs in without one.
  const loner = await fixture.user(organizationId, `${fixture.unique('loner')}@example.com`);
  await fixture.activate(loner);
  const lonerEmail = (await admin.request({ method: 'GET', url: `/api/organization/${organizationId}/users` }))
    .json()
    .find((user: { id: string }) => user.id === loner).email;
  withoutOccupation = await login(server.app, lonerEmail, PASSWORD);
  const viewer = await fixture.member(organizationId, ['DATA_VIEW']);
  dataViewer = await login(server.app, viewer.email, PASSWORD);
});

afterAll(async () => {
  await server?.close();
  if (webDist) rmSync(webDist, { recursive: true, force: true });
});

describe('route access by the matched route (issue 8, finding 4)', () => {
  it('refuses GET /%61pi/document-copy/parts without an occupation, as /api/document-copy/parts', async () => {
    const canonical = await withoutOccupation.request({ method: 'GET', url: '/api/document-copy/parts' });
    const encoded = await withoutOccupation.request({ method: 'GET', url: '/%61pi/document-copy/parts' });
    expect(canonical.statusCode).toBe(403);
    expect({ status: encoded.statusCode, code: encoded.json().code }).toEqual({ status: 403, code: 'INSUFFICIENT_PERMISSIONS' });
    const signedOut = await anonymous('/%61pi/document-copy/parts');
    expect({ status: signedOut.statusCode, code: signedOut.json().code }).toEqual({ status: 401, code: 'UNAUTHORIZED' });
  });

  it('gives every spelling of an API path the same decision when signed out', async () => {
    await expectSameDecision(anonymous, 'signed out');
  });

  it('gives every spelling the same decision for a session without an occupation', async () => {
    await expectSameDecision((url) => withoutOccupation.request({ method: 'GET', url }), 'no occupation');
  });

  it('gives every spelling the same decision for an occupation without the route’s privileges', async () => {
    await expectSameDecision((url) => dataViewer.request({ method: 'GET', url }), 'DATA_VIEW only');
  });

  it('gives every spelling the same decision for the platform administrator', async () => {
    await expectSameDecision((url) => admin.request({ method: 'GET', url }), 'platform administrator');
  });

  it('still serves the web client for unknown non-API paths and the docs without a session', async () => {
    const page = await anonymous('/some/screen');
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('web-client-marker');
    expect((await anonymous('/api/docs/json')).statusCode).toBe(200);
  });
});
