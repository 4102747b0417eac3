import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiClient, apiClient } from './auth-flows';
import { browserSuite, call, documentWithMaster, seriousViolations, signIn } from './harness';
import { reportOpeningPaths } from '../src/features/report/opening-paths';
import { estonianTextsOn, useEnglish } from './record-english';
import { columnMenu, eventually, grid, ready, rowNamed, rows, totalCell } from './report-screen';

/**
 * The report screen (issue 12, points 5 and 6; spec 3, sections 2 and 9): a budget's report grouped
 * by a classifier, filtered with a chip, with a comparison budget over half the year and a
 * calculated percentage, expanded by quarter; the view and the column set saved, changed, applied
 * again and read back after a reload; the view promoted; the .xlsx export read back by unzip (not
 * by exceljs, its writer); axe finds nothing serious; and once in English.
 */

const NBSP = '\u00a0';
const work = mkdtempSync(path.join(os.tmpdir(), 'eelarve-report-'));

const headers = (page: Page) => grid(page).getByTestId('report-column-header');
const money = (text: string) => text.replace(/ /g, NBSP);

const packagePart = (file: string, part: string) => execFileSync('unzip', ['-p', file, part], { encoding: 'utf8' });

describe('web: the budget report (browser)', () => {
  const suite = browserSuite();
  let admin: ApiClient;
  let documentId: string;
  let budgetId: string;
  let otherBudgetId: string;
  let sourceId: string;
  let activityId: string;
  let education: string;

  afterAll(() => rmSync(work, { recursive: true, force: true }));

  beforeAll(async () => {
    admin = await apiClient(suite.server.app, suite.server.admin.email, suite.server.admin.password);
    const { organizationId } = await call<{ organizationId: string }>(admin, 'GET', '/api/auth/me');
    const made = await documentWithMaster(admin, organizationId, { name: 'Aruanded 2027', period: { year: 2027, month: 1, duration: 1 } });
    documentId = made.documentId;
    activityId = made.masterClassifierId;
    await call(admin, 'POST', `/api/classifier/${activityId}/item`, { code: '01', name: 'Haridus' });
    await call(admin, 'POST', `/api/classifier/${activityId}/item`, { code: '02', name: 'Kultuur' });
    sourceId = (
      await call<{ id: string }>(admin, 'POST', `/api/document/${documentId}/classifier`, {
        name: 'Allikas',
        itemName: 'Allikas',
        fieldName: 'allikas',
        required: false,
        codeSettings: { typeName: 'Code', minLength: 1, maxLength: 20, hierarchical: false },
      })
    ).id;
    await call(admin, 'POST', `/api/classifier/${sourceId}/item`, { code: 'A', name: 'Riik' });
    await call(admin, 'POST', `/api/classifier/${sourceId}/item`, { code: 'B', name: 'Omavalitsus' });
    const schemeId = (
      await call<{ id: string }>(admin, 'POST', `/api/document/${documentId}/schema`, {
        name: 'Kulud',
        fieldName: 'kulud',
        classifierList: [{ classifierId: activityId, type: 'MAIN' }],
      })
    ).id;
    education = (await call<{ id: string }>(admin, 'POST', `/api/schema/${schemeId}/sub-budget`, { name: 'Haridus', classifiers: { [activityId]: '01' } })).id;
    const culture = (await call<{ id: string }>(admin, 'POST', `/api/schema/${schemeId}/sub-budget`, { name: 'Kultuur', classifiers: { [activityId]: '02' } }))
      .id;
    budgetId = (await call<{ id: string }>(admin, 'POST', `/api/document/${documentId}/budget`, { type: 'COMMON', name: 'Linna eelarve' })).id;
    otherBudgetId = (await call<{ id: string }>(admin, 'POST', `/api/document/${documentId}/budget`, { type: 'COMMON', name: 'Lisaeelarve' })).id;
    const record = (budget: string, subBudget: string, name: string, amount: string, classifiers: Record<string, string>, months?: string[]) =>
      call(admin, 'POST', `/api/budget/${budget}/sub-budget/${subBudget}/record`, { name, amount, classifiers, ...(months ? { factors: { months } } : {}) });
    const monthly = (value: string) => Array(12).fill(value) as string[];
    await record(budgetId, education, 'Õpetajad', '1200', { [activityId]: '01', [sourceId]: 'A' }, monthly('100'));
    // No monthly split: counted in the whole period only, in no quarter.
    await record(budgetId, education, 'Õpikud', '300.5', { [activityId]: '01', [sourceId]: 'B' });
    await record(budgetId, culture, 'Raamatukogu', '400', { [activityId]: '02', [sourceId]: 'A' }, ['0', '0', '0', '400', ...Array(8).fill('0')]);
    await record(otherBudgetId, education, 'Õpetajad', '600', { [activityId]: '01', [sourceId]: 'A' }, monthly('50'));
  }, 120_000);

  it('reorders chips by dragging, says when loading takes over 15 s and resets, and shows a refused report as an error', async () => {
    const page = await suite.openPage();
    await signIn(page, suite.server.admin);
    // First in the file: nothing is remembered or saved yet. The report answers only after 16 s: the screen says so at 15 s and offers the default filters.
    let delay = true;
    await page.route('**/api/budget/*/report', async (route) => {
      if (delay) await new Promise((resolve) => setTimeout(resolve, 16_000));
      await route.continue();
    });
    await page.goto(`/document/${documentId}/budget/${budgetId}/report`);
    await page.getByTestId('report-loading').waitFor();
    await page.getByTestId('report-slow').waitFor({ timeout: 25_000 });
    delay = false;
    await page.getByTestId('report-reset').click();
    await ready(page);
    expect(await page.getByTestId('report-slow').count()).toBe(0);
    await eventually(() => totalCell(page, 'base').textContent()).toBe(money('1 900,50'));

    // Drag the master classifier's chip before the sub-budgets' chip.
    const chipKeys = () => page.getByTestId('report-chip').evaluateAll((chips) => chips.map((chip) => chip.getAttribute('data-filter-key')?.split(':')[0]));
    expect(await chipKeys()).toEqual(['SUB_BUDGET', 'MASTER_CLASSIFIER']);
    await page.getByTestId('report-chip').nth(1).dragTo(page.getByTestId('report-chip').nth(0));
    await eventually(chipKeys).toEqual(['MASTER_CLASSIFIER', 'SUB_BUDGET']);
    // The visibility menu shows another classifier's chip.
    await page.getByTestId('report-filter-visibility').click();
    await page.locator(`[data-testid="report-filter-visible"][data-filter-key="CLASSIFIER:${sourceId}"]`).check();
    await eventually(chipKeys).toEqual(['MASTER_CLASSIFIER', 'SUB_BUDGET', 'CLASSIFIER']);
    await page.keyboard.press('Escape');

    // A refused report: the error state with its alert icon and the translated code, no table.
    await page.route('**/api/budget/*/report', (route) =>
      route.fulfill({ status: 404, contentType: 'application/json', body: JSON.stringify({ code: 'SCHEME_NOT_FOUND', message: 'gone' }) }),
    );
    await page.getByTestId('report-grouping').selectOption(sourceId);
    const error = page.getByTestId('report-error');
    await error.waitFor();
    expect(await error.locator('svg.report-alert-icon').count()).toBe(1);
    expect(await error.locator('[data-error-code="SCHEME_NOT_FOUND"]').count()).toBe(1);
    expect(await page.getByTestId('report-grid').count()).toBe(0);
    expect(await seriousViolations(page)).toEqual([]);
  }, 120_000);

  it('groups, filters with a chip, compares, calculates, expands by quarter, saves and gets back views and columns, exports', async () => {
    const page = await suite.openPage();
    await signIn(page, suite.server.admin);
    await page.goto(`/document/${documentId}/budget/${budgetId}/report`);
    await ready(page);
    await eventually(() => rows(page).getByTestId('report-row-name').allTextContents()).toEqual(['Haridus', 'Kultuur']);
    expect(await totalCell(page, 'base').textContent()).toBe(money('1 900,50'));
    expect(await rowNamed(page, 'Haridus').locator('[col-id="base"]').textContent()).toBe(money('1 500,50'));
    // The first column takes at least 30% of the width; sums are 220 wide.
    const gridWidth = (await grid(page).boundingBox())?.width ?? 0;
    const nameWidth = (await grid(page).locator('.ag-header-cell[col-id="name"]').boundingBox())?.width ?? 0;
    expect(nameWidth).toBeGreaterThanOrEqual(gridWidth * 0.3 - 2);
    expect(Math.round((await grid(page).locator('.ag-header-cell[col-id="base"]').boundingBox())?.width ?? 0)).toBe(220);
    // Opening the report logged a REPORT_VIEW: the dashboard's recently visited reports.
    await eventually(async () =>
      (await call<{ budgetId: string }[]>(admin, 'GET', '/api/user-action-logs/current-occupation')).map((log) => log.budgetId),
    ).toContain(budgetId);

    // Grouped by the source classifier: a sub-budget opens into its items.
    await page.getByTestId('report-grouping').selectOption(sourceId);
    await ready(page);
    await rowNamed(page, 'Haridus').getByTestId('report-toggle').click();
    await eventually(() => rows(page).getByTestId('report-row-name').allTextContents()).toEqual(['Haridus', 'A Riik', 'B Omavalitsus', 'Kultuur']);
    expect(await rowNamed(page, 'B Omavalitsus').locator('[col-id="base"]').textContent()).toBe('300,50');
    // The breadcrumb names the scheme the user setting now remembers.
    await eventually(() => page.getByTestId('breadcrumb-scheme').textContent()).toBe('Kulud');

    // A filter chip: only the master classifier's item 01.
    await page.getByTestId('report-chip-MASTER_CLASSIFIER').click();
    await page.locator('[data-testid="report-filter-item"][data-value="01"]').check();
    await page.keyboard.press('Escape');
    await eventually(() => totalCell(page, 'base').textContent()).toBe(money('1 500,50'));
    expect(await rowNamed(page, 'A Riik').locator('[col-id="base"]').textContent()).toBe(money('1 200,00'));

    // A comparison budget over January-June, and the comparison as a percentage of the base.
    await page.getByTestId('report-add-comparison').click();
    await page.getByTestId('report-comparison-budget').selectOption(otherBudgetId);
    await page.getByTestId('report-comparison-with-period').check();
    await page.getByTestId('report-period-start').fill('2027-01');
    await page.getByTestId('report-period-duration').fill('6');
    await page.getByTestId('report-comparison-submit').click();
    await eventually(() => totalCell(page, 'cmp1').textContent()).toBe('300,00');
    await page.getByTestId('report-add-calc').click();
    await page.getByTestId('report-calc-first').selectOption('cmp1');
    await page.getByTestId('report-calc-second').selectOption('base');
    expect(await page.getByTestId('report-calc-operation').inputValue()).toBe('percent');
    await page.getByTestId('report-calc-submit').click();
    // 300 / 1500.5 = 19.993336 %.
    await eventually(() => totalCell(page, 'calc1').textContent()).toBe('19,99 %');
    expect(await headers(page).allTextContents()).toEqual(['Linna eelarve', 'Lisaeelarve 01.2027–06.2027', 'Lisaeelarve 01.2027–06.2027 / Linna eelarve %']);

    // Quarterly: each sum column gets its quarters; a record without a split is in none of them.
    await columnMenu(page, 'base', 'quarterly');
    await eventually(() => totalCell(page, 'base:2027-01').textContent()).toBe('300,00');
    expect(await totalCell(page, 'cmp1:2027-04').textContent()).toBe('150,00');
    expect(await grid(page).locator('.ag-header-cell[col-id="base:2027-10"]').count()).toBe(1);
    // The base column stays first: its menu has no move or remove; the comparison moves right of the calculation.
    await page.getByTestId('report-column-menu-base').click();
    expect(await page.getByTestId('report-column-remove').count()).toBe(0);
    await page.keyboard.press('Escape');
    await columnMenu(page, 'cmp1', 'right');
    await eventually(async () => await headers(page).evaluateAll((cells) => cells.map((cell) => cell.getAttribute('data-column-key')))).toEqual([
      'base',
      'base:2027-01',
      'base:2027-04',
      'base:2027-07',
      'base:2027-10',
      'calc1',
      'cmp1',
      'cmp1:2027-01',
      'cmp1:2027-04',
    ]);
    expect(await seriousViolations(page)).toEqual([]);

    // Save the view and the column set.
    await page.getByTestId('report-saved').click();
    await page.getByTestId('report-view-new-name').fill('Haridus allikate kaupa');
    await page.getByTestId('report-view-new-save').click();
    await page.getByTestId('report-columns-new-name').fill('Lisaeelarvega');
    await page.getByTestId('report-columns-new-save').click();
    await eventually(() => page.getByTestId('report-view').getAttribute('data-name')).toBe('Haridus allikate kaupa');
    await eventually(() => page.getByTestId('report-columns').getAttribute('data-name')).toBe('Lisaeelarvega');
    // Promote the view to everyone (the admin may update the document).
    await page.getByTestId('report-view-promote').click();
    await eventually(() => page.getByTestId('report-view').getAttribute('data-general')).toBe('true');
    expect(await seriousViolations(page)).toEqual([]);
    await page.keyboard.press('Escape');

    // Export: read back by unzip as the package's XML.
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('report-export').click()]);
    const file = path.join(work, download.suggestedFilename());
    await download.saveAs(file);
    expect(download.suggestedFilename()).toBe('Linna eelarve.xlsx');
    expect(packagePart(file, 'xl/workbook.xml')).toContain('name="Raport"');
    const sheet = packagePart(file, 'xl/worksheets/sheet1.xml');
    expect(sheet).toMatch(/<col [^>]*width="42.5"/);
    const styles = packagePart(file, 'xl/styles.xml');
    // The built-in formats: 4 is #,##0.00 and 10 is 0.00%.
    expect(styles).toMatch(/<xf numFmtId="4" [^>]*applyNumberFormat="1"/);
    expect(styles).toMatch(/<xf numFmtId="10" [^>]*applyNumberFormat="1"/);
    const strings = packagePart(file, 'xl/sharedStrings.xml');
    // The percentage as a fraction: 0.19993336; the base total 1500.5.
    expect(sheet).toContain('<v>0.19993336</v>');
    expect(sheet).toContain('<v>1500.5</v>');
    expect(strings).toContain('Kokku');

    // Change everything, then apply the saved view and column set again.
    await columnMenu(page, 'cmp1', 'remove');
    await eventually(() =>
      headers(page).evaluateAll((cells) => cells.map((cell) => cell.getAttribute('data-column-key')).filter((key) => !key?.includes(':'))),
    ).toEqual(['base']);
    await page.getByTestId('report-chip-MASTER_CLASSIFIER').click();
    await page.getByTestId('report-filter-clear').click();
    await page.keyboard.press('Escape');
    await eventually(() => totalCell(page, 'base').textContent()).toBe(money('1 900,50'));
    await page.getByTestId('report-saved').click();
    await page.getByTestId('report-view-apply').click();
    await eventually(() => totalCell(page, 'base').textContent()).toBe(money('1 500,50'));
    await page.getByTestId('report-saved').click();
    await page.getByTestId('report-columns-apply').click();
    await eventually(() => totalCell(page, 'calc1').textContent()).toBe('19,99 %');
    expect(await totalCell(page, 'cmp1').textContent()).toBe('300,00');

    // Reload (once the user settings hold the columns): the remembered view and columns come back, and the saved ones are still listed.
    const remembered = `/api/user-settings?type=REPORT_COLUMNS&documentId=${documentId}&budgetId=${budgetId}`;
    await eventually(async () => (await call<{ settings: { calcColumns?: unknown[] } }>(admin, 'GET', remembered)).settings.calcColumns?.length).toBe(1);
    await page.reload();
    await ready(page);
    await eventually(() => totalCell(page, 'calc1').textContent()).toBe('19,99 %');
    expect(await totalCell(page, 'base').textContent()).toBe(money('1 500,50'));
    expect(await page.getByTestId('report-grouping').inputValue()).toBe(sourceId);
    expect(await page.getByTestId('report-chip').filter({ hasText: 'Tegevusala' }).getAttribute('data-active')).toBe('true');
    await page.getByTestId('report-saved').click();
    expect(await page.getByTestId('report-view').getAttribute('data-name')).toBe('Haridus allikate kaupa');
    expect(await page.getByTestId('report-columns').getAttribute('data-name')).toBe('Lisaeelarvega');
    await page.keyboard.press('Escape');

    // Live: a record added by someone else shows in the open report without a reload.
    await call(admin, 'POST', `/api/budget/${budgetId}/sub-budget/${education}/record`, {
      name: 'Lisatöö',
      amount: '99.5',
      classifiers: { [activityId]: '01', [sourceId]: 'A' },
    });
    await eventually(() => totalCell(page, 'base').textContent()).toBe(money('1 600,00'));
    expect(await totalCell(page, 'calc1').textContent()).toBe('18,75 %');
  }, 120_000);

  it('asks for the report at navigation, before the budget is read, and only once; its first reads start with the page, each once, and the next visit asks the report itself', async () => {
    const page = await suite.openPage();
    await signIn(page, suite.server.admin);
    const reports: string[] = [];
    const reads: string[] = [];
    page.on('request', (request) => {
      const url = new URL(request.url());
      if (request.method() === 'GET' && url.pathname.startsWith('/api/')) reads.push(url.pathname + url.search);
    });
    let reportAsked: () => void = () => undefined;
    const asked = new Promise<void>((resolve) => {
      reportAsked = resolve;
    });
    page.on('request', (request) => {
      if (request.method() === 'POST' && request.url().endsWith(`/api/budget/${budgetId}/report`)) {
        reports.push(request.postData() ?? '');
        reportAsked();
      }
    });
    // The screen mounts only once the budget is read: holding that answer until the report is asked
    // passes only if the route asked for it by itself (and would hang otherwise).
    await page.route(`**/api/budget/${budgetId}`, async (route) => {
      await asked;
      await route.continue();
    });
    await page.goto(`/document/${documentId}/budget/${budgetId}/report`);
    await ready(page);
    await eventually(() => totalCell(page, 'base').textContent()).toBe(money('1 600,00'));
    // The screen found the answer under the request it computed itself: no second report.
    expect(reports).toHaveLength(1);
    // public/early-reads.js started these before the app loaded, and the app took those answers.
    for (const path of ['/api/auth/me', ...reportOpeningPaths(documentId, budgetId)])
      expect(
        reads.filter((read) => read === path),
        path,
      ).toHaveLength(1);
    const earlyLeft = () => page.evaluate(() => (window as unknown as { __eelarveEarlyReads?: Map<string, unknown> }).__eelarveEarlyReads?.size);
    expect(await earlyLeft()).toBe(0);
    // The next visit asks the report this browser asked last while the app loads, and the app takes it: one report, none left.
    reports.length = 0;
    await page.goto(`/document/${documentId}/budget/${budgetId}/report`);
    await ready(page);
    await eventually(() => totalCell(page, 'base').textContent()).toBe(money('1 600,00'));
    expect(reports).toHaveLength(1);
    expect(await earlyLeft()).toBe(0);
    // Asked by the early script, before the app's code ran (main.tsx marks that). Not "before the
    // app's code arrived": on a busy machine the module scripts, fetched in parallel, can arrive first.
    const timing = await page.evaluate(() => {
      const entries = performance.getEntriesByType('resource') as PerformanceResourceTiming[];
      const report = entries.find((entry) => entry.name.endsWith('/report'));
      const appStarted = performance.getEntriesByName('eelarve:app-started')[0];
      return { reportAsked: report?.startTime ?? Number.NaN, appStarted: appStarted?.startTime ?? Number.NaN };
    });
    expect(timing.reportAsked).toBeLessThan(timing.appStarted);
  }, 120_000);

  it('reads in English, and axe finds nothing serious', async () => {
    const page = await suite.openPage();
    await signIn(page, suite.server.admin);
    await useEnglish(page);
    await page.goto(`/document/${documentId}/budget/${budgetId}/report`);
    await ready(page);
    await eventually(() => totalCell(page, 'base').textContent()).toBeTruthy();
    expect(await page.getByTestId('report-export').textContent()).toBe('Export');
    await page.getByTestId('report-add-calc').click();
    expect(await estonianTextsOn(page, ['Linna eelarve', 'Lisaeelarve', 'Haridus', 'Kultuur', 'Tegevusala', 'Allikas', 'Kulud', 'Aruanded 2027'])).toEqual([]);
    expect(await seriousViolations(page)).toEqual([]);
  });
});
