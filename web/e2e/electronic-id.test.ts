import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { et } from '../src/i18n/messages/et';
import {
  approveAtProvider,
  asAdmin,
  becomeAdminOf,
  createOrganization,
  logOutThroughMenu,
  mailLinkPath,
  organizations,
  screenshot,
  setAuthenticationTypes,
  waitForMailTo,
} from './auth-flows';
import { browserSuite, signIn } from './harness';

/** The local provider's first demo person (preselected on its page): Mari Maasikas. */
const PERSONAL_CODE = '38001085718';

describe('web: electronic ID (browser, local provider)', () => {
  const suite = browserSuite({ server: { eid: true } });
  let page: Page;
  const openPage = async () => (page = await suite.openPage());

  beforeAll(async () => {
    // The platform organisation (the admin's) allows the ID card besides the password.
    await asAdmin(
      suite,
      async (request) => {
        const platform = (await organizations(request)).find((organization) => organization.isPlatform);
        if (!platform) throw new Error('no platform organisation');
        await setAuthenticationTypes(request, platform, ['LOGIN', 'PASS']);
      },
      { logOut: true },
    );
  });

  const eidStatus = () => page.getByTestId('account-eid-status').getAttribute('data-on');

  it('binds the ID card in the account settings, logs in with it, and unbinds it', async () => {
    await openPage();
    await signIn(page, suite.server.admin);

    // Account settings are reached from the dashboard's user box.
    await page.getByTestId('account-link').click();
    await page.waitForURL((url) => url.pathname === '/account');
    await page.getByTestId('account-page').waitFor();
    expect(await eidStatus()).toBe('false');
    await screenshot(page, 'account-settings');

    // Bind: the whole page goes to the provider and comes back with the success flag.
    await page.getByTestId('account-eid-bind').click();
    await approveAtProvider(page, suite.server.eid!.issuer);
    await page.waitForURL((url) => url.pathname === '/account' && url.searchParams.get('eidBound') === 'true');
    await page.getByTestId('account-eid-bound').waitFor();
    expect(await page.getByTestId('account-eid-bound').textContent()).toBe(et['account.electronicId.bound']);
    await expect.poll(eidStatus).toBe('true');
    await screenshot(page, 'account-eid-bound');

    // Log in with the ID card: the only occupation that allows it is entered at once.
    await logOutThroughMenu(page);
    await screenshot(page, 'login');
    await page.getByTestId('login-electronic-id').click();
    await approveAtProvider(page, suite.server.eid!.issuer);
    await page.waitForURL((url) => url.pathname === '/');
    await page.getByTestId('dashboard').waitFor();
    expect(await page.getByTestId('user-info').textContent()).toContain(et['authType.PASS']);

    // Unbind after confirmation.
    await page.getByTestId('account-link').click();
    await page.getByTestId('account-eid-unbind').click();
    const dialog = page.getByTestId('account-eid-unbind-dialog');
    await dialog.waitFor();
    await screenshot(page, 'account-eid-unbind-dialog');
    await page.getByTestId('confirm-cancel').click();
    await dialog.waitFor({ state: 'detached' });
    expect(await eidStatus()).toBe('true');
    await page.getByTestId('account-eid-unbind').click();
    await page.getByTestId('confirm-ok').click();
    await dialog.waitFor({ state: 'detached' });
    await page.getByTestId('account-eid-unbound').waitFor();
    await expect.poll(eidStatus).toBe('false');

    // Now the ID card finds nobody: a persistent message on the login page.
    await logOutThroughMenu(page);
    await page.getByTestId('login-electronic-id').click();
    await approveAtProvider(page, suite.server.eid!.issuer);
    await page.waitForURL((url) => url.pathname === '/login' && url.searchParams.get('eidError') === 'true');
    const failure = page.getByTestId('login-eid-error');
    await failure.waitFor();
    expect(await failure.textContent()).toContain(et['login.electronicIdError']);
    await screenshot(page, 'login-eid-error');
  });

  it('offers the ID card on /update-password and binds it with the mailed token', async () => {
    await openPage();
    await page.goto('/reset-password');
    await page.getByTestId('reset-request-email').fill(suite.server.admin.email);
    await page.getByTestId('reset-request-submit').click();
    await page.getByTestId('reset-request-success').waitFor();
    const mail = await waitForMailTo(suite.server, suite.server.admin.email);
    const token = new URL(mailLinkPath(mail, '/reset-password'), suite.server.url).searchParams.get('token')!;

    // /update-password is the reset screen with the electronic-ID option (the organisation allows PASS).
    await page.goto(`/update-password?token=${encodeURIComponent(token)}`);
    await expect.poll(() => page.getByTestId('set-password-form').getAttribute('data-state')).toBe('initialised');
    await page.getByTestId('set-password-electronic-id').waitFor();
    await screenshot(page, 'update-password');

    suite.server.eid!.autoApprove = PERSONAL_CODE;
    try {
      await page.getByTestId('set-password-electronic-id').click();
      await page.waitForURL((url) => url.pathname === '/login' && url.search === '?reset=true');
      await page.getByTestId('login-reset').waitFor();

      // The ID card is bound again: it logs in.
      await page.getByTestId('login-electronic-id').click();
      await page.waitForURL((url) => url.pathname === '/');
      await page.getByTestId('dashboard').waitFor();
      expect(await page.getByTestId('user-info').textContent()).toContain(et['authType.PASS']);
    } finally {
      suite.server.eid!.autoApprove = undefined;
    }
  });

  it('choosing an ID-card organisation in a password session logs out and offers the ID card on /login', async () => {
    const cardOrganization = `ID-kaardi amet ${Date.now().toString(36)}`;
    await asAdmin(suite, async (request) => becomeAdminOf(request, await createOrganization(request, cardOrganization, ['PASS'])), {
      logOut: true,
    });

    await openPage();
    await signIn(page, suite.server.admin);
    await page.goto('/select-occupation');
    const cardOccupation = page.getByTestId('occupation-option').filter({ hasText: cardOrganization });
    expect(await cardOccupation.getByTestId('occupation-note').textContent()).toBe(et['selectOccupation.needsRelogin']);
    await cardOccupation.click();

    // Logged out; /login says why and puts the ID card first.
    await page.waitForURL((url) => url.pathname === '/login' && url.searchParams.get('authenticationType') === 'PASS');
    await page.getByTestId('login-required-type').waitFor();
    expect(await page.getByTestId('login-required-type').textContent()).toBe(et['login.requiredType.PASS']);
    await screenshot(page, 'login-required-pass');
    expect(await (await suite.context.request.get('/api/auth/me')).status()).toBe(401);

    // Two organisations take the ID card: the user chooses.
    suite.server.eid!.autoApprove = PERSONAL_CODE;
    try {
      await page.getByTestId('login-electronic-id').click();
      await page.waitForURL((url) => url.pathname === '/select-occupation');
      await page.getByTestId('occupation-option').filter({ hasText: cardOrganization }).click();
      await page.waitForURL((url) => url.pathname === '/');
      await expect.poll(() => page.getByTestId('header-organization').textContent()).toBe(cardOrganization);
    } finally {
      suite.server.eid!.autoApprove = undefined;
    }
  });
});
