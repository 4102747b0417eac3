import { randomBytes } from 'node:crypto';
import { accountsFixture, PASSWORD } from '@eelarve/testing/accounts';
import type { Locator, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { HIGHLIGHT_MS } from '../src/grid/inline-edit';
import { et } from '../src/i18n/messages/et';
import { type ApiClient, apiClient, screenshot } from './auth-flows';
import { browserSuite, currentPath, gridRows as rowsOf, signIn } from './harness';

type RoleResponse = { id: string; name: string; description: string; type: string; privileges: Array<{ id: string }> };

function gridRows(page: Page): Locator {
  return rowsOf(page, 'roles-grid');
}

/** The row whose name cell shows exactly `name` (the admin badge is in its own element). */
function roleRow(page: Page, name: string): Locator {
  return gridRows(page).filter({ has: page.getByTestId('role-name').getByText(name, { exact: true }) });
}

/** The row being edited (its editors are open). */
function editedRow(page: Page): Locator {
  return gridRows(page).filter({ has: page.getByTestId('role-name-input') });
}

async function classesOf(row: Locator): Promise<string[]> {
  return ((await row.getAttribute('class')) ?? '').split(/\s+/);
}

async function choosePrivileges(page: Page, privileges: string[]): Promise<void> {
  await page.getByTestId('role-privileges-input').click();
  const popup = page.getByTestId('role-privileges-input-popup');
  await popup.waitFor();
  for (const privilege of privileges) await page.getByTestId(`role-privileges-input-option-${privilege}`).check();
  await page.keyboard.press('Escape');
  await popup.waitFor({ state: 'detached' });
}

describe('web: roles page (/settings) with inline editing (browser)', () => {
  // The refused duplicate name answers 409 and the provoked list failure 503, which the browser logs; anything else is a failure.
  const suite = browserSuite({ allowedErrors: /status of (409 \(Conflict\)|503 \(Service Unavailable\))/ });
  let page: Page;
  let admin: ApiClient;
  let fixture: ReturnType<typeof accountsFixture>;
  let organizationId: string;
  /** A member of the organisation with ROLES_ADMIN (the organisation's role administrator). */
  let editor: { email: string; roleId: string };
  /** A member with ROLES_VIEW only. */
  let viewer: { email: string };

  beforeAll(async () => {
    admin = await apiClient(suite.server.app, suite.server.admin.email, suite.server.admin.password);
    fixture = accountsFixture(suite.server.app, admin);
    organizationId = await fixture.organization(`Tartu Linnavalitsus ${randomBytes(2).toString('hex')}`);
    // The organisation's ADMIN role appears when a platform administrator is made its administrator.
    expect((await admin.request({ method: 'POST', url: `/api/admin/${organizationId}` })).statusCode).toBe(200);
    expect((await admin.request({ method: 'DELETE', url: `/api/admin/${organizationId}` })).statusCode).toBe(200);
    editor = await fixture.member(organizationId, ['ROLES_ADMIN', 'ROLES_VIEW']);
    viewer = await fixture.member(organizationId, ['ROLES_VIEW']);
  }, 180_000);

  async function openAs(email: string): Promise<void> {
    page = await suite.openPage();
    await signIn(page, { email, password: PASSWORD });
  }

  async function serverRoles(): Promise<RoleResponse[]> {
    const response = await admin.request({ method: 'GET', url: `/api/organization/${organizationId}/roles` });
    expect(response.statusCode).toBe(200);
    return response.json() as RoleResponse[];
  }

  it('adds, highlights, renames, duplicates and deletes roles inline; the admin role is locked', async () => {
    await openAs(editor.email);
    await page.getByTestId('menu-button').click();
    await page.getByTestId('nav-roles').click();
    await page.waitForURL((url) => url.pathname === '/settings');
    await page.getByTestId('roles-page').waitFor();
    await expect.poll(() => gridRows(page).count()).toBeGreaterThanOrEqual(2);
    await screenshot(page, 'eelarve-roles-page');

    // The administrator role: marked, all privileges in one chip, no edit or delete.
    const adminRow = gridRows(page).filter({ has: page.getByTestId('role-admin-badge') });
    expect(await adminRow.count()).toBe(1);
    expect(await adminRow.getByTestId('role-locked').count()).toBe(1);
    expect(await adminRow.getByTestId('role-edit').count()).toBe(0);
    expect(await adminRow.getByTestId('role-delete').count()).toBe(0);
    expect(await adminRow.getByTestId('role-locked').getAttribute('title')).toBe(et['roles.adminLocked']);

    // Add: a new row on top, highlighted and in the "new" state; nothing changed yet, so no save.
    await page.getByTestId('roles-add').click();
    await page.getByTestId('role-name-input').waitFor();
    const newRow = editedRow(page);
    expect(await classesOf(newRow)).toEqual(expect.arrayContaining(['row-state-new', 'row-highlighted']));
    expect(await page.getByTestId('role-save').isDisabled()).toBe(true);
    // Only one row at a time: the add button and the other rows' actions wait.
    expect(await page.getByTestId('roles-add').isDisabled()).toBe(true);
    expect(await gridRows(page).getByTestId('role-edit').first().isDisabled()).toBe(true);
    expect(await page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe('role-name-input');

    // A name is required (the shared schema's rule, checked before anything is sent).
    await page.getByTestId('role-description-input').fill('Eelarve koostamine');
    expect(await page.getByTestId('role-save').isEnabled()).toBe(true);
    await page.getByTestId('role-save').click();
    const invalid = page.getByTestId('role-validation-error');
    await invalid.waitFor();
    expect(await invalid.locator('[data-message]').getAttribute('data-message')).toBe('validation.required');

    const name = `Eelarvestaja ${randomBytes(2).toString('hex')}`;
    await page.getByTestId('role-name-input').fill(name);
    await invalid.waitFor({ state: 'detached' });
    await choosePrivileges(page, ['USER_VIEW', 'ROLES_VIEW']);
    expect(await page.getByTestId('role-privileges-input').getAttribute('data-count')).toBe('2');
    await page.getByTestId('role-save').click();
    await page.getByTestId('role-save').waitFor({ state: 'detached' });

    // Saved: shown with translated chips and highlighted; the server has the privileges.
    const saved = roleRow(page, name);
    await saved.waitFor();
    expect(await classesOf(saved)).toContain('row-highlighted');
    expect(await saved.getByTestId('role-privileges').locator('.chip').allTextContents()).toEqual([et['privilege.USER_VIEW'], et['privilege.ROLES_VIEW']]);
    const created = (await serverRoles()).find((role) => role.name === name);
    expect(created?.description).toBe('Eelarve koostamine');
    expect(created?.privileges.map((privilege) => privilege.id).sort()).toEqual(['ROLES_VIEW', 'USER_VIEW']);

    // Edit inline: save is enabled only while the row differs from what was saved.
    await saved.getByTestId('role-edit').click();
    await page.getByTestId('role-name-input').waitFor();
    expect(await classesOf(editedRow(page))).toContain('row-state-editing');
    expect(await page.getByTestId('role-save').isDisabled()).toBe(true);
    await page.getByTestId('role-name-input').fill(`${name} (muudetud)`);
    expect(await page.getByTestId('role-save').isEnabled()).toBe(true);
    await page.getByTestId('role-name-input').fill(name);
    expect(await page.getByTestId('role-save').isDisabled()).toBe(true);
    // A click on another row does not end the edit.
    await page.getByTestId('role-name-input').fill(`${name} (muudetud)`);
    await adminRow.locator('[col-id="description"]').click();
    expect(await page.getByTestId('role-name-input').inputValue()).toBe(`${name} (muudetud)`);
    // Cancel restores the row; so does Escape.
    await page.getByTestId('role-cancel').click();
    await page.getByTestId('role-name-input').waitFor({ state: 'detached' });
    await roleRow(page, name).waitFor();
    await roleRow(page, name).getByTestId('role-edit').click();
    await page.getByTestId('role-description-input').fill('Midagi muud');
    await page.getByTestId('role-description-input').press('Escape');
    await page.getByTestId('role-name-input').waitFor({ state: 'detached' });
    expect(await roleRow(page, name).locator('[col-id="description"]').textContent()).toBe('Eelarve koostamine');

    const renamed = `${name} uus`;
    await roleRow(page, name).getByTestId('role-edit').click();
    await page.getByTestId('role-name-input').fill(renamed);
    await page.getByTestId('role-name-input').press('Enter');
    await page.getByTestId('role-name-input').waitFor({ state: 'detached' });
    await roleRow(page, renamed).waitFor();
    await expect.poll(async () => (await serverRoles()).some((role) => role.name === renamed)).toBe(true);

    // Duplicate: a new unsaved row with the copied values; the copied name is taken.
    await roleRow(page, renamed).getByTestId('role-duplicate').click();
    await page.getByTestId('role-name-input').waitFor();
    const copy = editedRow(page);
    expect(await classesOf(copy)).toEqual(expect.arrayContaining(['row-state-duplicating', 'row-highlighted']));
    expect(await page.getByTestId('role-name-input').inputValue()).toBe(renamed);
    expect(await page.getByTestId('role-description-input').inputValue()).toBe('Eelarve koostamine');
    expect(await page.getByTestId('role-privileges-input').getAttribute('data-count')).toBe('2');
    expect(await page.getByTestId('role-save').isDisabled()).toBe(true);
    await page.getByTestId('role-description-input').fill('Koopia');
    await page.getByTestId('role-save').click();
    const toast = page.getByTestId('toast');
    await toast.waitFor();
    expect(await toast.getAttribute('data-error-code')).toBe('ROLE_NAME_NOT_UNIQUE');
    expect(await toast.textContent()).toContain(et['error.ROLE_NAME_NOT_UNIQUE']);
    expect(await page.getByTestId('role-name-input').getAttribute('aria-invalid')).toBe('true');
    // The row stays in edit mode with what was typed.
    expect(await page.getByTestId('role-description-input').inputValue()).toBe('Koopia');

    const copyName = `${renamed} koopia`;
    await page.getByTestId('role-name-input').fill(copyName);
    await page.getByTestId('role-save').click();
    await page.getByTestId('role-save').waitFor({ state: 'detached' });
    const copied = roleRow(page, copyName);
    await copied.waitFor();
    expect(await classesOf(copied)).toContain('row-highlighted');
    expect(await copied.getByTestId('role-privileges').locator('.chip').count()).toBe(2);
    await screenshot(page, 'eelarve-roles-highlighted');

    // Delete after confirmation.
    await copied.getByTestId('role-delete').click();
    const dialog = page.getByTestId('role-delete-dialog');
    await dialog.waitFor();
    expect(await dialog.textContent()).toContain(copyName);
    await page.getByTestId('confirm-ok').click();
    await dialog.waitFor({ state: 'detached' });
    await expect.poll(() => copied.count()).toBe(0);
    expect((await serverRoles()).some((role) => role.name === copyName)).toBe(false);

    // The highlight ends after 6000 ms.
    await expect.poll(async () => classesOf(roleRow(page, renamed)), { timeout: HIGHLIGHT_MS + 4000 }).not.toContain('row-highlighted');
  });

  it('does not delete a role an occupation uses', async () => {
    await openAs(editor.email);
    await page.goto('/settings');
    // The editor's own role is held by their occupation.
    const roles = await serverRoles();
    const used = roles.find((role) => role.id === editor.roleId)!;
    const row = roleRow(page, used.name);
    await row.waitFor();
    expect(await row.getByTestId('role-delete').isDisabled()).toBe(true);
    expect(await row.getByTestId('role-delete-tooltip').getAttribute('title')).toBe(et['roles.inUse']);
  });

  it('shows the roles read-only with ROLES_VIEW', async () => {
    await openAs(viewer.email);
    await page.goto('/settings');
    await page.getByTestId('roles-read-only').waitFor();
    await expect.poll(() => gridRows(page).count()).toBeGreaterThanOrEqual(2);
    expect(await page.getByTestId('roles-add').count()).toBe(0);
    expect(await page.getByTestId('role-edit').count()).toBe(0);
    // Without ROLES_* the page is forbidden.
    expect(currentPath(page)).toBe('/settings');
    await page.goto('/users');
    await page.getByTestId('forbidden-page').waitFor();
  });

  it('shows a failed list once, with a retry and no empty grid beside it; the retry loads it', async () => {
    await openAs(viewer.email);
    const roleList = `**/api/organization/${organizationId}/roles`;
    await page.route(roleList, (route) =>
      route.fulfill({ status: 503, contentType: 'application/json', body: JSON.stringify({ code: 'SERVICE_UNAVAILABLE', message: 'down' }) }),
    );
    await page.goto('/settings');
    const listError = page.getByTestId('roles-page').getByTestId('list-error');
    await listError.waitFor();
    expect(await listError.getByRole('alert').textContent()).toContain(et['roles.loadFailed']);
    expect(await page.getByTestId('roles-grid').count()).toBe(0);
    expect(await page.getByText(et['grid.noRows']).count()).toBe(0);
    await page.unroute(roleList);
    await listError.getByTestId('list-retry').click();
    await expect.poll(() => gridRows(page).count()).toBeGreaterThanOrEqual(2);
    expect(await page.getByTestId('list-error').count()).toBe(0);
  });
});
