import { gzipSync } from 'node:zlib';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { en } from '../src/i18n/messages/en';
import { et } from '../src/i18n/messages/et';
import { type ApiClient, apiClient } from './auth-flows';
import { browserSuite, call, documentWithMaster, gridRows, seriousViolations, signIn } from './harness';
import { estonianTextsOn, useEnglish } from './record-english';

/**
 * The import error report of a monitoring budget in the browser (spec 3, sections 2, 3 and 8;
 * issue 11 gaps, R12 point 1): an ERP job's import with bad rows (a month 13, a month outside
 * the period, an unknown classifier value) has run; the budget's overview shows the latest import
 * and opens the report, a modal 95% of the window wide with a 45vh table of the rows as sent and
 * their translated errors. In Estonian and in English, with axe; a report that is gone says
 * 'errorReportExpired'.
 */
const eventually = <T>(read: () => T | Promise<T>, timeout = 15_000) => expect.poll(read, { timeout });

/** Waits (in set-up, outside a test) for the budget's import job to end SUCCESS. */
async function importFinished(client: ApiClient, budget: string): Promise<void> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const { status } = await call<{ status: string }>(client, 'GET', `/api/budget/${budget}/import/status`);
    if (status === 'SUCCESS') return;
    if (status === 'ERROR' || Date.now() > deadline) throw new Error(`the import ended ${status}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

describe('web: import error report of a monitoring budget (browser)', () => {
  const suite = browserSuite();
  let admin: ApiClient;
  let documentId: string;
  let budgetId: string;

  beforeAll(async () => {
    admin = await apiClient(suite.server.app, suite.server.admin.email, suite.server.admin.password);
    const { organizationId } = await call<{ organizationId: string }>(admin, 'GET', '/api/auth/me');
    const made = await documentWithMaster(admin, organizationId, { name: 'Seire 2027', period: { year: 2027, month: 1, duration: 1 } });
    documentId = made.documentId;
    await call(admin, 'POST', `/api/classifier/${made.masterClassifierId}/item`, { code: '01', name: 'Haridus' });
    budgetId = (await call<{ id: string }>(admin, 'POST', `/api/document/${documentId}/budget`, { type: 'MONITORING', name: 'Täitmine' })).id;
    const list = [
      { name: 'Konto 4500 jaanuar', amount: '1500', month: 1, year: 2027, classifiers: { tegevusala: '01' } },
      { name: 'Konto 4500 kuu 13', amount: '200', month: 13, year: 2027, classifiers: { tegevusala: '01' } },
      { name: 'Konto 5500 möödunud aasta', amount: '300', month: 12, year: 2026, classifiers: { tegevusala: '01' } },
      { name: 'Konto 6000', amount: '400', month: 2, year: 2027, classifiers: { tegevusala: '99' } },
    ];
    const started = await admin.request({
      method: 'POST',
      url: `/api/budget/${budgetId}/records?originResourceName=${encodeURIComponent('SAP jaanuar')}`,
      headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' },
      payload: gzipSync(JSON.stringify({ list })),
    });
    if (started.statusCode !== 202) throw new Error(`import: ${started.statusCode} ${started.body}`);
    await importFinished(admin, budgetId);
  }, 120_000);

  /** The report's rows: row number → the message keys of its errors. */
  const reportErrors = (page: Page) =>
    gridRows(page, 'record-import-report-rows').evaluateAll((rows) =>
      Object.fromEntries(
        rows.map((row) => [
          row.getAttribute('row-id'),
          Array.from(row.querySelectorAll('[data-testid="record-import-row-errors"] li')).map((item) => item.getAttribute('data-message')),
        ]),
      ),
    );

  async function openReport(page: Page) {
    await page.goto(`/document/${documentId}/budget/${budgetId}/report`);
    const latest = page.getByTestId('record-import-latest');
    await latest.getByTestId('record-import-report-open').waitFor();
    await page.getByTestId('record-import-report-open').click();
    const modal = page.getByTestId('record-import-error-report');
    await modal.waitFor();
    return { latest, modal };
  }

  it('shows the rows that broke a rule with their errors, 95% wide with a 45vh table (Estonian, axe)', async () => {
    const page = await suite.openPage();
    await signIn(page, suite.server.admin);
    const { latest, modal } = await openReport(page);
    expect(await latest.getAttribute('data-status')).toBe('SUCCESS');
    expect(await latest.textContent()).toContain('SAP jaanuar');
    expect(await latest.textContent()).toContain('Imporditud 1; vigu 3, neist kriitilisi 3.');

    const viewport = page.viewportSize()!;
    expect(Math.round((await modal.boundingBox())!.width)).toBe(Math.round(viewport.width * 0.95));
    await eventually(() => gridRows(page, 'record-import-report-rows').count()).toBe(3);
    expect(Math.round((await page.getByTestId('record-import-report-rows').boundingBox())!.height)).toBe(Math.round(viewport.height * 0.45));
    expect(await reportErrors(page)).toEqual({
      '2': ['RECORD_PERIOD_MONTH_INVALID'],
      '3': ['RECORD_PERIOD_OUT_OF_RANGE'],
      '4': ['referenceItemNotFound'],
    });
    const row = (id: string) => page.locator(`[data-testid="record-import-report-rows"] .ag-center-cols-container .ag-row[row-id="${id}"]`);
    expect(await row('2').getByTestId('record-import-row-errors').textContent()).toBe(`${et['error.RECORD_PERIOD_MONTH_INVALID']} (kriitiline)`);
    expect(await row('4').getByTestId('record-import-row-errors').textContent()).toBe(
      `tegevusala: ${et['records.importError.referenceItemNotFound']} (kriitiline)`,
    );
    // The row as it was sent: its month and year keys and its classifier code.
    expect(await row('2').locator('[col-id="month"]').textContent()).toBe('13');
    expect(await row('3').locator('[col-id="year"]').textContent()).toBe('2026');
    expect(await row('4').locator('[col-id="classifier-tegevusala"]').textContent()).toBe('99');
    expect(await page.getByTestId('record-import-report-summary').textContent()).toBe(
      '3 rida vigadega, kokku 3 viga. Kriitiliste vigadega ridu ei imporditud.',
    );
    // The English pass's check finds the Estonian texts here (it can fail).
    expect(await estonianTextsOn(page)).toContain('Impordi vigade aruanne');
    expect(await seriousViolations(page)).toEqual([]);

    await modal.getByRole('button', { name: et['common.close'] }).last().click();
    await modal.waitFor({ state: 'detached' });
  });

  it('says it all in English, nothing left in Estonian (axe)', async () => {
    const page = await suite.openPage();
    await signIn(page, suite.server.admin);
    await useEnglish(page);
    const { latest, modal } = await openReport(page);
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('en');
    expect(await latest.textContent()).toContain('Imported 1; 3 errors, 3 of them critical.');
    expect(await modal.locator('h2').textContent()).toBe(en['recordImport.report.title']);
    await eventually(() => gridRows(page, 'record-import-report-rows').count()).toBe(3);
    const row = (id: string) => page.locator(`[data-testid="record-import-report-rows"] .ag-center-cols-container .ag-row[row-id="${id}"]`);
    expect(await row('3').getByTestId('record-import-row-errors').textContent()).toBe(`${en['error.RECORD_PERIOD_OUT_OF_RANGE']} (critical)`);
    expect(await page.getByTestId('record-import-report-rows').locator('.ag-header-cell-text').allTextContents()).toEqual([
      'Row',
      'Name',
      'Amount',
      'Month',
      'Year',
      'tegevusala',
      'Errors',
    ]);
    expect(await estonianTextsOn(page)).toEqual([]);
    expect(await seriousViolations(page)).toEqual([]);
  });

  it('says the report has expired when the server no longer has it (spec 3, section 8)', async () => {
    const page = await suite.openPage();
    await signIn(page, suite.server.admin);
    // The report as a server answers once it is gone: 404.
    await page.route(`**/api/budget/${budgetId}/import/error`, (route) =>
      route.fulfill({ status: 404, contentType: 'application/json', body: JSON.stringify({ code: 'IMPORT_NOT_FOUND', message: 'gone' }) }),
    );
    const { modal } = await openReport(page);
    await modal.getByTestId('record-import-report-expired').waitFor();
    expect(await modal.getByTestId('record-import-report-expired').textContent()).toContain(et['dashboard.budget.import.errorReportExpired']);
    expect(await modal.getByTestId('record-import-report-rows').count()).toBe(0);
  });
});
