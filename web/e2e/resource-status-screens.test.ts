import { DEFAULT_RESOURCE_STATUSES, type ResourceStatus } from '@eelarve/shared';
import { accountsFixture, PASSWORD } from '@eelarve/testing/accounts';
import type { Locator, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { en } from '../src/i18n/messages/en';
import { et } from '../src/i18n/messages/et';
import { type ApiClient, apiClient, screenshot } from './auth-flows';
import { browserSuite, call, documentWithMaster, enableStatuses, gridRows, logIn, seriousViolations, signIn } from './harness';

/**
 * Where resource statuses show outside their own screen (issue 10, point 5; spec 2, section 2;
 * spec 1, sections 4 and 6): the budget list's status column with its select filter, the status
 * icon in the document sider, both absent while the organisation does not use statuses; and the
 * roles screen warning that deleting a role takes it out of the statuses that name it.
 *
 * The tests run in order: the first sees the organisation without statuses, the second enables them.
 */

const inPreparation = DEFAULT_RESOURCE_STATUSES[0]!;
const approved = DEFAULT_RESOURCE_STATUSES[2]!;
/** READ_DISABLED among its rules. */
const hidden = DEFAULT_RESOURCE_STATUSES[3]!;

/** The shown budget names of the list, in order. */
const budgetNames = (page: Page) => page.locator('[data-testid="budgets-grid"] [data-testid="budget-name"]').allTextContents();

function budgetRow(page: Page, name: string): Locator {
  return gridRows(page, 'budgets-grid').filter({ has: page.getByTestId('budget-name').getByText(name, { exact: true }) });
}

/** Ticks or unticks a status in the list's status filter. */
async function toggleStatusFilter(page: Page, statusId: string): Promise<void> {
  await page.getByTestId('budgets-status-filter').click();
  const popup = page.getByTestId('budgets-status-filter-popup');
  await popup.waitFor();
  await page.getByTestId(`budgets-status-filter-option-${statusId}`).click();
  await page.keyboard.press('Escape');
  await popup.waitFor({ state: 'detached' });
}

describe('web: resource statuses in the budget list, the document sider and role deletion (browser)', () => {
  const suite = browserSuite();
  let admin: ApiClient;
  let fixture: ReturnType<typeof accountsFixture>;
  let organizationId: string;
  let documentId: string;
  const period = { year: 2027, month: 1, duration: 1 };
  let masterClassifierId: string;
  const budgets: Record<'culture' | 'sport' | 'schools', string> = { culture: '', sport: '', schools: '' };
  /** A role of the organisation no occupation holds, named as an exception by the organisation's own status. */
  let exemptRoleId: string;
  let exemptRoleName: string;
  /** A role no status names. */
  let plainRoleName: string;

  beforeAll(async () => {
    admin = await apiClient(suite.server.app, suite.server.admin.email, suite.server.admin.password);
    fixture = accountsFixture(suite.server.app, admin);
    organizationId = (await call<{ organizationId: string }>(admin, 'GET', '/api/auth/me')).organizationId;
    exemptRoleName = fixture.unique('Arhivaar');
    exemptRoleId = await fixture.role(organizationId, ['DATA_VIEW'], exemptRoleName);
    plainRoleName = fixture.unique('Vaatleja');
    await fixture.role(organizationId, ['DATA_VIEW'], plainRoleName);
    // A document with a master classifier and three budgets, made while the organisation has no statuses.
    ({ documentId, masterClassifierId } = await documentWithMaster(admin, organizationId, { name: 'Staatustega 2027', period }));
    for (const [key, name] of [
      ['culture', 'Kultuuriosakond'],
      ['sport', 'Spordiosakond'],
      ['schools', 'Haridusosakond'],
    ] as const) {
      budgets[key] = (await call<{ id: string }>(admin, 'POST', `/api/document/${documentId}/budget`, { type: 'COMMON', name })).id;
    }
  }, 120_000);

  /** The document's budget list, signed in (the administrator by default) in the language chosen on the login page. */
  async function openBudgets(language: 'et' | 'en' = 'et', credentials = suite.server.admin): Promise<Page> {
    const page = await suite.openPage();
    await page.goto('/login');
    await page.getByTestId(`language-${language}`).click();
    await logIn(page, credentials);
    await page.waitForURL((url) => url.pathname === '/');
    await page.goto(`/document/${documentId}/budgets`);
    await expect.poll(() => budgetNames(page)).toHaveLength(3);
    return page;
  }

  it('shows no status column, status filter or sider status icon while the organisation does not use statuses', async () => {
    const page = await openBudgets();
    expect(await page.locator('[data-testid="budgets-grid"] .ag-header-cell[col-id="status"]').count()).toBe(0);
    expect(await page.getByTestId('budgets-status-filter').count()).toBe(0);
    expect(await page.getByTestId('budget-status').count()).toBe(0);
    await page.locator(`[data-testid="document-item"][data-document-id="${documentId}"]`).waitFor();
    expect(await page.getByTestId('document-resource-status-icon').count()).toBe(0);
  });

  it("shows each budget's status with its icon, filters the list by status, and the document's status icon in the sider", async () => {
    await enableStatuses(admin, organizationId);
    const archived = await call<{ id: string }>(admin, 'POST', '/api/resource-statuses', {
      name: { et: 'Arhiveeritud', en: 'Archived' },
      description: { et: 'Ainult lugemiseks', en: 'Read only' },
      icon: 'archive',
      rules: [{ type: 'RESOURCE_WRITE_DISABLED', overridePrivileges: [], overrideRoles: [exemptRoleId] }],
    });
    const statusOf = { culture: inPreparation.id, sport: approved.id, schools: archived.id };
    const names = { culture: 'Kultuuriosakond', sport: 'Spordiosakond', schools: 'Haridusosakond' };
    for (const key of ['culture', 'sport', 'schools'] as const) {
      await call(admin, 'PUT', `/api/budget/${budgets[key]}`, { name: names[key], resourceStatusId: statusOf[key] });
    }

    // The document's status last: an approved document's budgets may no longer be changed.
    await call(admin, 'PUT', `/api/document/${documentId}`, {
      name: 'Staatustega 2027',
      period,
      recordAmountKey: 'summa',
      masterClassifierId,
      resourceStatusId: approved.id,
    });
    const page = await openBudgets();
    // The column: the status's glyph (hidden from screen readers) and its name in the UI language.
    const header = page.locator('[data-testid="budgets-grid"] .ag-header-cell[col-id="status"]');
    await header.waitFor();
    expect((await header.textContent())?.trim()).toBe(et['budgets.column.status']);
    const statusCell = (name: string) => budgetRow(page, name).getByTestId('budget-status');
    await expect.poll(() => statusCell('Kultuuriosakond').getByTestId('budget-status-name').textContent()).toBe(inPreparation.name.et);
    expect(await statusCell('Spordiosakond').getByTestId('budget-status-name').textContent()).toBe(approved.name.et);
    expect(await statusCell('Haridusosakond').getByTestId('budget-status-name').textContent()).toBe('Arhiveeritud');
    expect(await statusCell('Haridusosakond').locator('[aria-hidden="true"]').textContent()).toBe('▤');

    // The select filter lists every status of the organisation and keeps the budgets with any chosen one.
    await page.getByTestId('budgets-status-filter').click();
    await page.getByTestId('budgets-status-filter-popup').waitFor();
    const offered = await page.getByTestId('budgets-status-filter-option').evaluateAll((labels) => labels.map((label) => label.getAttribute('data-value')));
    expect(offered).toEqual(expect.arrayContaining([...DEFAULT_RESOURCE_STATUSES.map((status) => status.id), archived.id]));
    await page.getByTestId('budgets-status-filter').click();
    await page.getByTestId('budgets-status-filter-popup').waitFor({ state: 'detached' });
    await toggleStatusFilter(page, approved.id);
    await expect.poll(() => budgetNames(page)).toEqual(['Spordiosakond']);
    await toggleStatusFilter(page, archived.id);
    await expect.poll(async () => (await budgetNames(page)).sort()).toEqual(['Haridusosakond', 'Spordiosakond']);
    await toggleStatusFilter(page, DEFAULT_RESOURCE_STATUSES[3]!.id);
    await expect.poll(async () => (await budgetNames(page)).length).toBe(2);
    await page.getByTestId('budgets-status-filter').click();
    await page.getByTestId('budgets-status-filter-clear').click();
    await page.getByTestId('budgets-status-filter').click();
    await page.getByTestId('budgets-status-filter-popup').waitFor({ state: 'detached' });
    await expect.poll(async () => (await budgetNames(page)).length).toBe(3);

    // The sider: the document's status icon beside its name, named for screen readers and in the tooltip.
    const icon = page.locator(`[data-testid="document-item"][data-document-id="${documentId}"] [data-testid="document-resource-status-icon"]`);
    await icon.waitFor();
    const label = et['documents.sider.resourceStatus'].replace('{name}', approved.name.et);
    expect(await icon.getAttribute('aria-label')).toBe(label);
    expect(await icon.getAttribute('title')).toBe(label);
    expect(await icon.getAttribute('role')).toBe('img');
    expect(await icon.textContent()).toBe('✓');
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'eelarve-budget-list-statuses');

    // In English: the header, the names and the sider's label follow the UI language.
    const english = await openBudgets('en');
    const englishHeader = english.locator('[data-testid="budgets-grid"] .ag-header-cell[col-id="status"]');
    await englishHeader.waitFor();
    expect((await englishHeader.textContent())?.trim()).toBe(en['budgets.column.status']);
    const englishStatus = (name: string) => budgetRow(english, name).getByTestId('budget-status-name').textContent();
    await expect.poll(() => englishStatus('Kultuuriosakond')).toBe(inPreparation.name.en);
    expect(await englishStatus('Haridusosakond')).toBe('Archived');
    const englishIcon = english.locator(`[data-testid="document-item"][data-document-id="${documentId}"] [data-testid="document-resource-status-icon"]`);
    expect(await englishIcon.getAttribute('aria-label')).toBe(en['documents.sider.resourceStatus'].replace('{name}', approved.name.en));
  });

  it('warns that deleting a role removes it from the statuses that name it, and after the delete the status has lost it', async () => {
    const archived = (await call<ResourceStatus[]>(admin, 'GET', '/api/resource-statuses')).find((status) => status.name.et === 'Arhiveeritud');
    expect(archived?.rules[0]?.overrideRoles).toEqual([exemptRoleId]);
    const page = await suite.openPage();
    await signIn(page, suite.server.admin);
    await page.goto('/settings');
    const row = gridRows(page, 'roles-grid').filter({ has: page.getByTestId('role-name').getByText(exemptRoleName, { exact: true }) });
    await row.waitFor();
    await row.getByTestId('role-delete').click();
    const dialog = page.getByTestId('role-delete-dialog');
    await dialog.waitFor();
    const warning = dialog.getByTestId('role-delete-statuses-warning');
    await warning.waitFor();
    expect(await warning.textContent()).toBe(et['roles.delete.statusesWarning'].replace('{statuses}', 'Arhiveeritud'));
    expect(await seriousViolations(page)).toEqual([]);
    await page.getByTestId('confirm-ok').click();
    await dialog.waitFor({ state: 'detached' });
    await expect.poll(() => row.count()).toBe(0);
    const after = (await call<ResourceStatus[]>(admin, 'GET', '/api/resource-statuses')).find((status) => status.id === archived?.id);
    expect(after?.rules).toEqual([{ type: 'RESOURCE_WRITE_DISABLED', overridePrivileges: [], overrideRoles: [] }]);

    // A role no status names: the plain question, no warning.
    await gridRows(page, 'roles-grid')
      .filter({ has: page.getByTestId('role-name').getByText(plainRoleName, { exact: true }) })
      .getByTestId('role-delete')
      .click();
    await dialog.waitFor();
    expect(await dialog.textContent()).toContain(plainRoleName);
    expect(await dialog.getByTestId('role-delete-statuses-warning').count()).toBe(0);
    await page.getByTestId('confirm-cancel').click();
    await dialog.waitFor({ state: 'detached' });
  });

  it("shows a READ_DISABLED budget's name as plain text, and greys out what the statuses lock, with the reason", async () => {
    // The document back in preparation (nothing locked above the budgets); one budget hidden.
    await call(admin, 'PUT', `/api/document/${documentId}`, {
      name: 'Staatustega 2027',
      period,
      recordAmountKey: 'summa',
      masterClassifierId,
      resourceStatusId: inPreparation.id,
    });
    await call(admin, 'PUT', `/api/budget/${budgets.schools}`, { name: 'Haridusosakond', resourceStatusId: hidden.id });
    // A department that may update the whole document.
    const department = await fixture.member(organizationId, ['DATA_VIEW']);
    await fixture.grant(department.occupationId, [{ documentId, read: true, update: true }]);

    const page = await openBudgets('et', { email: department.email, password: PASSWORD });
    const nameOf = (name: string) => budgetRow(page, name).getByTestId('budget-name');
    await expect.poll(() => nameOf('Haridusosakond').evaluate((element) => element.tagName)).toBe('SPAN');
    expect(await nameOf('Kultuuriosakond').evaluate((element) => element.tagName)).toBe('A');
    expect(await nameOf('Spordiosakond').evaluate((element) => element.tagName)).toBe('A');
    const locked = et['error.ACTION_DISALLOWED_DUE_TO_STATUS'];
    // Hidden: not deleted; approved: data and settings locked (no tag input, no delete), the form still open for its status.
    const deleteOf = (name: string) => budgetRow(page, name).getByTestId('budget-delete');
    expect(await deleteOf('Haridusosakond').isDisabled()).toBe(true);
    expect(await deleteOf('Spordiosakond').isDisabled()).toBe(true);
    expect(await budgetRow(page, 'Spordiosakond').getByTestId('budget-delete-tooltip').getAttribute('title')).toBe(locked);
    expect(await budgetRow(page, 'Spordiosakond').getByTestId('budget-edit').isEnabled()).toBe(true);
    expect(await budgetRow(page, 'Spordiosakond').getByTestId('budget-tag-input').count()).toBe(0);
    // In preparation: everything the grant allows.
    expect(await deleteOf('Kultuuriosakond').isEnabled()).toBe(true);
    expect(await budgetRow(page, 'Kultuuriosakond').getByTestId('budget-tag-input').count()).toBe(1);
    expect(await seriousViolations(page)).toEqual([]);

    // A platform administrator still opens the hidden budget.
    const adminPage = await openBudgets();
    await expect
      .poll(() =>
        budgetRow(adminPage, 'Haridusosakond')
          .getByTestId('budget-name')
          .evaluate((element) => element.tagName),
      )
      .toBe('A');
  });
});
