import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DEFAULT_RESOURCE_STATUSES } from '@eelarve/shared';
import { accountsFixture, PASSWORD } from '@eelarve/testing/accounts';
import type { Locator, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { en } from '../src/i18n/messages/en';
import { et } from '../src/i18n/messages/et';
import { type ApiClient, apiClient, screenshot } from './auth-flows';
import { browserSuite, call, documentWithMaster, enableStatuses, gridRows, seriousViolations, signIn } from './harness';
import { estonianTextsOn, useEnglish } from './record-english';

/**
 * The records screen (issue 11, point 6; spec 3, Records screen): from a budget's sub-budgets tab
 * an editor opens a sub-budget's records, adds one with a typed amount, gives it a monthly split
 * (the amount follows the split; year and quarter sums in a period from July, so two calendar
 * years), duplicates, promotes, bulk edits and deletes records, and reverts a change from the
 * record's history. A reader sees the same records read-only. Axe finds nothing serious.
 */

const NBSP = '\u00a0';
/** expect.poll with room for a loaded machine (its default gives up after one second). */
const eventually = <T>(read: () => T | Promise<T>) => expect.poll(read, { timeout: 15_000 });

/** Saved record rows (not group rows, nor the unsaved row `new-<n>`, which stays until its save has been read back). */
const savedRows = (page: Page): Locator => page.locator('[data-testid="records-grid"] .ag-center-cols-container .ag-row:not([row-id^="new-"])');
const recordRows = (page: Page): Locator => savedRows(page).filter({ has: page.getByTestId('record-name') });
const recordRow = (page: Page, name: string): Locator => savedRows(page).filter({ has: page.getByTestId('record-name').getByText(name, { exact: true }) });
/** A cell of a row by its column id. */
const cell = (row: Locator, colId: string): Locator => row.locator(`[col-id="${colId}"]`);

describe('web: records of a sub-budget (browser)', () => {
  const suite = browserSuite({ allowedErrors: /status of 422/ });
  let admin: ApiClient;
  let documentId: string;
  let budgetId: string;
  let schemeId: string;
  let subBudgetId: string;
  let sourceId: string;
  let activityId: string;
  let reader = { email: '', password: '' };

  beforeAll(async () => {
    admin = await apiClient(suite.server.app, suite.server.admin.email, suite.server.admin.password);
    const { organizationId } = await call<{ organizationId: string }>(admin, 'GET', '/api/auth/me');
    // A period from July: its months touch two calendar years.
    const made = await documentWithMaster(admin, organizationId, { name: 'Eelarve 2027/28', period: { year: 2027, month: 7, duration: 1 } });
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
    schemeId = (
      await call<{ id: string }>(admin, 'POST', `/api/document/${documentId}/schema`, {
        name: 'Kulud',
        fieldName: 'kulud',
        classifierList: [{ classifierId: activityId, type: 'MAIN' }],
      })
    ).id;
    subBudgetId = (await call<{ id: string }>(admin, 'POST', `/api/schema/${schemeId}/sub-budget`, { name: 'Haridus', classifiers: { [activityId]: '01' } }))
      .id;
    budgetId = (await call<{ id: string }>(admin, 'POST', `/api/document/${documentId}/budget`, { type: 'COMMON', name: 'Linna eelarve' })).id;
    const fixture = accountsFixture(suite.server.app, admin);
    const viewer = await fixture.reader(organizationId, ['DATA_VIEW', 'CLASSIFICATION_VIEW']);
    reader = { email: viewer.email, password: PASSWORD };
  }, 120_000);

  it('adds, splits by month, duplicates, promotes, bulk edits, deletes and reverts records', async () => {
    const page = await suite.openPage();
    await signIn(page, suite.server.admin);

    // The sub-budget's name on the budget's sub-budgets tab leads to its records.
    await page.goto(`/document/${documentId}/budget/${budgetId}/sub-budgets/${schemeId}`);
    await gridRows(page, 'budget-sub-budgets-grid').getByTestId('budget-sub-budget-name').getByText('Haridus', { exact: true }).click();
    await page.getByTestId('records-page').waitFor();
    expect(new URL(page.url()).pathname).toBe(`/document/${documentId}/budget/${budgetId}/sub-budgets/${schemeId}/records/${subBudgetId}`);
    // The item's name once the classifier items are read.
    await eventually(() => page.getByTestId('records-header-tegevusala').textContent()).toBe('01 – Haridus');
    // One grouping choice (the master classifier itself): the select is disabled.
    expect(await page.getByTestId('records-grouping').isDisabled()).toBe(true);
    // Two calendar years of the period: 2027 (Q3, Q4) and 2028 (Q1, Q2).
    const headers = await page.locator('[data-testid="records-grid"] .ag-header-group-cell').allTextContents();
    expect(headers.map((text) => text.trim()).filter((text) => text !== '')).toEqual(['2027', '2028']);

    // Add: save only once changed; a typed amount with a space and a decimal comma.
    await page.getByTestId('records-add').click();
    await page.getByTestId('record-name-input').waitFor();
    expect(await page.getByTestId('record-save').isDisabled()).toBe(true);
    await page.getByTestId('record-name-input').pressSequentially('Õpikud');
    await page.getByTestId(`record-classifier-${sourceId}`).selectOption('A');
    // Not a number: refused on its field before anything is sent.
    await page.getByTestId('record-amount-input').pressSequentially('12,3,4');
    await page.getByTestId('record-save').click();
    await page.getByTestId('record-validation-error').locator('[data-message="validation.amount"]').waitFor();
    expect(await page.getByTestId('record-amount-input').getAttribute('aria-invalid')).toBe('true');
    await page.getByTestId('record-amount-input').fill('');
    await page.getByTestId('record-amount-input').pressSequentially('1 234,5');
    await page.getByTestId('record-save').click();
    const books = recordRow(page, 'Õpikud');
    await books.waitFor();
    await eventually(() => books.getAttribute('class')).toContain('row-highlighted');
    expect(await cell(books, 'amount').textContent()).toBe(`1${NBSP}234,50`);
    expect(await cell(books, `classifier-${sourceId}`).textContent()).toBe('A – Riik');
    // The group row of 01 and the total sum it.
    await eventually(() => page.getByTestId('records-group-name').first().textContent()).toBe('01 – Haridus');
    expect(await page.getByTestId('records-sum-amount').allTextContents()).toContain(`1${NBSP}234,50`);

    // Edit with a monthly split: the amount becomes the split's sum and is not typed.
    await books.getByTestId('record-edit').click();
    await page.getByTestId('record-split').click();
    const split = page.getByTestId('record-period-modal');
    await split.waitFor();
    await split.getByTestId('record-month-0').fill('100');
    await split.getByTestId('record-month-5').fill('200,25');
    await split.getByTestId('record-month-6').fill('1 000');
    expect(await split.getByTestId('record-period-total').textContent()).toBe(`1${NBSP}300,25`);
    await split.getByTestId('record-period-apply').click();
    await split.waitFor({ state: 'detached' });
    expect(await page.getByTestId('record-amount-input').isDisabled()).toBe(true);
    expect(await page.getByTestId('record-amount-input').inputValue()).toBe(`1${NBSP}300,25`);
    await page.getByTestId('record-save').click();
    await page.getByTestId('record-name-input').waitFor({ state: 'detached' });
    await eventually(() => cell(books, 'amount').textContent()).toBe(`1${NBSP}300,25`);
    // July and December 2027 are Q3 and Q4 of 2027; January 2028 is Q1 of 2028.
    expect(await cell(books, 'y2027q3').textContent()).toBe('100,00');
    expect(await cell(books, 'y2027q4').textContent()).toBe('200,25');
    expect(await cell(books, 'y2027').textContent()).toBe('300,25');
    expect(await cell(books, 'y2028q1').textContent()).toBe(`1${NBSP}000,00`);
    await screenshot(page, 'records-screen');
    // The period overview shows the months by year.
    await books.getByTestId('record-period').click();
    const overview = page.getByTestId('record-period-modal');
    expect(await overview.getByTestId('record-period-y2028').textContent()).toBe(`1${NBSP}000,00`);
    expect(await seriousViolations(page)).toEqual([]);
    await page.keyboard.press('Escape');
    await overview.waitFor({ state: 'detached' });

    // Duplicate: the copy starts with the record's values and a copy name, and can be saved as it is.
    await books.getByTestId('record-duplicate').click();
    expect(await page.getByTestId('record-name-input').inputValue()).toBe('Õpikud (koopia)');
    await page.getByTestId('record-save').click();
    const copy = recordRow(page, 'Õpikud (koopia)');
    await copy.waitFor();
    await eventually(() => copy.getAttribute('class')).toContain('row-highlighted');
    expect(await cell(copy, 'amount').textContent()).toBe(`1${NBSP}300,25`);

    // Promote toggles the star.
    await copy.getByTestId('record-promote').click();
    await eventually(() => copy.getByTestId('record-promote').getAttribute('aria-pressed')).toBe('true');

    // Bulk edit: both records get source B.
    await recordRows(page).nth(0).locator('.ag-selection-checkbox input').check();
    await recordRows(page).nth(1).locator('.ag-selection-checkbox input').check();
    await page.getByTestId('records-bulk-edit').click();
    const bulk = page.getByTestId('records-bulk-edit-modal');
    await bulk.getByTestId('records-bulk-edit-save').click();
    await bulk.getByText(et['validation.required']).first().waitFor();
    await bulk.getByTestId('records-bulk-edit-field').selectOption(`classifier:${sourceId}`);
    await bulk.getByTestId('records-bulk-edit-value').selectOption('B');
    await bulk.getByTestId('records-bulk-edit-save').click();
    await bulk.waitFor({ state: 'detached' });
    await page.getByTestId('toast').filter({ hasText: '2 kirjet muudeti.' }).waitFor();
    await eventually(() => cell(books, `classifier-${sourceId}`).textContent()).toBe('B – Omavalitsus');
    expect(await cell(copy, `classifier-${sourceId}`).textContent()).toBe('B – Omavalitsus');

    // History: each version with who, occupation and when, the changed field highlighted; revert the bulk edit.
    await books.getByTestId('record-history').click();
    const history = page.getByTestId('record-history-modal');
    const entries = history.getByTestId('record-history-entry');
    await eventually(() => entries.count()).toBe(3);
    const latest = entries.first();
    expect(await latest.getAttribute('data-kind')).toBe('UPDATED');
    expect(await latest.locator(`[data-field="classifiers.${sourceId}"]`).getAttribute('data-changed')).toBe('true');
    expect(await latest.locator('[data-field="name"]').getAttribute('data-changed')).toBeNull();
    expect(await latest.getByTestId('record-history-user').textContent()).not.toBe('');
    expect(await latest.getByTestId('record-history-time').textContent()).toMatch(/^\d\d\.\d\d\.\d{4} \d\d:\d\d$/);
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'records-history');
    await latest.getByTestId('record-history-revert').click();
    await eventually(() => entries.count()).toBe(4);
    expect(await entries.first().getByTestId('record-history-reverts').textContent()).toContain('3');
    // The modal closes once the revert has settled: its toast comes after the table is read
    // again, which may end after the history's own refetch (Escape is ignored until then).
    await page.getByTestId('toast').filter({ hasText: et['records.history.revertSuccess'] }).waitFor();
    await page.keyboard.press('Escape');
    await history.waitFor({ state: 'detached' });
    await eventually(() => cell(books, `classifier-${sourceId}`).textContent()).toBe('A – Riik');

    // Delete one record from its row, then the other with the bulk delete.
    await copy.getByTestId('record-delete').click();
    await page.getByTestId('record-delete-dialog').getByRole('button', { name: et['common.delete'] }).click();
    await copy.waitFor({ state: 'detached' });
    await recordRows(page).first().locator('.ag-selection-checkbox input').check();
    await page.getByTestId('records-delete-selected').click();
    await page.getByTestId('record-delete-dialog').getByRole('button', { name: et['common.delete'] }).click();
    await page.getByTestId('toast').filter({ hasText: '1 kirje kustutati.' }).waitFor();
    await eventually(() => recordRows(page).count()).toBe(0);
  });

  it('shows a reader the records read-only', async () => {
    await call(admin, 'POST', `/api/budget/${budgetId}/sub-budget/${subBudgetId}/record`, { name: 'Kütt', amount: '5000', classifiers: {} });
    const page = await suite.openPage();
    await signIn(page, reader);
    await page.goto(`/document/${documentId}/budget/${budgetId}/sub-budgets/${schemeId}/records/${subBudgetId}`);
    await recordRow(page, 'Kütt').waitFor();
    expect(await page.getByTestId('records-page').getAttribute('data-read-only')).toBe('true');
    expect(await page.getByTestId('records-read-only').textContent()).toBe(et['records.readOnly']);
    expect(await page.getByTestId('records-add').count()).toBe(0);
    expect(await recordRow(page, 'Kütt').getByTestId('record-edit').count()).toBe(0);
    expect(await recordRow(page, 'Kütt').getByTestId('record-promote').count()).toBe(0);
    expect(await recordRow(page, 'Kütt').locator('.ag-selection-checkbox input').count()).toBe(0);
    expect(await cell(recordRow(page, 'Kütt'), 'amount').textContent()).toBe(`5${NBSP}000,00`);
    expect(await seriousViolations(page)).toEqual([]);

    // The search (after its 500 ms pause) keeps the records whose name or classifier values hold the text.
    await page.getByTestId('records-search').fill('omavalitsus');
    await eventually(() => recordRows(page).count()).toBe(0);
    await page.getByTestId('records-search').fill('kü');
    await eventually(() => recordRows(page).count()).toBe(1);
  });

  it('shows the sub-budgets’ real record counts and the row of records fitting no sub-budget, which opens read-only', async () => {
    // A record of another scheme's sub-budget (activity 02) fits no sub-budget of "Kulud".
    const otherScheme = (
      await call<{ id: string }>(admin, 'POST', `/api/document/${documentId}/schema`, {
        name: 'Valdkonnad',
        fieldName: 'valdkonnad',
        classifierList: [{ classifierId: activityId, type: 'MAIN' }],
      })
    ).id;
    const culture = (
      await call<{ id: string }>(admin, 'POST', `/api/schema/${otherScheme}/sub-budget`, { name: 'Kultuur', classifiers: { [activityId]: '02' } })
    ).id;
    await call(admin, 'POST', `/api/budget/${budgetId}/sub-budget/${culture}/record`, { name: 'Kontserdid', amount: '750.5', classifiers: {} });
    await call(admin, 'POST', `/api/budget/${budgetId}/sub-budget/${subBudgetId}/record`, { name: 'Vihikud', amount: '20', classifiers: {} });
    const educationRecords = await call<unknown[]>(admin, 'GET', `/api/budget/${budgetId}/sub-budget/${subBudgetId}/records`);
    const page = await suite.openPage();
    await signIn(page, suite.server.admin);
    await page.goto(`/document/${documentId}/budget/${budgetId}/sub-budgets/${schemeId}`);
    const rows = gridRows(page, 'budget-sub-budgets-grid');
    const unfit = rows.filter({ has: page.getByTestId('budget-sub-budget-name').getByText(et['records.unfit'], { exact: true }) });
    await unfit.waitFor();
    expect(await unfit.locator('[col-id="records"]').textContent()).toBe('1');
    expect(await unfit.getByTestId('budget-sub-budget-pin').count()).toBe(0);
    const education = rows.filter({ has: page.getByTestId('budget-sub-budget-name').getByText('Haridus', { exact: true }) });
    expect(Number(await education.locator('[col-id="records"]').textContent())).toBe(educationRecords.length);
    expect(educationRecords.length).toBeGreaterThan(0);

    await unfit.getByTestId('budget-sub-budget-name').click();
    await recordRow(page, 'Kontserdid').waitFor();
    expect(new URL(page.url()).pathname).toBe(`/document/${documentId}/budget/${budgetId}/sub-budgets/${schemeId}/records/-2`);
    expect(await page.getByTestId('records-title').textContent()).toContain(et['records.unfit']);
    expect(await page.getByTestId('records-page').getAttribute('data-read-only')).toBe('true');
    expect(await cell(recordRow(page, 'Kontserdid'), 'amount').textContent()).toBe('750,50');
  });

  it('groups records by a classifier grouping the master classifier’s items, collapsible, and by another when chosen', async () => {
    const { organizationId } = await call<{ organizationId: string }>(admin, 'GET', '/api/auth/me');
    const made = await documentWithMaster(admin, organizationId, { name: 'Eelarve 2029', period: { year: 2029, month: 1, duration: 1 } });
    const doc = made.documentId;
    const masterId = made.masterClassifierId;
    const classifier = async (fieldName: string, name: string, groupingId: string | null) =>
      (
        await call<{ id: string }>(admin, 'POST', `/api/document/${doc}/classifier`, {
          name,
          itemName: name,
          fieldName,
          groupingId,
          codeSettings: { typeName: 'Code', minLength: 1, maxLength: 20, hierarchical: false },
        })
      ).id;
    const item = async (classifierId: string, code: string, name: string, groupedBy: Array<{ classifierId: string; itemId: string }> = []) =>
      (await call<{ id: string }>(admin, 'POST', `/api/classifier/${classifierId}/item`, { code, name, groupedBy })).id;
    const field = await classifier('valdkond', 'Valdkond', masterId);
    const main = await classifier('pearuhm', 'Pearühm', masterId);
    const unit = await classifier('asutus', 'Asutus', null);
    const education = await item(field, 'H', 'Haridusvaldkond');
    const culture = await item(field, 'K', 'Kultuurivaldkond');
    const all = await item(main, 'X', 'Kõik tegevused');
    await item(masterId, '01', 'Üldharidus', [
      { classifierId: field, itemId: education },
      { classifierId: main, itemId: all },
    ]);
    await item(masterId, '02', 'Teater', [
      { classifierId: field, itemId: culture },
      { classifierId: main, itemId: all },
    ]);
    await item(unit, 'L1', 'Linnavalitsus');
    const scheme = (
      await call<{ id: string }>(admin, 'POST', `/api/document/${doc}/schema`, { name: 'Asutused', classifierList: [{ classifierId: unit, type: 'MAIN' }] })
    ).id;
    const place = (await call<{ id: string }>(admin, 'POST', `/api/schema/${scheme}/sub-budget`, { name: 'Linnavalitsus', classifiers: { [unit]: 'L1' } })).id;
    const budget = (await call<{ id: string }>(admin, 'POST', `/api/document/${doc}/budget`, { type: 'COMMON', name: 'Linn' })).id;
    for (const [name, amount, code] of [
      ['Koolid', '100', '01'],
      ['Lasteaed', '30.5', '01'],
      ['Etendused', '50', '02'],
    ])
      await call(admin, 'POST', `/api/budget/${budget}/sub-budget/${place}/record`, { name, amount, classifiers: { [masterId]: code } });

    const page = await suite.openPage();
    await signIn(page, suite.server.admin);
    await page.goto(`/document/${doc}/budget/${budget}/sub-budgets/${scheme}/records/${place}`);
    await recordRow(page, 'Etendused').waitFor();
    const grouping = page.getByTestId('records-grouping');
    expect(await grouping.isDisabled()).toBe(false);
    expect(await grouping.locator('option').allTextContents()).toEqual(['Valdkond', 'Pearühm']);
    const groupRow = (name: string) => gridRows(page, 'records-grid').filter({ has: page.getByTestId('records-group-name').getByText(name, { exact: true }) });
    await eventually(() => cell(groupRow('H – Haridusvaldkond'), 'amount').textContent()).toBe('130,50');
    expect(await cell(groupRow('K – Kultuurivaldkond'), 'amount').textContent()).toBe('50,00');

    // A collapsed group hides its records; its sum stays.
    await groupRow('H – Haridusvaldkond').getByTestId('records-group-toggle').click();
    await eventually(() => recordRows(page).count()).toBe(1);
    expect(await groupRow('H – Haridusvaldkond').getByTestId('records-group-toggle').getAttribute('aria-expanded')).toBe('false');

    // Grouped by the other classifier: one group of all three.
    await grouping.selectOption(main);
    await eventually(() => cell(groupRow('X – Kõik tegevused'), 'amount').textContent()).toBe('180,50');
    expect(await recordRows(page).count()).toBe(3);
    expect(await seriousViolations(page)).toEqual([]);
  });

  // Last: it makes the organisation use statuses.
  it('keeps the records of a budget whose status disables writing its data read-only, even for a writer', async () => {
    const { organizationId } = await call<{ organizationId: string }>(admin, 'GET', '/api/auth/me');
    await enableStatuses(admin, organizationId);
    const [inPreparation, , approved] = DEFAULT_RESOURCE_STATUSES;
    const fixture = accountsFixture(suite.server.app, admin);
    const writer = await fixture.member(organizationId, ['DATA_VIEW', 'CLASSIFICATION_VIEW']);
    await fixture.grant(writer.occupationId, [{ update: true }]);
    const made = await documentWithMaster(admin, organizationId, {
      name: 'Kinnitatud 2030',
      period: { year: 2030, month: 1, duration: 1 },
      resourceStatusId: inPreparation?.id,
    });
    await call(admin, 'POST', `/api/classifier/${made.masterClassifierId}/item`, { code: '01', name: 'Haridus' });
    const scheme = (
      await call<{ id: string }>(admin, 'POST', `/api/document/${made.documentId}/schema`, {
        name: 'Kulud',
        classifierList: [{ classifierId: made.masterClassifierId, type: 'MAIN' }],
      })
    ).id;
    const place = (
      await call<{ id: string }>(admin, 'POST', `/api/schema/${scheme}/sub-budget`, { name: 'Haridus', classifiers: { [made.masterClassifierId]: '01' } })
    ).id;
    const budget = (
      await call<{ id: string }>(admin, 'POST', `/api/document/${made.documentId}/budget`, {
        type: 'COMMON',
        name: 'Kinnitatud',
        resourceStatusId: approved?.id,
      })
    ).id;

    const page = await suite.openPage();
    await signIn(page, { email: writer.email, password: PASSWORD });
    await page.goto(`/document/${made.documentId}/budget/${budget}/sub-budgets/${scheme}/records/${place}`);
    await page.getByTestId('records-grid').waitFor();
    expect(await page.getByTestId('records-page').getAttribute('data-read-only')).toBe('true');
    expect(await page.getByTestId('records-read-only').textContent()).toBe(et['records.readOnly.status']);
    expect(await page.getByTestId('records-add').count()).toBe(0);

    // The same writer edits the records of a budget still in preparation.
    const open = (
      await call<{ id: string }>(admin, 'POST', `/api/document/${made.documentId}/budget`, {
        type: 'COMMON',
        name: 'Koostamisel',
        resourceStatusId: inPreparation?.id,
      })
    ).id;
    await page.goto(`/document/${made.documentId}/budget/${open}/sub-budgets/${scheme}/records/${place}`);
    await page.getByTestId('records-add').waitFor();
    expect(await page.getByTestId('records-page').getAttribute('data-read-only')).toBeNull();
  });

  it('shows the records screen, its modals and its export in English, nothing left in Estonian (axe)', async () => {
    // A record with a monthly split and a second version: the period overview and the history have something to show.
    const months = ['100', ...Array(11).fill('0')];
    const base = `/api/budget/${budgetId}/sub-budget/${subBudgetId}`;
    const { id } = await call<{ id: string }>(admin, 'POST', `${base}/record`, { name: 'Textbooks', amount: '100', factors: { months }, classifiers: {} });
    await call(admin, 'PUT', `${base}/record/${id}`, { name: 'Textbooks and maps', amount: '100', factors: { months }, classifiers: {} });
    const page = await suite.openPage();
    await signIn(page, suite.server.admin);
    await useEnglish(page);
    await page.goto(`/document/${documentId}/budget/${budgetId}/sub-budgets/${schemeId}/records/${subBudgetId}`);
    const row = recordRow(page, 'Textbooks and maps');
    await row.waitFor();
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('en');
    const inEnglish = async () => {
      // The status test's document and budget names (data) come first in the document lists.
      expect(await estonianTextsOn(page, ['Kinnitatud 2030', 'Kinnitatud'])).toEqual([]);
      expect(await seriousViolations(page)).toEqual([]);
    };
    await inEnglish();
    expect(await page.getByTestId('records-add').textContent()).toContain(en['records.add']);

    // The history modal.
    await row.getByTestId('record-history').click();
    const history = page.getByTestId('record-history-modal');
    await eventually(() => history.getByTestId('record-history-entry').count()).toBe(2);
    await inEnglish();
    await page.keyboard.press('Escape');
    await history.waitFor({ state: 'detached' });

    // The period overview.
    await row.getByTestId('record-period').click();
    await page.getByTestId('record-period-modal').waitFor();
    await inEnglish();
    await page.keyboard.press('Escape');
    await page.getByTestId('record-period-modal').waitFor({ state: 'detached' });

    // The bulk edit modal, with its refusal of a missing field.
    await row.locator('.ag-selection-checkbox input').check();
    await page.getByTestId('records-bulk-edit').click();
    const bulk = page.getByTestId('records-bulk-edit-modal');
    await bulk.getByTestId('records-bulk-edit-save').click();
    await bulk.getByText(en['validation.required']).first().waitFor();
    await inEnglish();
    await page.keyboard.press('Escape');
    await bulk.waitFor({ state: 'detached' });

    // The import modal: the file step, then the rows step with a good row and a bad one.
    await page.getByTestId('record-import-menu').click();
    await page.getByTestId('record-import-from-file').click();
    const modal = page.getByTestId('record-import-modal');
    await modal.waitFor();
    await inEnglish();
    await page.getByTestId('record-import-file').setInputFiles({
      name: 'rows.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from('name,tegevusala,summa\nMaps,01,10\nGlobes,99,many\n'),
    });
    await page.getByTestId('record-import-next').click();
    await page.getByTestId('record-import-rows-step').waitFor();
    await eventually(() => gridRows(page, 'record-import-rows').count()).toBe(2);
    expect(await page.locator('[data-testid="record-import-rows"] .ag-row[row-id="3"] [data-testid="record-import-row-errors"]').textContent()).toBe(
      `tegevusala: ${en['records.importError.referenceItemNotFound']} (critical)${en['records.importError.sumNotNumeric']} (critical)`,
    );
    await inEnglish();
    await page.keyboard.press('Escape');
    await modal.waitFor({ state: 'detached' });

    // The export: its column names in English.
    const work = mkdtempSync(path.join(os.tmpdir(), 'eelarve-records-en-'));
    try {
      const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('record-export').click()]);
      const file = path.join(work, download.suggestedFilename());
      await download.saveAs(file);
      // The package's XML, read by unzip (not by the writer).
      const xml = execFileSync('unzip', ['-p', file, 'xl/worksheets/*.xml', 'xl/sharedStrings.xml'], { encoding: 'utf8' });
      // (The amount column is named by the document's amount key, 'summa': data, not a text of the product.)
      for (const key of ['recordExport.column.name', 'recordExport.column.promoted', 'recordExport.column.updatedBy'] as const) {
        expect(xml).toContain(`<t>${en[key]}</t>`);
        expect(xml).not.toContain(`<t>${et[key]}</t>`);
      }
      expect(xml).toContain('<t>2027 total</t>');
      expect(xml).toContain(`<t>${en['recordExport.no']}</t>`);
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
  });
});
