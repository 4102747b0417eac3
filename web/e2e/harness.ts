import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Organization } from '@eelarve/shared';
import type { Caller } from '@eelarve/testing/accounts';
import { startTestServer, type TestServer } from '@eelarve/testing/server';
import type { AxeResults } from 'axe-core';
import { type Browser, type BrowserContext, chromium, type Locator, type Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, expect } from 'vitest';

const webDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const WEB_DIST = path.join(webDir, 'dist');

/** Debian's Chromium; override with CHROMIUM_PATH. */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-quic',
  '--no-first-run',
  '--disable-component-update',
  '--disable-sync',
];

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
}

const BUILD_INPUTS = [
  path.join(webDir, 'src'),
  path.join(webDir, 'public'),
  path.join(webDir, 'index.html'),
  path.join(webDir, 'vite.config.ts'),
  path.join(webDir, 'package.json'),
  path.join(webDir, '..', 'shared', 'src'),
];

function newestChange(target: string): number {
  if (!existsSync(target)) return 0;
  const stats = statSync(target);
  if (!stats.isDirectory()) return stats.mtimeMs;
  return readdirSync(target).reduce((newest, entry) => Math.max(newest, newestChange(path.join(target, entry))), stats.mtimeMs);
}

function buildIsFresh(): boolean {
  const index = path.join(WEB_DIST, 'index.html');
  if (!existsSync(index)) return false;
  const builtAt = statSync(index).mtimeMs;
  return BUILD_INPUTS.every((input) => newestChange(input) <= builtAt);
}

function sleep(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

/**
 * The gateway serves web/dist. `pnpm test:all` builds it first; when it is missing or older than
 * the sources it is built here, so that the browser tests never run against a stale client.
 * Test files run in parallel processes: a lock directory lets one of them build at a time.
 */
export function ensureWebBuild(): void {
  if (buildIsFresh()) return;
  const lock = path.join(os.tmpdir(), `eelarve-web-build-${Buffer.from(webDir).toString('hex').slice(-16)}.lock`);
  const deadline = Date.now() + 5 * 60_000;
  for (;;) {
    try {
      mkdirSync(lock);
      break;
    } catch {
      // A lock left behind by a killed run is taken over after five minutes.
      if (existsSync(lock) && Date.now() - statSync(lock).mtimeMs > 5 * 60_000) rmSync(lock, { recursive: true, force: true });
      if (Date.now() > deadline) throw new Error(`waited too long for the web build lock ${lock}`);
      sleep(500);
    }
  }
  try {
    if (!buildIsFresh()) {
      execFileSync(process.execPath, [path.join(webDir, 'node_modules', 'vite', 'bin', 'vite.js'), 'build', '--logLevel', 'warn'], {
        cwd: webDir,
        stdio: 'inherit',
      });
    }
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

/** A fresh browser context (own cookies and storage) with the desktop size the product is built for. */
export async function newContext(browser: Browser, baseURL: string): Promise<BrowserContext> {
  const context = await browser.newContext({ baseURL, viewport: { width: 1440, height: 900 }, locale: 'et-EE' });
  context.setDefaultTimeout(15_000);
  return context;
}

/** Collects uncaught page errors and console errors, so a test can assert that there were none. */
export function watchErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(`pageerror: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() !== 'error') return;
    const text = message.text();
    // Expected: failed requests the test provokes (401 after expiry, 422 for a refused delete).
    if (/Failed to load resource: the server responded with a status of (401|403|404|422)/.test(text)) return;
    errors.push(`console: ${text}`);
  });
  return errors;
}

/** Logs in through the login page. */
export async function logIn(page: Page, credentials: { email: string; password: string }, options: { rememberMe?: boolean } = {}) {
  await page.getByTestId('login-email').fill(credentials.email);
  await page.getByTestId('login-password').fill(credentials.password);
  if (options.rememberMe) await page.getByTestId('login-remember-me').check();
  await page.getByTestId('login-submit').click();
}

/** Opens /login (or `via`, a page that sends a signed-out user there), logs in and waits for the dashboard. */
export async function signIn(page: Page, credentials: { email: string; password: string }, options: { via?: string } = {}): Promise<void> {
  await page.goto(options.via ?? '/login');
  if (options.via) await page.waitForURL('**/login');
  await logIn(page, credentials);
  await page.waitForURL((url) => url.pathname === '/');
  await page.getByTestId('dashboard').waitFor();
}

/** What a browser test file shares: its test server and browser, and the current test's context and page. */
export interface BrowserSuite {
  server: TestServer;
  browser: Browser;
  context: BrowserContext;
  page: Page;
  /** The errors of the current page (see `watchErrors`); checked after each test. */
  pageErrors: string[];
  /** A new context and page (their errors are watched); the context is closed after the test. */
  openPage(): Promise<Page>;
}

/**
 * Registers the hooks of a browser test file: before all, the web build, a test server and
 * Chromium; after each test, the context is closed and the page must have logged no errors
 * (but for those matching `allowedErrors`); after all, browser and server are closed.
 * Further set-up goes in the file's own `beforeAll`, which runs after this one.
 */
export function browserSuite(options: { server?: Parameters<typeof startTestServer>[0]; allowedErrors?: RegExp } = {}): BrowserSuite {
  const suite = {
    pageErrors: [] as string[],
    async openPage() {
      suite.context = await newContext(suite.browser, suite.server.url);
      suite.page = await suite.context.newPage();
      suite.pageErrors = watchErrors(suite.page);
      return suite.page;
    },
  } as BrowserSuite;

  beforeAll(async () => {
    ensureWebBuild();
    // Independent starts: Chromium launches while the server clones its database and starts.
    const [server, browser] = await Promise.allSettled([startTestServer(options.server), launchBrowser()]);
    if (server.status === 'fulfilled') suite.server = server.value;
    if (browser.status === 'fulfilled') suite.browser = browser.value;
    // A failed start fails the file; afterAll closes whichever did start.
    for (const started of [server, browser]) if (started.status === 'rejected') throw started.reason;
  }, 180_000);

  afterAll(async () => {
    await suite.browser?.close();
    await suite.server?.close();
  });

  afterEach(async () => {
    await suite.context?.close();
    const { allowedErrors } = options;
    expect(allowedErrors ? suite.pageErrors.filter((error) => !allowedErrors.test(error)) : suite.pageErrors).toEqual([]);
  });

  return suite;
}

/** The rows of the AG Grid with the test id `grid`. */
export function gridRows(page: Page, grid: string): Locator {
  return page.locator(`[data-testid="${grid}"] .ag-center-cols-container .ag-row`);
}

/** The path, query and hash of the page's current URL. */
export function currentPath(page: Page): string {
  const url = new URL(page.url());
  return `${url.pathname}${url.search}${url.hash}`;
}

/** A local date as the product shows it by default (dd.MM.yyyy). */
export function formatDdMmYyyy(date: Date): string {
  const pad = (value: number) => String(value).padStart(2, '0');
  return `${pad(date.getDate())}.${pad(date.getMonth() + 1)}.${date.getFullYear()}`;
}

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** Serious and critical axe-core findings (WCAG 2.x A and AA) on the page as it is now, as `rule: targets`. */
export async function seriousViolations(page: Page): Promise<string[]> {
  await page.evaluate(AXE_SOURCE);
  const results = (await page.evaluate(() =>
    // biome-ignore lint/suspicious/noExplicitAny: axe-core is injected into the page as a global.
    (window as any).axe.run(document, { resultTypes: ['violations'] }),
  )) as AxeResults;
  return results.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map((violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`);
}

/** One API request of set-up; anything but success ends the set-up with the answer. */
export async function call<T>(client: Caller, method: 'GET' | 'POST' | 'PUT', url: string, payload?: object): Promise<T> {
  const response = await client.request({ method, url, ...(payload ? { payload } : {}) });
  if (response.statusCode >= 300) throw new Error(`${method} ${url}: ${response.statusCode} ${response.body}`);
  return response.json() as T;
}

/** Enables statuses for an existing organisation (for good) and allows editing them, as a platform administrator does. */
export async function enableStatuses(admin: Caller, organizationId: string): Promise<void> {
  const organization = (await call<Organization[]>(admin, 'GET', '/api/organizations')).find((candidate) => candidate.id === organizationId);
  if (!organization) throw new Error(`organisation ${organizationId} is not listed`);
  const { id, createdAt, nrOfUsers, isPlatform, ...input } = organization;
  await call(admin, 'PUT', `/api/organization/${id}`, { ...input, enableResourceStatuses: true, allowResourceStatusEditing: true });
}

/**
 * A document made through the API as its settings form would: created, given a required
 * classifier "Tegevusala" and saved with that as its master classifier, so that budgets can be added.
 */
export async function documentWithMaster(
  client: Caller,
  organizationId: string,
  settings: { name: string; period: { year: number; month: number; duration: number }; resourceStatusId?: string },
): Promise<{ documentId: string; masterClassifierId: string }> {
  const { id: documentId } = await call<{ id: string }>(client, 'POST', `/api/organization/${organizationId}/document`, settings);
  const { id: masterClassifierId } = await call<{ id: string }>(client, 'POST', `/api/document/${documentId}/classifier`, {
    name: 'Tegevusala',
    itemName: 'Tegevusala',
    fieldName: 'tegevusala',
    required: true,
    codeSettings: { typeName: 'Code', minLength: 1, maxLength: 20, hierarchical: false },
  });
  await call(client, 'PUT', `/api/document/${documentId}`, { ...settings, recordAmountKey: 'summa', masterClassifierId });
  return { documentId, masterClassifierId };
}
