import { type Budget, DEFAULT_RESOURCE_STATUSES } from '@eelarve/shared';
import { accountsFixture, PASSWORD } from '@eelarve/testing/accounts';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { en } from '../src/i18n/messages/en';
import { et } from '../src/i18n/messages/et';
import { type ApiClient, apiClient } from './auth-flows';
import { browserSuite, call, documentWithMaster, enableStatuses, gridRows, logIn, signIn } from './harness';

/**
 * A read-only status locks a budget in the browser (issue 10, points 2 and 5; spec 2, sections 2,
 * 5 and 6). A writer (update on the organisation) finds an approved budget locked: the form is
 * read-only with the reason, delete and edit are greyed out, the lock badge names the status, and
 * the API refuses a change with ACTION_DISALLOWED_DUE_TO_STATUS. A status administrator changes
 * only its status back to "In preparation" in the form (in English); the writer can then rename
 * it. A hidden budget shows its tabs disabled and why; a locked document's settings are read-only.
 */

const inPreparation = DEFAULT_RESOURCE_STATUSES[0]!;
const approved = DEFAULT_RESOURCE_STATUSES[2]!;
/** READ_DISABLED among its rules. */
const hidden = DEFAULT_RESOURCE_STATUSES[3]!;

/** A message with its `{status}` filled in, as the page shows it. */
const withStatus = (message: string, status: string) => message.replace('{status}', status);

/** The budget's data as the signed-in user of `page` reads it through the API. */
async function budgetOf(page: Page, budgetId: string): Promise<Budget> {
  const response = await page.request.get(`/api/budget/${budgetId}`);
  expect(response.status(), await response.text()).toBe(200);
  return (await response.json()) as Budget;
}

describe('web: a read-only status locks a budget (browser)', () => {
  const suite = browserSuite();
  let admin: ApiClient;
  let documentId: string;
  let lockedDocumentId: string;
  let budgetId: string;
  let hiddenBudgetId: string;
  let writer: { email: string };
  let statusAdmin: { email: string };
  const period = { year: 2027, month: 1, duration: 1 };

  beforeAll(async () => {
    admin = await apiClient(suite.server.app, suite.server.admin.email, suite.server.admin.password);
    const fixture = accountsFixture(suite.server.app, admin);
    const { organizationId } = await call<{ organizationId: string }>(admin, 'GET', '/api/auth/me');
    // The organisation uses statuses (the default ones: in preparation, submitted, approved, hidden).
    await enableStatuses(admin, organizationId);

    // Both may update everything of the organisation; only the second may manage statuses.
    const writerMember = await fixture.member(organizationId, ['DATA_VIEW']);
    const statusMember = await fixture.member(organizationId, ['STATUS_ADMIN']);
    for (const member of [writerMember, statusMember]) await fixture.grant(member.occupationId, [{ update: true }]);
    writer = writerMember;
    statusAdmin = statusMember;

    const name = 'Lukustatav 2027';
    ({ documentId } = await documentWithMaster(admin, organizationId, { name, period, resourceStatusId: inPreparation.id }));
    const newBudget = async (budgetName: string, resourceStatusId: string) =>
      (await call<{ id: string }>(admin, 'POST', `/api/document/${documentId}/budget`, { type: 'COMMON', name: budgetName, resourceStatusId })).id;
    budgetId = await newBudget('Kultuuriosakond', approved.id);
    hiddenBudgetId = await newBudget('Reservfond', hidden.id);
    lockedDocumentId = (
      await call<{ id: string }>(admin, 'POST', `/api/organization/${organizationId}/document`, {
        name: 'Kinnitatud 2026',
        period: { ...period, year: 2026 },
        resourceStatusId: approved.id,
      })
    ).id;
  }, 120_000);

  it('locks an approved budget for a writer; a status administrator unlocks it in the form; the writer then renames it', async () => {
    const base = `/document/${documentId}/budget/${budgetId}`;
    const page = await suite.openPage();
    await signIn(page, { email: writer.email, password: PASSWORD });

    // The form: read-only, with the reason naming the status; nothing to save.
    await page.goto(`${base}/edit`);
    await page.getByTestId('budget-form').waitFor();
    const badge = page.getByTestId('budget-lock-badge');
    expect(await badge.getAttribute('data-status-id')).toBe(approved.id);
    expect(await page.getByTestId('budget-lock-badge-name').textContent()).toBe(approved.name.et);
    expect(await badge.getAttribute('title')).toBe(withStatus(et['statusLock.badgeTitle'], approved.name.et));
    expect(await page.getByTestId('budget-form-locked').textContent()).toBe(
      `${et['statusLock.locked']}${withStatus(et['statusLock.budgetSettings'], approved.name.et)} ${et['statusLock.askStatusAdmin']}`,
    );
    for (const field of ['budget-name-input', 'budget-description', 'budget-resource-status', 'budget-save']) {
      expect(await page.getByTestId(field).isDisabled(), field).toBe(true);
    }

    // The overview: edit greyed out with the status as the reason.
    await page.getByTestId('budget-tab-report').click();
    await page.getByTestId('budget-overview').waitFor();
    expect(await page.getByTestId('budget-overview-edit').isDisabled()).toBe(true);
    expect(await page.getByTestId('budget-overview-edit-tooltip').getAttribute('title')).toBe(withStatus(et['statusLock.action'], approved.name.et));

    // The list: delete greyed out (its data is locked).
    await page.goto(`/document/${documentId}/budgets`);
    const row = gridRows(page, 'budgets-grid').filter({ has: page.getByTestId('budget-name').getByText('Kultuuriosakond', { exact: true }) });
    await row.waitFor();
    expect(await row.getByTestId('budget-delete').isDisabled()).toBe(true);

    // Straight to the API: refused because of the status, and nothing changed.
    const renamed = await page.request.put(`/api/budget/${budgetId}`, { data: { name: 'Otse muudetud', description: '', resourceStatusId: approved.id } });
    expect({ status: renamed.status(), code: (await renamed.json()).code }).toEqual({ status: 403, code: 'ACTION_DISALLOWED_DUE_TO_STATUS' });
    const deleted = await page.request.delete(`/api/budget/${budgetId}`);
    expect({ status: deleted.status(), code: (await deleted.json()).code }).toEqual({ status: 403, code: 'ACTION_DISALLOWED_DUE_TO_STATUS' });
    expect((await budgetOf(page, budgetId)).name).toBe('Kultuuriosakond');

    // The status administrator, in English: only the status may change, and it unlocks the budget.
    const adminPage = await suite.openPage();
    await adminPage.goto('/login');
    await adminPage.getByTestId('language-en').click();
    await logIn(adminPage, { email: statusAdmin.email, password: PASSWORD });
    await adminPage.getByTestId('dashboard').waitFor();
    await adminPage.goto(`${base}/edit`);
    await adminPage.getByTestId('budget-form').waitFor();
    expect(await adminPage.getByTestId('budget-lock-badge-name').textContent()).toBe(approved.name.en);
    expect(await adminPage.getByTestId('budget-form-locked').textContent()).toBe(
      `${en['statusLock.locked']}${withStatus(en['statusLock.budgetSettings'], approved.name.en)} ${en['statusLock.statusOnly']}`,
    );
    expect(await adminPage.getByTestId('budget-name-input').isDisabled()).toBe(true);
    const status = adminPage.getByTestId('budget-resource-status');
    expect(await status.isEnabled()).toBe(true);
    expect(await adminPage.getByTestId('budget-save').isDisabled()).toBe(true);
    await status.selectOption(inPreparation.id);
    expect(await adminPage.getByTestId('budget-save').isEnabled()).toBe(true);
    await adminPage.getByTestId('budget-save').click();
    await adminPage.waitForURL(`**/document/${documentId}/budgets`);
    expect((await budgetOf(adminPage, budgetId)).resourceStatusId).toBe(inPreparation.id);

    // The writer: unlocked, renamed through the form.
    await page.goto(`${base}/edit`);
    await page.getByTestId('budget-form').waitFor();
    await expect.poll(() => page.getByTestId('budget-resource-status').inputValue()).toBe(inPreparation.id);
    expect(await page.getByTestId('budget-lock-badge').count()).toBe(0);
    expect(await page.getByTestId('budget-form-locked').count()).toBe(0);
    await page.getByTestId('budget-name-input').fill('Kultuuriosakond 2027');
    await page.getByTestId('budget-save').click();
    await page.waitForURL(`**/document/${documentId}/budgets`);
    expect((await budgetOf(page, budgetId)).name).toBe('Kultuuriosakond 2027');
  });

  it('shows a hidden budget with its tabs disabled and the status that hides it, instead of an error', async () => {
    const page = await suite.openPage();
    await signIn(page, { email: writer.email, password: PASSWORD });
    await page.goto(`/document/${documentId}/budget/${hiddenBudgetId}/report`);
    await page.getByTestId('budget-hidden').waitFor();
    expect(await page.getByTestId('budget-hidden').textContent()).toBe(
      `${et['statusLock.hidden.title']}${withStatus(et['statusLock.hidden.text'], hidden.name.et)}`,
    );
    for (const tab of ['budget-tab-report', 'budget-tab-sub-budgets', 'budget-tab-settings']) {
      expect(await page.getByTestId(tab).getAttribute('aria-disabled'), tab).toBe('true');
    }
  });

  it("makes a locked document's settings read-only and greys out its delete", async () => {
    const page = await suite.openPage();
    await signIn(page, { email: writer.email, password: PASSWORD });
    await page.goto(`/document/${lockedDocumentId}/settings`);
    await page.getByTestId('document-form').waitFor();
    expect(await page.getByTestId('document-form-locked').textContent()).toBe(
      `${et['statusLock.locked']}${withStatus(et['statusLock.documentSettings'], approved.name.et)} ${et['statusLock.askStatusAdmin']}`,
    );
    for (const field of ['document-name-input', 'document-description', 'document-year', 'document-resource-status', 'document-save', 'document-delete']) {
      expect(await page.getByTestId(field).isDisabled(), field).toBe(true);
    }
    expect(await page.getByTestId('document-delete-tooltip').getAttribute('title')).toBe(withStatus(et['statusLock.action'], approved.name.et));
  });
});
