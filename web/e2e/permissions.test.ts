import type { Permission } from '@eelarve/shared';
import { accountsFixture, PASSWORD } from '@eelarve/testing/accounts';
import type { Locator, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { en } from '../src/i18n/messages/en';
import { et } from '../src/i18n/messages/et';
import { type ApiClient, apiClient, screenshot } from './auth-flows';
import { browserSuite, call, documentWithMaster, gridRows, logIn, seriousViolations, signIn, watchErrors } from './harness';

/**
 * The permission screens (issue 10, point 4; spec 1 sections 2 and 6, spec 2 section 6): an
 * administrator opens /users/budget-permissions from a sub-budget's permissions button and grants
 * a department read on one budget and update on one sub-budget; the API shows those grants and
 * /users/permissions shows them for the occupation; the department, signed in, sees exactly that.
 * A USER_VIEW occupation sees both screens read-only, here in English.
 */

/** expect.poll with room for a loaded machine (its default gives up after one second). */
const eventually = <T>(read: () => T | Promise<T>) => expect.poll(read, { timeout: 15_000 });

const treeRow = (page: Page, grid: string, name: string): Locator => gridRows(page, grid).filter({ has: page.locator('.resource-name', { hasText: name }) });
const occupationRow = (page: Page, name: string): Locator => gridRows(page, 'budget-permissions-grid').filter({ hasText: name });

/** The read and update boxes of a row: checked, locked, inherited (dimmed). */
async function boxes(row: Locator) {
  const state = async (action: 'read' | 'update') => {
    const box = row.getByTestId(`grant-${action}`);
    return { checked: await box.isChecked(), disabled: await box.isDisabled(), inherited: (await box.getAttribute('data-inherited')) === 'true' };
  };
  return { read: await state('read'), update: await state('update') };
}

describe('web: resource permission screens (browser)', () => {
  const suite = browserSuite();
  let admin: ApiClient;
  let documentId: string;
  let schemeId: string;
  let cultureBudgetId: string;
  let educationBudgetId: string;
  let museumsId: string;
  let librariesId: string;
  const department = { name: 'Kultuuriosakonna juht', email: '', occupationId: '' };
  const viewer = { name: 'Personalispetsialist', email: '', occupationId: '' };
  const accountant = { name: 'Raamatupidaja', email: '', occupationId: '' };
  let adminOccupationId: string;

  beforeAll(async () => {
    admin = await apiClient(suite.server.app, suite.server.admin.email, suite.server.admin.password);
    const fixture = accountsFixture(suite.server.app, admin);
    const me = await call<{ organizationId: string; occupationId: string }>(admin, 'GET', '/api/auth/me');
    const { organizationId } = me;
    adminOccupationId = me.occupationId;
    const member = async (who: typeof department, userName: string, privileges: string[]) => {
      who.email = `${fixture.unique('permissions')}@example.com`;
      const roleId = await fixture.role(organizationId, privileges);
      const userId = await fixture.user(organizationId, who.email, userName);
      who.occupationId = await fixture.occupation(organizationId, userId, [roleId], who.name);
      await fixture.activate(userId);
    };
    await member(department, 'Kadri Kultuur', ['DATA_VIEW']);
    await member(viewer, 'Peeter Personal', ['USER_VIEW']);
    await member(accountant, 'Rein Raamat', ['DATA_VIEW']);

    const period = { year: 2027, month: 1, duration: 1 };
    const name = 'Linna eelarve 2027';
    const made = await documentWithMaster(admin, organizationId, { name, period });
    documentId = made.documentId;
    const activityId = made.masterClassifierId;
    await call(admin, 'POST', `/api/classifier/${activityId}/item`, { code: '01', name: 'Muuseumid' });
    await call(admin, 'POST', `/api/classifier/${activityId}/item`, { code: '02', name: 'Raamatukogud' });
    schemeId = (
      await call<{ id: string }>(admin, 'POST', `/api/document/${documentId}/schema`, {
        name: 'Kulud',
        fieldName: 'kulud',
        classifierList: [{ classifierId: activityId, type: 'MAIN' }],
      })
    ).id;
    museumsId = (await call<{ id: string }>(admin, 'POST', `/api/schema/${schemeId}/sub-budget`, { name: 'Muuseumid', classifiers: { [activityId]: '01' } }))
      .id;
    librariesId = (
      await call<{ id: string }>(admin, 'POST', `/api/schema/${schemeId}/sub-budget`, { name: 'Raamatukogud', classifiers: { [activityId]: '02' } })
    ).id;
    cultureBudgetId = (await call<{ id: string }>(admin, 'POST', `/api/document/${documentId}/budget`, { type: 'COMMON', name: 'Kultuur' })).id;
    educationBudgetId = (await call<{ id: string }>(admin, 'POST', `/api/document/${documentId}/budget`, { type: 'COMMON', name: 'Haridus' })).id;
    // The screens list budgets, schemes and sub-budgets with the caller's own access: the viewer reads the document.
    await call(admin, 'PUT', `/api/occupation/${viewer.occupationId}/permission`, { documentId, read: true, update: false });
  }, 120_000);

  const departmentGrants = () => call<Permission[]>(admin, 'GET', `/api/occupation/${department.occupationId}/permissions?documentId=${documentId}`);
  const grantOn = (rows: Permission[], budgetId: string | null, subBudgetId: string | null = null) =>
    rows.find((row) => row.budgetId === budgetId && row.subBudgetId === subBudgetId);

  it('grants a department read on one budget and update on one sub-budget from the sub-budget permissions button', async () => {
    const page = await suite.openPage();
    await signIn(page, suite.server.admin);
    await page.goto(`/document/${documentId}/budget/${cultureBudgetId}/sub-budgets/${schemeId}`);
    const museumRow = gridRows(page, 'budget-sub-budgets-grid').filter({ hasText: 'Muuseumid' });
    const button = museumRow.getByTestId('budget-sub-budget-permissions');
    await button.waitFor();
    expect(await button.getAttribute('target')).toBe('_blank');
    expect(await button.getAttribute('aria-label')).toBe(et['permissions.subBudgetButton'].replace('{name}', 'Muuseumid'));

    // A new tab at the sub-budget: chosen and scrolled to, then budgetId and subBudgetId leave the URL.
    const [tab] = await Promise.all([suite.context.waitForEvent('page'), button.click()]);
    const tabErrors = watchErrors(tab);
    await tab.getByTestId('budget-permissions-tab').waitFor();
    const opened = new URL(tab.url());
    expect(opened.pathname).toBe('/users/budget-permissions');
    expect(opened.searchParams.get('documentId')).toBe(documentId);
    expect(opened.searchParams.get('schemaId')).toBe(schemeId);
    await eventually(() => new URL(tab.url()).searchParams.has('subBudgetId')).toBe(false);
    expect(new URL(tab.url()).searchParams.has('budgetId')).toBe(false);
    expect(new URL(tab.url()).searchParams.get('documentId')).toBe(documentId);
    await eventually(() => tab.getByTestId('budget-permissions-selected').textContent()).toBe('Õigused: Muuseumid');
    const museumInTree = treeRow(tab, 'budget-permissions-tree', 'Muuseumid').first();
    expect(await museumInTree.getByTestId('resource-select').getAttribute('aria-pressed')).toBe('true');

    // Update on the sub-budget.
    const departmentRow = occupationRow(tab, department.name);
    expect(await boxes(departmentRow)).toEqual({
      read: { checked: false, disabled: false, inherited: false },
      update: { checked: false, disabled: false, inherited: false },
    });
    await departmentRow.getByTestId('grant-update').click();
    await eventually(async () => (await boxes(departmentRow)).update.checked).toBe(true);
    // Update implies read: read is shown and locked while update is on.
    expect((await boxes(departmentRow)).read).toEqual({ checked: true, disabled: true, inherited: false });

    // Read on the budget.
    await treeRow(tab, 'budget-permissions-tree', 'Kultuur').getByTestId('resource-select').click();
    await eventually(() => tab.getByTestId('budget-permissions-selected').textContent()).toBe('Õigused: Kultuur');
    // The table shows the budget's grants once it has caught up (none yet), not the sub-budget's still on screen.
    await eventually(async () => (await boxes(departmentRow)).update.checked).toBe(false);
    await departmentRow.getByTestId('grant-read').click();
    await eventually(async () => (await boxes(departmentRow)).read.checked).toBe(true);
    expect((await boxes(departmentRow)).update.checked).toBe(false);

    // On the sub-budget the budget's read is now inherited: dimmed and locked; its own update stays changeable.
    await museumInTree.getByTestId('resource-select').click();
    await eventually(async () => (await boxes(departmentRow)).read).toEqual({ checked: true, disabled: true, inherited: true });
    expect((await boxes(departmentRow)).update).toEqual({ checked: true, disabled: false, inherited: false });

    // The occupation filter keeps what the department reads: not the other budget.
    await tab.getByTestId('budget-permissions-occupation-filter').selectOption(department.occupationId);
    await eventually(() => treeRow(tab, 'budget-permissions-tree', 'Haridus').count()).toBe(0);
    expect(await treeRow(tab, 'budget-permissions-tree', 'Kultuur').count()).toBe(1);
    expect(await gridRows(tab, 'budget-permissions-grid').count()).toBe(1);
    expect(await seriousViolations(tab)).toEqual([]);
    await screenshot(tab, 'budget-permissions');
    expect(tabErrors).toEqual([]);

    // The API shows exactly those grants.
    const grants = await departmentGrants();
    expect(grantOn(grants, null)).toMatchObject({ read: false, update: false, inheritedRead: false, inheritedUpdate: false });
    expect(grantOn(grants, cultureBudgetId)).toMatchObject({ read: true, update: false, inheritedRead: false, inheritedUpdate: false });
    expect(grantOn(grants, educationBudgetId)).toMatchObject({ read: false, update: false, inheritedRead: false, inheritedUpdate: false });
    expect(grantOn(grants, cultureBudgetId, museumsId)).toMatchObject({ update: true, inheritedRead: true, inheritedUpdate: false });
    expect(grantOn(grants, cultureBudgetId, librariesId)).toBeUndefined();
  });

  it('shows the occupation’s grants on /users/permissions with the selections in the query string, and copies them', async () => {
    const page = await suite.openPage();
    await signIn(page, suite.server.admin);
    await page.goto(`/users/permissions?occupationId=${department.occupationId}&documentId=${documentId}`);
    await page.getByTestId('permissions-tab').waitFor();
    // The scheme defaults to the document's first and joins the query string.
    await eventually(() => new URL(page.url()).searchParams.get('schemaId')).toBe(schemeId);
    expect(await page.getByTestId('users-tab-permissions').getAttribute('class')).toContain('active');

    const culture = treeRow(page, 'permissions-grid', 'Kultuur');
    await eventually(async () => (await boxes(culture)).read.checked).toBe(true);
    expect((await boxes(culture)).update).toEqual({ checked: false, disabled: false, inherited: false });
    expect((await boxes(treeRow(page, 'permissions-grid', 'Haridus'))).read.checked).toBe(false);
    expect((await boxes(treeRow(page, 'permissions-grid', 'Linna eelarve 2027'))).read.checked).toBe(false);

    await culture.getByTestId('resource-toggle').click();
    const museums = treeRow(page, 'permissions-grid', 'Muuseumid');
    await museums.waitFor();
    await screenshot(page, 'permissions');
    expect(await boxes(museums)).toEqual({
      read: { checked: true, disabled: true, inherited: true },
      update: { checked: true, disabled: false, inherited: false },
    });
    expect((await boxes(treeRow(page, 'permissions-grid', 'Raamatukogud'))).read).toEqual({ checked: true, disabled: true, inherited: true });
    expect(await seriousViolations(page)).toEqual([]);

    // Copying to another occupation: its grants become exactly the department's.
    await page.getByTestId('permissions-occupation').selectOption(accountant.occupationId);
    await eventually(() => new URL(page.url()).searchParams.get('occupationId')).toBe(accountant.occupationId);
    await eventually(async () => (await boxes(treeRow(page, 'permissions-grid', 'Kultuur'))).read.checked).toBe(false);
    await page.getByTestId('permissions-copy').click();
    await page.getByTestId('permissions-copy-from').selectOption(department.occupationId);
    expect(await seriousViolations(page)).toEqual([]);
    await page.getByTestId('permissions-copy-save').click();
    await page.getByTestId('permissions-copy-modal').waitFor({ state: 'detached' });
    await page.getByTestId('permissions-copied').waitFor();
    await eventually(async () => (await boxes(treeRow(page, 'permissions-grid', 'Kultuur'))).read.checked).toBe(true);
    const copied = await call<Permission[]>(admin, 'GET', `/api/occupation/${accountant.occupationId}/permissions?documentId=${documentId}`);
    expect(grantOn(copied, cultureBudgetId)).toMatchObject({ read: true, update: false });
    expect(grantOn(copied, cultureBudgetId, museumsId)).toMatchObject({ update: true });

    // The header toggle grants update on every row shown, and then removes every grant given on them.
    const header = page.getByTestId('permissions-header-toggle');
    expect(await header.getAttribute('aria-label')).toBe(et['permissions.header.grantAll']);
    await header.click();
    await eventually(() => header.isChecked()).toBe(true);
    expect(await header.getAttribute('aria-label')).toBe(et['permissions.header.removeAll']);
    const everything = await call<Permission[]>(admin, 'GET', `/api/occupation/${accountant.occupationId}/permissions?documentId=${documentId}`);
    expect(grantOn(everything, null)).toMatchObject({ read: true, update: true });
    expect(grantOn(everything, educationBudgetId)).toMatchObject({ update: true, inheritedUpdate: true });
    await screenshot(page, 'permissions-all-update');
    await header.click();
    await eventually(() => header.isChecked()).toBe(false);
    await eventually(async () => (await boxes(treeRow(page, 'permissions-grid', 'Muuseumid'))).update.checked).toBe(false);
    const nothing = await call<Permission[]>(admin, 'GET', `/api/occupation/${accountant.occupationId}/permissions?documentId=${documentId}`);
    expect(nothing.filter((row) => row.read || row.update || row.inheritedRead || row.inheritedUpdate)).toEqual([]);
  });

  it('lets the department see exactly its budget, and update only its sub-budget', async () => {
    const page = await suite.openPage();
    await signIn(page, { email: department.email, password: PASSWORD });
    await page.goto(`/document/${documentId}/budgets`);
    const budgets = gridRows(page, 'budgets-grid');
    await eventually(() => budgets.count()).toBe(1);
    expect(await budgets.getByTestId('budget-name').textContent()).toBe('Kultuur');

    await page.goto(`/document/${documentId}/budget/${cultureBudgetId}/sub-budgets/${schemeId}`);
    await eventually(() => gridRows(page, 'budget-sub-budgets-grid').count()).toBe(2);
    // Without USER_VIEW or USER_ADMIN there is no permissions button.
    expect(await page.getByTestId('budget-sub-budget-permissions').count()).toBe(0);
    // In the page's own session: the sub-budgets seen from the budget, only the granted one updatable.
    const seen = (await (await page.request.get(`/api/budget/${cultureBudgetId}/schema/${schemeId}/sub-budgets`)).json()) as {
      name: string;
      permissions?: { read: boolean; update: boolean };
    }[];
    expect(Object.fromEntries(seen.map((row) => [row.name, row.permissions]))).toEqual({
      Muuseumid: { read: true, update: true },
      Raamatukogud: { read: true, update: false },
    });
    expect((await page.request.get(`/api/budget/${educationBudgetId}`)).status()).toBeGreaterThanOrEqual(403);
  });

  it('shows both screens read-only to USER_VIEW, in English', async () => {
    const page = await suite.openPage();
    await page.goto('/login');
    await page.getByTestId('language-en').click();
    await logIn(page, { email: viewer.email, password: PASSWORD });
    await page.getByTestId('dashboard').waitFor();

    // Without documentId and schemaId the first are taken.
    await page.goto('/users/budget-permissions');
    await page.getByTestId('budget-permissions-tab').waitFor();
    await eventually(() => new URL(page.url()).searchParams.get('documentId')).not.toBeNull();
    // The users area says once that it is read-only.
    expect(await page.getByTestId('users-read-only').textContent()).toBe(en['usersArea.readOnly']);
    expect(await page.getByTestId('users-tab-budget-permissions').textContent()).toBe(en['permissions.tab.budgetPermissions']);
    await page.getByTestId('budget-permissions-document').selectOption(documentId);
    await eventually(() => new URL(page.url()).searchParams.get('schemaId')).toBe(schemeId);
    await eventually(() => page.getByTestId('budget-permissions-selected').textContent()).toBe('Permissions: Linna eelarve 2027');
    const departmentRow = occupationRow(page, department.name);
    await departmentRow.waitFor();
    expect(await departmentRow.getByTestId('grant-read').isDisabled()).toBe(true);
    expect(await departmentRow.getByTestId('grant-update').isDisabled()).toBe(true);
    expect(await page.getByTestId('budget-permissions-header-toggle').isDisabled()).toBe(true);
    expect(await seriousViolations(page)).toEqual([]);

    await page.getByTestId('users-tab-permissions').click();
    await page.getByTestId('permissions-tab').waitFor();
    expect(await page.getByTestId('users-read-only').count()).toBe(1);
    expect(await page.getByTestId('permissions-copy').count()).toBe(0);
    const organizationRow = gridRows(page, 'permissions-grid').first();
    await organizationRow.getByTestId('grant-read').waitFor();
    expect(await organizationRow.getByTestId('grant-read').isDisabled()).toBe(true);
    expect(await page.getByTestId('permissions-header-toggle').isDisabled()).toBe(true);
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'permissions-read-only-en');

    // An ADMIN occupation holds every grant: shown checked and locked, with the reason.
    await page.getByTestId('permissions-occupation').selectOption(adminOccupationId);
    await eventually(() => page.getByTestId('permissions-admin-occupation').textContent()).toBe(en['permissions.adminOccupation']);
    expect(await boxes(gridRows(page, 'permissions-grid').first())).toEqual({
      read: { checked: true, disabled: true, inherited: true },
      update: { checked: true, disabled: true, inherited: true },
    });
  });
});
