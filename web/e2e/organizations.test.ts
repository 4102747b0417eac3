import { randomBytes } from 'node:crypto';
import { ADMIN_ROUTE, MS_PER_HOUR } from '@eelarve/shared';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { en } from '../src/i18n/messages/en';
import { et, type Messages } from '../src/i18n/messages/et';
import { signedInRequest } from './auth-flows';
import { browserSuite, currentPath, formatDdMmYyyy, gridRows as rowsOf, logIn, newContext, signIn } from './harness';

const ORGANIZATIONS_PATH = `${ADMIN_ROUTE}/organizations`;

/** The catalog of the language the page is showing (the admin's own language may switch it after login). */
async function shownMessages(page: Page): Promise<Messages> {
  const lang = await page.evaluate(() => document.documentElement.lang);
  return lang === 'en' ? en : et;
}

function gridRows(page: Page) {
  return rowsOf(page, 'organizations-grid');
}

function gridRowNamed(page: Page, name: string) {
  return gridRows(page).filter({ has: page.locator('[col-id="name"]', { hasText: name }) });
}

async function expectRowCount(page: Page, count: number) {
  await expect.poll(() => gridRows(page).count(), { timeout: 10_000 }).toBe(count);
}

describe('web: login, shell and the organisations administration (browser)', () => {
  const suite = browserSuite();
  let page: Page;
  const openPage = async () => (page = await suite.openPage());

  async function logInAsAdmin(): Promise<void> {
    await signIn(page, suite.server.admin, { via: '/' });
  }

  it('switches the language of the login page and remembers the choice', async () => {
    await openPage();
    await page.goto('/login');
    const title = page.locator('.login-title');
    await expect.poll(() => title.textContent()).toBe(et['login.title']);
    expect(await page.getByTestId('forgot-password-link').getAttribute('href')).toBe('/reset-password');
    expect(await page.getByTestId('resend-confirmation-link').getAttribute('href')).toBe('/resend-confirmation');

    await page.getByTestId('language-en').click();
    await expect.poll(() => title.textContent()).toBe(en['login.title']);
    expect(await page.getByTestId('forgot-password-link').textContent()).toBe(en['login.forgotPassword']);
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('en');

    await page.reload();
    await expect.poll(() => title.textContent()).toBe(en['login.title']);
    await page.getByTestId('language-et').click();
    await expect.poll(() => title.textContent()).toBe(et['login.title']);
  });

  it('shows required fields and a wrong password on the login page', async () => {
    await openPage();
    await page.goto('/login');
    await page.getByTestId('login-submit').click();
    expect(await page.getByTestId('field-error').count()).toBe(2);

    await logIn(page, { email: suite.server.admin.email, password: 'not-the-password' });
    const alert = page.getByTestId('login-error');
    await alert.waitFor();
    expect(await alert.locator('[data-error-code]').getAttribute('data-error-code')).toBe('INVALID_USERNAME_OR_PASSWORD');
    expect(currentPath(page)).toBe('/login');
  });

  it('logs in, opens the drawer and creates, finds, edits and deletes an organisation', async () => {
    await openPage();
    await logInAsAdmin();
    const organizationName = (await page.getByTestId('header-organization').textContent()) ?? '';
    expect(organizationName).not.toBe('');
    expect(await page.title()).toContain(organizationName);

    // The drawer: administration is offered to the platform admin; versions are in its footer.
    await page.getByTestId('menu-button').click();
    await page.getByTestId('drawer').waitFor();
    expect(await page.getByTestId('version-front-end').textContent()).toMatch(/\d+\.\d+\.\d+/);
    await expect.poll(() => page.getByTestId('version-api').textContent()).toMatch(/\d/);
    await page.getByTestId('nav-administration').click();
    await page.waitForURL((url) => url.pathname === ORGANIZATIONS_PATH);
    await page.getByTestId('organizations-tab').waitFor();
    await expect.poll(() => gridRows(page).count()).toBeGreaterThan(0);

    // Add: the shared schema's messages before anything is sent.
    await page.getByTestId('organizations-add').click();
    const modal = page.getByTestId('organization-modal');
    await page.getByTestId('organization-name').waitFor();
    await page.getByTestId('organization-save').click();
    await expect.poll(() => modal.getByTestId('field-error').count()).toBeGreaterThan(0);
    const messages = await shownMessages(page);
    expect(await modal.locator('[data-message="validation.required"]').first().textContent()).toBe(messages['validation.required']);

    const name = `E2E organisatsioon ${randomBytes(3).toString('hex')}`;
    await page.getByTestId('organization-name').fill(name);
    await page.getByTestId('organization-auth-LOGIN').check();
    await page.getByTestId('organization-api-usage-no').check();
    await page.getByTestId('organization-session-length').fill('8');
    await page.getByTestId('organization-session-multiplier').selectOption(String(MS_PER_HOUR));
    await page.getByTestId('organization-resource-statuses-no').check();
    await page.getByTestId('organization-status-editing-no').check();
    // Choosing a locale fills its default settings; preset statuses cannot be chosen.
    await page.getByTestId('organization-locale-code').selectOption('en');
    expect(await page.getByTestId('organization-locale-setting-language').inputValue()).toBe('en');
    const presetOptions = page.getByTestId('organization-locale-setting-presetResourceStatusIds').locator('option');
    expect(await presetOptions.evaluateAll((options) => options.every((option) => (option as HTMLOptionElement).disabled))).toBe(true);
    expect(await modal.getByTestId('field-error').count()).toBe(0);
    await page.getByTestId('organization-save').click();
    await modal.waitFor({ state: 'detached' });

    // Find it with the search box.
    await page.getByTestId('organizations-search').fill(name.slice(4).toUpperCase());
    await expectRowCount(page, 1);
    const row = gridRowNamed(page, name);
    expect(await row.locator('[col-id="createdAt"]').textContent()).toBe(formatDdMmYyyy(new Date()));
    expect(await row.locator('[col-id="nrOfUsers"]').textContent()).toMatch(/^(0|-)$/);
    expect(await row.locator('[col-id="allowedAuthenticationTypes"]').textContent()).toBe(messages['authType.LOGIN']);

    // Edit: the modal shows what was saved.
    await row.getByTestId('organization-row-menu').click();
    await page.getByTestId('organization-edit').click();
    await page.getByTestId('organization-name').waitFor();
    expect(await page.getByTestId('organization-name').inputValue()).toBe(name);
    expect(await page.getByTestId('organization-session-length').inputValue()).toBe('8');
    expect(await page.getByTestId('organization-session-multiplier').inputValue()).toBe(String(MS_PER_HOUR));
    expect(await page.getByTestId('organization-api-usage-no').isChecked()).toBe(true);
    expect(await page.getByTestId('organization-locale-code').inputValue()).toBe('en');
    const renamed = `${name} muudetud`;
    await page.getByTestId('organization-name').fill(renamed);
    await page.getByTestId('organization-auth-PASS').check();
    await page.getByTestId('organization-save').click();
    await modal.waitFor({ state: 'detached' });
    await page.getByTestId('organizations-search').fill(renamed);
    await expectRowCount(page, 1);
    expect(await gridRowNamed(page, renamed).locator('[col-id="allowedAuthenticationTypes"]').textContent()).toBe(
      `${messages['authType.LOGIN']}, ${messages['authType.PASS']}`,
    );

    // Delete after confirmation.
    await gridRowNamed(page, renamed).getByTestId('organization-row-menu').click();
    await page.getByTestId('organization-delete').click();
    const dialog = page.getByTestId('organization-delete-dialog');
    await dialog.waitFor();
    expect(await dialog.textContent()).toContain(renamed);
    await page.getByTestId('confirm-ok').click();
    await dialog.waitFor({ state: 'detached' });
    await expectRowCount(page, 0);

    // The organisation of the current session cannot be deleted: the dialog shows why.
    await page.getByTestId('organizations-search').fill(organizationName);
    await gridRowNamed(page, organizationName).first().waitFor();
    await gridRowNamed(page, organizationName).first().getByTestId('organization-row-menu').click();
    await page.getByTestId('organization-delete').click();
    await page.getByTestId('confirm-ok').click();
    const failure = page.getByTestId('organization-delete-error');
    await failure.waitFor();
    expect(await failure.locator('[data-error-code]').getAttribute('data-error-code')).toBe('ORGANIZATION_IN_USE');
    expect(await failure.textContent()).toContain(messages['organizations.delete.failed']);
    await page.getByTestId('confirm-cancel').click();
  });

  it('redirects the administration index to the organisations tab and shows the not-found page', async () => {
    await openPage();
    await logInAsAdmin();
    await page.goto(ADMIN_ROUTE);
    await page.waitForURL((url) => url.pathname === ORGANIZATIONS_PATH);

    await page.goto('/no-such-page/at-all');
    await page.getByTestId('not-found-page').waitFor();
    expect(await page.getByTestId('app-header').isVisible()).toBe(true);
    await page.getByTestId('home-button').click();
    await page.waitForURL((url) => url.pathname === '/');
    await page.getByTestId('dashboard').waitFor();
  });

  it('sends an expired session to /login with a warning and returns to the same page after login', async () => {
    await openPage();
    await logInAsAdmin();
    await page.goto(`${ORGANIZATIONS_PATH}?from=expiry`);
    await page.getByTestId('organizations-tab').waitFor();
    await expect.poll(() => gridRows(page).count()).toBeGreaterThan(0);

    // The session cookie disappears; the next call (the locales of the add form) answers 401.
    await suite.context.clearCookies();
    await page.getByTestId('organizations-add').click();
    await page.waitForURL('**/login');
    await page.getByTestId('session-expired').waitFor();
    // The last user is remembered.
    expect(await page.getByTestId('login-email').inputValue()).toBe(suite.server.admin.email);

    await logIn(page, suite.server.admin);
    await page.waitForURL((url) => url.pathname === ORGANIZATIONS_PATH && url.search === '?from=expiry');
    await page.getByTestId('organizations-tab').waitFor();
    expect(await page.getByTestId('session-expired').count()).toBe(0);
  });

  it('notices on reload that another browser ended every session, then returns after login', async () => {
    await openPage();
    await logInAsAdmin();
    await page.goto(ORGANIZATIONS_PATH);
    await page.getByTestId('organizations-tab').waitFor();

    const other = await newContext(suite.browser, suite.server.url);
    try {
      await signedInRequest(other.request, suite.server.admin);
      const signOut = await other.request.post('/api/auth/logout', { data: { logoutAllSessions: true } });
      expect(signOut.status()).toBe(204);
    } finally {
      await other.close();
    }

    await page.reload();
    await page.waitForURL('**/login');
    await page.getByTestId('session-expired').waitFor();
    await logIn(page, suite.server.admin);
    await page.waitForURL((url) => url.pathname === ORGANIZATIONS_PATH);
  });

  it('asks whether to end all sessions or only this one when several are active', async () => {
    const other = await newContext(suite.browser, suite.server.url);
    try {
      await signedInRequest(other.request, suite.server.admin);

      await openPage();
      await logInAsAdmin();
      await page.getByTestId('menu-button').click();
      await page.getByTestId('nav-logout').click();
      await page.getByTestId('logout-dialog').waitFor();
      await page.getByTestId('logout-current').click();
      await page.waitForURL('**/login');
      expect(await page.getByTestId('session-expired').count()).toBe(0);

      // Only this session ended: the other browser is still signed in.
      const stillIn = await other.request.get('/api/auth/me');
      expect(stillIn.status()).toBe(200);
    } finally {
      await other.close();
    }
  });
});
