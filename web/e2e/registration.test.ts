import { randomBytes } from 'node:crypto';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { en } from '../src/i18n/messages/en';
import { et } from '../src/i18n/messages/et';
import { asAdmin, createOccupation, createOrganization, createUser, logOutThroughMenu, mailLinkPath, screenshot, waitForMailTo } from './auth-flows';
import { browserSuite, logIn, signIn } from './harness';

const suffix = randomBytes(3).toString('hex');
const ORGANIZATION = `Registreerimise amet ${suffix}`;
const USER = { name: 'Mari Maasikas', email: `mari.${suffix}@example.com` };
const PASSWORD = 'Esimene-Parool-1';
const NEW_PASSWORD = 'Teine-Parool-22';
const NEW_EMAIL = `mari.maasikas.${suffix}@example.com`;

describe('web: registration from the mailed link to the first login, then account settings (browser)', () => {
  const suite = browserSuite();
  let page: Page;

  it('an administrator creates a user, who confirms from the e-mail, sets a password and logs in', async () => {
    // The platform administrator creates the organisation, the user and an occupation through the API.
    await asAdmin(suite, async (request) => {
      const organizationId = await createOrganization(request, ORGANIZATION, ['LOGIN']);
      const userId = await createUser(request, organizationId, USER);
      await createOccupation(request, organizationId, userId, 'Eelarvespetsialist');
    });

    page = await suite.openPage();

    // Not registered yet: no password to log in with.
    await page.goto('/login');
    await logIn(page, { email: USER.email, password: PASSWORD });
    await page.getByTestId('login-error').waitFor();

    // The registration mail links to /confirm?token=...
    const mail = await waitForMailTo(suite.server, USER.email);
    const link = mailLinkPath(mail, '/confirm');
    await page.goto(link);
    const form = page.getByTestId('set-password-form');
    await expect.poll(() => form.getAttribute('data-state')).toBe('initialised');
    expect(await page.locator('.login-title').textContent()).toBe(et['setPassword.registration.title']);
    // The organisation allows only passwords: no electronic-ID option.
    expect(await page.getByTestId('set-password-electronic-id').count()).toBe(0);
    await screenshot(page, 'confirm-registration');

    await page.getByTestId('set-password-new').fill(PASSWORD);
    await page.getByTestId('set-password-repeat').fill(PASSWORD);
    await page.getByTestId('set-password-submit').click();
    await page.waitForURL((url) => url.pathname === '/login' && url.search === '?registered=true');
    await page.getByTestId('login-registered').waitFor();
    expect(await page.getByTestId('login-registered').textContent()).toBe(et['login.registeredSuccess']);
    await screenshot(page, 'login-after-registration');

    // The first login: the only occupation is entered at once.
    await logIn(page, { email: USER.email, password: PASSWORD });
    await page.waitForURL((url) => url.pathname === '/');
    await page.getByTestId('dashboard').waitFor();
    expect(await page.getByTestId('welcome').textContent()).toContain(USER.name);
    expect(await page.getByTestId('header-organization').textContent()).toBe(ORGANIZATION);
    await screenshot(page, 'dashboard-first-login');

    // The link was used.
    await page.goto(link);
    await page.getByTestId('token-error').waitFor();
  });

  it('changes password, language and (confirmed from the new address) e-mail in the account settings', async () => {
    page = await suite.openPage();
    await signIn(page, { email: USER.email, password: PASSWORD });
    await page.getByTestId('account-link').click();
    await page.getByTestId('account-page').waitFor();

    // Password: a wrong current password is shown on its field.
    const passwordSection = page.getByTestId('account-password');
    await page.getByTestId('account-password-current').fill('Vale-Parool-99');
    await page.getByTestId('account-password-new').fill(NEW_PASSWORD);
    await page.getByTestId('account-password-repeat').fill(NEW_PASSWORD);
    await page.getByTestId('account-password-save').click();
    await passwordSection.locator('[data-error-code="INVALID_CURRENT_PASSWORD"]').waitFor();
    expect(await page.getByTestId('account-password-current').getAttribute('aria-invalid')).toBe('true');
    await screenshot(page, 'account-password-invalid-current');
    await page.getByTestId('account-password-current').fill(PASSWORD);
    await page.getByTestId('account-password-save').click();
    await page.getByTestId('account-password-saved').waitFor();
    expect(await page.getByTestId('account-password-current').inputValue()).toBe('');

    // Language: the page switches at once and stays English after a reload (account and device).
    await page.getByTestId('account-language-en').check();
    const title = page.locator('.page-title');
    await expect.poll(() => title.textContent()).toBe(en['account.title']);
    await page.reload();
    await expect.poll(() => title.textContent()).toBe(en['account.title']);
    expect(await page.getByTestId('account-language-en').isChecked()).toBe(true);

    // E-mail: the current password is asked for; an address in use is refused on the field.
    await page.getByTestId('account-email-input').fill(suite.server.admin.email);
    await page.getByTestId('account-email-save').click();
    await expect.poll(() => page.getByTestId('account-email-current').getAttribute('aria-invalid')).toBe('true');
    await page.getByTestId('account-email-current').fill(NEW_PASSWORD);
    await page.getByTestId('account-email-save').click();
    await page.getByTestId('account-email').locator('[data-error-code="EMAIL_IN_USE"]').waitFor();
    // The browser logs the refused request (409); that one was provoked.
    const provoked = () => suite.pageErrors.findIndex((error) => error.includes('status of 409'));
    await expect.poll(provoked).toBeGreaterThanOrEqual(0);
    suite.pageErrors.splice(provoked(), 1);

    // A free address: nothing changes yet; the section says to confirm from the new address.
    await page.getByTestId('account-email-input').fill(NEW_EMAIL);
    await page.getByTestId('account-email-current').fill(NEW_PASSWORD);
    await page.getByTestId('account-email-save').click();
    const pending = page.getByTestId('account-email-pending');
    await pending.waitFor();
    expect(await pending.textContent()).toContain(NEW_EMAIL);
    expect(await page.locator('.account-heading .muted').textContent()).toContain(USER.email);
    await screenshot(page, 'account-email-pending');
    // The notice to the old address; an earlier mail to it (the password change) may be the newest until it lands.
    const seen: string[] = [];
    let notice = await waitForMailTo(suite.server, USER.email, seen);
    while (!notice.text.includes(NEW_EMAIL)) {
      seen.push(notice.file);
      notice = await waitForMailTo(suite.server, USER.email, seen);
    }
    expect(notice.text).toContain(NEW_EMAIL);

    // The link mailed to the new address makes the change.
    const confirmation = await waitForMailTo(suite.server, NEW_EMAIL);
    await page.goto(mailLinkPath(confirmation, '/confirm-email'));
    const confirmed = page.getByTestId('confirm-email-success');
    await confirmed.waitFor();
    expect(await confirmed.textContent()).toContain(NEW_EMAIL);
    await screenshot(page, 'confirm-email');
    await page.goto('/account');
    await expect.poll(() => page.locator('.account-heading .muted').textContent()).toContain(NEW_EMAIL);
    expect(await page.getByTestId('account-email-pending').count()).toBe(0);
    await screenshot(page, 'account-settings-english');

    // The next login uses the new e-mail and password, and the user's language.
    await logOutThroughMenu(page);
    await page.evaluate(() => window.localStorage.clear());
    await page.reload();
    await logIn(page, { email: NEW_EMAIL, password: NEW_PASSWORD });
    await page.getByTestId('dashboard').waitFor();
    await expect.poll(() => page.evaluate(() => document.documentElement.lang)).toBe('en');
    expect(await page.getByTestId('account-link').textContent()).toBe(en['dashboard.userInfo.accountSettings']);
  });
});
