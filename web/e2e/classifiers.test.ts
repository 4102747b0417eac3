import { mkdirSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { itemsCsv, itemsWorkbook } from '@eelarve/gateway/features/classifiers/files';
import { accountsFixture, PASSWORD } from '@eelarve/testing/accounts';
import type { Classifier, ClassifierItem } from '@eelarve/shared';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { et } from '../src/i18n/messages/et';
import { type ApiClient, apiClient, screenshot } from './auth-flows';
import { browserSuite, currentPath, gridRows, signIn } from './harness';

const FILES = '/tmp/eelarve-classifiers';

function itemCodes(page: Page): Promise<string[]> {
  return page.locator('[data-testid="items-grid"] .ag-center-cols-container .ag-row [col-id="code"]').allTextContents();
}

async function importFile(page: Page, file: string): Promise<void> {
  await page.getByTestId('items-import').click();
  await page.getByTestId('import-file-step').waitFor();
  // The picker is a translated button and file name, not the browser's own "Choose File" (issue 9, point 8).
  expect(await page.getByTestId('import-file-input-button').textContent()).toBe(et['components.fileInput.choose']);
  expect(await page.getByTestId('import-file-input-name').textContent()).toBe(et['components.fileInput.none']);
  await page.getByTestId('import-file-input').setInputFiles(file);
  expect(await page.getByTestId('import-file-input-name').textContent()).toBe(path.basename(file));
  await page.getByTestId('import-upload').click();
  await page.getByTestId('import-rows-step').waitFor();
}

describe('web: classifiers tab with items and their import (browser)', () => {
  // The refused import file answers nothing bad; a rejected save would answer 4xx, which the browser logs.
  const suite = browserSuite({ allowedErrors: /status of 4\d\d/ });
  let admin: ApiClient;
  let organizationId: string;
  let documentId: string;
  let editor: { email: string };

  beforeAll(async () => {
    admin = await apiClient(suite.server.app, suite.server.admin.email, suite.server.admin.password);
    const fixture = accountsFixture(suite.server.app, admin);
    organizationId = await fixture.organization(`Valla Kantselei ${randomBytes(2).toString('hex')}`);
    editor = await fixture.reader(organizationId, ['CLASSIFICATION_ADMIN', 'CLASSIFICATION_VIEW']);
    const created = await admin.request({
      method: 'POST',
      url: `/api/organization/${organizationId}/document`,
      payload: { name: `Eelarve 2027 ${randomBytes(2).toString('hex')}`, period: { year: 2027, month: 1, duration: 1 } },
    });
    expect(created.statusCode, created.body).toBe(201);
    documentId = (created.json() as { id: string }).id;
    mkdirSync(FILES, { recursive: true });
  }, 180_000);

  async function classifiers(): Promise<Classifier[]> {
    const response = await admin.request({ method: 'GET', url: `/api/document/${documentId}/classifiers` });
    expect(response.statusCode).toBe(200);
    return response.json() as Classifier[];
  }

  async function items(classifierId: string): Promise<ClassifierItem[]> {
    const response = await admin.request({ method: 'GET', url: `/api/classifier/${classifierId}/items` });
    expect(response.statusCode).toBe(200);
    return response.json() as ClassifierItem[];
  }

  it('creates a classifier and an item through the forms, imports items from .xlsx and .csv, and refuses a file with errors', async () => {
    const page = await suite.openPage();
    await signIn(page, { email: editor.email, password: PASSWORD });
    await page.goto(`/document/${documentId}/classifiers`);
    await page.getByTestId('classifiers-tab').waitFor();
    await page.getByTestId('classifiers-empty').waitFor();
    // The header logo link is named by its visible text (axe label-content-name-mismatch); "home" is its tooltip.
    expect(await page.getByRole('link', { name: 'Eelarve', exact: true }).getAttribute('title')).toBe(et['shell.home']);

    // The classifier form: the technical name follows the item name.
    await page.getByTestId('classifier-add').click();
    await page.getByTestId('classifier-modal').waitFor();
    await page.getByTestId('classifier-name-input').fill('Tegevusalad');
    await page.getByTestId('classifier-item-name-input').fill('Tegevusala kood');
    expect(await page.getByTestId('classifier-field-name-input').inputValue()).toBe('tegevusala_kood');
    await page.getByTestId('classifier-max-length-input').fill('10');
    await page.getByTestId('classifier-form-save').click();
    await page.getByTestId('classifier-modal').waitFor({ state: 'detached' });
    await page.waitForURL(/\/classifiers\/[0-9a-f-]{36}$/);
    const classifierId = currentPath(page).split('/')[4] ?? '';
    const saved = (await classifiers()).find((classifier) => classifier.id === classifierId);
    expect(saved).toMatchObject({
      name: 'Tegevusalad',
      itemName: 'Tegevusala kood',
      fieldName: 'tegevusala_kood',
      codeSettings: { typeName: 'Code', minLength: 1, maxLength: 10 },
    });
    await expect.poll(() => page.getByTestId('classifier-meta-fieldName').textContent()).toBe('tegevusala_kood');

    // An item through the item form; a code that breaks the type is refused in the form.
    await page.getByTestId('item-add').click();
    await page.getByTestId('item-modal').waitFor();
    await page.getByTestId('item-code-input').fill('0 1!');
    await page.getByTestId('item-name-input').fill('Üldised teenused');
    await page.getByTestId('item-form-save').click();
    await expect.poll(() => page.getByTestId('item-modal').getByTestId('field-error').first().getAttribute('data-message')).toBe('codeTypeError');
    await page.getByTestId('item-code-input').fill('01');
    await page.getByTestId('item-form-save').click();
    await page.getByTestId('item-modal').waitFor({ state: 'detached' });
    await expect.poll(() => itemCodes(page)).toEqual(['01']);
    expect(await page.getByTestId('classifiers-success').textContent()).toContain(et['classifiers.items.form.addNewSuccess']);

    // A grouping classifier (made through the API) groups this one's items: its column joins the import.
    const grouping = await admin.request({
      method: 'POST',
      url: `/api/document/${documentId}/classifier`,
      payload: {
        name: 'Allikad',
        itemName: 'Allikas',
        fieldName: 'allikas',
        groupingId: classifierId,
        codeSettings: { typeName: 'Code', minLength: 1, maxLength: 10 },
      },
    });
    expect(grouping.statusCode, grouping.body).toBe(201);
    const groupingId = (grouping.json() as { id: string }).id;
    for (const [code, unselectable] of [
      ['A1', false],
      ['U1', true],
    ] as const) {
      const added = await admin.request({
        method: 'POST',
        url: `/api/classifier/${groupingId}/item`,
        payload: { code, name: `Allikas ${code}`, unselectable },
      });
      expect(added.statusCode, added.body).toBe(201);
    }
    await page.reload();
    await page.getByTestId('classifier-tree').waitFor();
    await expect.poll(() => page.locator(`[data-testid="classifier-tree-item"][data-id="${groupingId}"]`).getAttribute('data-depth')).toBe('1');

    const columns = ['code', 'name', 'description', 'unselectable', 'allikas'];

    // A real .xlsx workbook.
    const xlsx = `${FILES}/items.xlsx`;
    writeFileSync(
      xlsx,
      await itemsWorkbook(columns, [
        ['02', 'Haridus', 'Koolid ja lasteaiad', 'false', 'A1'],
        ['03', 'Kultuur', '', 'true', 'a1'],
      ]),
    );
    await importFile(page, xlsx);
    await expect.poll(() => page.getByTestId('import-summary').getAttribute('data-rows')).toBe('2');
    expect(await page.getByTestId('import-summary').getAttribute('data-errors')).toBe('0');
    await expect.poll(() => page.getByTestId('import-row-ok').count()).toBe(2);
    await page.getByTestId('import-submit').click();
    await page.getByTestId('import-modal').waitFor({ state: 'detached' });
    await expect.poll(() => itemCodes(page)).toEqual(['01', '02', '03']);
    expect(await page.getByTestId('classifiers-success').getAttribute('data-message')).toBe('classifiers.import.uploadSuccess');
    const afterXlsx = await items(classifierId);
    expect(afterXlsx.find((item) => item.code === '03')).toMatchObject({
      name: 'Kultuur',
      unselectable: true,
      groupedBy: [{ classifierId: groupingId, code: 'A1' }],
    });

    // A .csv file (semicolons, as Estonian spreadsheets write them).
    const csv = `${FILES}/items.csv`;
    writeFileSync(csv, '\uFEFFcode;name;description;unselectable;allikas\r\n04;Sport;;ei;A1\r\n05;Sotsiaalkaitse;Toetused;false;A1\r\n');
    await importFile(page, csv);
    await expect.poll(() => page.getByTestId('import-summary').getAttribute('data-rows')).toBe('2');
    expect(await page.getByTestId('import-summary').getAttribute('data-errors')).toBe('0');
    await page.getByTestId('import-submit').click();
    await page.getByTestId('import-modal').waitFor({ state: 'detached' });
    await expect.poll(() => itemCodes(page)).toEqual(['01', '02', '03', '04', '05']);

    // A file with errors: every row's errors are shown and nothing can be imported.
    const bad = `${FILES}/items-with-errors.csv`;
    writeFileSync(
      bad,
      itemsCsv(columns, [
        ['01', 'Olemas juba', '', 'false', 'A1'],
        ['06', '', '', 'false', 'ZZ'],
        ['07', 'Mittevalitav', '', 'false', 'U1'],
        ['0 8!', 'Vale kood', '', 'false', 'A1'],
        ['09', 'Esimene', '', 'false', 'A1'],
        ['09', 'Teine', '', '', 'A1'],
      ]),
    );
    await importFile(page, bad);
    await expect.poll(() => page.getByTestId('import-summary').getAttribute('data-rows')).toBe('6');
    const rowErrors = async () => {
      const rows = await gridRows(page, 'import-grid').evaluateAll((elements) =>
        elements
          .map((row) => ({
            index: Number(row.getAttribute('row-index')),
            errors: Array.from(row.querySelectorAll('[data-testid="import-row-error"]')).map(
              (error) => `${error.getAttribute('data-field')}:${error.getAttribute('data-message')}`,
            ),
          }))
          .sort((a, b) => a.index - b.index),
      );
      return rows.map((row) => row.errors);
    };
    await expect
      .poll(rowErrors)
      .toEqual([
        ['code:uniqueCode'],
        ['name:validation.required', 'allikas:referenceItemNotFound'],
        ['allikas:referenceItemUnselectable'],
        ['code:codeTypeError'],
        ['code:unique'],
        ['unselectable:validation.required', 'code:unique'],
      ]);
    // Translated, not keys: the message and the field (the item field's label, the grouping classifier's name).
    const shown = await page.getByTestId('import-row-error').allTextContents();
    expect(shown).toContain(`${et['classifiers.items.column.code']}: ${et['classifiers.importError.uniqueCode']}`);
    expect(shown).toContain(`Allikad: ${et['classifiers.importError.referenceItemNotFound']}`);
    expect(shown).toContain(`Allikad: ${et['classifiers.importError.referenceItemUnselectable']}`);
    expect(shown.filter((text) => /^(code|name|description|unselectable|sign|allikas):/.test(text))).toEqual([]);
    const headers = await page.getByTestId('import-grid').locator('.ag-header-cell-text').allTextContents();
    expect(headers).toEqual(expect.arrayContaining([et['classifiers.items.column.code'], et['classifiers.items.column.unselectable'], 'Allikad']));
    expect(headers).not.toContain('unselectable');
    expect(await page.getByTestId('import-submit').isDisabled()).toBe(true);
    // Loose mode without a selected row still imports nothing.
    await page.getByTestId('import-loose').check();
    expect(await page.getByTestId('import-submit').isDisabled()).toBe(true);
    mkdirSync('/tmp', { recursive: true });
    await screenshot(page, 'eelarve-classifiers-import-errors');
    await page.getByTestId('import-back').click();
    await page.getByTestId('import-cancel').click();
    await page.getByTestId('import-modal').waitFor({ state: 'detached' });
    expect((await items(classifierId)).map((item) => item.code).sort()).toEqual(['01', '02', '03', '04', '05']);
    await screenshot(page, 'eelarve-classifiers-tab');
  }, 180_000);

  function itemRow(page: Page, code: string) {
    return gridRows(page, 'items-grid').filter({ has: page.locator('[col-id="code"]').getByText(code, { exact: true }) });
  }

  async function selectItems(page: Page, codes: string[]): Promise<void> {
    for (const code of codes) await itemRow(page, code).locator('.ag-selection-checkbox input').check();
  }

  it('redirects to the first classifier, reorders by dragging, edits, bulk edits and deletes items, imports loosely; viewers only read', async () => {
    const other = await admin.request({
      method: 'POST',
      url: `/api/document/${documentId}/classifier`,
      payload: { name: 'Majanduslik sisu', itemName: 'Kulu liik', fieldName: 'kulu_liik', codeSettings: { typeName: 'Number', minLength: 2, maxLength: 6 } },
    });
    expect(other.statusCode, other.body).toBe(201);
    const otherId = (other.json() as { id: string }).id;
    const [first, grouping] = [...(await classifiers())].sort((a, b) => a.displayOrder - b.displayOrder);
    const mainId = first?.id ?? '';
    const groupingId = grouping?.id ?? '';

    const page = await suite.openPage();
    await signIn(page, { email: editor.email, password: PASSWORD });
    // No classifier in the address: the first non-grouping classifier opens.
    await page.goto(`/document/${documentId}/classifiers`);
    await page.waitForURL((url) => url.pathname === `/document/${documentId}/classifiers/${mainId}`);
    const treeIds = () => page.getByTestId('classifier-tree-item').evaluateAll((items) => items.map((item) => item.getAttribute('data-id')));
    await expect.poll(treeIds).toEqual([mainId, groupingId, otherId]);

    // Drag the new classifier above the first: its grouping classifier moves along.
    await page
      .locator(`[data-testid="classifier-tree-item"][data-id="${otherId}"]`)
      .dragTo(page.locator(`[data-testid="classifier-tree-item"][data-id="${mainId}"]`));
    await expect.poll(treeIds).toEqual([otherId, mainId, groupingId]);
    await expect
      .poll(async () =>
        (await classifiers())
          .filter((classifier) => classifier.groupingId === null)
          .sort((a, b) => a.displayOrder - b.displayOrder)
          .map((classifier) => classifier.id),
      )
      .toEqual([otherId, mainId]);

    // An item used in groupings cannot be deleted; the tooltip says why.
    await page.locator(`[data-testid="classifier-tree-item"][data-id="${groupingId}"]`).getByTestId('classifier-tree-link').click();
    await page.waitForURL((url) => url.pathname.endsWith(groupingId));
    await expect.poll(() => itemCodes(page)).toEqual(['A1', 'U1']);
    expect(await itemRow(page, 'A1').getByTestId('item-delete').isDisabled()).toBe(true);
    expect(await itemRow(page, 'A1').getByTestId('item-delete-tooltip').getAttribute('title')).toBe(et['classifiers.items.inUse']);
    // A disabled delete does not look live: greyed, not red, and a not-allowed cursor over its tooltip wrapper.
    const disabledLook = await itemRow(page, 'A1')
      .getByTestId('item-delete-tooltip')
      .evaluate((wrapper) => ({ cursor: getComputedStyle(wrapper).cursor, color: getComputedStyle(wrapper.querySelector('button') as Element).color }));
    const enabledColor = await itemRow(page, 'U1')
      .getByTestId('item-delete')
      .evaluate((button) => getComputedStyle(button).color);
    expect(disabledLook.cursor).toBe('not-allowed');
    expect(disabledLook.color).not.toBe(enabledColor);
    expect(await itemRow(page, 'U1').getByTestId('item-delete').isDisabled()).toBe(false);
    await selectItems(page, ['A1']);
    expect(await page.getByTestId('items-delete-selected').isDisabled()).toBe(true);

    // Edit one item, bulk edit two, bulk delete them, delete one.
    await page.locator(`[data-testid="classifier-tree-item"][data-id="${mainId}"]`).getByTestId('classifier-tree-link').click();
    await page.waitForURL((url) => url.pathname.endsWith(mainId));
    await expect.poll(() => itemCodes(page)).toEqual(['01', '02', '03', '04', '05']);
    await itemRow(page, '04').getByTestId('item-edit').click();
    await page.getByTestId('item-name-input').fill('Sport ja vaba aeg');
    await page.getByTestId('item-form-save').click();
    await page.getByTestId('item-modal').waitFor({ state: 'detached' });
    await expect.poll(async () => (await items(mainId)).find((item) => item.code === '04')?.name).toBe('Sport ja vaba aeg');

    await page.getByTestId('items-search').fill('sport');
    await expect.poll(() => itemCodes(page)).toEqual(['04']);
    await page.getByTestId('items-search').fill('');
    await selectItems(page, ['04', '05']);
    await page.getByTestId('items-edit-selected').click();
    await page.getByTestId('item-modal').waitFor();
    expect(await page.getByTestId('item-code-input').count()).toBe(0);
    await page.getByTestId('item-unselectable-input').selectOption('true');
    await page.getByTestId('item-form-save').click();
    await page.getByTestId('item-modal').waitFor({ state: 'detached' });
    await expect
      .poll(async () =>
        (await items(mainId))
          .filter((item) => item.unselectable)
          .map((item) => item.code)
          .sort(),
      )
      .toEqual(['03', '04', '05']);
    // The bulk edit kept the other fields.
    expect((await items(mainId)).find((item) => item.code === '05')).toMatchObject({
      name: 'Sotsiaalkaitse',
      description: 'Toetused',
      groupedBy: [{ code: 'A1' }],
    });

    await selectItems(page, ['04', '05']);
    await page.getByTestId('items-delete-selected').click();
    await page.getByTestId('items-delete-dialog').getByRole('button', { name: et['common.delete'] }).click();
    await expect.poll(() => itemCodes(page)).toEqual(['01', '02', '03']);
    await itemRow(page, '01').getByTestId('item-delete').click();
    await page.getByTestId('item-delete-dialog').getByRole('button', { name: et['common.delete'] }).click();
    await expect.poll(() => itemCodes(page)).toEqual(['02', '03']);

    // Loose import: only the selected valid row goes in.
    const loose = `${FILES}/items-loose.csv`;
    writeFileSync(
      loose,
      itemsCsv(
        ['code', 'name', 'description', 'unselectable', 'allikas'],
        [
          ['10', 'Uus', '', 'false', 'A1'],
          ['11', '', '', 'false', 'A1'],
        ],
      ),
    );
    await importFile(page, loose);
    await expect.poll(() => page.getByTestId('import-summary').getAttribute('data-errors')).toBe('1');
    expect(await page.getByTestId('import-submit').isDisabled()).toBe(true);
    await page.getByTestId('import-loose').check();
    await gridRows(page, 'import-grid').first().locator('.ag-selection-checkbox input').check();
    await expect.poll(() => page.getByTestId('import-submit').isDisabled()).toBe(false);
    await page.getByTestId('import-submit').click();
    await page.getByTestId('import-modal').waitFor({ state: 'detached' });
    await expect.poll(() => itemCodes(page)).toEqual(['02', '03', '10']);

    // Editing a classifier: the technical name is locked until the change is confirmed; grouping is fixed.
    await page.getByTestId('classifier-edit').click();
    await page.getByTestId('classifier-modal').waitFor();
    expect(await page.getByTestId('classifier-field-name-input').isDisabled()).toBe(true);
    expect(await page.getByTestId('classifier-grouping-input').isDisabled()).toBe(true);
    // The form shows the bounds the server enforces (spec 2, section 5): every code is 2 long, so the
    // minimum length goes up to 2 and the maximum from 2 to 40.
    await expect.poll(() => page.getByTestId('classifier-min-length-input').getAttribute('max')).toBe('2');
    expect(await page.getByTestId('classifier-min-length-input').getAttribute('min')).toBe('1');
    expect(await page.getByTestId('classifier-max-length-input').getAttribute('min')).toBe('2');
    expect(await page.getByTestId('classifier-max-length-input').getAttribute('max')).toBe('40');
    await page.getByTestId('classifier-min-length-input').fill('3');
    await page.getByTestId('classifier-form-save').click();
    await expect.poll(() => page.getByTestId('classifier-modal').getByTestId('field-error').first().getAttribute('data-message')).toBe('lengthOutOfRange');
    await page.getByTestId('classifier-min-length-input').fill('1');
    // Sign changes are only for a classifier that groups the master classifier (spec 2, section 4).
    expect(await page.getByTestId('classifier-sign-input').isDisabled()).toBe(true);
    expect(await page.getByTestId('classifier-sign-hint').getAttribute('data-reason')).toBe('classifiers.form.signLocked.notGroupingMaster');
    await page.getByTestId('classifier-field-name-unlock').click();
    await page.getByTestId('classifier-field-name-change').click();
    await page.getByTestId('classifier-field-name-input').fill('tegevusala');
    await page.getByTestId('classifier-name-input').fill('Tegevusalad 2027');
    await page.getByTestId('classifier-form-save').click();
    await page.getByTestId('classifier-modal').waitFor({ state: 'detached' });
    await expect.poll(() => page.getByTestId('classifier-meta-name').textContent()).toBe('Tegevusalad 2027');
    expect((await classifiers()).find((classifier) => classifier.id === mainId)).toMatchObject({ name: 'Tegevusalad 2027', fieldName: 'tegevusala' });

    // The grouping classifier can be made required only when every item it groups has a value of it
    // (spec 2, section 5): all of them have one now.
    expect((await items(mainId)).every((item) => item.groupedBy.some((ref) => ref.classifierId === groupingId))).toBe(true);
    const editGrouping = async () => {
      await page.goto(`/document/${documentId}/classifiers/${groupingId}`);
      await page.getByTestId('classifier-edit').click();
      await page.getByTestId('classifier-modal').waitFor();
    };
    await editGrouping();
    expect(await page.getByTestId('classifier-required-input').isDisabled()).toBe(false);
    expect(await page.getByTestId('classifier-required-hint').count()).toBe(0);
    await page.getByTestId('classifier-form-cancel').click();
    await page.getByTestId('classifier-modal').waitFor({ state: 'detached' });
    // An item without a value of it: required is locked off, with the reason.
    const ungrouped = await admin.request({ method: 'POST', url: `/api/classifier/${mainId}/item`, payload: { code: '20', name: 'Muu', unselectable: false } });
    expect(ungrouped.statusCode, ungrouped.body).toBe(201);
    await editGrouping();
    await expect.poll(() => page.getByTestId('classifier-required-hint').getAttribute('data-reason')).toBe('classifiers.form.requiredLocked.grouping');
    expect(await page.getByTestId('classifier-required-input').isDisabled()).toBe(true);
    expect(await page.getByTestId('classifier-required-input').isChecked()).toBe(false);
    await screenshot(page, 'eelarve-classifiers-form-locks');
    await page.getByTestId('classifier-form-cancel').click();
    await page.getByTestId('classifier-modal').waitFor({ state: 'detached' });
    const removed = await admin.request({ method: 'DELETE', url: `/api/classifier/${mainId}/item/${(ungrouped.json() as { id: string }).id}` });
    expect(removed.statusCode, removed.body).toBe(200);

    // A required classifier made the document's master classifier, for its marker in the tree.
    const master = await admin.request({
      method: 'POST',
      url: `/api/document/${documentId}/classifier`,
      payload: {
        name: 'Tegevusala',
        itemName: 'Tegevusala',
        fieldName: 'tegevusala_master',
        required: true,
        codeSettings: { typeName: 'Code', minLength: 1, maxLength: 20 },
      },
    });
    expect(master.statusCode, master.body).toBe(201);
    const documentNow = (await admin.request({ method: 'GET', url: `/api/document/${documentId}` })).json() as {
      name: string;
      period: unknown;
      recordAmountKey: string;
    };
    const setMaster = await admin.request({
      method: 'PUT',
      url: `/api/document/${documentId}`,
      payload: {
        name: documentNow.name,
        period: documentNow.period,
        recordAmountKey: documentNow.recordAmountKey,
        masterClassifierId: (master.json() as { id: string }).id,
      },
    });
    expect(setMaster.statusCode, setMaster.body).toBe(200);

    // A viewer sees the same screens without the editing controls.
    const viewer = await accountsFixture(suite.server.app, admin).reader(organizationId, ['CLASSIFICATION_VIEW']);
    // The editor's page logged no errors (the next page's errors are watched afresh).
    expect(suite.pageErrors).toEqual([]);
    await suite.context.close();
    const viewerPage = await suite.openPage();
    await signIn(viewerPage, { email: viewer.email, password: PASSWORD });
    await viewerPage.goto(`/document/${documentId}/classifiers/${mainId}`);
    await viewerPage.getByTestId('classifiers-read-only').waitFor();
    await expect.poll(() => itemCodes(viewerPage)).toEqual(['02', '03', '10']);
    expect(await viewerPage.getByTestId('classifier-add').count()).toBe(0);
    expect(await viewerPage.getByTestId('item-add').count()).toBe(0);
    expect(await viewerPage.getByTestId('items-import').count()).toBe(0);
    expect(await viewerPage.getByTestId('item-edit').count()).toBe(0);
    // The master classifier's marker is a labelled badge (star and a short word) with the full term as name and tooltip.
    const masterBadge = viewerPage.getByRole('img', { name: et['classifiers.master'] });
    expect(await masterBadge.getAttribute('title')).toBe(et['classifiers.master']);
    expect(await masterBadge.textContent()).toBe(et['classifiers.masterShort']);
  }, 180_000);
});
