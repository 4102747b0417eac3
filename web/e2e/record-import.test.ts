import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BudgetRecord } from '@eelarve/shared';
import type { Locator, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { XLSX_MIME } from '../src/components/spreadsheet';
import { et } from '../src/i18n/messages/et';
import { type ApiClient, apiClient } from './auth-flows';
import { browserSuite, call, documentWithMaster, gridRows, seriousViolations, signIn } from './harness';

/**
 * Records imports in the browser (issue 11, point 4; spec 3, sections 4 and 5): a spreadsheet saved
 * by LibreOffice Calc (fixtures/record-import-libreoffice.xlsx, made from the .csv beside it by
 * `soffice --convert-to xlsx` with the code columns as text) with good and bad rows is read in the
 * browser; every row shows its errors, critical rows cannot be chosen, the import waits for a
 * selection and for no filter, the preview says what changes, and the good rows arrive through the
 * import job and its polled status. Then another budget's records are imported into a sub-budget.
 */

const FIXTURE = path.join(path.dirname(fileURLToPath(import.meta.url)), 'fixtures', 'record-import-libreoffice.xlsx');
const NBSP = '\u00a0';
/** The job is polled every 5 s: room for a few polls on a loaded machine. */
const JOB_TIMEOUT = 40_000;
const eventually = <T>(read: () => T | Promise<T>, timeout = 15_000) => expect.poll(read, { timeout });

const importRows = (page: Page) => gridRows(page, 'record-import-rows');
const importRow = (page: Page, line: number): Locator => page.locator(`[data-testid="record-import-rows"] .ag-center-cols-container .ag-row[row-id="${line}"]`);
/** The message keys of a row's errors, in order. */
const rowErrors = (page: Page, line: number) =>
  importRow(page, line)
    .locator('[data-testid="record-import-row-errors"] li')
    .evaluateAll((items) => items.map((item) => item.getAttribute('data-message')));

describe('web: records import (browser)', () => {
  const suite = browserSuite();
  let admin: ApiClient;
  let documentId: string;
  let budgetId: string;
  let sourceBudgetId: string;
  let schemeId: string;
  let educationId: string;
  let cultureId: string;

  beforeAll(async () => {
    admin = await apiClient(suite.server.app, suite.server.admin.email, suite.server.admin.password);
    const { organizationId } = await call<{ organizationId: string }>(admin, 'GET', '/api/auth/me');
    const made = await documentWithMaster(admin, organizationId, { name: 'Eelarve 2027', period: { year: 2027, month: 1, duration: 1 } });
    documentId = made.documentId;
    const activityId = made.masterClassifierId;
    await call(admin, 'POST', `/api/classifier/${activityId}/item`, { code: '01', name: 'Haridus' });
    await call(admin, 'POST', `/api/classifier/${activityId}/item`, { code: '02', name: 'Kultuur' });
    const sourceId = (
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
    schemeId = (
      await call<{ id: string }>(admin, 'POST', `/api/document/${documentId}/schema`, {
        name: 'Kulud',
        fieldName: 'kulud',
        classifierList: [{ classifierId: activityId, type: 'MAIN' }],
      })
    ).id;
    educationId = (await call<{ id: string }>(admin, 'POST', `/api/schema/${schemeId}/sub-budget`, { name: 'Haridus', classifiers: { [activityId]: '01' } }))
      .id;
    cultureId = (await call<{ id: string }>(admin, 'POST', `/api/schema/${schemeId}/sub-budget`, { name: 'Kultuur', classifiers: { [activityId]: '02' } })).id;
    budgetId = (await call<{ id: string }>(admin, 'POST', `/api/document/${documentId}/budget`, { type: 'COMMON', name: 'Linna eelarve' })).id;
    sourceBudgetId = (await call<{ id: string }>(admin, 'POST', `/api/document/${documentId}/budget`, { type: 'COMMON', name: 'Eelmise aasta eelarve' })).id;
    const months = ['0.1', '0.2', ...Array(10).fill('0')];
    await call(admin, 'POST', `/api/budget/${sourceBudgetId}/sub-budget/${educationId}/record`, {
      name: 'Koolibussid',
      amount: '0.3',
      factors: { months },
      classifiers: {},
    });
    await call(admin, 'POST', `/api/budget/${sourceBudgetId}/sub-budget/${educationId}/record`, {
      name: 'Lasteaiad',
      amount: '2500',
      classifiers: { allikas: 'B' },
    });
    await call(admin, 'POST', `/api/budget/${sourceBudgetId}/sub-budget/${cultureId}/record`, { name: 'Raamatukogu', amount: '700', classifiers: {} });
  }, 120_000);

  it('imports the good rows of a LibreOffice spreadsheet after showing every row’s errors', async () => {
    const page = await suite.openPage();
    await signIn(page, suite.server.admin);
    await page.goto(`/document/${documentId}/budget/${budgetId}/sub-budgets/${schemeId}`);
    await gridRows(page, 'budget-sub-budgets-grid').first().waitFor();

    await page.getByTestId('record-import-menu').click();
    await page.getByTestId('record-import-from-file').click();
    const modal = page.getByTestId('record-import-modal');
    await modal.waitFor();
    // Spec: the file step is 700 px wide.
    expect((await modal.boundingBox())?.width).toBe(700);
    expect(await modal.getByTestId('record-import-target').textContent()).toBe('Kirjed lisatakse eelarvesse „Linna eelarve“.');
    // A file that only claims to be a workbook is refused in the user's language, not the reader's.
    await page.getByTestId('record-import-file').setInputFiles({ name: 'kirjed.xlsx', mimeType: XLSX_MIME, buffer: Buffer.from('nimi;summa\nRida;1') });
    await page.getByTestId('record-import-next').click();
    const readError = await page.getByTestId('record-import-read-error').textContent();
    expect(readError).toContain(et['fileImport.fileReadError']);
    expect(readError).toContain(et['fileImport.fileReadErrorHint']);
    expect(readError).not.toContain('workbook');

    await page.getByTestId('record-import-file').setInputFiles(FIXTURE);
    await page.getByTestId('record-import-next').click();
    await page.getByTestId('record-import-rows-step').waitFor();

    // The rows step is 95% of the window wide; the error table 45% of its height.
    const viewport = page.viewportSize()!;
    expect(Math.round((await modal.boundingBox())!.width)).toBe(Math.round(viewport.width * 0.95));
    expect(Math.round((await page.getByTestId('record-import-rows').boundingBox())!.height)).toBe(Math.round(viewport.height * 0.45));
    expect(await page.getByTestId('record-import-ignored').textContent()).toBe('Neid veerge ei loeta: märkus');
    const summary = page.getByTestId('record-import-summary');
    expect(await summary.getAttribute('data-rows')).toBe('8');
    expect(await summary.getAttribute('data-errors')).toBe('6');
    expect(await summary.getAttribute('data-critical')).toBe('2');
    await eventually(() => importRows(page).count()).toBe(8);

    // Every row's errors (line = the file's row; 1 is the header).
    expect(await rowErrors(page, 2)).toEqual([]);
    expect(await rowErrors(page, 3)).toEqual([]);
    expect(await rowErrors(page, 4)).toEqual(['emptyNameMaster']);
    expect(await rowErrors(page, 5)).toEqual(['referenceItemNotFound']);
    expect(await rowErrors(page, 6)).toEqual(['optionalReferenceItemNotFound']);
    expect(await rowErrors(page, 7)).toEqual(['sumNotNumeric']);
    expect(await rowErrors(page, 8)).toEqual(['sumAndPeriodizedInfoMismatch']);
    expect(await rowErrors(page, 9)).toEqual(['sumAndPeriodizedInfoMissing']);
    expect(await importRow(page, 5).getByTestId('record-import-row-errors').textContent()).toBe(
      `tegevusala: ${et['records.importError.referenceItemNotFound']} (kriitiline)`,
    );
    expect(await importRow(page, 4).getByTestId('record-import-row-errors').getAttribute('data-critical')).toBe('false');
    // Critical rows cannot be selected.
    expect(await importRow(page, 5).locator('.ag-selection-checkbox input').isDisabled()).toBe(true);
    expect(await importRow(page, 7).locator('.ag-selection-checkbox input').isDisabled()).toBe(true);
    expect(await importRow(page, 2).locator('.ag-selection-checkbox input').isDisabled()).toBe(false);

    // Rows have errors and none is chosen: nothing to import yet.
    const submit = page.getByTestId('record-import-submit');
    expect(await submit.isDisabled()).toBe(true);
    expect(await page.getByTestId('record-import-hint').getAttribute('data-reason')).toBe('recordImport.selectRows');
    expect(await seriousViolations(page)).toEqual([]);

    // Choose all that can be chosen: the six rows without a critical error.
    await page.locator('[data-testid="record-import-rows"] .ag-header-select-all input').check();
    await eventually(() => summary.getAttribute('data-selected')).toBe('6');
    expect(await submit.isDisabled()).toBe(false);
    // A filter turns the import off, its removal on again.
    await page.getByTestId('record-import-search').fill('remont');
    await eventually(() => importRows(page).count()).toBe(1);
    expect(await submit.isDisabled()).toBe(true);
    expect(await page.getByTestId('record-import-hint').getAttribute('data-reason')).toBe('recordImport.filterActive');
    await page.getByTestId('record-import-search').fill('');
    await page.getByTestId('record-import-errors-only').check();
    await eventually(() => importRows(page).count()).toBe(6);
    expect(await submit.isDisabled()).toBe(true);
    await page.getByTestId('record-import-errors-only').uncheck();
    await eventually(() => submit.isDisabled()).toBe(false);

    // Beyond the spec: what the import changes, per sub-budget, before → after.
    const preview = page.getByTestId('record-import-preview');
    await preview.waitFor();
    await eventually(() => preview.getByTestId('record-import-preview-total').textContent()).toBe(`Eelarve kokku: 0,00 → 1${NBSP}970,50`);
    const education = preview.locator(`[data-sub-budget-id="${educationId}"]`);
    expect(await education.locator('td').allTextContents()).toEqual(['Kulud', 'Haridus', '+4', '0,00', `1${NBSP}570,50`]);
    const culture = preview.locator(`[data-sub-budget-id="${cultureId}"]`);
    expect(await culture.locator('td').allTextContents()).toEqual(['Kulud', 'Kultuur', '+2', '0,00', '400,00']);
    expect(await seriousViolations(page)).toEqual([]);

    // Import: the job's status in three steps, then the result (of the rows sent: the selected ones) and the toast.
    await submit.click();
    const progress = page.getByTestId('record-import-progress');
    await progress.waitFor();
    await eventually(() => progress.getAttribute('data-phase'), JOB_TIMEOUT).toBe('SUCCESS');
    expect(await page.getByTestId('record-import-result').textContent()).toBe('Imporditud 6; vigu 4, neist kriitilisi 0.');
    expect(await page.getByTestId('record-import-step-FINISHED').getAttribute('aria-current')).toBe('step');
    await eventually(() => page.locator('[data-testid="toast"][data-message="importRecordsSuccess"]').textContent()).toContain(
      'Import õnnestus: 6 kirjet imporditud.',
    );
    expect(await seriousViolations(page)).toEqual([]);
    await page.getByTestId('record-import-close').click();
    await modal.waitFor({ state: 'detached' });

    // The page read its data again: the sub-budgets count their new records.
    const countOf = (name: string) =>
      gridRows(page, 'budget-sub-budgets-grid')
        .filter({ has: page.getByTestId('budget-sub-budget-name').getByText(name, { exact: true }) })
        .locator('[col-id="records"]')
        .textContent();
    await eventually(() => countOf('Haridus')).toBe('4');
    await eventually(() => countOf('Kultuur')).toBe('2');

    // And the records screen shows them: the empty name took the master item's name.
    await page.goto(`/document/${documentId}/budget/${budgetId}/sub-budgets/${schemeId}/records/${educationId}`);
    await page.getByTestId('records-page').waitFor();
    const names = () => page.locator('[data-testid="records-grid"] [data-testid="record-name"]').allTextContents();
    await eventually(async () => (await names()).sort()).toEqual(['Haridus', 'Tühi summa', 'Vale allikas', 'Õpetajate palgad'].sort());
    const imported = await call<BudgetRecord[]>(admin, 'GET', `/api/budget/${budgetId}/records?include-comments=false`);
    const amounts = Object.fromEntries(imported.map((record) => [record.name, [record.amount, record.factors.months?.slice(0, 2) ?? null]]));
    expect(amounts).toEqual({
      'Õpetajate palgad': ['1500.5', null],
      'Kultuurimaja remont': ['300', ['100', '200']],
      Haridus: ['50', null],
      'Vale allikas': ['20', null],
      'Kuud ei klapi': ['100', null],
      'Tühi summa': ['0', null],
    });
  }, 120_000);

  it('imports another budget’s records into a sub-budget, exactly', async () => {
    const page = await suite.openPage();
    await signIn(page, suite.server.admin);
    await page.goto(`/document/${documentId}/budget/${budgetId}/sub-budgets/${schemeId}/records/${educationId}`);
    await page.getByTestId('records-page').waitFor();
    const before = await call<BudgetRecord[]>(admin, 'GET', `/api/budget/${budgetId}/sub-budget/${educationId}/records`);

    await page.getByTestId('record-import-menu').click();
    await page.getByTestId('record-import-from-budget').click();
    const modal = page.getByTestId('record-import-modal');
    await modal.waitFor();
    expect(await modal.getByTestId('record-import-target').textContent()).toBe('Kirjed lisatakse alameelarvesse „Haridus“.');
    // The document's other budgets the user can read.
    await eventually(() => page.getByTestId('record-import-budget').locator('option').allTextContents()).toEqual([
      et['recordImport.budgetPlaceholder'],
      'Eelmise aasta eelarve',
    ]);
    await page.getByTestId('record-import-budget').selectOption(sourceBudgetId);
    await page.getByTestId('record-import-next').click();
    await page.getByTestId('record-import-rows-step').waitFor();

    // Into Haridus: the culture record does not match the sub-budget (critical), the other two are clean.
    const summary = page.getByTestId('record-import-summary');
    expect(await summary.getAttribute('data-rows')).toBe('3');
    expect(await summary.getAttribute('data-critical')).toBe('1');
    const messages = await page
      .locator('[data-testid="record-import-rows"] [data-testid="record-import-row-errors"] li')
      .evaluateAll((items) => items.map((item) => item.getAttribute('data-message')));
    expect(messages).toEqual(['doesNotMatchSubBudget']);
    // The optional classifier of a row is shown in the shared column.
    expect(await page.getByTestId('record-import-additional').allTextContents()).toContain('allikas: B');
    await page.locator('[data-testid="record-import-rows"] .ag-header-select-all input').check();
    await eventually(() => summary.getAttribute('data-selected')).toBe('2');
    await eventually(() => page.getByTestId('record-import-preview-total').textContent()).toMatch(/→/);
    expect(await seriousViolations(page)).toEqual([]);

    await page.getByTestId('record-import-submit').click();
    await eventually(() => page.getByTestId('record-import-progress').getAttribute('data-phase'), JOB_TIMEOUT).toBe('SUCCESS');
    await page.getByTestId('record-import-close').click();
    const names = () => page.locator('[data-testid="records-grid"] [data-testid="record-name"]').allTextContents();
    await eventually(async () => (await names()).filter((name) => name === 'Koolibussid' || name === 'Lasteaiad').sort()).toEqual(['Koolibussid', 'Lasteaiad']);

    // Exact amounts and months came across; nothing was imported twice.
    const after = await call<BudgetRecord[]>(admin, 'GET', `/api/budget/${budgetId}/sub-budget/${educationId}/records`);
    expect(after.length).toBe(before.length + 2);
    const buses = after.find((record) => record.name === 'Koolibussid');
    expect(buses?.amount).toBe('0.3');
    expect(buses?.factors.months?.slice(0, 3)).toEqual(['0.1', '0.2', '0']);
  }, 120_000);
});
