import { randomBytes } from 'node:crypto';
import { DEFAULT_RESOURCE_STATUSES, type ResourceStatus } from '@eelarve/shared';
import { accountsFixture, PASSWORD } from '@eelarve/testing/accounts';
import type { Locator, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { et } from '../src/i18n/messages/et';
import { type ApiClient, apiClient } from './auth-flows';
import { browserSuite, gridRows, seriousViolations, signIn } from './harness';

/**
 * The /resource-statuses screen (issue 10, point 5; spec 1, sections 2-6 and 8): an organisation
 * that uses statuses and allows editing them; its status administrator adds, edits, resets and
 * deletes; a viewer sees the list with every edit button disabled and the reason.
 */

const submitted = DEFAULT_RESOURCE_STATUSES[1]!;

function statusRow(page: Page, name: string): Locator {
  return gridRows(page, 'statuses-grid').filter({ has: page.getByTestId('status-name').getByText(name) });
}

describe('web: resource statuses screen (browser)', () => {
  const suite = browserSuite();
  let admin: ApiClient;
  let statusAdmin: { email: string; roleId: string };
  let viewer: { email: string };
  let statusAdminApi: ApiClient;
  /** STATUS_ADMIN in an organisation that uses statuses but does not allow editing them. */
  let lockedAdmin: { email: string };

  beforeAll(async () => {
    admin = await apiClient(suite.server.app, suite.server.admin.email, suite.server.admin.password);
    const fixture = accountsFixture(suite.server.app, admin);
    const organizationId = await fixture.organizationUsingStatuses(`Statuses ${randomBytes(3).toString('hex')}`, { allowEditing: true });
    statusAdmin = await fixture.member(organizationId, ['STATUS_ADMIN', 'STATUS_VIEW', 'ROLES_VIEW']);
    viewer = await fixture.member(organizationId, ['STATUS_VIEW']);
    statusAdminApi = await apiClient(suite.server.app, statusAdmin.email, PASSWORD);
    // Using statuses but not allowing its administrators to edit them.
    const lockedId = await fixture.organizationUsingStatuses(`Locked statuses ${randomBytes(3).toString('hex')}`);
    lockedAdmin = await fixture.member(lockedId, ['STATUS_ADMIN']);
  }, 180_000);

  async function serverStatuses(): Promise<ResourceStatus[]> {
    const response = await statusAdminApi.request({ method: 'GET', url: '/api/resource-statuses' });
    expect(response.statusCode).toBe(200);
    return response.json() as ResourceStatus[];
  }

  async function openStatuses(email: string): Promise<Page> {
    const page = await suite.openPage();
    await signIn(page, { email, password: PASSWORD });
    await page.goto('/resource-statuses');
    await page.getByTestId('statuses-page').waitFor();
    await expect.poll(() => gridRows(page, 'statuses-grid').count()).toBeGreaterThanOrEqual(DEFAULT_RESOURCE_STATUSES.length);
    return page;
  }

  it('adds, edits, resets and deletes statuses; default statuses keep their rules', async () => {
    const page = await openStatuses(statusAdmin.email);
    expect(await page.getByTestId('statuses-view-only').count()).toBe(0);
    expect(await seriousViolations(page)).toEqual([]);
    // The defaults are marked read-only: they cannot be deleted, and reset is disabled while they equal their default.
    const submittedRow = statusRow(page, submitted.name.et);
    expect(await submittedRow.getByTestId('status-read-only').count()).toBe(1);
    expect(await submittedRow.getByTestId('status-delete').isDisabled()).toBe(true);
    expect(await submittedRow.getByTestId('status-reset').isDisabled()).toBe(true);
    expect(await submittedRow.textContent()).toContain(et['statuses.rule.RESOURCE_WRITE_DISABLED']);

    // Add: the organisation's language (Estonian) is required.
    await page.getByTestId('statuses-add').click();
    const modal = page.getByTestId('status-modal');
    await modal.waitFor();
    await page.getByTestId('status-form-save').click();
    await expect.poll(() => modal.getByTestId('field-error').count()).toBe(3);
    await page.getByTestId('status-name-et').fill('Ülevaatusel');
    await page.getByTestId('status-description-et').fill('Osakond vaatab üle');
    await page.getByTestId('status-icon').selectOption('flag');
    // A rule exempting holders of a privilege; roles are then not sent.
    await page.getByTestId('status-rule-READ_DISABLED-on').check();
    await page.getByTestId('status-rule-READ_DISABLED-override').selectOption('privileges');
    await page.getByTestId('status-rule-READ_DISABLED-privileges').click();
    await page.getByTestId('status-rule-READ_DISABLED-privileges-option-STATUS_ADMIN').check();
    await page.keyboard.press('Escape');
    await page.getByTestId('status-rule-READ_DISABLED-privileges-popup').waitFor({ state: 'detached' });
    expect(await seriousViolations(page)).toEqual([]);
    await page.getByTestId('status-form-save').click();
    await modal.waitFor({ state: 'detached' });
    await statusRow(page, 'Ülevaatusel').waitFor();
    const created = (await serverStatuses()).find((status) => status.name.et === 'Ülevaatusel');
    expect(created).toMatchObject({
      readOnly: false,
      icon: 'flag',
      rules: [{ type: 'READ_DISABLED', overridePrivileges: ['STATUS_ADMIN'], overrideRoles: [] }],
    });

    // Edit: the English name is added and the exception changed to a role (the privileges are then not sent).
    await statusRow(page, 'Ülevaatusel').getByTestId('status-edit').click();
    await modal.waitFor();
    expect(await page.getByTestId('status-name-et').inputValue()).toBe('Ülevaatusel');
    await page.getByTestId('status-name-en').fill('In review');
    await page.getByTestId('status-rule-READ_DISABLED-override').selectOption('roles');
    await page.getByTestId('status-rule-READ_DISABLED-roles').click();
    await page.getByTestId(`status-rule-READ_DISABLED-roles-option-${statusAdmin.roleId}`).check();
    await page.keyboard.press('Escape');
    await page.getByTestId('status-rule-READ_DISABLED-roles-popup').waitFor({ state: 'detached' });
    await page.getByTestId('status-form-save').click();
    await modal.waitFor({ state: 'detached' });
    await expect
      .poll(async () => (await serverStatuses()).find((status) => status.id === created?.id))
      .toMatchObject({
        name: { et: 'Ülevaatusel', en: 'In review' },
        rules: [{ type: 'READ_DISABLED', overridePrivileges: [], overrideRoles: [statusAdmin.roleId] }],
      });

    // A default status renamed: its rules are locked in the form, and reset restores the default name.
    await submittedRow.getByTestId('status-edit').click();
    await modal.waitFor();
    expect(await page.getByTestId('status-rule-RESOURCE_WRITE_DISABLED-on').isDisabled()).toBe(true);
    await page.getByTestId('status-name-et').fill('Ootel');
    await page.getByTestId('status-form-save').click();
    await modal.waitFor({ state: 'detached' });
    const renamed = statusRow(page, 'Ootel');
    await expect.poll(() => renamed.getByTestId('status-reset').isEnabled()).toBe(true);
    await renamed.getByTestId('status-reset').click();
    await page.getByTestId('status-reset-dialog').getByTestId('confirm-ok').click();
    await statusRow(page, submitted.name.et).waitFor();
    await expect.poll(() => statusRow(page, submitted.name.et).getByTestId('status-reset').isDisabled()).toBe(true);
    expect((await serverStatuses()).find((status) => status.id === submitted.id)).toMatchObject({ name: submitted.name, resettable: false });

    // Delete with confirmation.
    await statusRow(page, 'Ülevaatusel').getByTestId('status-delete').click();
    await page.getByTestId('status-delete-dialog').getByTestId('confirm-ok').click();
    await expect.poll(() => statusRow(page, 'Ülevaatusel').count()).toBe(0);
    expect((await serverStatuses()).some((status) => status.id === created?.id)).toBe(false);
  });

  it('is view only without STATUS_ADMIN: every edit button is disabled and the reason shown', async () => {
    const page = await openStatuses(viewer.email);
    await page.getByTestId('statuses-view-only').waitFor();
    expect(await page.getByTestId('statuses-view-only').textContent()).toBe(et['statuses.viewOnly.privilege']);
    expect(await page.getByTestId('statuses-add').isDisabled()).toBe(true);
    const buttons = page.locator('[data-testid="statuses-grid"] button[data-testid^="status-"]');
    expect(await buttons.count()).toBeGreaterThan(0);
    expect(await buttons.evaluateAll((all) => all.every((button) => (button as HTMLButtonElement).disabled))).toBe(true);
  });

  it('is view only for STATUS_ADMIN when the organisation does not allow editing statuses', async () => {
    const page = await openStatuses(lockedAdmin.email);
    await page.getByTestId('statuses-view-only').waitFor();
    expect(await page.getByTestId('statuses-view-only').textContent()).toBe(et['statuses.viewOnly.organization']);
    expect(await page.getByTestId('statuses-add').isDisabled()).toBe(true);
    const edit = gridRows(page, 'statuses-grid').first().getByTestId('status-edit');
    expect(await edit.isDisabled()).toBe(true);
    expect(await gridRows(page, 'statuses-grid').first().getByTestId('status-edit-tooltip').getAttribute('title')).toBe(et['statuses.viewOnly.organization']);
  });
});
