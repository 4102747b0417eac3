import { accountsFixture, PASSWORD } from '@eelarve/testing/accounts';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { type ApiClient, apiClient } from './auth-flows';
import { browserSuite, call, documentWithMaster, signIn } from './harness';

/**
 * Live reports (issue 12, point 8): a report open in Chromium shows another user's edit of its
 * budget within 2 s, without a reload (a marker on the page's window survives), and keeps the
 * row the user expanded.
 */

const grid = (page: Page) => page.getByTestId('report-grid');
const totalCell = (page: Page) => grid(page).locator('.ag-floating-bottom .ag-row [col-id="base"]');
const ready = (page: Page) => page.locator('[data-testid="report-screen"][data-step="ready"]').waitFor();
const LIVE_MS = 2_000;

describe('web: a live report (browser)', () => {
  const suite = browserSuite();
  let documentId: string;
  let budgetId: string;
  let recordPath: string;
  let editor: ApiClient;

  beforeAll(async () => {
    const admin = await apiClient(suite.server.app, suite.server.admin.email, suite.server.admin.password);
    const { organizationId } = await call<{ organizationId: string }>(admin, 'GET', '/api/auth/me');
    const made = await documentWithMaster(admin, organizationId, { name: 'Elav aruanne 2027', period: { year: 2027, month: 1, duration: 1 } });
    documentId = made.documentId;
    await call(admin, 'POST', `/api/classifier/${made.masterClassifierId}/item`, { code: '01', name: 'Haridus' });
    const schemeId = (
      await call<{ id: string }>(admin, 'POST', `/api/document/${documentId}/schema`, {
        name: 'Kulud',
        fieldName: 'kulud',
        classifierList: [{ classifierId: made.masterClassifierId, type: 'MAIN' }],
      })
    ).id;
    const education = (
      await call<{ id: string }>(admin, 'POST', `/api/schema/${schemeId}/sub-budget`, { name: 'Haridus', classifiers: { [made.masterClassifierId]: '01' } })
    ).id;
    budgetId = (await call<{ id: string }>(admin, 'POST', `/api/document/${documentId}/budget`, { type: 'COMMON', name: 'Linna eelarve' })).id;
    const place = `/api/budget/${budgetId}/sub-budget/${education}`;
    const { id: recordId } = await call<{ id: string }>(admin, 'POST', `${place}/record`, {
      name: 'Õpetajad',
      amount: '100',
      classifiers: { [made.masterClassifierId]: '01' },
    });
    recordPath = `${place}/record/${recordId}`;
    // Another user of the organisation who may change its budgets.
    const accounts = accountsFixture(suite.server.app, admin);
    const member = await accounts.member(organizationId, ['DATA_VIEW']);
    await accounts.grant(member.occupationId, [{ read: true, update: true }]);
    editor = await apiClient(suite.server.app, member.email, PASSWORD);
  }, 180_000);

  it("shows another user's edit within 2 s without a reload, keeping the expanded row", async () => {
    const page = await suite.openPage();
    await signIn(page, suite.server.admin);
    await page.goto(`/document/${documentId}/budget/${budgetId}/report`);
    await ready(page);
    await expect.poll(() => totalCell(page).textContent(), { timeout: 20_000 }).toBe('100,00');
    // Expand the first row that can be, and mark the page: a reload would lose both.
    const toggles = grid(page).getByTestId('report-toggle');
    const closed = toggles.and(page.locator('[aria-expanded="false"]')).first();
    if ((await closed.count()) > 0) await closed.click();
    const opened = () => toggles.and(page.locator('[aria-expanded="true"]')).count();
    const expandedBefore = await opened();
    await page.evaluate(() => {
      (window as unknown as { liveMarker: string }).liveMarker = 'still here';
    });

    const started = Date.now();
    await call(editor, 'PUT', recordPath, { name: 'Õpetajad', amount: '250' });
    await totalCell(page).filter({ hasText: '250,00' }).waitFor({ timeout: LIVE_MS });
    expect(Date.now() - started).toBeLessThanOrEqual(LIVE_MS);
    expect(await page.evaluate(() => (window as unknown as { liveMarker?: string }).liveMarker)).toBe('still here');
    expect(await opened()).toBe(expandedBefore);
  });
});
