import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { accountsFixture, PASSWORD } from '@eelarve/testing/accounts';
import ExcelJS from 'exceljs';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { et } from '../src/i18n/messages/et';
import { type ApiClient, apiClient, screenshot } from './auth-flows';
import { browserSuite, currentPath, gridRows, signIn } from './harness';

type Json = Record<string, unknown>;

async function call<T = Json>(client: ApiClient, method: 'GET' | 'POST' | 'PUT', url: string, payload?: object): Promise<T> {
  const response = await client.request({ method, url, ...(payload ? { payload } : {}) });
  if (response.statusCode >= 300) throw new Error(`${method} ${url}: ${response.statusCode} ${response.body}`);
  return response.json() as T;
}

/** An .xlsx file of `rows` (the first is the header) in a temporary folder. */
async function xlsxFile(name: string, rows: string[][]): Promise<string> {
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet('Alameelarved');
  for (const row of rows) sheet.addRow(row);
  const file = path.join(mkdtempSync(path.join(tmpdir(), 'eelarve-import-')), name);
  await workbook.xlsx.writeFile(file);
  return file;
}

function subBudgetRow(page: Page, name: string) {
  return gridRows(page, 'sub-budgets-grid').filter({ has: page.getByTestId('sub-budget-name').getByText(name, { exact: true }) });
}

async function chooseClassifier(page: Page, testId: string, classifierId: string): Promise<void> {
  await page.getByTestId(testId).click();
  await page.getByTestId(`${testId}-popup`).waitFor();
  await page.getByTestId(`${testId}-option-${classifierId}`).check();
  await page.keyboard.press('Escape');
  await page.getByTestId(`${testId}-popup`).waitFor({ state: 'detached' });
}

/** The row being edited inline (its name is an input). */
function editedSubBudgetRow(page: Page) {
  return gridRows(page, 'sub-budgets-grid').filter({ has: page.getByTestId('sub-budget-name-input') });
}

/** Adds a sub-budget inline: the new row comes first in editing mode and can be saved once it changed. */
async function addSubBudget(page: Page, name: string, values: Record<string, string>): Promise<void> {
  await page.getByTestId('sub-budgets-add').click();
  await page.getByTestId('sub-budget-name-input').waitFor();
  expect(await editedSubBudgetRow(page).getAttribute('row-index')).toBe('0');
  expect(await page.getByTestId('sub-budget-save').isDisabled()).toBe(true);
  await page.getByTestId('sub-budget-name-input').pressSequentially(name);
  for (const [fieldName, code] of Object.entries(values)) await page.getByTestId(`sub-budget-classifier-${fieldName}`).selectOption(code);
  await page.getByTestId('sub-budget-save').click();
}

describe('web: schemes tab and a budget’s sub-budgets tab (browser)', () => {
  // The refused duplicate answers 409, which the browser logs.
  const suite = browserSuite({ allowedErrors: /status of 409 \(Conflict\)|status of 400 \(Bad Request\)|status of 422/ });
  let admin: ApiClient;
  let documentId: string;
  let budgetId: string;
  let kindId: string;
  let sourceId: string;

  beforeAll(async () => {
    admin = await apiClient(suite.server.app, suite.server.admin.email, suite.server.admin.password);
    const me = await call<{ organizationId: string }>(admin, 'GET', '/api/auth/me');
    const period = { year: 2027, month: 1, duration: 1 };
    documentId = (await call<{ id: string }>(admin, 'POST', `/api/organization/${me.organizationId}/document`, { name: 'Eelarve 2027', period })).id;
    const classifier = (fieldName: string, name: string, required: boolean) =>
      call<{ id: string }>(admin, 'POST', `/api/document/${documentId}/classifier`, {
        name,
        itemName: name,
        fieldName,
        required,
        codeSettings: { typeName: 'Code', minLength: 1, maxLength: 20, hierarchical: false },
      });
    kindId = (await classifier('tegevusala', 'Tegevusala', true)).id;
    sourceId = (await classifier('allikas', 'Allikas', false)).id;
    for (const [code, name] of [
      ['01', 'Haridus'],
      ['02', 'Sotsiaal'],
      ['03', 'Kultuur'],
      ['04', 'Sport'],
    ])
      await call(admin, 'POST', `/api/classifier/${kindId}/item`, { code, name });
    for (const [code, name] of [
      ['A', 'Riik'],
      ['B', 'Omavalitsus'],
    ])
      await call(admin, 'POST', `/api/classifier/${sourceId}/item`, { code, name });
    await call(admin, 'PUT', `/api/document/${documentId}`, { name: 'Eelarve 2027', period, recordAmountKey: 'summa', masterClassifierId: kindId });
    budgetId = (await call<{ id: string }>(admin, 'POST', `/api/document/${documentId}/budget`, { type: 'COMMON', name: 'Linna eelarve' })).id;
  }, 120_000);

  it('creates a scheme, adds and imports sub-budgets, and pins one on the budget', async () => {
    const page = await suite.openPage();
    await signIn(page, { email: suite.server.admin.email, password: suite.server.admin.password });
    await page.goto(`/document/${documentId}/schemes`);
    await page.getByTestId('schemes-tab').waitFor();

    // A new scheme: its technical name follows the name; save is enabled only once it changed.
    await page.getByTestId('schemes-add').click();
    await expect.poll(() => page.getByTestId('scheme-save').isDisabled()).toBe(true);
    // Real keystrokes: the grid must leave the space to the input.
    await page.getByTestId('scheme-name-input').pressSequentially('Kulud 2027');
    expect(await page.getByTestId('scheme-fieldName-input').inputValue()).toBe('kulud_2027');
    await chooseClassifier(page, 'scheme-main-input', kindId);
    await chooseClassifier(page, 'scheme-secondary-input', sourceId);
    await page.getByTestId('scheme-save').click();
    await page.getByTestId('schemes-notice').waitFor();
    const schemeRow = gridRows(page, 'schemes-grid').filter({ has: page.getByTestId('scheme-name').getByText('Kulud 2027', { exact: true }) });
    await schemeRow.waitFor();
    expect(await schemeRow.getAttribute('class')).toContain('row-highlighted');

    // Sub-budgets added inline: a main classifier is required; the saved row is highlighted.
    await page.getByTestId('sub-budgets-add').click();
    await page.getByTestId('sub-budget-name-input').fill('Ilma klassifikaatorita');
    await page.getByTestId('sub-budget-save').click();
    await page.getByTestId('sub-budget-validation-error').locator('[data-message="validation.required"]').waitFor();
    expect(await page.getByTestId('sub-budget-classifier-tegevusala').getAttribute('aria-invalid')).toBe('true');
    await page.getByTestId('sub-budget-cancel').click();
    await page.getByTestId('sub-budget-name-input').waitFor({ state: 'detached' });
    expect(await gridRows(page, 'sub-budgets-grid').count()).toBe(0);

    await addSubBudget(page, 'Haridus', { tegevusala: '01' });
    await subBudgetRow(page, 'Haridus').waitFor();
    expect(await subBudgetRow(page, 'Haridus').getAttribute('class')).toContain('row-highlighted');
    await addSubBudget(page, 'Sotsiaal', { tegevusala: '02', allikas: 'A' });
    await subBudgetRow(page, 'Sotsiaal').waitFor();

    // Editing inline: save is enabled only once the row changed; Enter saves.
    await subBudgetRow(page, 'Sotsiaal').getByTestId('sub-budget-edit').click();
    const nameInput = page.getByTestId('sub-budget-name-input');
    await nameInput.waitFor();
    expect(await nameInput.inputValue()).toBe('Sotsiaal');
    expect(await page.getByTestId('sub-budget-classifier-allikas').inputValue()).toBe('A');
    expect(await page.getByTestId('sub-budget-save').isDisabled()).toBe(true);
    // One row at a time: the other rows' actions and the add button wait.
    expect(await subBudgetRow(page, 'Haridus').getByTestId('sub-budget-edit').isDisabled()).toBe(true);
    expect(await page.getByTestId('sub-budgets-add').isDisabled()).toBe(true);
    await nameInput.pressSequentially(' riik');
    expect(await page.getByTestId('sub-budget-save').isDisabled()).toBe(false);
    await nameInput.press('Enter');
    await subBudgetRow(page, 'Sotsiaal riik').waitFor();
    await nameInput.waitFor({ state: 'detached' });
    await page.getByTestId('sub-budgets-notice').waitFor();

    // The same combination again is refused by the server: the row stays edited and says why.
    await addSubBudget(page, 'Haridus uuesti', { tegevusala: '01' });
    const rowError = page.getByTestId('sub-budget-validation-error').locator('[data-message]');
    await rowError.waitFor();
    expect(await rowError.getAttribute('data-message')).toBe('SUB_BUDGET_NOT_UNIQUE');
    expect(await page.getByTestId('sub-budget-classifier-tegevusala').getAttribute('aria-invalid')).toBe('true');
    expect(await nameInput.inputValue()).toBe('Haridus uuesti');
    await screenshot(page, 'sub-budget-inline-error');
    await page.getByTestId('sub-budget-cancel').click();
    await nameInput.waitFor({ state: 'detached' });
    expect(await page.getByTestId('sub-budget-validation-error').count()).toBe(0);
    expect(await gridRows(page, 'sub-budgets-grid').count()).toBe(2);

    // Import from a real .xlsx file: a file with an existing and a repeated combination cannot be imported.
    const header = ['name', 'tegevusala', 'allikas', 'preselection:allikas'];
    await page.getByTestId('sub-budgets-import').click();
    await page.getByTestId('sub-budgets-import-SUB_BUDGETS_WITH_PRESELECTIONS').click();
    await page.getByTestId('sub-budgets-import-modal').waitFor();
    await page
      .getByTestId('sub-budgets-import-file')
      .setInputFiles(await xlsxFile('vigane.xlsx', [header, ['Kultuur', '03', 'B', 'A, B'], ['Kultuur 2', '03', 'B', ''], ['Haridus 2', '01', '', '']]));
    await page.getByTestId('sub-budgets-import-has-errors').waitFor();
    await screenshot(page, 'sub-budgets-import');
    const errors = await page.getByTestId('sub-budgets-import-row-errors').allTextContents();
    expect(errors[0]).toBe('');
    expect(errors[1]).not.toBe('');
    expect(errors[2]).not.toBe('');
    expect(await page.getByTestId('sub-budgets-import-submit').isDisabled()).toBe(true);

    await page
      .getByTestId('sub-budgets-import-file')
      .setInputFiles(await xlsxFile('korras.xlsx', [header, ['Kultuur', '03', 'B', 'A, B'], ['Sport', '04', '', '']]));
    await expect.poll(() => page.getByTestId('sub-budgets-import-submit').isDisabled()).toBe(false);
    await page.getByTestId('sub-budgets-import-submit').click();
    await page.getByTestId('sub-budgets-import-modal').waitFor({ state: 'detached' });
    await subBudgetRow(page, 'Kultuur').waitFor();
    await subBudgetRow(page, 'Sport').waitFor();
    expect(await gridRows(page, 'sub-budgets-grid').count()).toBe(4);

    // The imported preselections show in the lower pane, which ☰ opens where it is seen (it sits below
    // the table, under the fold of a 900 px window) with its heading focused.
    await page.evaluate(() => window.scrollTo(0, 0));
    await subBudgetRow(page, 'Kultuur').getByTestId('sub-budget-preselections').click();
    await page.getByTestId('preselections-pane').waitFor();
    await expect.poll(() => paneSeen(page)).toBe(true);
    expect(await page.evaluate(() => document.activeElement?.closest('[data-testid="preselections-pane"]') !== null)).toBe(true);
    await expect.poll(() => page.getByTestId('preselection-allikas-A').isChecked()).toBe(true);
    await page.getByTestId('preselection-tegevusala-03').check();
    await page.getByTestId('preselections-save').click();
    await page.getByTestId('preselections-saved').waitFor();
    await screenshot(page, 'schemes-tab');
    await page.getByTestId('preselections-close').click();

    // Export builds an .xlsx in the browser: the shown rows with their preselections.
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('sub-budgets-export').click()]);
    const exported = new ExcelJS.Workbook();
    await exported.xlsx.readFile(await download.path());
    const sheet = exported.worksheets[0];
    const table: string[][] = [];
    sheet?.eachRow((row) => table.push((row.values as unknown[]).slice(1).map((value) => String(value ?? ''))));
    expect(table[0]).toEqual(['id', 'name', 'tegevusala', 'allikas', 'preselection:tegevusala', 'preselection:allikas']);
    expect(table.slice(1).map((row) => row.slice(1))).toEqual([
      ['Haridus', '01', '', '', ''],
      ['Kultuur', '03', 'B', '03', 'A, B'],
      ['Sotsiaal riik', '02', 'A', '', ''],
      ['Sport', '04', '', '', ''],
    ]);

    // Show selected only, then delete the selected ones together.
    for (const name of ['Kultuur', 'Sotsiaal riik']) await subBudgetRow(page, name).locator('.ag-checkbox-input').check();
    await page.getByTestId('sub-budgets-selected-only').check();
    await expect.poll(() => gridRows(page, 'sub-budgets-grid').count()).toBe(2);
    await page.getByTestId('sub-budgets-delete-selected').click();
    await page.getByTestId('sub-budget-delete-dialog').getByTestId('confirm-ok').click();
    await page.getByTestId('sub-budget-delete-dialog').waitFor({ state: 'detached' });
    await page.getByTestId('sub-budgets-selected-only').uncheck();
    await expect.poll(() => gridRows(page, 'sub-budgets-grid').count()).toBe(2);

    // Preselections only: the row finds its sub-budget by the classifier values; an unknown one is an error.
    await page.getByTestId('sub-budgets-import').click();
    await page.getByTestId('sub-budgets-import-PRESELECTIONS_ONLY').click();
    const presetHeader = ['tegevusala', 'preselection:allikas'];
    await page.getByTestId('sub-budgets-import-file').setInputFiles(await xlsxFile('puudub.xlsx', [presetHeader, ['01', 'A'], ['03', 'B']]));
    await page.getByTestId('sub-budgets-import-has-errors').waitFor();
    await page.getByTestId('sub-budgets-import-file').setInputFiles(await xlsxFile('eelvalikud.xlsx', [presetHeader, ['01', 'A, B']]));
    await expect.poll(() => page.getByTestId('sub-budgets-import-submit').isDisabled()).toBe(false);
    await page.getByTestId('sub-budgets-import-submit').click();
    await page.getByTestId('sub-budgets-import-modal').waitFor({ state: 'detached' });

    // Editing: save is enabled only once the row changed; a scheme with sub-budgets keeps its classifiers.
    await schemeRow.getByTestId('scheme-edit').click();
    await page.getByTestId('scheme-description-input').waitFor();
    expect(await page.getByTestId('scheme-save').isDisabled()).toBe(true);
    expect(await page.getByTestId('scheme-main-input').isDisabled()).toBe(true);
    await page.getByTestId('scheme-description-input').fill('Linna kulud');
    await page.getByTestId('scheme-save').click();
    await schemeRow.getByTestId('scheme-description').getByText('Linna kulud').waitFor();
    expect(await page.getByTestId('scheme-fieldName').first().textContent()).toBe('kulud_2027');

    // The last scheme of a document cannot be deleted: the button is disabled and its tooltip says why.
    expect(await schemeRow.getByTestId('scheme-delete').isDisabled()).toBe(true);
    expect(await schemeRow.getByTestId('scheme-delete-tooltip').getAttribute('title')).toBe(et['schemes.delete.lastScheme']);

    // The budget's sub-budgets tab: no scheme in the route redirects to the first one; pin a sub-budget.
    await page.goto(`/document/${documentId}/budget/${budgetId}/sub-budgets`);
    await page.getByTestId('budget-sub-budgets-grid').waitFor();
    await expect.poll(() => currentPath(page)).toMatch(new RegExp(`/budget/${budgetId}/sub-budgets/[0-9a-f-]{36}$`));
    const schemeId = currentPath(page).split('/').pop() ?? '';
    const budgetRows = gridRows(page, 'budget-sub-budgets-grid');
    await expect.poll(() => budgetRows.count()).toBe(2);
    expect(await budgetRows.first().getByTestId('budget-sub-budget-name').textContent()).toBe('Haridus');
    const pin = budgetRows.filter({ hasText: 'Sport' }).getByTestId('budget-sub-budget-pin');
    await pin.click();
    await expect.poll(() => pin.getAttribute('aria-pressed')).toBe('true');
    const listed = await call<Array<{ id: string; name: string; pinned: boolean }>>(admin, 'GET', `/api/budget/${budgetId}/schema/${schemeId}/sub-budgets`);
    expect(listed.filter((row) => row.pinned).map((row) => row.name)).toEqual(['Sport']);
    await screenshot(page, 'budget-sub-budgets');
    const preselections = await call<{ preselections: Record<string, string[]> }>(
      admin,
      'GET',
      `/api/sub-budget/${listed.find((row) => row.name === 'Haridus')?.id ?? ''}/classifier-preselections`,
    );
    expect(preselections.preselections).toEqual({ [sourceId]: ['A', 'B'] });

    // Import through the budget tab's menu: the file step is 700 px, the rows step wider; a cell of
    // three or more preselections shows two and an ellipsis. The table refreshes after the import.
    await page.getByTestId('budget-sub-budgets-import').click();
    await page.getByTestId('budget-sub-budgets-import-SUB_BUDGETS_WITH_PRESELECTIONS').click();
    const importModal = page.getByTestId('sub-budgets-import-modal');
    await importModal.waitFor();
    expect((await importModal.boundingBox())?.width).toBe(700);
    await page.getByTestId('sub-budgets-import-file').setInputFiles(
      await xlsxFile('eelarvest.xlsx', [
        ['name', 'tegevusala', 'allikas', 'preselection:tegevusala', 'preselection:allikas'],
        ['Kultuur', '03', 'B', '01, 02, 03', 'A'],
      ]),
    );
    await expect.poll(() => gridRows(page, 'sub-budgets-import-preview').count()).toBe(1);
    expect(await page.getByTestId('sub-budgets-import-preselection').allTextContents()).toEqual(['01, 02, …', 'A']);
    expect((await importModal.boundingBox())?.width).toBeGreaterThan(700);
    await expect.poll(() => page.getByTestId('sub-budgets-import-submit').isDisabled()).toBe(false);
    await page.getByTestId('sub-budgets-import-submit').click();
    await importModal.waitFor({ state: 'detached' });
    await expect.poll(() => budgetRows.count()).toBe(3);
    await budgetRows.filter({ hasText: 'Kultuur' }).waitFor();

    // Display order: a second scheme moved above the first with the order column.
    await call(admin, 'POST', `/api/document/${documentId}/schema`, { name: 'Tulud', classifierList: [{ classifierId: kindId, type: 'MAIN' }] });
    await page.goto(`/document/${documentId}/schemes`);
    const schemeRows = gridRows(page, 'schemes-grid');
    await expect.poll(() => schemeRows.count()).toBe(2);

    // With two schemes, one with sub-budgets still cannot be deleted; the empty one can.
    const withSubBudgets = schemeRows.filter({ hasText: 'Kulud 2027' });
    expect(await withSubBudgets.getByTestId('scheme-delete').isDisabled()).toBe(true);
    expect(await withSubBudgets.getByTestId('scheme-delete-tooltip').getAttribute('title')).toBe(et['schemes.delete.hasSubBudgets']);
    expect(await schemeRows.filter({ hasText: 'Tulud' }).getByTestId('scheme-delete').isDisabled()).toBe(false);

    // Duplicating a sub-budget puts a copy on top in editing mode, with its values and a copy's name;
    // it can be saved once it changed, and the saved copy is highlighted.
    await subBudgetRow(page, 'Sport').getByTestId('sub-budget-duplicate').click();
    const copyInput = page.getByTestId('sub-budget-name-input');
    await copyInput.waitFor();
    expect(await editedSubBudgetRow(page).getAttribute('row-index')).toBe('0');
    expect(await editedSubBudgetRow(page).getAttribute('class')).toContain('row-state-duplicating');
    const copyName = et['subBudgets.copyName'].replace('{name}', 'Sport');
    expect(await copyInput.inputValue()).toBe(copyName);
    expect(await page.getByTestId('sub-budget-classifier-tegevusala').inputValue()).toBe('04');
    expect(await page.getByTestId('sub-budget-save').isDisabled()).toBe(true);
    await page.getByTestId('sub-budget-classifier-allikas').selectOption('A');
    await page.getByTestId('sub-budget-save').click();
    await copyInput.waitFor({ state: 'detached' });
    await subBudgetRow(page, copyName).waitFor();
    expect(await subBudgetRow(page, copyName).getAttribute('class')).toContain('row-highlighted');
    expect(await gridRows(page, 'sub-budgets-grid').count()).toBe(4);
    await schemeRows.filter({ hasText: 'Kulud 2027' }).getByTestId('scheme-down').click();
    const order = async () =>
      (await call<Array<{ name: string; displayOrder: number }>>(admin, 'GET', `/api/document/${documentId}/schemas`))
        .sort((a, b) => a.displayOrder - b.displayOrder)
        .map((scheme) => scheme.name);
    await expect.poll(order).toEqual(['Tulud', 'Kulud 2027']);
  }, 120_000);

  it('shows the schemes read-only with SCHEMA_VIEW', async () => {
    const me = await call<{ organizationId: string }>(admin, 'GET', '/api/auth/me');
    const viewer = await accountsFixture(suite.server.app, admin).reader(me.organizationId, ['SCHEMA_VIEW']);
    const page = await suite.openPage();
    await signIn(page, { email: viewer.email, password: PASSWORD });
    await page.goto(`/document/${documentId}/schemes`);
    await page.getByTestId('schemes-read-only').waitFor();
    await gridRows(page, 'schemes-grid').first().waitFor();
    expect(await page.getByTestId('schemes-add').count()).toBe(0);
    expect(await page.getByTestId('scheme-edit').count()).toBe(0);
    await page.getByTestId('scheme-name').getByText('Kulud 2027', { exact: true }).click();
    await gridRows(page, 'sub-budgets-grid').first().waitFor();
    expect(await page.getByTestId('sub-budgets-add').count()).toBe(0);
    expect(await page.getByTestId('sub-budget-delete').count()).toBe(0);
  }, 60_000);
});

/** Whether the preselections pane's top part (its header and first lists) is inside the window. */
async function paneSeen(page: Page): Promise<boolean> {
  return page.getByTestId('preselections-pane').evaluate((pane) => {
    const box = pane.getBoundingClientRect();
    return box.top >= 0 && box.top + Math.min(box.height, 200) <= window.innerHeight;
  });
}
