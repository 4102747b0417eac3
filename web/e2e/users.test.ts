import { randomBytes } from 'node:crypto';
import { ADMIN_ROUTE, type Me, type Occupation, type Role, type User } from '@eelarve/shared';
import { accountsFixture, PASSWORD } from '@eelarve/testing/accounts';
import type { Locator, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { et } from '../src/i18n/messages/et';
import { type ApiClient, apiClient, screenshot } from './auth-flows';
import { browserSuite, currentPath, gridRows, signIn } from './harness';

function rowWith(page: Page, grid: string, column: string, text: string): Locator {
  return gridRows(page, grid).filter({ has: page.locator(`[col-id="${column}"]`).getByText(text, { exact: true }) });
}

const userRow = (page: Page, email: string) => rowWith(page, 'users-grid', 'email', email);
const occupationRow = (page: Page, name: string) => rowWith(page, 'occupations-grid', 'name', name);

describe('web: users area (/users) and organisation administrators (browser)', () => {
  // A refused e-mail answers 409, which the browser logs; anything else is a failure.
  const suite = browserSuite({ allowedErrors: /status of 409 \(Conflict\)/ });
  let page: Page;
  let admin: ApiClient;
  let fixture: ReturnType<typeof accountsFixture>;
  let platformId: string;
  /** A role of the platform organisation an occupation can be given. */
  let accountantRole: { id: string; name: string };

  beforeAll(async () => {
    admin = await apiClient(suite.server.app, suite.server.admin.email, suite.server.admin.password);
    fixture = accountsFixture(suite.server.app, admin);
    const me = (await admin.request({ method: 'GET', url: '/api/auth/me' })).json() as Me;
    platformId = me.organizationId!;
    const name = `Raamatupidaja ${randomBytes(2).toString('hex')}`;
    accountantRole = { id: await fixture.role(platformId, ['DATA_VIEW', 'CLASSIFICATION_VIEW'], name), name };
  }, 180_000);

  async function openAs(credentials: { email: string; password: string }): Promise<void> {
    page = await suite.openPage();
    await signIn(page, credentials);
  }

  async function usersOf(organizationId: string): Promise<User[]> {
    return (await admin.request({ method: 'GET', url: `/api/organization/${organizationId}/users` })).json() as User[];
  }

  it('creates, edits and deletes a user and an occupation through the screens; tabs replace the history entry', async () => {
    await openAs(suite.server.admin);
    const historyLength = () => page.evaluate(() => window.history.length);

    await page.getByTestId('menu-button').click();
    await page.getByTestId('nav-users').click();
    await page.waitForURL((url) => url.pathname === '/users');
    await page.getByTestId('users-tab').waitFor();
    const adminRow = userRow(page, suite.server.admin.email);
    await adminRow.waitFor();

    // Tabs replace the history entry: back leaves the area.
    const before = await historyLength();
    await page.getByTestId('users-tab-occupations').click();
    await page.waitForURL((url) => url.pathname === '/users/occupations');
    await page.getByTestId('occupations-tab').waitFor();
    expect(await page.getByTestId('users-tab-occupations').getAttribute('class')).toContain('active');
    await page.getByTestId('users-tab-users').click();
    await page.waitForURL((url) => url.pathname === '/users');
    expect(await historyLength()).toBe(before);
    await page.goBack();
    await page.waitForURL((url) => url.pathname === '/');
    await page.goForward();
    await page.waitForURL((url) => url.pathname === '/users');
    await adminRow.waitFor();
    // Users, occupations, permissions and budget permissions (spec 1, section 2).
    expect(await page.locator('nav.tabs a').evaluateAll((tabs) => tabs.map((tab) => tab.getAttribute('href')))).toEqual([
      '/users',
      '/users/occupations',
      '/users/permissions',
      '/users/budget-permissions',
    ]);

    // The signed-in administrator: confirmed, marked as oneself, not editable, no own auth removal.
    expect(await adminRow.getByTestId('user-self').count()).toBe(1);
    expect(await adminRow.getByTestId('user-status').getAttribute('data-status')).toBe('confirmed');
    expect(await adminRow.getByTestId('user-edit').isDisabled()).toBe(true);
    expect(await adminRow.getByTestId('user-edit-tooltip').getAttribute('title')).toBe(et['users.action.adminLocked']);
    expect(await adminRow.getByTestId('user-delete').isDisabled()).toBe(true);
    expect(await adminRow.getByTestId('user-remove-auth').isDisabled()).toBe(true);
    await screenshot(page, 'eelarve-users-tab');

    // Add a user: the shared schema's messages first, then an address in use, then a new one.
    await page.getByTestId('users-add').click();
    const modal = page.getByTestId('user-modal');
    await modal.waitFor();
    await page.getByTestId('user-save').click();
    await expect.poll(() => modal.locator('[data-message="validation.required"]').count()).toBe(2);
    await page.getByTestId('user-name-input').fill('Mari Maasikas');
    await page.getByTestId('user-email-input').fill('mari@');
    await page.getByTestId('user-save').click();
    await modal.locator('[data-message="validation.email"]').waitFor();
    await page.getByTestId('user-email-input').fill(suite.server.admin.email.toUpperCase());
    await page.getByTestId('user-save').click();
    await modal.locator('[data-message="error.EMAIL_IN_USE"]').waitFor();
    expect(await page.getByTestId('user-save-error').locator('[data-error-code]').getAttribute('data-error-code')).toBe('EMAIL_IN_USE');
    await screenshot(page, 'eelarve-user-modal');

    const email = `mari.${randomBytes(3).toString('hex')}@example.ee`;
    await page.getByTestId('user-email-input').fill(email);
    await page.getByTestId('user-save').click();
    await modal.waitFor({ state: 'detached' });
    const row = userRow(page, email);
    await row.waitFor();
    expect(await row.getByTestId('user-name').textContent()).toBe('Mari Maasikas');
    // Invited, not yet confirmed; no MFA or electronic ID; never signed in.
    expect(await row.getByTestId('user-status').getAttribute('data-status')).toBe('invited');
    expect(await row.getByTestId('user-status').textContent()).toBe(et['users.status.invited']);
    expect(await row.locator('[col-id="mfa"] [data-flag]').getAttribute('data-flag')).toBe('no');
    expect(await row.locator('[col-id="lastSignIn"]').textContent()).toBe('–');

    // Search.
    await page.getByTestId('users-search').fill('maasikas');
    await expect.poll(() => gridRows(page, 'users-grid').count()).toBe(1);
    await page.getByTestId('users-search').fill('');

    // Edit the name (an administrator may also change the e-mail).
    await row.getByTestId('user-edit').click();
    await modal.waitFor();
    expect(await page.getByTestId('user-name-input').inputValue()).toBe('Mari Maasikas');
    expect(await page.getByTestId('user-email-input').isEnabled()).toBe(true);
    await page.getByTestId('user-name-input').fill('Mari Mustikas');
    await page.getByTestId('user-save').click();
    await modal.waitFor({ state: 'detached' });
    await expect.poll(() => row.getByTestId('user-name').textContent()).toBe('Mari Mustikas');
    const userId = (await usersOf(platformId)).find((user) => user.email === email)!.id;

    // Give her an occupation with a role; the admin role is not offered.
    await page.getByTestId('users-tab-occupations').click();
    await page.getByTestId('occupations-tab').waitFor();
    const adminOccupation = gridRows(page, 'occupations-grid').filter({ has: page.locator('[data-testid="occupation-type"][data-type="ADMIN"]') });
    await expect.poll(() => adminOccupation.count()).toBeGreaterThan(0);
    expect(await adminOccupation.first().getByTestId('occupation-edit').isDisabled()).toBe(true);
    expect(await adminOccupation.first().getByTestId('occupation-delete').isDisabled()).toBe(true);

    await page.getByTestId('occupations-add').click();
    const occupationModal = page.getByTestId('occupation-modal');
    await page.getByTestId('occupation-name-input').waitFor();
    await page.getByTestId('occupation-save').click();
    await expect.poll(() => occupationModal.locator('[data-message="validation.required"]').count()).toBe(2);
    await page.getByTestId('occupation-user-input').selectOption(userId);
    const occupationName = `Pearaamatupidaja ${randomBytes(2).toString('hex')}`;
    await page.getByTestId('occupation-name-input').fill(occupationName);
    await page.getByTestId('occupation-description-input').fill('Vastutab raamatupidamise eest');
    await page.getByTestId('occupation-roles-input').click();
    await page.getByTestId('occupation-roles-input-popup').waitFor();
    const roles = (await admin.request({ method: 'GET', url: `/api/organization/${platformId}/roles` })).json() as Role[];
    const adminRole = roles.find((role) => role.type === 'ADMIN')!;
    expect(await page.getByTestId(`occupation-roles-input-option-${adminRole.id}`).count()).toBe(0);
    await page.getByTestId(`occupation-roles-input-option-${accountantRole.id}`).check();
    await page.keyboard.press('Escape');
    await page.getByTestId('occupation-roles-input-popup').waitFor({ state: 'detached' });
    // Escape closed only the popup, not the modal.
    expect(await occupationModal.isVisible()).toBe(true);
    await screenshot(page, 'eelarve-occupation-modal');
    await page.getByTestId('occupation-save').click();
    await occupationModal.waitFor({ state: 'detached' });

    const occupation = occupationRow(page, occupationName);
    await occupation.waitFor();
    expect(await occupation.locator('[col-id="user"]').textContent()).toBe('Mari Mustikas');
    expect(await occupation.getByTestId('occupation-roles').locator('.chip').allTextContents()).toEqual([accountantRole.name]);
    expect(await occupation.getByTestId('occupation-type').getAttribute('data-type')).toBe('DEFAULT');
    expect(await occupation.locator('[col-id="description"]').textContent()).toBe('Vastutab raamatupidamise eest');
    await screenshot(page, 'eelarve-occupations-tab');

    // While she holds it she cannot be deleted.
    await page.getByTestId('users-tab-users').click();
    await row.waitFor();
    // The list is refetched when the tab opens again.
    await expect.poll(() => row.getByTestId('user-occupations').locator('.chip').allTextContents()).toEqual([occupationName]);
    expect(await row.getByTestId('user-delete').isDisabled()).toBe(true);
    expect(await row.getByTestId('user-delete-tooltip').getAttribute('title')).toBe(et['users.action.hasOccupation']);

    // Delete the occupation, then the user.
    await page.getByTestId('users-tab-occupations').click();
    await occupation.waitFor();
    await occupation.getByTestId('occupation-delete').click();
    const occupationDialog = page.getByTestId('occupation-delete-dialog');
    await occupationDialog.waitFor();
    expect(await occupationDialog.textContent()).toContain(occupationName);
    await page.getByTestId('confirm-ok').click();
    await occupationDialog.waitFor({ state: 'detached' });
    await expect.poll(() => occupation.count()).toBe(0);

    await page.getByTestId('users-tab-users').click();
    await row.waitFor();
    await expect.poll(() => row.getByTestId('user-delete').isEnabled()).toBe(true);
    await row.getByTestId('user-delete').click();
    const userDialog = page.getByTestId('user-delete-dialog');
    await userDialog.waitFor();
    expect(await userDialog.textContent()).toContain('Mari Mustikas');
    await page.getByTestId('confirm-ok').click();
    await userDialog.waitFor({ state: 'detached' });
    await expect.poll(() => row.count()).toBe(0);
    expect((await usersOf(platformId)).some((user) => user.email === email)).toBe(false);
  });

  it('lets a platform administrator remove the authentication methods of another user', async () => {
    const member = await fixture.member(platformId, ['DATA_VIEW']);
    expect((await usersOf(platformId)).find((user) => user.id === member.userId)?.hasPassword).toBe(true);

    await openAs(suite.server.admin);
    await page.goto('/users');
    await page.getByTestId('users-search').fill(member.email);
    const row = userRow(page, member.email);
    await row.waitFor();
    await row.getByTestId('user-remove-auth').click();
    const dialog = page.getByTestId('user-remove-auth-dialog');
    await dialog.waitFor();
    await page.getByTestId('confirm-ok').click();
    await dialog.waitFor({ state: 'detached' });
    await expect.poll(async () => (await usersOf(platformId)).find((user) => user.id === member.userId)?.hasPassword).toBe(false);
  });

  it('gives a user administrator the screens without e-mail changes, and a viewer read-only screens', async () => {
    const organizationId = await fixture.organization(`Viljandi Vallavalitsus ${randomBytes(2).toString('hex')}`);
    const userAdmin = await fixture.member(organizationId, ['USER_ADMIN', 'ROLES_VIEW']);
    const viewer = await fixture.member(organizationId, ['USER_VIEW']);
    const colleagueEmail = `kolleeg.${randomBytes(3).toString('hex')}@example.ee`;
    await fixture.user(organizationId, colleagueEmail, 'Kalle Kolleeg');

    await openAs({ email: userAdmin.email, password: PASSWORD });
    await page.goto('/users');
    const colleague = userRow(page, colleagueEmail);
    await colleague.waitFor();
    // Only the platform administrator removes authentication methods.
    expect(await page.getByTestId('user-remove-auth').count()).toBe(0);
    await colleague.getByTestId('user-edit').click();
    await page.getByTestId('user-modal').waitFor();
    expect(await page.getByTestId('user-email-input').isDisabled()).toBe(true);
    expect(await page.getByTestId('user-email-admin-only').textContent()).toBe(et['users.field.emailAdminOnly']);
    await page.getByTestId('user-name-input').fill('Kalle Kolleegium');
    await page.getByTestId('user-save').click();
    await page.getByTestId('user-modal').waitFor({ state: 'detached' });
    await expect.poll(() => colleague.getByTestId('user-name').textContent()).toBe('Kalle Kolleegium');
    await suite.context.close();

    await openAs({ email: viewer.email, password: PASSWORD });
    await page.goto('/users/occupations');
    await page.getByTestId('users-read-only').waitFor();
    await expect.poll(() => gridRows(page, 'occupations-grid').count()).toBeGreaterThanOrEqual(2);
    expect(await page.getByTestId('occupations-add').count()).toBe(0);
    expect(await page.getByTestId('occupation-edit').count()).toBe(0);
    await page.getByTestId('users-tab-users').click();
    await userRow(page, colleagueEmail).waitFor();
    expect(await page.getByTestId('users-add').count()).toBe(0);
    expect(await page.getByTestId('user-edit').count()).toBe(0);
    // Roles need a roles privilege.
    await page.goto('/settings');
    await page.getByTestId('forbidden-page').waitFor();
    expect(currentPath(page)).toBe('/settings');
  });

  it('makes the platform administrator an organisation administrator and removes it from the row menu', async () => {
    const name = `Haapsalu Linnavalitsus ${randomBytes(2).toString('hex')}`;
    const organizationId = await fixture.organization(name);
    await openAs(suite.server.admin);
    await page.goto(`${ADMIN_ROUTE}/organizations`);
    await page.getByTestId('organizations-search').fill(name);
    const row = rowWith(page, 'organizations-grid', 'name', name);
    await row.waitFor();
    expect(await page.getByTestId('occupation-switcher').count()).toBe(0);

    await row.getByTestId('organization-row-menu').click();
    expect(await page.getByTestId('organization-remove-admin').count()).toBe(0);
    await page.getByTestId('organization-set-admin').click();
    const dialog = page.getByTestId('organization-admin-dialog');
    await dialog.waitFor();
    expect(await dialog.textContent()).toContain(name);
    await page.getByTestId('confirm-ok').click();
    await dialog.waitFor({ state: 'detached' });
    // The answer replaced the current user: a second occupation, so the header offers a switch.
    await page.getByTestId('occupation-switcher').waitFor();
    await row.getByTestId('organization-admin-badge').waitFor();
    const occupations = (await admin.request({ method: 'GET', url: `/api/organization/${organizationId}/occupations` })).json() as Occupation[];
    expect(occupations.filter((occupation) => occupation.type === 'ADMIN').map((occupation) => occupation.userName)).toEqual(['Administrator']);

    await row.getByTestId('organization-row-menu').click();
    await page.getByTestId('organization-remove-admin').click();
    await dialog.waitFor();
    // Not the occupation of this session: no logout warning.
    expect(await page.getByTestId('organization-admin-own-warning').count()).toBe(0);
    await page.getByTestId('confirm-ok').click();
    await dialog.waitFor({ state: 'detached' });
    await page.getByTestId('occupation-switcher').waitFor({ state: 'detached' });
    expect(await row.getByTestId('organization-admin-badge').count()).toBe(0);

    // Removing the administrator occupation of this session warns that it ends the session.
    const me = (await admin.request({ method: 'GET', url: '/api/auth/me' })).json() as Me;
    await page.getByTestId('organizations-search').fill(me.organizationName ?? '');
    const own = gridRows(page, 'organizations-grid').filter({ has: page.getByTestId('organization-admin-badge') });
    await own.first().getByTestId('organization-row-menu').click();
    await page.getByTestId('organization-remove-admin').click();
    await page.getByTestId('organization-admin-own-warning').waitFor();
    await screenshot(page, 'eelarve-remove-admin-warning');
    await page.getByTestId('confirm-cancel').click();
    await dialog.waitFor({ state: 'detached' });
  });
});
