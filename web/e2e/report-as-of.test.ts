import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { type ApiClient, apiClient } from './auth-flows';
import { browserSuite, call, documentWithMaster, seriousViolations, signIn } from './harness';
import { estonianTextsOn, useEnglish } from './record-english';
import { columnMenu, eventually, grid, ready, rowNamed, rows, totalCell } from './report-screen';

/**
 * The report screen's further columns and moments (issue 12, points 2, 3, 5 and 7): the report as
 * of a past moment (the old totals, the banner, live updates paused, back to now), a comparison
 * column of the same budget at an earlier moment, a sum budget's component columns, a saved
 * column set with a comparison and the quarterly expansion got back after a reload, a chip that
 * highlights instead of filtering, a chip hidden and still hidden after a reload, long titles in
 * tooltips; axe with the picker open, and the screen in English.
 */

const headerKeys = (page: Page) =>
  grid(page)
    .getByTestId('report-column-header')
    .evaluateAll((cells) => cells.map((cell) => cell.getAttribute('data-column-key')));

/** A moment in whole seconds after everything so far, and the wait until it has passed (the picker counts seconds). */
async function nextWholeSecond(): Promise<string> {
  const moment = Math.floor(Date.now() / 1000) * 1000 + 1000;
  await new Promise((resolve) => setTimeout(resolve, moment - Date.now() + 300));
  return new Date(moment).toISOString();
}

/** The picker's text of an ISO moment in the page's own time zone. */
const localInput = (page: Page, iso: string) =>
  page.evaluate((value) => {
    const date = new Date(value);
    const pad = (part: number) => String(part).padStart(2, '0');
    return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}`;
  }, iso);

describe('web: the report as of a moment, component columns, saved column sets, highlighting chips (browser)', () => {
  const suite = browserSuite();
  let admin: ApiClient;
  let documentId: string;
  let budgetId: string;
  let otherBudgetId: string;
  let sumBudgetId: string;
  let teachers: string;
  let library: string;

  beforeAll(async () => {
    admin = await apiClient(suite.server.app, suite.server.admin.email, suite.server.admin.password);
    const { organizationId } = await call<{ organizationId: string }>(admin, 'GET', '/api/auth/me');
    const made = await documentWithMaster(admin, organizationId, { name: 'Seisud 2027', period: { year: 2027, month: 1, duration: 1 } });
    documentId = made.documentId;
    const activityId = made.masterClassifierId;
    await call(admin, 'POST', `/api/classifier/${activityId}/item`, { code: '01', name: 'Haridus' });
    await call(admin, 'POST', `/api/classifier/${activityId}/item`, { code: '02', name: 'Kultuur' });
    const schemeId = (
      await call<{ id: string }>(admin, 'POST', `/api/document/${documentId}/schema`, {
        name: 'Kulud',
        fieldName: 'kulud',
        classifierList: [{ classifierId: activityId, type: 'MAIN' }],
      })
    ).id;
    const education = (
      await call<{ id: string }>(admin, 'POST', `/api/schema/${schemeId}/sub-budget`, { name: 'Haridus', classifiers: { [activityId]: '01' } })
    ).id;
    const culture = (await call<{ id: string }>(admin, 'POST', `/api/schema/${schemeId}/sub-budget`, { name: 'Kultuur', classifiers: { [activityId]: '02' } }))
      .id;
    budgetId = (await call<{ id: string }>(admin, 'POST', `/api/document/${documentId}/budget`, { type: 'COMMON', name: 'Linna eelarve' })).id;
    otherBudgetId = (await call<{ id: string }>(admin, 'POST', `/api/document/${documentId}/budget`, { type: 'COMMON', name: 'Lisaeelarve' })).id;
    sumBudgetId = (
      await call<{ id: string }>(admin, 'POST', `/api/document/${documentId}/budget`, {
        type: 'SUM_BUDGET',
        name: 'Koondeelarve',
        sumBudgetComponentIds: [budgetId, otherBudgetId],
      })
    ).id;
    const record = async (budget: string, subBudget: string, name: string, amount: string, code: string, months?: string[]) => {
      const { id } = await call<{ id: string }>(admin, 'POST', `/api/budget/${budget}/sub-budget/${subBudget}/record`, {
        name,
        amount,
        classifiers: { [activityId]: code },
        ...(months ? { factors: { months } } : {}),
      });
      return `/api/budget/${budget}/sub-budget/${subBudget}/record/${id}`;
    };
    teachers = await record(budgetId, education, 'Õpetajad', '100', '01');
    library = await record(budgetId, culture, 'Raamatukogu', '40', '02');
    await record(otherBudgetId, education, 'Õpetajad', '600', '01', Array(12).fill('50') as string[]);
  }, 180_000);

  it('shows the report as it stood at a past moment, pauses live updates meanwhile, comes back to now, and compares the budget with its past', async () => {
    const page = await suite.openPage();
    await signIn(page, suite.server.admin);
    await page.goto(`/document/${documentId}/budget/${budgetId}/report`);
    await ready(page);
    await eventually(() => totalCell(page, 'base').textContent()).toBe('140,00');
    expect(await page.getByTestId('report-as-of').textContent()).toBe('Seisuga: praegu');
    // A normal budget offers no component columns.
    expect(await page.getByTestId('report-component-columns').count()).toBe(0);

    const before = await nextWholeSecond();
    await call(admin, 'PUT', teachers, { name: 'Õpetajad', amount: '250' });
    await eventually(() => totalCell(page, 'base').textContent()).toBe('290,00');

    // The picker, open: labelled, bounded by the document's lifetime up to now; axe finds nothing serious.
    await page.getByTestId('report-as-of').click();
    const input = page.getByTestId('report-as-of-input');
    expect(await page.getByLabel('Seis (kuupäev ja kellaaeg)').count()).toBe(1);
    expect(await input.getAttribute('max')).toBeTruthy();
    expect(await page.getByTestId('report-as-of-now').isDisabled()).toBe(true);
    expect(await seriousViolations(page)).toEqual([]);
    // A moment before the document existed is refused.
    await input.fill('2020-01-01T10:00:00');
    expect(await page.getByTestId('report-as-of-apply').isDisabled()).toBe(true);
    expect(await input.getAttribute('aria-invalid')).toBe('true');
    await input.fill(await localInput(page, before));
    await page.getByTestId('report-as-of-apply').click();

    // The past: the old total, a banner with the moment in the organisation's format, the picker saying it.
    await eventually(() => totalCell(page, 'base').textContent()).toBe('140,00');
    const banner = page.getByTestId('report-as-of-banner');
    const label = (await localInput(page, before)).replace(
      /^(\d{4})-(\d{2})-(\d{2})T(\d{2}:\d{2})(:\d{2})$/,
      (_all, y, m, d, hm, s) => `${d}.${m}.${y} ${hm}${s === ':00' ? '' : s}`,
    );
    expect(await banner.textContent()).toContain(`Näidatud seisuga ${label}`);
    expect(await page.getByTestId('report-as-of').textContent()).toBe(`Seisuga: ${label}`);
    expect(await rowNamed(page, 'Haridus').locator('[col-id="base"]').textContent()).toBe('100,00');
    // Live updates wait while the past is shown: another edit does not reach the table.
    await call(admin, 'PUT', library, { name: 'Raamatukogu', amount: '60' });
    await page.waitForTimeout(2500);
    expect(await totalCell(page, 'base').textContent()).toBe('140,00');
    expect(await seriousViolations(page)).toEqual([]);

    // Back to now: the present totals, no banner.
    await page.getByTestId('report-as-of-banner-now').click();
    await eventually(() => totalCell(page, 'base').textContent()).toBe('310,00');
    expect(await banner.count()).toBe(0);

    // A comparison column of the same budget at the earlier moment: what changed since then.
    await page.getByTestId('report-add-comparison').click();
    expect(await page.getByTestId('report-comparison-budget').inputValue()).toBe('copy');
    await page.getByTestId('report-comparison-earlier').check();
    await page.getByTestId('report-comparison-moment').fill(await localInput(page, before));
    expect(await seriousViolations(page)).toEqual([]);
    await page.getByTestId('report-comparison-submit').click();
    await eventually(() => totalCell(page, 'cmp1').textContent()).toBe('140,00');
    expect(await totalCell(page, 'base').textContent()).toBe('310,00');
    const title = `Linna eelarve (koopia) seisuga ${label}`;
    const header = grid(page).locator('[data-column-key="cmp1"] .report-column-title');
    expect(await header.textContent()).toBe(title);
    // A calculated difference: a long title, whole in the header's tooltip.
    await page.getByTestId('report-add-calc').click();
    await page.getByTestId('report-calc-first').selectOption('base');
    await page.getByTestId('report-calc-second').selectOption('cmp1');
    await page.getByTestId('report-calc-operation').selectOption('minus');
    await page.getByTestId('report-calc-submit').click();
    await eventually(() => totalCell(page, 'calc1').textContent()).toBe('170,00');
    const calcTitle = `Linna eelarve − ${title}`;
    expect(await grid(page).locator('.ag-header-cell[col-id="calc1"]').getAttribute('title')).toBe(calcTitle);
    expect(await grid(page).locator('[data-column-key="calc1"] .report-column-title').getAttribute('title')).toBe(calcTitle);
    // The title wraps inside its 220 px instead of running on.
    const titleBox = await grid(page).locator('[data-column-key="calc1"] .report-column-title').boundingBox();
    expect(titleBox?.width ?? 0).toBeLessThanOrEqual(220);
    // The short report's total stands right under its rows, in sight.
    expect(await totalCell(page, 'base').isVisible()).toBe(true);
    await columnMenu(page, 'cmp1', 'remove');
    await eventually(() => headerKeys(page)).toEqual(['base']);
  }, 120_000);

  it("shows a sum budget's component budgets as columns", async () => {
    const page = await suite.openPage();
    await signIn(page, suite.server.admin);
    await page.goto(`/document/${documentId}/budget/${sumBudgetId}/report`);
    await ready(page);
    await eventually(() => totalCell(page, 'base').textContent()).toBe('910,00');
    await page.getByTestId('report-component-columns').check();
    await eventually(() => headerKeys(page)).toEqual(['base', `component:${budgetId}`, `component:${otherBudgetId}`]);
    expect(await totalCell(page, `component:${budgetId}`).textContent()).toBe('310,00');
    expect(await totalCell(page, `component:${otherBudgetId}`).textContent()).toBe('600,00');
    expect(await grid(page).locator(`[data-column-key="component:${otherBudgetId}"] .report-column-title`).textContent()).toBe('Lisaeelarve');
    await page.getByTestId('report-component-columns').uncheck();
    await eventually(() => headerKeys(page)).toEqual(['base']);
  });

  it('saves a column set with a comparison and the quarterly expansion, and gets it back after a reload', async () => {
    const page = await suite.openPage();
    await signIn(page, suite.server.admin);
    await page.goto(`/document/${documentId}/budget/${budgetId}/report`);
    await ready(page);
    await eventually(() => totalCell(page, 'base').textContent()).toBe('310,00');
    await page.getByTestId('report-add-comparison').click();
    await page.getByTestId('report-comparison-budget').selectOption(otherBudgetId);
    await page.getByTestId('report-comparison-with-period').check();
    await page.getByTestId('report-period-start').fill('2027-01');
    await page.getByTestId('report-period-duration').fill('6');
    await page.getByTestId('report-comparison-submit').click();
    await eventually(() => totalCell(page, 'cmp1').textContent()).toBe('300,00');
    await columnMenu(page, 'base', 'quarterly');
    const quarterly = ['base', 'base:2027-01', 'base:2027-04', 'base:2027-07', 'base:2027-10', 'cmp1', 'cmp1:2027-01', 'cmp1:2027-04'];
    await eventually(() => headerKeys(page)).toEqual(quarterly);
    expect(await totalCell(page, 'cmp1:2027-04').textContent()).toBe('150,00');
    await page.getByTestId('report-saved').click();
    await page.getByTestId('report-columns-new-name').fill('Kvartalid');
    await page.getByTestId('report-columns-new-save').click();
    await eventually(() => page.getByTestId('report-columns').getAttribute('data-name')).toBe('Kvartalid');
    await page.keyboard.press('Escape');

    // Everything changed, the change remembered, then a reload.
    await columnMenu(page, 'cmp1', 'remove');
    await columnMenu(page, 'base', 'noExpansion');
    await eventually(() => headerKeys(page)).toEqual(['base']);
    const remembered = `/api/user-settings?type=REPORT_COLUMNS&documentId=${documentId}&budgetId=${budgetId}`;
    await eventually(async () => (await call<{ settings: { expansion?: string } }>(admin, 'GET', remembered)).settings.expansion).toBe('none');
    await page.reload();
    await ready(page);
    await eventually(() => headerKeys(page)).toEqual(['base']);
    await page.getByTestId('report-saved').click();
    await page.getByTestId('report-columns-apply').click();
    await eventually(() => headerKeys(page)).toEqual(quarterly);
    expect(await totalCell(page, 'cmp1').textContent()).toBe('300,00');
    expect(await totalCell(page, 'cmp1:2027-04').textContent()).toBe('150,00');
    expect(await grid(page).locator('[data-column-key="cmp1"] .report-column-title').textContent()).toBe('Lisaeelarve 01.2027–06.2027');
    await columnMenu(page, 'cmp1', 'remove');
    await columnMenu(page, 'base', 'noExpansion');
    await eventually(() => headerKeys(page)).toEqual(['base']);
  }, 120_000);

  it('highlights the rows a chip chooses instead of filtering them out, and hides a chip for good', async () => {
    const page = await suite.openPage();
    await signIn(page, suite.server.admin);
    await page.goto(`/document/${documentId}/budget/${budgetId}/report`);
    await ready(page);
    await eventually(() => rows(page).getByTestId('report-row-name').allTextContents()).toEqual(['Haridus', 'Kultuur']);
    const matched = () => grid(page).locator('.ag-center-cols-container .ag-row.report-row-match').getByTestId('report-row-name').allTextContents();

    // The sub-budget chip searching 'kult' filters on the server…
    await page.getByTestId('report-chip-SUB_BUDGET').click();
    await page.getByTestId('report-filter-term').fill('kult');
    await page.getByTestId('report-filter-term').press('Enter');
    await eventually(() => rows(page).getByTestId('report-row-name').allTextContents()).toEqual(['Kultuur']);
    expect(await totalCell(page, 'base').textContent()).toBe('60,00');
    // …and with highlight on, every row stays and the chosen one is marked.
    await page.getByTestId('report-filter-highlight').check();
    await page.keyboard.press('Escape');
    await eventually(() => rows(page).getByTestId('report-row-name').allTextContents()).toEqual(['Haridus', 'Kultuur']);
    await eventually(matched).toEqual(['Kultuur']);
    expect(await totalCell(page, 'base').textContent()).toBe('310,00');
    expect(await page.getByTestId('report-chip').first().getAttribute('data-highlight')).toBe('true');
    expect(await page.getByTestId('report-chip').first().textContent()).toBe('AlameelarveKõik · “kult” · esiletõstuga');
    expect(await seriousViolations(page)).toEqual([]);
    // Off again: the server filters.
    await page.getByTestId('report-chip-SUB_BUDGET').click();
    await page.getByTestId('report-filter-highlight').uncheck();
    await page.getByTestId('report-filter-clear').click();
    await page.keyboard.press('Escape');
    await eventually(() => rows(page).getByTestId('report-row-name').allTextContents()).toEqual(['Haridus', 'Kultuur']);
    expect(await matched()).toEqual([]);

    // The visibility menu hides the sub-budget chip; it stays hidden after a reload.
    const chipKeys = () => page.getByTestId('report-chip').evaluateAll((chips) => chips.map((chip) => chip.getAttribute('data-filter-key')?.split(':')[0]));
    await eventually(chipKeys).toEqual(['SUB_BUDGET', 'MASTER_CLASSIFIER']);
    await page.getByTestId('report-filter-visibility').click();
    await page.locator('[data-testid="report-filter-visible"][data-filter-key^="SUB_BUDGET:"]').uncheck();
    await page.keyboard.press('Escape');
    await eventually(chipKeys).toEqual(['MASTER_CLASSIFIER']);
    const remembered = `/api/user-settings?type=REPORT&documentId=${documentId}&budgetId=${budgetId}`;
    await eventually(
      async () =>
        (await call<{ settings: { filters?: { key: { type: string }; visible: boolean }[] } }>(admin, 'GET', remembered)).settings.filters?.find(
          (filter) => filter.key.type === 'SUB_BUDGET',
        )?.visible,
    ).toBe(false);
    await page.reload();
    await ready(page);
    await eventually(chipKeys).toEqual(['MASTER_CLASSIFIER']);
    await page.getByTestId('report-filter-visibility').click();
    await page.locator('[data-testid="report-filter-visible"][data-filter-key^="SUB_BUDGET:"]').check();
    await page.keyboard.press('Escape');
    await eventually(chipKeys).toEqual(['SUB_BUDGET', 'MASTER_CLASSIFIER']);
  }, 120_000);

  it('reads in English with the picker and the comparison moment open', async () => {
    const page = await suite.openPage();
    await signIn(page, suite.server.admin);
    await useEnglish(page);
    await page.goto(`/document/${documentId}/budget/${budgetId}/report`);
    await ready(page);
    expect(await page.getByTestId('report-as-of').textContent()).toBe('As of: now');
    await page.getByTestId('report-as-of').click();
    expect(await page.getByLabel('As of (date and time)').count()).toBe(1);
    const data = ['Linna eelarve', 'Lisaeelarve', 'Koondeelarve', 'Haridus', 'Kultuur', 'Kulud', 'Seisud 2027'];
    expect(await estonianTextsOn(page, data)).toEqual([]);
    expect(await seriousViolations(page)).toEqual([]);
    await page.getByTestId('report-as-of-apply').click();
    await page.getByTestId('report-as-of-banner').waitFor();
    expect(await page.getByTestId('report-as-of-banner').textContent()).toMatch(/^Shown as of .*; live updates are paused\. Back to now$/);
    await page.getByTestId('report-add-comparison').click();
    await page.getByTestId('report-comparison-earlier').check();
    expect(await estonianTextsOn(page, data)).toEqual([]);
    expect(await seriousViolations(page)).toEqual([]);
  });
});
