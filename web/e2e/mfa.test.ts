import { randomBytes } from 'node:crypto';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { et } from '../src/i18n/messages/et';
import {
  asAdmin,
  becomeAdminOf,
  createOccupation,
  createOrganization,
  createUser,
  logOutThroughMenu,
  registerThroughMail,
  screenshot,
  totpCode,
} from './auth-flows';
import { browserSuite, currentPath, logIn } from './harness';

const suffix = randomBytes(3).toString('hex');
const MFA_ORGANIZATION = `Kaitstud amet ${suffix}`;
const LOGIN_ORGANIZATION = `Avatud amet ${suffix}`;
const MFA_ONLY_ORGANIZATION = `Ainult MFA ${suffix}`;
const USER = { name: 'Kadri Kuusk', email: `kadri.${suffix}@example.com`, password: 'Turvaline-Salasona-7' };

/** A six-digit code that is valid for none of the steps the server accepts now. */
function wrongCode(secret: string): string {
  const valid = new Set([-1, 0, 1].map((steps) => totpCode(secret, steps)));
  for (let n = 0; ; n++) {
    const candidate = String(123456 + n).padStart(6, '0');
    if (!valid.has(candidate)) return candidate;
  }
}

describe('web: multi-factor authentication (browser, real TOTP codes)', () => {
  const suite = browserSuite();
  let page: Page;
  const openPage = async () => (page = await suite.openPage());

  beforeAll(async () => {
    await asAdmin(
      suite,
      async (request) => {
        // The platform administrator: the platform (password), another password organisation and one that only allows MFA.
        await becomeAdminOf(request, await createOrganization(request, MFA_ORGANIZATION, ['LOGIN_WITH_MFA']));
        await becomeAdminOf(request, await createOrganization(request, LOGIN_ORGANIZATION, ['LOGIN']));
        // An ordinary user whose only occupation is in an MFA-only organisation.
        const organizationId = await createOrganization(request, MFA_ONLY_ORGANIZATION, ['LOGIN_WITH_MFA']);
        const userId = await createUser(request, organizationId, USER);
        await createOccupation(request, organizationId, userId, 'Analüütik');
        await registerThroughMail(suite.server, request, USER.email, USER.password);
      },
      { logOut: true },
    );
  });

  const occupationOf = (organization: string) => page.getByTestId('occupation-option').filter({ hasText: organization });
  const mfaCode = () => page.getByTestId('mfa-code');

  async function readSecret(): Promise<string> {
    const secret = page.getByTestId('mfa-secret');
    await secret.waitFor();
    const value = await secret.getAttribute('data-secret');
    expect(value).toMatch(/^[A-Z2-7]+=*$/);
    return value!;
  }

  it('password login, occupation selection, MFA setup with a real code, then the dashboard; next time the code', async () => {
    await openPage();
    await page.goto('/login');
    await logIn(page, suite.server.admin);
    // Two occupations work with a password: the user chooses.
    await page.waitForURL((url) => url.pathname === '/select-occupation');
    await expect.poll(() => page.getByTestId('occupation-option').count()).toBe(3);
    expect(await occupationOf(MFA_ORGANIZATION).getByTestId('occupation-note').textContent()).toBe(et['selectOccupation.needsMfa']);
    await screenshot(page, 'select-occupation-mfa');

    // The MFA organisation: MFA is not added yet, so the setup comes first.
    await occupationOf(MFA_ORGANIZATION).click();
    await page.waitForURL((url) => url.pathname === '/setup-mfa' && url.searchParams.has('occupationId'));
    const secret = await readSecret();
    expect(await page.getByTestId('mfa-qr').getAttribute('src')).toMatch(/^data:image\/png;base64,/);
    await screenshot(page, 'setup-mfa');

    // Not six digits: refused in the suite.browser. A wrong code: the field is cleared and marked.
    await mfaCode().fill('12ab');
    expect(await mfaCode().inputValue()).toBe('12');
    await page.getByTestId('mfa-submit').click();
    expect(await page.getByTestId('field-error').getAttribute('data-message')).toBe('validation.mfaCode');
    await mfaCode().fill(wrongCode(secret));
    await page.getByTestId('mfa-submit').click();
    await page.getByTestId('mfa-code-error').waitFor();
    expect(await page.getByTestId('mfa-code-error').getAttribute('data-error-code')).toBe('INVALID_MFA_CODE');
    expect(await mfaCode().inputValue()).toBe('');
    expect(await mfaCode().getAttribute('aria-invalid')).toBe('true');
    await screenshot(page, 'setup-mfa-invalid-code');

    await mfaCode().fill(totpCode(secret));
    await page.getByTestId('mfa-submit').click();
    await page.waitForURL((url) => url.pathname === '/');
    await page.getByTestId('dashboard').waitFor();
    await expect.poll(() => page.getByTestId('header-organization').textContent()).toBe(MFA_ORGANIZATION);
    expect(await page.getByTestId('user-info').textContent()).toContain(et['authType.LOGIN_WITH_MFA']);

    // Next login: the code is asked for. Cancel returns to the occupations (there are several).
    await logOutThroughMenu(page);
    await logIn(page, suite.server.admin);
    await page.waitForURL((url) => url.pathname === '/select-occupation');
    await occupationOf(MFA_ORGANIZATION).click();
    await page.waitForURL((url) => url.pathname === '/enter-mfa-code');
    await mfaCode().waitFor();
    await screenshot(page, 'enter-mfa-code');
    await page.getByTestId('mfa-cancel').click();
    await page.waitForURL((url) => url.pathname === '/select-occupation');
    await occupationOf(MFA_ORGANIZATION).click();
    await page.waitForURL((url) => url.pathname === '/enter-mfa-code');
    await mfaCode().fill(wrongCode(secret));
    await page.getByTestId('mfa-submit').click();
    await page.getByTestId('mfa-code-error').waitFor();
    expect(await mfaCode().inputValue()).toBe('');
    // The setup used the current step; a code is accepted once, so the next step's code.
    await mfaCode().fill(totpCode(secret, 1));
    await page.getByTestId('mfa-submit').click();
    await page.waitForURL((url) => url.pathname === '/');
    await expect.poll(() => page.getByTestId('header-organization').textContent()).toBe(MFA_ORGANIZATION);
  });

  it('an MFA-only user goes straight to the setup, cancel logs out; account settings edit and disable MFA', async () => {
    await openPage();
    await page.goto('/login');
    await logIn(page, USER);
    // The only occupation wants MFA: straight to the setup (no occupation list).
    await page.waitForURL((url) => url.pathname === '/setup-mfa');
    await readSecret();
    // Cancel with a single occupation logs out.
    await page.getByTestId('mfa-cancel').click();
    await page.waitForURL((url) => url.pathname === '/login');
    await page.getByTestId('login-form').waitFor();

    await logIn(page, USER);
    await page.waitForURL((url) => url.pathname === '/setup-mfa');
    const secret = await readSecret();
    await mfaCode().fill(totpCode(secret));
    await page.getByTestId('mfa-submit').click();
    await page.waitForURL((url) => url.pathname === '/');
    await page.getByTestId('dashboard').waitFor();
    expect(await page.getByTestId('welcome').textContent()).toContain(USER.name);

    // Account settings: MFA is on; run the setup again with a new secret.
    await page.getByTestId('account-link').click();
    await page.getByTestId('account-page').waitFor();
    const status = () => page.getByTestId('account-mfa-status').getAttribute('data-on');
    expect(await status()).toBe('true');
    await page.getByTestId('account-mfa-edit').click();
    await page.getByTestId('account-mfa-modal').waitFor();
    const newSecret = await readSecret();
    expect(newSecret).not.toBe(secret);
    await screenshot(page, 'account-mfa-edit');
    await mfaCode().fill(totpCode(newSecret, 1));
    await page.getByTestId('mfa-submit').click();
    await page.getByTestId('account-mfa-modal').waitFor({ state: 'detached' });
    await page.getByTestId('account-mfa-done').waitFor();
    expect(await page.getByTestId('account-mfa-done').textContent()).toBe(et['account.mfa.added']);

    // Disable after confirmation.
    await page.getByTestId('account-mfa-disable').click();
    await page.getByTestId('account-mfa-disable-dialog').waitFor();
    await page.getByTestId('confirm-ok').click();
    await page.getByTestId('account-mfa-disable-dialog').waitFor({ state: 'detached' });
    await expect.poll(status).toBe('false');
    await page.getByTestId('account-mfa-add').waitFor();
    expect(currentPath(page)).toBe('/account');
  });
});
