import { randomBytes } from 'node:crypto';
import type { Budget, Document } from '@eelarve/shared';
import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { et } from '../src/i18n/messages/et';
import { screenshot } from './auth-flows';
import { browserSuite, currentPath, gridRows } from './harness';
import { signIn } from './harness';

/** A photograph for a person to look at, only with EELARVE_SCREENSHOTS set (auth-flows.ts). */
const shot = (page: Page, name: string) => screenshot(page, `documents-${name}`);

function siderNames(page: Page): Promise<string[]> {
  return page.getByTestId('document-name').allTextContents();
}

async function budgetNames(page: Page): Promise<string[]> {
  return page.locator('[data-testid="budgets-grid"] .ag-center-cols-container .ag-row').evaluateAll((rows) =>
    rows
      .map((row) => ({ index: Number(row.getAttribute('row-index')), name: row.querySelector('[data-testid="budget-name"]')?.textContent ?? '' }))
      .sort((a, b) => a.index - b.index)
      .map((row) => row.name),
  );
}

function budgetRow(page: Page, name: string): Locator {
  return gridRows(page, 'budgets-grid').filter({ has: page.getByTestId('budget-name').getByText(name, { exact: true }) });
}

async function createDocumentThroughUi(page: Page, name: string, copyFrom?: string, copyParts: ('classifiers' | 'schemes')[] = []): Promise<string> {
  await page.getByTestId('document-create').click();
  await page.waitForURL('**/document/create');
  await page.getByTestId('document-name-input').fill(name);
  await page.getByTestId('document-year').fill('2026');
  await page.getByTestId('document-duration').selectOption('2');
  if (copyFrom) {
    await page.getByTestId('document-copy-enabled').check();
    await page.getByTestId('document-copy-source').selectOption({ label: copyFrom });
    for (const part of copyParts) await page.getByTestId(`document-copy-${part}`).check();
  }
  await page.getByTestId('document-save').click();
  await page.waitForURL(/\/document\/[0-9a-f-]{36}\/budgets$/);
  return currentPath(page).split('/')[2] ?? '';
}

/** The sum budget form's component table row of a budget. */
function componentRow(page: Page, name: string): Locator {
  return gridRows(page, 'budget-components-grid').filter({ has: page.locator(`[data-testid="budget-component"][data-budget-name="${name}"]`) });
}

/** Selects a budget in the sum budget form's component table by its row checkbox. */
async function chooseComponent(page: Page, name: string): Promise<void> {
  await componentRow(page, name).locator('.ag-selection-checkbox input').check();
}

async function addBudget(page: Page, type: Budget['type'], name: string, components: string[] = []): Promise<void> {
  await page.getByTestId('budgets-add').click();
  await page.waitForURL('**/budgets/create');
  await page.getByTestId(`budget-type-${type}`).check();
  await page.getByTestId('budget-name-input').fill(name);
  for (const component of components) await chooseComponent(page, component);
  await page.getByTestId('budget-save').click();
}

async function dragRow(page: Page, from: Locator, to: Locator): Promise<void> {
  const start = await from.boundingBox();
  const end = await to.boundingBox();
  if (!start || !end) throw new Error('row not visible');
  await page.mouse.move(start.x + start.width / 2, start.y + start.height / 2);
  await page.mouse.down();
  const targetY = end.y + 2;
  for (let step = 1; step <= 20; step++) {
    await page.mouse.move(start.x + start.width / 2, start.y + start.height / 2 + ((targetY - start.y - start.height / 2) * step) / 20);
    await page.waitForTimeout(20);
  }
  await page.waitForTimeout(200);
  await page.mouse.up();
}

describe('web: documents and budgets (browser)', () => {
  // The budget list's load failure below is a deliberate 503.
  const suite = browserSuite({ allowedErrors: /status of 503 \(Service Unavailable\)/ });

  it('creates documents, sets a master classifier, adds and reorders budgets, reorders and copies documents', async () => {
    const page = await suite.openPage();
    await signIn(page, suite.server.admin);
    await page.getByTestId('document-sider').waitFor();
    const tag = randomBytes(3).toString('hex');
    const first = `Eelarve 2026 ${tag}`;
    const second = `Lisaeelarve ${tag}`;

    // Create a document through the form; it opens on its budgets and appears in the sider.
    await page.getByTestId('document-create').click();
    await page.getByTestId('document-form').waitFor();
    await page.getByTestId('document-save').click();
    expect(await page.getByTestId('field-error').first().getAttribute('data-message')).toBe('validation.required');
    await shot(page, 'document-create');
    await page.goto('/');
    const documentId = await createDocumentThroughUi(page, first);
    await expect.poll(() => siderNames(page)).toContain(first);
    expect(await page.getByTestId('document-title').textContent()).toBe(first);
    // No master classifier yet: adding a budget is disabled with the reason as a tooltip.
    expect(await page.getByTestId('budgets-add').isDisabled()).toBe(true);
    expect(await page.getByTestId('budgets-add-tooltip').getAttribute('title')).toBe(et['budgets.add.noMaster']);

    // A required classifier through the API, set as master through the settings form.
    const classifier = await page.request.post(`/api/document/${documentId}/classifier`, {
      data: {
        name: 'Tegevusala',
        itemName: 'Tegevusala',
        fieldName: `tegevusala_${tag}`,
        required: true,
        codeSettings: { typeName: 'Code', minLength: 1, maxLength: 20 },
      },
    });
    expect(classifier.status(), await classifier.text()).toBe(201);
    await page.getByTestId('document-tab-settings').click();
    await page.getByTestId('document-master-classifier').selectOption({ label: 'Tegevusala' });
    await shot(page, 'document-settings');
    await page.getByTestId('document-save').click();
    await expect.poll(async () => ((await (await page.request.get(`/api/document/${documentId}`)).json()) as Document).masterClassifierId).not.toBeNull();
    await page.getByTestId('document-tab-budgets').click();
    await expect.poll(() => page.getByTestId('budgets-add').isEnabled()).toBe(true);

    // A budget of each type, each going where the spec says.
    await addBudget(page, 'COMMON', 'Põhitegevus');
    await page.waitForURL(/\/budget\/[0-9a-f-]{36}\/sub-budgets$/);
    // A common budget has all three budget tabs.
    expect(await page.getByTestId('budget-tab-sub-budgets').getAttribute('class')).toContain('active');
    expect(await page.getByTestId('budget-tab-report').getAttribute('aria-disabled')).toBeNull();
    await page.getByTestId('document-tab-budgets').click();
    // The new budget's row is highlighted for a while when the list shows it.
    await expect.poll(() => budgetRow(page, 'Põhitegevus').getAttribute('class'), { timeout: 5_000 }).toContain('row-highlighted');
    await addBudget(page, 'MONITORING', 'Seire');
    await page.waitForURL(/\/budget\/[0-9a-f-]{36}\/edit\?initial=true$/);
    await page.getByTestId('budget-monitoring').waitFor();
    expect(await page.getByTestId('budget-api-url').inputValue()).toMatch(/\/budgets\/[0-9a-f-]{36}\/import$/);
    expect(await page.getByTestId('budget-cancel').textContent()).toBe(et['common.close']);
    await page.getByTestId('budget-api-key-reveal').click();
    await page.getByTestId('budget-api-key').waitFor();
    await shot(page, 'budget-edit-monitoring');
    await page.getByTestId('budget-cancel').click();
    await page.waitForURL(/\/budgets$/);
    await page.getByTestId('budgets-add').click();
    await page.getByTestId('budget-type-SUM_BUDGET').check();
    await page.getByTestId('budget-components').waitFor();
    await page.locator('[data-testid="budget-component"]').first().waitFor();
    await shot(page, 'budget-create-sum');
    await page.getByTestId('budget-name-input').fill('Kokku');
    // The components are an AG Grid table with row checkboxes: name and the budgets each adds up.
    expect(await page.getByTestId('budget-components').getByTestId('budget-components-grid').count()).toBe(1);
    await chooseComponent(page, 'Põhitegevus');
    await chooseComponent(page, 'Seire');
    await expect.poll(() => gridRows(page, 'budget-components-grid').and(page.locator('.ag-row-selected')).count()).toBe(2);
    await shot(page, 'budget-create-sum-chosen');
    // A refused create shows the form's own failure toast with the server's message as detail (spec 2, section 8).
    const createRoute = `**/api/document/${documentId}/budget`;
    await page.route(createRoute, (route) =>
      route.fulfill({ status: 422, contentType: 'application/json', body: JSON.stringify({ code: 'SUM_BUDGET_COMPONENT_NOT_FOUND', message: 'refused' }) }),
    );
    await page.getByTestId('budget-save').click();
    const toast = page.getByTestId('toast').last();
    await expect.poll(() => toast.getAttribute('data-message')).toBe('dashboard.budget.form.createError');
    expect(await toast.getAttribute('data-error-code')).toBe('SUM_BUDGET_COMPONENT_NOT_FOUND');
    expect(await toast.getByTestId('toast-title').textContent()).toBe(et['dashboard.budget.form.createError']);
    expect(await toast.getByTestId('toast-detail').textContent()).toBe(et['error.SUM_BUDGET_COMPONENT_NOT_FOUND']);
    await shot(page, 'budget-create-failed');
    await page.unroute(createRoute);
    await page.getByTestId('budget-save').click();
    await page.waitForURL(/\/budget\/[0-9a-f-]{36}\/report$/);
    // The report tab gives the budget's overview: type, name, and the summed budgets as links.
    await page.getByTestId('budget-overview').waitFor();
    expect(await page.getByTestId('budget-overview-name').textContent()).toBe('Kokku');
    expect(await page.getByTestId('budget-overview-type').textContent()).toBe(et['budgets.type.SUM_BUDGET']);
    expect(await page.getByTestId('breadcrumb-budget').textContent()).toBe('Kokku');
    await expect.poll(() => page.getByTestId('budget-overview-component-link').allTextContents()).toEqual(['Põhitegevus', 'Seire']);
    expect(await page.getByTestId('budget-tab-sub-budgets').getAttribute('aria-disabled')).toBe('true');
    await shot(page, 'budget-report-sum');
    // A component leads to its own page: the monitoring budget's overview shows its import address.
    await page.getByTestId('budget-overview-component-link').filter({ hasText: 'Seire' }).click();
    await page.waitForURL(/\/budget\/[0-9a-f-]{36}\/report$/);
    await expect.poll(() => page.getByTestId('budget-overview-name').textContent()).toBe('Seire');
    expect(await page.getByTestId('budget-overview-api-url').textContent()).toMatch(/\/budgets\/[0-9a-f-]{36}\/import$/);
    expect(await page.getByTestId('budget-overview-last-execution').textContent()).toBe(et['budgets.overview.neverExecuted']);
    const monitoringReport = currentPath(page);
    // Back on the list, the sum budget created a moment ago is highlighted.
    await page.getByTestId('document-tab-budgets').click();
    await expect.poll(() => budgetRow(page, 'Kokku').getAttribute('class'), { timeout: 5_000 }).toContain('row-highlighted');
    expect(await budgetRow(page, 'Seire').getAttribute('class')).not.toContain('row-highlighted');
    await shot(page, 'budgets-list-highlighted');
    // Editing the sum budget: its components are the selected rows; the budget itself is not offered.
    await budgetRow(page, 'Kokku').getByTestId('budget-edit').click();
    await page.getByTestId('budget-components-grid').waitFor();
    await expect.poll(() => gridRows(page, 'budget-components-grid').and(page.locator('.ag-row-selected')).count()).toBe(2);
    expect(await gridRows(page, 'budget-components-grid').count()).toBe(2);
    expect(await componentRow(page, 'Kokku').count()).toBe(0);
    await page.getByTestId('budget-cancel').click();
    await page.waitForURL(/\/budgets$/);
    // A budget that is not common has no sub-budgets: the tab's address goes to the report instead.
    await page.goto(monitoringReport.replace(/\/report$/, '/sub-budgets'));
    await page.waitForURL((url) => url.pathname === monitoringReport);
    await page.getByTestId('budget-overview').waitFor();
    await page.goto(`/document/${documentId}/budgets`);
    await expect.poll(() => gridRows(page, 'budgets-grid').count()).toBe(3);
    const before = await budgetNames(page);
    expect([...before].sort()).toEqual(['Kokku', 'Põhitegevus', 'Seire']);
    const sumRow = budgetRow(page, 'Kokku');
    expect(await sumRow.locator('[col-id="info"]').textContent()).toContain('Põhitegevus');

    // A tag is added optimistically and kept.
    const tagInput = budgetRow(page, 'Seire').getByTestId('budget-tag-input');
    await tagInput.fill('ERP');
    await tagInput.press('Enter');
    await expect.poll(() => budgetRow(page, 'Seire').getByTestId('budget-tag-text').allTextContents()).toEqual(['ERP']);
    await expect
      .poll(
        async () =>
          ((await (await page.request.get(`/api/document/${documentId}/budgets`)).json()) as Budget[]).find((budget) => budget.name === 'Seire')?.tags,
      )
      .toEqual(['ERP']);
    await shot(page, 'budgets-list');
    // The tag filter is a select of the tags with checkboxes; it keeps budgets with any of the chosen tags.
    await page.getByTestId('budgets-tag-filter').click();
    await page.getByTestId('budgets-tag-filter-popup').waitFor();
    // Fewer than 11 tags: no search box.
    expect(await page.getByTestId('budgets-tag-filter-search').count()).toBe(0);
    await page.getByTestId('budgets-tag-filter-option').filter({ hasText: 'ERP' }).click();
    await expect.poll(() => budgetNames(page)).toEqual(['Seire']);
    // The dropdown stays open for more choices.
    await page.waitForTimeout(300);
    expect(await page.getByTestId('budgets-tag-filter-popup').isVisible()).toBe(true);
    await page.keyboard.press('Escape');
    await page.getByTestId('budgets-tag-filter-popup').waitFor({ state: 'detached' });
    expect(await page.getByTestId('budgets-tag-filter-chip').allTextContents()).toEqual(['ERP']);
    await shot(page, 'budgets-tag-filter');
    await page.getByTestId('budgets-tag-filter').click();
    await page.getByTestId('budgets-tag-filter-option').filter({ hasText: 'ERP' }).click();
    await page.keyboard.press('Escape');
    await expect.poll(() => gridRows(page, 'budgets-grid').count()).toBe(3);

    // Edit order: drag the last budget to the top.
    await page.getByTestId('budgets-edit-order').click();
    const handles = page.locator('[data-testid="budgets-grid"] .ag-center-cols-container .ag-row .ag-row-drag');
    await handles.first().waitFor();
    const last = before[before.length - 1] ?? '';
    await dragRow(page, budgetRow(page, last).locator('.ag-row-drag'), gridRows(page, 'budgets-grid').and(page.locator('[row-index="0"]')));
    const expected = [last, ...before.slice(0, -1)];
    await expect
      .poll(async () => ((await (await page.request.get(`/api/document/${documentId}/budgets`)).json()) as Budget[]).map((budget) => budget.name), {
        timeout: 10_000,
      })
      .toEqual(expected);
    await page.getByTestId('budgets-edit-order').click();
    await expect.poll(() => budgetNames(page)).toEqual(expected);

    // The opened document is remembered as the occupation's document.
    await expect
      .poll(
        async () =>
          ((await (await page.request.get('/api/user-settings?type=OCCUPATION_DOCUMENT')).json()) as { settings: { rememberedDocumentId?: string } }).settings
            .rememberedDocumentId,
      )
      .toBe(documentId);

    // A scheme for the budget copy's per-scheme options (and, later, the document copy).
    const classifierId = ((await classifier.json()) as { id: string }).id;
    const scheme = await page.request.post(`/api/document/${documentId}/schema`, {
      data: { name: 'Tegevused', classifierList: [{ classifierId, type: 'MAIN' }] },
    });
    expect(scheme.status(), await scheme.text()).toBe(201);
    const schemeId = ((await scheme.json()) as { id: string }).id;

    // Copy-from-existing offers the common and monitoring budgets in a tree of documents, the
    // current document open; changing the type to a sum budget drops the copy choice.
    await page.getByTestId('budgets-add').click();
    await page.getByTestId('budget-copy-enabled').check();
    const sourceDocument = page.locator(`[data-testid="budget-copy-source-document"][data-document-id="${documentId}"]`);
    expect(await sourceDocument.getAttribute('aria-expanded')).toBe('true');
    const sourceOptions = sourceDocument.getByTestId('budget-copy-source-option');
    await expect
      .poll(async () => (await sourceOptions.evaluateAll((options) => options.map((option) => option.getAttribute('data-budget-name')))).sort())
      .toEqual(['Põhitegevus', 'Seire']);
    await page.getByTestId('budget-type-SUM_BUDGET').check();
    expect(await page.getByTestId('budget-copy').count()).toBe(0);
    // A common budget copied from another: the source is found by search and chosen with the keyboard.
    await page.getByTestId('budget-type-COMMON').check();
    await page.getByTestId('budget-name-input').fill('Põhitegevus koopia');
    await page.getByTestId('budget-copy-enabled').check();
    await page.getByTestId('budget-copy-source-search').fill('põhi');
    await expect.poll(() => sourceOptions.evaluateAll((options) => options.map((option) => option.getAttribute('data-budget-name')))).toEqual(['Põhitegevus']);
    await page.getByTestId('budget-copy-source-search').press('ArrowDown');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    const source = sourceOptions.filter({ hasText: 'Põhitegevus' });
    expect(await source.getAttribute('aria-selected')).toBe('true');
    await expect.poll(() => page.getByTestId('budget-copy-source-selected').textContent()).toContain('Põhitegevus');
    // Parts this version cannot copy yet are offered greyed out, with the reason as the hint.
    await page.getByTestId('budget-copy-scheme').first().waitFor();
    await expect.poll(() => page.getByTestId('budget-copy-pinned').first().isEnabled()).toBe(true);
    expect(await page.getByTestId('budget-copy-permissions').isEnabled()).toBe(true);
    expect(await page.getByTestId('budget-copy-comments').first().isDisabled()).toBe(true);
    expect(await page.getByTestId('budget-copy-comments').first().locator('xpath=..').getAttribute('title')).toBe(et['budgets.copy.partUnavailable']);
    expect(await page.getByTestId('budget-save').isDisabled()).toBe(true);
    await page.getByTestId('budget-copy-pinned').first().check();
    expect(await page.getByTestId('budget-save').isDisabled()).toBe(false);
    await shot(page, 'budget-create-copy');
    await page.getByTestId('budget-save').click();
    // The document has a scheme now: the sub-budgets tab goes on to it (replacing the address).
    await page.waitForURL(new RegExp(`/budget/[0-9a-f-]{36}/sub-budgets/${schemeId}$`));
    await expect
      .poll(async () => ((await (await page.request.get(`/api/document/${documentId}/budgets`)).json()) as Budget[]).map((budget) => budget.name))
      .toContain('Põhitegevus koopia');
    await page.getByTestId('document-tab-budgets').click();
    await expect.poll(() => budgetRow(page, 'Põhitegevus koopia').getAttribute('class'), { timeout: 5_000 }).toContain('row-highlighted');

    // A second document, then drag it below the first in the sider.
    await createDocumentThroughUi(page, second);
    await expect.poll(() => siderNames(page)).toContain(second);
    const order = (await siderNames(page)).filter((name) => name === first || name === second);
    const top = order[0] ?? '';
    const bottom = order[1] ?? '';
    const item = (name: string) => page.getByTestId('document-item').filter({ hasText: name });
    await item(top).dragTo(item(bottom));
    await expect.poll(async () => (await siderNames(page)).filter((name) => name === first || name === second), { timeout: 10_000 }).toEqual([bottom, top]);
    await page.reload();
    await expect.poll(async () => (await siderNames(page)).filter((name) => name === first || name === second)).toEqual([bottom, top]);

    // Copy the first document with its classifiers and schemes: the copy appears in the sider when its task ends.
    expect((await page.request.post(`/api/classifier/${classifierId}/item`, { data: { code: '01', name: 'Haridus' } })).status()).toBe(201);
    const subBudget = await page.request.post(`/api/schema/${schemeId}/sub-budget`, { data: { name: 'Haridus', classifiers: { [classifierId]: '01' } } });
    expect(subBudget.status(), await subBudget.text()).toBe(201);
    await page.getByTestId('document-create').click();
    await page.getByTestId('document-copy-enabled').check();
    // Every part can be copied now (no 'not in this version' hint); report views need the schemes, which need the classifiers.
    await expect.poll(() => page.getByTestId('document-copy-classifiers').isEnabled()).toBe(true);
    expect(await page.getByTestId('document-copy-permissions').isEnabled()).toBe(true);
    expect(await page.getByTestId('document-copy-report-views').isDisabled()).toBe(true);
    expect(await page.getByTestId('document-copy-report-views').locator('xpath=..').getAttribute('title')).toBeNull();
    await page.goto('/');
    const copyName = `Koopia ${tag}`;
    const copyId = await createDocumentThroughUi(page, copyName, first, ['classifiers', 'schemes']);
    await expect.poll(() => page.getByTestId('document-copy-result').isVisible(), { timeout: 60_000, interval: 500 }).toBe(true);
    expect(await page.getByTestId('document-copy-result').locator('[data-status]').getAttribute('data-status')).toBe('SUCCESS');
    await expect.poll(() => siderNames(page)).toContain(copyName);
    expect(await page.getByTestId('document-title').textContent()).toBe(copyName);
    await shot(page, 'document-copied');
    // The copy has its own classifier with the item, its master set, and the scheme with its sub-budget.
    await page.getByTestId('document-tab-classifiers').click();
    await page.waitForURL(new RegExp(`/document/${copyId}/classifiers/[0-9a-f-]{36}$`));
    await expect.poll(() => page.getByTestId('classifier-tree-link').allTextContents()).toEqual([expect.stringContaining('Tegevusala')]);
    await expect.poll(() => gridRows(page, 'items-grid').count()).toBe(1);
    expect(await gridRows(page, 'items-grid').first().textContent()).toContain('Haridus');
    expect(currentPath(page)).not.toContain(classifierId);
    await page.getByTestId('document-tab-schemes').click();
    await expect.poll(() => gridRows(page, 'schemes-grid').count()).toBe(1);
    expect(await gridRows(page, 'schemes-grid').first().textContent()).toContain('Tegevused');
    await page.getByTestId('document-tab-settings').click();
    await expect.poll(() => page.getByTestId('document-master-classifier').inputValue()).toMatch(/^[0-9a-f-]{36}$/);

    // Deleting the copy from its settings goes home and drops it from the sider.
    await page.getByTestId('document-tab-settings').click();
    await page.getByTestId('document-delete').click();
    await page.getByTestId('document-delete-dialog').waitFor();
    await shot(page, 'document-delete');
    await page.getByTestId('confirm-ok').click();
    await page.waitForURL((url) => url.pathname === '/');
    await expect.poll(() => siderNames(page)).not.toContain(copyName);
    await page.getByTestId('document-item').filter({ hasText: first }).getByTestId('document-link').click();
    await page.waitForURL(`**/document/${documentId}/budgets`);

    // Deleting a budget asks first and highlights its row meanwhile.
    await budgetRow(page, 'Kokku').getByTestId('budget-delete').click();
    await page.getByTestId('budget-delete-dialog').waitFor();
    await expect.poll(() => budgetRow(page, 'Kokku').getAttribute('class')).toContain('row-confirming');
    await page.getByTestId('confirm-ok').click();
    await expect.poll(() => gridRows(page, 'budgets-grid').count()).toBe(3);

    // A list that fails to load says so once, with a retry, and no "no data" beside it; the retry loads it.
    const budgetList = '**/api/document/*/budgets?includeMeta=true';
    await page.route(budgetList, (route) =>
      route.fulfill({ status: 503, contentType: 'application/json', body: JSON.stringify({ code: 'SERVICE_UNAVAILABLE', message: 'down' }) }),
    );
    await page.reload();
    const listError = page.getByTestId('budgets-tab').getByTestId('list-error');
    await listError.waitFor();
    expect(await listError.getByRole('alert').textContent()).toContain(et['budgets.loadFailed']);
    expect(await page.getByTestId('budgets-grid').count()).toBe(0);
    expect(await page.getByText(et['grid.noRows']).count()).toBe(0);
    await page.unroute(budgetList);
    expect(await listError.getByTestId('list-retry').textContent()).toBe(et['grid.retry']);
    await listError.getByTestId('list-retry').click();
    await expect.poll(() => gridRows(page, 'budgets-grid').count()).toBe(3);
    expect(await page.getByTestId('list-error').count()).toBe(0);

    // The collapsed sider is remembered.
    await page.getByTestId('document-sider-toggle').click();
    await page.reload();
    await page.getByTestId('document-sider').waitFor();
    expect(await page.getByTestId('document-sider').getAttribute('data-collapsed')).toBe('true');
    await page.getByTestId('document-sider-toggle').click();

    // An unknown document says so and offers the way home; an unknown page inside a document is not found.
    await page.goto('/document/00000000-0000-4000-8000-000000000000/budgets');
    const notFound = page.getByTestId('document-not-found');
    await notFound.waitFor();
    expect(await notFound.getByRole('heading').textContent()).toBe(et['documents.notFound.title']);
    expect(await page.getByTestId('document-page').count()).toBe(0);
    await page.getByTestId('document-not-found-home').click();
    await page.waitForURL((url) => url.pathname === '/');
    await page.goto(`/document/${documentId}/nothing-here`);
    await page.getByTestId('not-found-page').waitFor();
  }, 180_000);
});
