import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { et } from '../src/i18n/messages/et';
import { mailLinkPath, screenshot, waitForMailTo } from './auth-flows';
import { browserSuite, currentPath, logIn } from './harness';

describe('web: password reset and resend confirmation (browser)', () => {
  const suite = browserSuite();
  let page: Page;
  const openPage = async () => (page = await suite.openPage());

  it('resets the password from the mailed link and logs in with the new one', async () => {
    await openPage();
    await page.goto('/login');
    await page.getByTestId('forgot-password-link').click();
    await page.waitForURL((url) => url.pathname === '/reset-password');
    const form = page.getByTestId('reset-request');
    await form.waitFor();

    // The e-mail is checked before anything is sent.
    await page.getByTestId('reset-request-submit').click();
    expect(await form.getByTestId('field-error').getAttribute('data-message')).toBe('validation.required');
    await page.getByTestId('reset-request-email').fill('not-an-address');
    await page.getByTestId('reset-request-submit').click();
    expect(await form.getByTestId('field-error').getAttribute('data-message')).toBe('validation.email');
    await screenshot(page, 'reset-password-request-invalid');

    await page.getByTestId('reset-request-email').fill(suite.server.admin.email);
    await page.getByTestId('reset-request-submit').click();
    const success = page.getByTestId('reset-request-success');
    await success.waitFor();
    expect(await success.textContent()).toBe(et['resetRequest.success']);
    await screenshot(page, 'reset-password-request-sent');

    // The mail's link opens the new-password form.
    const mail = await waitForMailTo(suite.server, suite.server.admin.email);
    const link = mailLinkPath(mail, '/reset-password');
    expect(link).toMatch(/^\/reset-password\?token=/);
    await page.goto(link);
    const setForm = page.getByTestId('set-password-form');
    await expect.poll(() => setForm.getAttribute('data-state')).toBe('initialised');
    // Reset mode has no electronic-ID option (that is /update-password).
    expect(await page.getByTestId('set-password-electronic-id').count()).toBe(0);
    await screenshot(page, 'reset-password-new-password');

    // The shared strong-password rule and the repeat are checked in the suite.browser.
    await page.getByTestId('set-password-new').fill('weakpassword');
    await page.getByTestId('set-password-repeat').fill('weakpassword');
    await page.getByTestId('set-password-submit').click();
    await expect.poll(() => setForm.getByTestId('field-error').first().getAttribute('data-message')).toBe('validation.passwordStrength');
    const newPassword = 'Uus-Parool-2026';
    await page.getByTestId('set-password-new').fill(newPassword);
    await page.getByTestId('set-password-repeat').fill(`${newPassword}x`);
    await page.getByTestId('set-password-submit').click();
    await expect.poll(() => setForm.getByTestId('field-error').first().getAttribute('data-message')).toBe('validation.passwordMismatch');
    await screenshot(page, 'reset-password-mismatch');

    await page.getByTestId('set-password-repeat').fill(newPassword);
    await page.getByTestId('set-password-submit').click();
    await page.waitForURL((url) => url.pathname === '/login' && url.search === '?reset=true');
    await page.getByTestId('login-reset').waitFor();
    expect(await page.getByTestId('login-reset').textContent()).toBe(et['login.resetSuccess']);
    await screenshot(page, 'login-after-reset');

    // The old password no longer works; the new one does.
    await logIn(page, suite.server.admin);
    await page.getByTestId('login-error').waitFor();
    expect(await page.getByTestId('login-error').locator('[data-error-code]').getAttribute('data-error-code')).toBe('INVALID_USERNAME_OR_PASSWORD');
    await page.getByTestId('login-password').fill(newPassword);
    await page.getByTestId('login-submit').click();
    await page.waitForURL((url) => url.pathname === '/');
    await page.getByTestId('dashboard').waitFor();

    // The link works once: opened again it shows the banner and a disabled form.
    await page.goto(link);
    await expect.poll(() => setForm.getAttribute('data-state')).toBe('error');
    await page.getByTestId('token-error').waitFor();
    expect(await page.getByTestId('set-password-new').isDisabled()).toBe(true);
    expect(await page.getByTestId('set-password-submit').isDisabled()).toBe(true);
    await screenshot(page, 'reset-password-invalid-token');
    suite.server.admin.password = newPassword;
  });

  it('shows the invalid-link banner for a missing or unknown token', async () => {
    await openPage();
    await page.goto('/update-password');
    await page.getByTestId('token-error').waitFor();
    expect(await page.getByTestId('set-password-form').getAttribute('data-state')).toBe('error');

    await page.goto('/confirm?token=no-such-token');
    await page.getByTestId('token-error').waitFor();
    expect(await page.getByTestId('set-password-new').isDisabled()).toBe(true);
    expect(await page.getByTestId('back-to-login').getAttribute('href')).toBe('/login');
  });

  it('asks for the confirmation mail again and shows the success message', async () => {
    await openPage();
    await page.goto('/login');
    await page.getByTestId('resend-confirmation-link').click();
    await page.waitForURL((url) => url.pathname === '/resend-confirmation');
    await page.getByTestId('resend-confirmation').waitFor();
    await screenshot(page, 'resend-confirmation');
    // The answer is the same for any address.
    await page.getByTestId('resend-confirmation-email').fill('nobody@example.com');
    await page.getByTestId('resend-confirmation-submit').click();
    await page.getByTestId('resend-confirmation-success').waitFor();
    expect(await page.getByTestId('resend-confirmation-success').textContent()).toBe(et['resendConfirmation.success']);
    await page.getByTestId('back-to-login').click();
    await page.waitForURL((url) => url.pathname === '/login');
    expect(currentPath(page)).toBe('/login');
  });
});
