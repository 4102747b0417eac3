import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { created, IN_PREPARATION, type RecordsWorld, recordsWorld } from './records-world';

/**
 * The rules of the document structure that wait for records (issue 11, point 2), through the API
 * with records made through the API: record counts and `hasRecords` on sub-budgets (and the -2
 * row of records fitting none), `recordsCount` on documents, items in use by records, a classifier
 * not set on every record, the period lock, deleting or changing a sub-budget with records,
 * unpinning one, and the budgets that match a sub-budget.
 */
let world: RecordsWorld;
let budget: string;
let other: string;

const json = <T>(response: { statusCode: number; body: string; json(): unknown }, status = 200): T => {
  expect(response.statusCode, response.body).toBe(status);
  return response.json() as T;
};

async function record(budgetId: string, subBudgetId: string, name: string, classifiers: Record<string, string>, amount = '100.10') {
  return created(
    await world.editor.client.request({
      method: 'POST',
      url: `/api/budget/${budgetId}/sub-budget/${subBudgetId}/record`,
      payload: { name, amount, classifiers },
    }),
  );
}

type SubBudgetAnswer = { id: string; name: string; hasRecords: boolean; recordsCount: number; pinned: boolean };
const subBudgetsOf = async (budgetId: string, schemeId = world.schemeId) =>
  json<SubBudgetAnswer[]>(await world.editor.client.request({ method: 'GET', url: `/api/budget/${budgetId}/schema/${schemeId}/sub-budgets` }));

beforeAll(async () => {
  world = await recordsWorld();
  budget = await world.budget();
  other = await world.budget();
  await record(budget, world.education, 'Õpetajate palgad', { tegevusala: '01', konto: '5500' });
  await record(budget, world.education, 'Õppevahendid', { tegevusala: '01', konto: '4500', allikas: 'A' });
  await record(other, world.education, 'Koolitoit', { tegevusala: '01', konto: '5500', allikas: 'B' });
}, 240_000);

afterAll(async () => {
  await world?.server.close();
});

describe('records counted where the document structure shows them', () => {
  it('counts a budget’s records per sub-budget, and in the sub-budget across budgets', async () => {
    const rows = await subBudgetsOf(budget);
    expect(rows.find((row) => row.id === world.education)).toMatchObject({ hasRecords: true, recordsCount: 2 });
    expect(rows.find((row) => row.id === world.culture)).toMatchObject({ hasRecords: false, recordsCount: 0 });
    expect(rows.some((row) => row.id === '-2')).toBe(false);
    const schemeWide = json<SubBudgetAnswer[]>(await world.admin.request({ method: 'GET', url: `/api/schema/${world.schemeId}/sub-budgets` }));
    expect(schemeWide.find((row) => row.id === world.education)).toMatchObject({ hasRecords: true, recordsCount: 3 });
    expect(json(await world.admin.request({ method: 'GET', url: `/api/sub-budget/${world.education}/has-records` }))).toEqual({
      hasRecords: true,
      recordsCount: 3,
    });
    expect(json(await world.admin.request({ method: 'GET', url: `/api/sub-budget/${world.culture}/has-records` }))).toEqual({
      hasRecords: false,
      recordsCount: 0,
    });
  });

  it('shows the records that fit no sub-budget of a scheme as the -2 row, to those who see the whole budget', async () => {
    const account = world.account;
    // A second scheme whose only sub-budget is (01, 4500): the 5500 record falls in none of it.
    const schemeId = await created(
      await world.admin.request({
        method: 'POST',
        url: `/api/document/${world.documentId}/schema`,
        payload: {
          name: 'Kontod',
          classifierList: [
            { classifierId: world.kind, type: 'MAIN' },
            { classifierId: account, type: 'SECONDARY' },
          ],
        },
      }),
    );
    const fitting = await created(
      await world.admin.request({
        method: 'POST',
        url: `/api/schema/${schemeId}/sub-budget`,
        payload: { name: 'Haridus 4500', classifiers: { [world.kind]: '01', [account]: '4500' } },
      }),
    );
    const rows = await subBudgetsOf(budget, schemeId);
    expect(rows.find((row) => row.id === fitting)).toMatchObject({ recordsCount: 1 });
    expect(rows.find((row) => row.id === '-2')).toMatchObject({ hasRecords: true, recordsCount: 1, pinned: false, permissions: { read: true, update: false } });
    const unfit = json<{ name: string }[]>(
      await world.editor.client.request({ method: 'GET', url: `/api/budget/${budget}/sub-budget/-2/records?schemaId=${schemeId}` }),
    );
    expect(unfit.map((entry) => entry.name)).toEqual(['Õpetajate palgad']);
    // A department that updates one sub-budget does not see the budget's other records through the -2 row.
    await record(world.grantedBudget, world.education, 'Raamatud', { tegevusala: '01', konto: '5500' });
    const department = json<SubBudgetAnswer[]>(
      await world.subBudgetEditor.client.request({ method: 'GET', url: `/api/budget/${world.grantedBudget}/schema/${schemeId}/sub-budgets` }),
    );
    expect(department.some((row) => row.id === '-2')).toBe(false);
  });

  it('counts the document’s records, and a deleted record leaves the count', async () => {
    const document = async () => json<{ recordsCount: number }>(await world.admin.request({ method: 'GET', url: `/api/document/${world.documentId}` }));
    const before = (await document()).recordsCount;
    expect(before).toBeGreaterThanOrEqual(3);
    const extra = await record(other, world.culture, 'Muuseumid', { tegevusala: '02', konto: '4500' });
    expect((await document()).recordsCount).toBe(before + 1);
    json(await world.editor.client.request({ method: 'DELETE', url: `/api/budget/${other}/sub-budget/${world.culture}/record/${extra}` }));
    expect((await document()).recordsCount).toBe(before);
  });

  it('lists the other readable budgets with records in a sub-budget (import from another budget)', async () => {
    const matching = json<{ id: string; recordsCount: number }[]>(
      await world.editor.client.request({ method: 'GET', url: `/api/budget/${budget}/sub-budget/${world.education}/matching-budgets` }),
    );
    expect(matching.map((entry) => [entry.id, entry.recordsCount])).toEqual(
      expect.arrayContaining([
        [other, 1],
        [world.grantedBudget, 1],
      ]),
    );
    expect(matching.some((entry) => entry.id === budget)).toBe(false);
    // The department reads only its own sub-budget of one budget: no other budget is offered.
    const department = json<unknown[]>(
      await world.subBudgetEditor.client.request({ method: 'GET', url: `/api/budget/${world.grantedBudget}/sub-budget/${world.education}/matching-budgets` }),
    );
    expect(department).toEqual([]);
    expect(
      (await world.outsider.client.request({ method: 'GET', url: `/api/budget/${budget}/sub-budget/${world.education}/matching-budgets` })).statusCode,
    ).toBe(404);
  });
});

describe('rules of the document structure that records hold', () => {
  it('refuses to change the period once the document has records', async () => {
    const settings = { name: 'Dokument', description: '', masterClassifierId: world.kind, resourceStatusId: IN_PREPARATION };
    const update = (period: object) => world.admin.request({ method: 'PUT', url: `/api/document/${world.documentId}`, payload: { ...settings, period } });
    for (const period of [
      { year: 2026, month: 1, duration: 2 },
      { year: 2027, month: 1, duration: 1 },
      { year: 2026, month: 2, duration: 1 },
    ]) {
      const refused = await update(period);
      expect(refused.statusCode, refused.body).toBe(422);
      expect(refused.json().code).toBe('DOCUMENT_PERIOD_UPDATE_RESTRICTED');
    }
    expect((await update({ year: 2026, month: 1, duration: 1 })).statusCode).toBe(200);
  });

  it('keeps an item that records use, and marks it in use', async () => {
    const items = json<{ id: string; code: string; isInUseRecords?: boolean }[]>(
      await world.admin.request({ method: 'GET', url: `/api/classifier/${world.account}/items?includeMeta=true` }),
    );
    const used = items.find((item) => item.code === '5500')!;
    expect(used.isInUseRecords).toBe(true);
    const refused = await world.admin.request({ method: 'DELETE', url: `/api/classifier/${world.account}/item/${used.id}` });
    expect(refused.statusCode, refused.body).toBe(422);
    expect(refused.json().code).toBe('ITEM_IN_USE');
    const sourceItems = json<{ id: string; code: string }[]>(await world.admin.request({ method: 'GET', url: `/api/classifier/${world.source}/items` }));
    const unused = await world.admin.request({
      method: 'POST',
      url: `/api/classifier/${world.source}/items/delete`,
      payload: { itemIds: [sourceItems.find((item) => item.code === 'A')!.id] },
    });
    expect(unused.statusCode, unused.body).toBe(422);
    expect(unused.json().code).toBe('ITEM_IN_USE');
  });

  it('does not make a classifier required while some records have no value for it', async () => {
    type Classifier = Record<string, unknown> & { id: string; codeSettings: Record<string, unknown> };
    const classifiers = json<Classifier[]>(await world.admin.request({ method: 'GET', url: `/api/document/${world.documentId}/classifiers` }));
    const classifier = classifiers.find((entry) => entry.id === world.source)!;
    const { typeName, minLength, maxLength, hierarchical } = classifier.codeSettings;
    const payload = {
      name: classifier.name,
      itemName: classifier.itemName,
      fieldName: classifier.fieldName,
      description: classifier.description,
      required: true,
      itemCanChangeSign: classifier.itemCanChangeSign,
      primary: classifier.primary,
      primaryGroupedById: classifier.primaryGroupedById,
      displayMode: classifier.displayMode,
      codeSettings: { typeName, minLength, maxLength, hierarchical },
    };
    const refused = await world.admin.request({ method: 'PUT', url: `/api/classifier/${world.source}`, payload });
    expect(refused.statusCode, refused.body).toBe(422);
    expect(refused.json().code).toBe('NOT_USED_IN_ALL_RECORDS');
  });

  it('keeps a sub-budget with records: no deleting it, no changing its values; one without records goes', async () => {
    const remove = await world.admin.request({ method: 'DELETE', url: `/api/schema/${world.schemeId}/sub-budget/${world.education}` });
    expect(remove.statusCode, remove.body).toBe(422);
    expect(remove.json().code).toBe('SUB_BUDGET_HAS_RECORDS');
    const change = await world.admin.request({
      method: 'PUT',
      url: `/api/schema/${world.schemeId}/sub-budget/${world.education}`,
      payload: { name: 'Haridus', classifiers: { [world.kind]: '02' } },
    });
    expect(change.statusCode, change.body).toBe(422);
    expect(change.json().code).toBe('SUB_BUDGET_HAS_RECORDS');
    const many = await world.admin.request({
      method: 'DELETE',
      url: `/api/schema/${world.schemeId}/sub-budgets`,
      payload: { ids: [world.education, world.culture] },
    });
    expect(many.json().code).toBe('SUB_BUDGET_HAS_RECORDS');
  });

  it('asks to confirm unpinning a sub-budget that holds the budget’s records, and only then', async () => {
    const settings = (budgetId: string, payload: object) =>
      world.admin.request({ method: 'PUT', url: `/api/budget/${budgetId}/schema/${world.schemeId}/settings`, payload });
    const empty = await world.budget();
    for (const budgetId of [budget, empty]) expect((await settings(budgetId, { pinned: [world.education] })).statusCode).toBe(200);
    // The budget without records in it unpins at once.
    expect((await settings(empty, { pinned: [] })).statusCode).toBe(200);
    const refused = await settings(budget, { pinned: [] });
    expect(refused.statusCode, refused.body).toBe(422);
    expect(refused.json().code).toBe('SUB_BUDGET_HAS_RECORDS');
    expect((await settings(budget, { pinned: [], confirmed: true })).statusCode).toBe(200);
    expect((await subBudgetsOf(budget)).find((row) => row.id === world.education)).toMatchObject({ pinned: false, recordsCount: 2 });
  });
});
