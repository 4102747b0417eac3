import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Organization } from '@eelarve/shared';
import { extractLink, type ReadMail, waitForMail } from '@eelarve/gateway/features/mail/mailbox';
import type { accountsFixture } from '@eelarve/testing/accounts';
import type { TestServer } from '@eelarve/testing/server';
import { Secret, TOTP } from 'otpauth';
import type { APIRequestContext, Page } from 'playwright-core';
import { type BrowserSuite, newContext } from './harness';

/**
 * Helpers of the account and sign-in browser tests (registration, password reset, MFA,
 * electronic ID): the mail the server writes as .eml files, real TOTP codes, API set-up.
 */

/** Waits for the newest message to `address` that is not among `seen` (file names). */
export function waitForMailTo(server: TestServer, address: string, seen: string[] = []): Promise<ReadMail> {
  return waitForMail(server.app.config.dataDir, address, { seen, timeoutMs: 15_000 });
}

/** The path and query of the message's link to `page` (the browser opens it on the test server). */
export function mailLinkPath(mail: ReadMail, page: string): string {
  const url = new URL(extractLink(mail, page));
  return `${url.pathname}${url.search}`;
}

/** TOTP as the server checks it: SHA1, 6 digits, 30 s. `stepsAhead` gives a later step's code. */
export function totpCode(secretBase32: string, stepsAhead = 0): string {
  const totp = new TOTP({ algorithm: 'SHA1', digits: 6, period: 30, secret: Secret.fromBase32(secretBase32) });
  return totp.generate({ timestamp: Date.now() + stepsAhead * 30_000 });
}

/**
 * With EELARVE_SCREENSHOTS=<directory> each new page is photographed once, for a person to look
 * at; without it nothing is written.
 */
export async function screenshot(page: Page, name: string): Promise<void> {
  const directory = process.env.EELARVE_SCREENSHOTS;
  if (!directory) return;
  mkdirSync(directory, { recursive: true });
  await page.evaluate(() => document.fonts.ready);
  await page.screenshot({ path: path.join(directory, `${name}.png`), fullPage: true });
}

/** An API context signed in as `credentials` (no occupation chosen unless the server chose one). */
export async function signedInRequest(request: APIRequestContext, credentials: { email: string; password: string }): Promise<void> {
  const response = await request.post('/initial/auth/login', { data: { username: credentials.email, password: credentials.password, rememberMe: false } });
  if (response.status() !== 200) throw new Error(`login as ${credentials.email} answered ${response.status()}: ${await response.text()}`);
}

/**
 * Runs `work` with an API context signed in as the platform administrator (for set-up through
 * the API); with `logOut` that session is ended afterwards.
 */
export async function asAdmin(
  suite: Pick<BrowserSuite, 'browser' | 'server'>,
  work: (request: APIRequestContext) => Promise<void>,
  options: { logOut?: boolean } = {},
): Promise<void> {
  const setup = await newContext(suite.browser, suite.server.url);
  try {
    await signedInRequest(setup.request, suite.server.admin);
    await work(setup.request);
    if (options.logOut) await setup.request.post('/api/auth/logout', { data: { logoutAllSessions: false } });
  } finally {
    await setup.close();
  }
}

export async function organizations(request: APIRequestContext): Promise<Organization[]> {
  const response = await request.get('/api/organizations');
  if (!response.ok()) throw new Error(`GET /api/organizations answered ${response.status()}`);
  return (await response.json()) as Organization[];
}

/** Changes an organisation's allowed authentication types (PUT api/organization/{id}). */
export async function setAuthenticationTypes(request: APIRequestContext, organization: Organization, types: Organization['allowedAuthenticationTypes']) {
  const { id, createdAt, nrOfUsers, isPlatform, ...input } = organization;
  const response = await request.put(`/api/organization/${id}`, { data: { ...input, allowedAuthenticationTypes: types } });
  if (!response.ok()) throw new Error(`PUT /api/organization/${id} answered ${response.status()}: ${await response.text()}`);
}

/** Logs out through the drawer; with several sessions the dialog's "only this one" is chosen. */
export async function logOutThroughMenu(page: Page): Promise<void> {
  await page.getByTestId('menu-button').click();
  await page.getByTestId('nav-logout').click();
  const dialog = page.getByTestId('logout-dialog');
  const atLogin = page.waitForURL((url) => url.pathname === '/login').then(() => 'login' as const);
  const asked = dialog.waitFor().then(() => 'dialog' as const);
  atLogin.catch(() => undefined);
  asked.catch(() => undefined);
  if ((await Promise.race([atLogin, asked])) === 'dialog') {
    await page.getByTestId('logout-current').click();
    await page.waitForURL((url) => url.pathname === '/login');
  }
  await page.getByTestId('login-form').waitFor();
}

/** On the local electronic-ID provider's page: approves as the preselected (or typed) person. */
export async function approveAtProvider(page: Page, issuer: string, personalCode?: string): Promise<void> {
  await page.waitForURL((url) => url.origin === new URL(issuer).origin);
  if (personalCode) await page.locator('input[name="other_code"]').fill(personalCode);
  await page.locator('button[name="action"][value="approve"]').click();
}

async function createdId(response: { status(): number; text(): Promise<string>; json(): Promise<unknown> }, what: string): Promise<string> {
  if (response.status() !== 201 && response.status() !== 200) throw new Error(`${what} answered ${response.status()}: ${await response.text()}`);
  return ((await response.json()) as { id: string }).id;
}

/** A new organisation (POST api/organization) allowing `types`. */
export async function createOrganization(request: APIRequestContext, name: string, types: Organization['allowedAuthenticationTypes']): Promise<string> {
  const response = await request.post('/api/organization', {
    data: {
      name,
      localeCode: 'et',
      localeSettings: { language: 'et', dateFormat: 'dd.MM.yyyy', decimalSeparator: 'comma', decimalPlaces: '2', presetResourceStatusIds: 'default' },
      enableResourceStatuses: false,
      allowResourceStatusEditing: false,
      allowedAuthenticationTypes: types,
      apiUsageAllowed: false,
      sessionLength: 1,
      sessionLengthMultiplier: 86_400_000,
    },
  });
  return createdId(response, 'POST /api/organization');
}

/** A new user of the organisation (POST api/organization/{id}/user); the server mails the registration link. */
export async function createUser(request: APIRequestContext, organizationId: string, user: { name: string; email: string }): Promise<string> {
  return createdId(await request.post(`/api/organization/${organizationId}/user`, { data: user }), 'POST user');
}

export async function createOccupation(request: APIRequestContext, organizationId: string, userId: string, name: string): Promise<string> {
  return createdId(await request.post(`/api/organization/${organizationId}/occupation`, { data: { userId, name, roles: [] } }), 'POST occupation');
}

/** The platform administrator takes an ADMIN occupation in the organisation (POST api/admin/{id}). */
export async function becomeAdminOf(request: APIRequestContext, organizationId: string): Promise<void> {
  const response = await request.post(`/api/admin/${organizationId}`);
  if (!response.ok()) throw new Error(`POST /api/admin/${organizationId} answered ${response.status()}: ${await response.text()}`);
}

/** Completes the registration of `email` through the API with the mailed token (what /confirm does). */
export async function registerThroughMail(server: TestServer, request: APIRequestContext, email: string, password: string): Promise<void> {
  const mail = await waitForMailTo(server, email);
  const token = new URL(extractLink(mail, '/confirm')).searchParams.get('token');
  const response = await request.post('/public/auth/confirm-password', { data: { type: 'REGISTRATION', token, password } });
  if (response.status() !== 204) throw new Error(`confirm-password answered ${response.status()}: ${await response.text()}`);
}

/** An API caller for fixtures and checks (the accounts fixture's own type). */
export type ApiClient = Parameters<typeof accountsFixture>[1];

/** Calls the API in-process with the session of `email` (for fixtures and checks, not for the screens). */
export async function apiClient(app: TestServer['app'], email: string, password: string): Promise<ApiClient> {
  const response = await app.inject({ method: 'POST', url: '/initial/auth/login', payload: { username: email, password } });
  const cookie = response.cookies.find((candidate) => candidate.name === 'eelarve_session');
  if (response.statusCode !== 200 || !cookie) throw new Error(`login failed: ${response.statusCode} ${response.body}`);
  const header = `${cookie.name}=${cookie.value}`;
  return { request: (options) => app.inject({ ...options, headers: { ...(options.headers ?? {}), cookie: header } }) };
}
