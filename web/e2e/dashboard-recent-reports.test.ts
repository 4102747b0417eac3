import { accountsFixture, PASSWORD } from '@eelarve/testing/accounts';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { en } from '../src/i18n/messages/en';
import { et } from '../src/i18n/messages/et';
import { type ApiClient, apiClient } from './auth-flows';
import { browserSuite, call, currentPath, documentWithMaster, logIn, seriousViolations, signIn } from './harness';

/**
 * The dashboard's recently visited report views (spec 1, section 2; issue 12, point 4): newest
 * first, one row per budget, at most 10, each a link back to the budget's report; Estonian and
 * English; no serious accessibility findings.
 */

async function visit(page: Page, documentId: string, budgetId: string): Promise<void> {
  const response = await page.request.post('/api/user-action-logs', { data: { actionType: 'REPORT_VIEW', documentId, budgetId } });
  expect(response.status(), await response.text()).toBe(201);
}

const rowBudgets = (page: Page) => page.getByTestId('recent-report').evaluateAll((rows) => rows.map((row) => row.getAttribute('data-budget-id')));

describe('web: recently visited reports on the dashboard (browser)', () => {
  const suite = browserSuite();
  let admin: ApiClient;
  let member: { email: string };
  let documentId: string;
  const budgets: Array<{ id: string; name: string }> = [];

  beforeAll(async () => {
    admin = await apiClient(suite.server.app, suite.server.admin.email, suite.server.admin.password);
    const fixture = accountsFixture(suite.server.app, admin);
    const { organizationId } = await call<{ organizationId: string }>(admin, 'GET', '/api/auth/me');
    const made = await fixture.member(organizationId, ['DATA_VIEW']);
    member = made;
    ({ documentId } = await documentWithMaster(admin, organizationId, { name: 'Linnaeelarve 2027', period: { year: 2027, month: 1, duration: 1 } }));
    for (let index = 1; index <= 12; index++) {
      const name = `Osakond ${String(index).padStart(2, '0')}`;
      budgets.push({ id: (await call<{ id: string }>(admin, 'POST', `/api/document/${documentId}/budget`, { type: 'COMMON', name })).id, name });
    }
    await fixture.grant(made.occupationId, [{ documentId, read: true }]);
  }, 120_000);

  it('says so when nothing was viewed, then lists the newest 10 budgets once each, linking to their reports', async () => {
    const page = await suite.openPage();
    await signIn(page, { email: member.email, password: PASSWORD });
    await page.getByTestId('recent-reports-empty').waitFor();
    expect(await page.getByTestId('recent-reports-empty').textContent()).toBe(et['dashboard.recentReports.empty']);

    for (const budget of budgets) await visit(page, documentId, budget.id);
    // A revisit moves the budget to the top instead of listing it twice.
    await visit(page, documentId, budgets[4]!.id);
    await page.reload();
    await page.getByTestId('recent-reports-table').waitFor();
    const expected = [
      budgets[4]!,
      ...budgets
        .slice(2)
        .reverse()
        .filter((budget) => budget.id !== budgets[4]!.id),
    ].slice(0, 10);
    expect(await rowBudgets(page)).toEqual(expected.map((budget) => budget.id));
    expect(await page.getByTestId('recent-report-link').allTextContents()).toEqual(expected.map((budget) => budget.name));
    expect(await page.getByRole('heading', { name: et['dashboard.recentReports.title'] }).count()).toBe(1);
    expect(await page.getByTestId('recent-report').first().textContent()).toContain('Linnaeelarve 2027');
    expect(await seriousViolations(page)).toEqual([]);

    await page.getByTestId('recent-report-link').first().click();
    await page.waitForURL(`**/document/${documentId}/budget/${budgets[4]!.id}/report`);
    expect(currentPath(page)).toBe(`/document/${documentId}/budget/${budgets[4]!.id}/report`);
  });

  it('shows its texts in English', async () => {
    const page = await suite.openPage();
    await page.goto('/login');
    await page.getByTestId('language-en').click();
    await logIn(page, { email: member.email, password: PASSWORD });
    await page.getByTestId('dashboard').waitFor();
    await page.getByRole('heading', { name: en['dashboard.recentReports.title'] }).waitFor();
    // The table renders after its heading: wait for its headers rather than read them at once.
    await expect
      .poll(() => page.getByRole('columnheader').allTextContents())
      .toEqual([en['dashboard.recentReports.budget'], en['dashboard.recentReports.document'], en['dashboard.recentReports.visitedAt']]);
    expect(await seriousViolations(page)).toEqual([]);
  });
});
