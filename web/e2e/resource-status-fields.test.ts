import { randomBytes } from 'node:crypto';
import { type Budget, DEFAULT_RESOURCE_STATUSES, type Document, type Me, type Organization } from '@eelarve/shared';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { currentPath, signIn } from './harness';
import { browserSuite } from './harness';

/**
 * The status field of the document and budget forms (issue 10, point 5; spec 2, section 2): shown
 * and required only where the organisation uses resource statuses, prefilled on edit, sent as
 * resourceStatusId. The organisation first works without statuses, then enables them (for good).
 */

const inPreparation = DEFAULT_RESOURCE_STATUSES[0]!.id;
const approved = DEFAULT_RESOURCE_STATUSES[2]!.id;
/** Hides a resource from everyone but platform administrators (who see every document): it does not lock the document. */
const hidden = DEFAULT_RESOURCE_STATUSES[3]!.id;

async function getJson<T>(page: Page, url: string): Promise<T> {
  const response = await page.request.get(url);
  expect(response.status(), await response.text()).toBe(200);
  return (await response.json()) as T;
}

/** Enables resource statuses for the signed-in user's organisation (PUT api/organization/{id}, platform admin). */
async function enableStatuses(page: Page): Promise<void> {
  const me = await getJson<Me>(page, '/api/auth/me');
  const organization = (await getJson<Organization[]>(page, '/api/organizations')).find((candidate) => candidate.id === me.organizationId);
  if (!organization) throw new Error('the organisation of the signed-in user is not listed');
  const { id, createdAt, nrOfUsers, isPlatform, ...input } = organization;
  const response = await page.request.put(`/api/organization/${id}`, { data: { ...input, enableResourceStatuses: true, allowResourceStatusEditing: true } });
  expect(response.status(), await response.text()).toBe(200);
}

/** Opens the document form and fills name and year. */
async function fillDocumentForm(page: Page, name: string): Promise<void> {
  await page.getByTestId('document-create').click();
  await page.getByTestId('document-form').waitFor();
  await page.getByTestId('document-name-input').fill(name);
  await page.getByTestId('document-year').fill('2027');
}

async function saveDocument(page: Page): Promise<string> {
  await page.getByTestId('document-save').click();
  await page.waitForURL(/\/document\/[0-9a-f-]{36}\/budgets$/);
  return currentPath(page).split('/')[2] ?? '';
}

/**
 * A required classifier through the API, made the master through the settings form; where statuses
 * are used, the form shows the document's status (`status.shown`) and another one (`status.chosen`) is saved with it.
 */
async function setMaster(page: Page, documentId: string, tag: string, status?: { shown: string; chosen: string }): Promise<void> {
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
  if (status) {
    expect(await page.getByTestId('document-resource-status').inputValue()).toBe(status.shown);
    await page.getByTestId('document-resource-status').selectOption(status.chosen);
  }
  await page.getByTestId('document-save').click();
  await expect.poll(async () => (await getJson<Document>(page, `/api/document/${documentId}`)).masterClassifierId).not.toBeNull();
  if (status) expect((await getJson<Document>(page, `/api/document/${documentId}`)).resourceStatusId).toBe(status.chosen);
  await page.getByTestId('document-tab-budgets').click();
  await expect.poll(() => page.getByTestId('budgets-add').isEnabled()).toBe(true);
}

async function openBudgetForm(page: Page, name: string): Promise<void> {
  await page.getByTestId('budgets-add').click();
  await page.waitForURL('**/budgets/create');
  await page.getByTestId('budget-type-COMMON').check();
  await page.getByTestId('budget-name-input').fill(name);
}

/** Saves the new common budget; it opens on its sub-budgets. */
async function saveBudget(page: Page): Promise<string> {
  await page.getByTestId('budget-save').click();
  await page.waitForURL(/\/budget\/[0-9a-f-]{36}\/sub-budgets$/);
  return currentPath(page).split('/')[4] ?? '';
}

describe('web: the status field of the document and budget forms (browser)', () => {
  const suite = browserSuite();

  it('is absent without statuses; with statuses it is required, sent, and prefilled on edit', async () => {
    const page = await suite.openPage();
    await signIn(page, suite.server.admin);
    await page.getByTestId('document-sider').waitFor();
    const tag = randomBytes(3).toString('hex');

    // Without statuses: no field, and document and budget save as before (no status).
    await fillDocumentForm(page, `Ilma staatuseta ${tag}`);
    expect(await page.getByTestId('document-resource-status').count()).toBe(0);
    const plainDocumentId = await saveDocument(page);
    expect((await getJson<Document>(page, `/api/document/${plainDocumentId}`)).resourceStatusId).toBeNull();
    await setMaster(page, plainDocumentId, `${tag}a`);
    await openBudgetForm(page, 'Staatuseta eelarve');
    expect(await page.getByTestId('budget-resource-status').count()).toBe(0);
    const plainBudgetId = await saveBudget(page);
    expect((await getJson<Budget>(page, `/api/budget/${plainBudgetId}`)).resourceStatusId).toBeNull();

    // With statuses (the page is loaded again so that `me` says so).
    await enableStatuses(page);
    await page.goto('/');
    await page.getByTestId('document-sider').waitFor();
    await fillDocumentForm(page, `Staatusega ${tag}`);
    const documentStatus = page.getByTestId('document-resource-status');
    // Saving without a status: the form's own required message under the field, nothing sent.
    await page.getByTestId('document-save').click();
    await expect
      .poll(() => page.locator('.field', { has: documentStatus }).getByTestId('field-error').getAttribute('data-message'))
      .toBe('validation.required');
    expect(currentPath(page)).toBe('/document/create');
    // The default statuses are offered, named in the UI language (Estonian).
    expect(await documentStatus.locator(`option[value="${inPreparation}"]`).textContent()).toContain(DEFAULT_RESOURCE_STATUSES[0]!.name.et);
    await documentStatus.selectOption(inPreparation);
    const documentId = await saveDocument(page);
    expect((await getJson<Document>(page, `/api/document/${documentId}`)).resourceStatusId).toBe(inPreparation);

    // The settings form shows the current status; a changed one is saved with the master classifier
    // (one that does not lock the document: an approved document would refuse the budget below).
    await setMaster(page, documentId, `${tag}b`, { shown: inPreparation, chosen: hidden });

    // A budget: required, then created with its status, and prefilled on edit.
    await openBudgetForm(page, 'Staatusega eelarve');
    const budgetStatus = page.getByTestId('budget-resource-status');
    await page.getByTestId('budget-save').click();
    await expect.poll(() => page.locator('.field', { has: budgetStatus }).getByTestId('field-error').getAttribute('data-message')).toBe('validation.required');
    await budgetStatus.selectOption(approved);
    const budgetId = await saveBudget(page);
    expect((await getJson<Budget>(page, `/api/budget/${budgetId}`)).resourceStatusId).toBe(approved);
    await page.goto(`/document/${documentId}/budget/${budgetId}/edit`);
    await expect.poll(() => page.getByTestId('budget-resource-status').inputValue()).toBe(approved);
    await page.getByTestId('budget-resource-status').selectOption(inPreparation);
    await page.getByTestId('budget-save').click();
    await page.waitForURL(`**/document/${documentId}/budgets`);
    expect((await getJson<Budget>(page, `/api/budget/${budgetId}`)).resourceStatusId).toBe(inPreparation);
  });
});
