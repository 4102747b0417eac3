import { randomUUID } from 'node:crypto';
import { type BudgetRecord, canonicalAmount, type RecordHistoryEntry, type RecordStoredEvent } from '@eelarve/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from './helpers';
import { APPROVED, created, importedRecords, type RecordsWorld, recordsWorld } from './records-world';

/**
 * Records through the HTTP API on a real PostgreSQL (spec 3, sections 5-8; issue 11, points 1
 * and 3): every call, every record error code and validation message the API can answer, access
 * by sub-budget grants and statuses, concurrent editors, history, revert and the raw events.
 */

let world: RecordsWorld;
let budgetId: string;

beforeAll(async () => {
  world = await recordsWorld();
  budgetId = await world.budget();
}, 120_000);
afterAll(async () => world?.server.close());

type Response = { statusCode: number; body: string; json(): Record<string, unknown> };
function expectError(response: Response, status: number, code: string, details?: unknown) {
  expect({ status: response.statusCode, code: response.json().code }, response.body).toEqual({ status, code });
  if (details !== undefined) expect(response.json().details).toEqual(details);
}

const place = (budget: string, subBudget: string) => `/api/budget/${budget}/sub-budget/${subBudget}`;
const twelve = (amount: string) => Array.from({ length: 12 }, () => amount);

function createRecord(client: Client, payload: object, options: { budget?: string; subBudget?: string; query?: string } = {}) {
  const url = `${place(options.budget ?? budgetId, options.subBudget ?? world.education)}/record${options.query ?? ''}`;
  return client.request({ method: 'POST', url, payload });
}

async function newRecord(payload: object = {}, options: { budget?: string; subBudget?: string; client?: Client } = {}): Promise<string> {
  const body = { name: `Rida ${randomUUID().slice(0, 6)}`, amount: '100', classifiers: { konto: '4500' }, ...payload };
  return created(await createRecord(options.client ?? world.editor.client, body, options));
}

async function list(url: string, client: Client = world.editor.client): Promise<BudgetRecord[]> {
  const response = await client.request({ method: 'GET', url });
  expect(response.statusCode, response.body).toBe(200);
  return response.json() as never;
}

const recordOf = async (id: string, subBudget = world.education, budget = budgetId) =>
  (await list(`${place(budget, subBudget)}/records`)).find((record) => record.id === id);

describe('creating, editing, promoting and deleting records', () => {
  it('creates a record in a sub-budget with its values; the next read shows it with exact amounts and who changed it', async () => {
    const response = await createRecord(world.editor.client, { name: ' Õpikud ', amount: '1234.50', classifiers: { konto: '4500', allikas: 'A' } });
    const id = await created(response);
    expect(response.json().position).toEqual(expect.any(String));
    const record = await recordOf(id);
    expect(record).toEqual({
      id,
      budgetId,
      documentId: world.documentId,
      name: 'Õpikud',
      amount: '1234.5',
      classifiers: { [world.kind]: '01', [world.account]: '4500', [world.source]: 'A' },
      factors: { months: null },
      extra: { promoted: false },
      hasComments: false,
      hasCommentAttachments: false,
      createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      updated_at: expect.any(String),
      user_name: 'Test User',
    });
    // It falls in Haridus only; the budget's list holds it.
    expect(await recordOf(id, world.culture)).toBeUndefined();
    expect((await list(`/api/budget/${budgetId}/records?include-comments=false`)).map((row) => row.id)).toContain(id);
  });

  it('a monthly split makes the amount their exact sum (0.1 twelve times is 1.2), and a split must add up and cover the period', async () => {
    const id = await newRecord({ amount: undefined, factors: { months: twelve('0.1') } });
    const record = await recordOf(id);
    expect(record?.amount).toBe('1.2');
    expect(record?.factors.months).toEqual(twelve('0.1'));
    expectError(
      await createRecord(world.editor.client, { name: 'Vale summa', amount: '1.3', factors: { months: twelve('0.1') }, classifiers: { konto: '4500' } }),
      422,
      'RECORD_FACTORS_MISMATCH',
      [{ path: 'body.amount', message: 'sumAndPeriodizedInfoMismatch' }],
    );
    expectError(
      await createRecord(world.editor.client, { name: 'Kuud', factors: { months: ['1', '2'] }, classifiers: { konto: '4500' } }),
      422,
      'RECORD_FACTORS_INVALID',
      [{ path: 'body.factors.months', message: 'validation.invalid' }],
    );
    // A month that is not a number is refused by the contract (the amount parser), before any rule.
    const notNumber = await createRecord(world.editor.client, {
      name: 'Kuud',
      factors: { months: [...twelve('1').slice(1), '1,5'] },
      classifiers: { konto: '4500' },
    });
    expectError(notNumber, 400, 'SCHEMA_VALIDATION_ERROR');
    expect(JSON.stringify(notNumber.json().details)).toContain('validation.amount');
  });

  it('takes exact JSON numbers and canonical strings, and refuses what is not a number', async () => {
    const id = await newRecord({ amount: 99.95 });
    expect((await recordOf(id))?.amount).toBe('99.95');
    const invalid = await createRecord(world.editor.client, { name: 'Summa', amount: '12abc', classifiers: { konto: '4500' } });
    expectError(invalid, 400, 'SCHEMA_VALIDATION_ERROR', [{ path: 'body.amount', message: 'validation.amount' }]);
  });

  it('answers each record rule with its code and the field (spec 3, sections 5 and 8)', async () => {
    const cases: [object, string, string, string][] = [
      [{ name: 'x'.repeat(257) }, 'RECORD_NAME_TOO_LONG', 'body.name', 'validation.maxLength'],
      [{ classifiers: { konto: '4500', olematu: 'X' } }, 'RECORD_CLASSIFIER_INVALID', 'body.classifiers.olematu', 'classifierMissing'],
      [{ classifiers: { konto: '9999' } }, 'RECORD_CLASSIFIER_ITEM_INVALID', `body.classifiers.${world.account}`, 'referenceItemNotFound'],
      [{ classifiers: {} }, 'RECORD_CLASSIFIER_REQUIRED', `body.classifiers.${world.account}`, 'validation.requiredField'],
      [{ classifiers: { konto: '4500', tegevusala: '02' } }, 'RECORD_DOES_NOT_MATCH_SUB_BUDGET', `body.classifiers.${world.kind}`, 'doesNotMatchSubBudget'],
    ];
    for (const [payload, code, path, message] of cases) {
      const response = await createRecord(world.editor.client, { name: 'Rida', amount: '1', classifiers: { konto: '4500' }, ...payload });
      expectError(response, 422, code, [{ path, message }]);
    }
    // The unfit row (-2) of the scheme: no sub-budget gives the master classifier's value.
    const unfit = { subBudget: '-2', query: `?schemaId=${world.schemeId}` };
    expectError(
      await createRecord(world.editor.client, { name: 'Rida', amount: '1', classifiers: { konto: '4500' } }, unfit),
      422,
      'RECORD_MASTER_CLASSIFIER_MISSING',
      [{ path: `body.classifiers.${world.kind}`, message: 'validation.requiredField' }],
    );
    expectError(
      await createRecord(world.editor.client, { name: 'Rida', amount: '1', classifiers: { konto: '4500', tegevusala: '0' } }, unfit),
      422,
      'RECORD_CLASSIFIER_ITEM_UNSELECTABLE',
      [{ path: `body.classifiers.${world.kind}`, message: 'referenceItemUnselectable' }],
    );
    // The form's own checks: a name is required.
    expectError(await createRecord(world.editor.client, { name: '  ', amount: '1', classifiers: { konto: '4500' } }), 400, 'SCHEMA_VALIDATION_ERROR', [
      { path: 'body.name', message: 'validation.required' },
    ]);
    // -2 without its scheme.
    expectError(await createRecord(world.editor.client, { name: 'Rida', amount: '1' }, { subBudget: '-2' }), 400, 'SCHEMA_VALIDATION_ERROR');
  });

  it('edits a record (saving unchanged values writes nothing), promotes it and deletes it', async () => {
    const id = await newRecord({ name: 'Toit', amount: '10' });
    const url = `${place(budgetId, world.education)}/record/${id}`;
    const edited = await world.editor.client.request({ method: 'PUT', url, payload: { name: 'Toit ja jook', amount: '12.5', classifiers: { allikas: 'B' } } });
    expect(edited.statusCode, edited.body).toBe(200);
    expect(await recordOf(id)).toMatchObject({
      name: 'Toit ja jook',
      amount: '12.5',
      classifiers: { [world.kind]: '01', [world.account]: '4500', [world.source]: 'B' },
    });
    const unchanged = await world.editor.client.request({ method: 'PUT', url, payload: { name: 'Toit ja jook', amount: '12.50', classifiers: {} } });
    expect(unchanged.json().position).toBeNull();
    // Moving it out of its sub-budget from the sub-budget is refused; clearing an optional value is not.
    expectError(
      await world.editor.client.request({ method: 'PUT', url, payload: { name: 'Toit', classifiers: { tegevusala: '02' } } }),
      422,
      'RECORD_DOES_NOT_MATCH_SUB_BUDGET',
    );
    await world.editor.client.request({ method: 'PUT', url, payload: { name: 'Toit ja jook', classifiers: { allikas: null } } });
    expect((await recordOf(id))?.classifiers).toEqual({ [world.kind]: '01', [world.account]: '4500' });

    expect((await world.editor.client.request({ method: 'POST', url: `${url}/promote` })).statusCode).toBe(200);
    expect((await recordOf(id))?.extra).toEqual({ promoted: true });
    await world.editor.client.request({ method: 'POST', url: `${url}/promote` });
    expect((await recordOf(id))?.extra).toEqual({ promoted: false });

    expect((await world.editor.client.request({ method: 'DELETE', url })).statusCode).toBe(200);
    expect(await recordOf(id)).toBeUndefined();
    expectError(await world.editor.client.request({ method: 'DELETE', url }), 404, 'RECORD_NOT_FOUND');
    expectError(
      await world.editor.client.request({ method: 'PUT', url: `${place(budgetId, world.education)}/record/${randomUUID()}`, payload: { name: 'X' } }),
      404,
      'RECORD_NOT_FOUND',
    );
  });

  it('duplicates a record: a new record with the copied values, which names the original', async () => {
    const original = await newRecord({ name: 'Koopia allikas', factors: { months: twelve('5') }, amount: '60' });
    const source = (await recordOf(original)) as BudgetRecord;
    const copy = await newRecord({
      name: source.name,
      amount: source.amount,
      factors: source.factors,
      classifiers: source.classifiers,
      duplicatedFrom: original,
    });
    expect(await recordOf(copy)).toMatchObject({ name: 'Koopia allikas', amount: '60', factors: { months: twelve('5') } });
    const history = await world.editor.client.request({ method: 'GET', url: `${place(budgetId, world.education)}/record/${copy}/history` });
    expect(history.json()).toHaveLength(1);
    // The original must be a record of the place.
    expectError(
      await createRecord(world.editor.client, { name: 'X', amount: '1', classifiers: { konto: '4500' }, duplicatedFrom: randomUUID() }),
      400,
      'RECORD_ID_INVALID',
      [{ path: 'body.duplicatedFrom', message: 'validation.invalid' }],
    );
  });

  it('a record of another sub-budget is not found from this one', async () => {
    const inCulture = await newRecord({}, { subBudget: world.culture });
    expectError(
      await world.editor.client.request({ method: 'PUT', url: `${place(budgetId, world.education)}/record/${inCulture}`, payload: { name: 'X' } }),
      404,
      'RECORD_NOT_FOUND',
    );
  });
});

describe('bulk delete and bulk edit', () => {
  it('edits one field of many records, all or nothing', async () => {
    const ids = await Promise.all([1, 2, 3].map((n) => newRecord({ name: `Hulgi ${n}`, amount: `${n}` })));
    const url = `${place(budgetId, world.education)}/records-bulk-edit`;
    const renamed = await world.editor.client.request({ method: 'POST', url, payload: { recordIds: ids, updates: { amount: '7.5' } } });
    expect(renamed.statusCode, renamed.body).toBe(200);
    expect(renamed.json()).toMatchObject({ count: 3, position: expect.any(String) });
    for (const id of ids) expect((await recordOf(id))?.amount).toBe('7.5');
    await world.editor.client.request({ method: 'POST', url, payload: { recordIds: ids, updates: { classifiers: { allikas: 'A' } } } });
    for (const id of ids) expect((await recordOf(id))?.classifiers[world.source]).toBe('A');
    // One refusal refuses them all: nothing is written.
    const refused = await world.editor.client.request({ method: 'POST', url, payload: { recordIds: ids, updates: { classifiers: { konto: '0000' } } } });
    expectError(refused, 422, 'RECORD_CLASSIFIER_ITEM_INVALID');
    const unknown = await world.editor.client.request({ method: 'POST', url, payload: { recordIds: [...ids, randomUUID()], updates: { name: 'Uus' } } });
    expectError(unknown, 400, 'RECORD_ID_INVALID', [{ path: 'body.recordIds.3', message: 'validation.invalid' }]);
    for (const id of ids) expect((await recordOf(id))?.name).toMatch(/^Hulgi/);
    // The field is required, and a value for name and amount.
    expectError(await world.editor.client.request({ method: 'POST', url, payload: { recordIds: ids, updates: {} } }), 400, 'SCHEMA_VALIDATION_ERROR', [
      { path: 'body.updates', message: 'validation.required' },
    ]);
    expectError(
      await world.editor.client.request({ method: 'POST', url, payload: { recordIds: ids, updates: { name: '' } } }),
      400,
      'SCHEMA_VALIDATION_ERROR',
      [{ path: 'body.updates.name', message: 'validation.required' }],
    );
    expectError(
      await world.editor.client.request({ method: 'POST', url, payload: { recordIds: ids, updates: { amount: '' } } }),
      400,
      'SCHEMA_VALIDATION_ERROR',
      [{ path: 'body.updates.amount', message: 'validation.amount' }],
    );
  });

  it('deletes many records at once; the answer is read-your-writes', async () => {
    const ids = await Promise.all(Array.from({ length: 20 }, (_, n) => newRecord({ name: `Kustuta ${n}` })));
    const response = await world.editor.client.request({
      method: 'POST',
      url: `${place(budgetId, world.education)}/records-delete`,
      payload: { recordIds: ids },
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json().count).toBe(20);
    const left = (await list(`${place(budgetId, world.education)}/records`)).map((record) => record.id);
    expect(ids.filter((id) => left.includes(id))).toEqual([]);
  });
});

describe('lists of a budget, a scheme and the unfit row (-2)', () => {
  it('places each record in the sub-budget it falls in, or -2', async () => {
    const budget = await world.budget();
    const inEducation = await newRecord({}, { budget });
    const inCulture = await newRecord({}, { budget, subBudget: world.culture });
    // Made from the unfit row with Kultuur's value, a record falls in Kultuur.
    const unfit = { budget, subBudget: '-2', query: `?schemaId=${world.schemeId}` };
    const fromUnfitRow = await created(
      await createRecord(world.editor.client, { name: 'Mujal', amount: '1', classifiers: { tegevusala: '02', konto: '5500' } }, unfit),
    );
    const scheme = await list(`/api/budget/${budget}/schema/${world.schemeId}/records`);
    expect(Object.fromEntries(scheme.map((record) => [record.id, (record as never as { subBudgetId: string }).subBudgetId]))).toEqual({
      [inEducation]: world.education,
      [inCulture]: world.culture,
      [fromUnfitRow]: world.culture,
    });
    const several = await list(`/api/budget/${budget}/schema-records?schemaIds=${world.schemeId}`);
    expect(several.find((record) => record.id === inEducation)).toMatchObject({ subBudgetIds: { [world.schemeId]: world.education } });
    expect(await list(`${place(budget, '-2')}/records?schemaId=${world.schemeId}`)).toEqual([]);
  });

  it('answers the unfit row with records carrying no sub-budget’s values', async () => {
    const budget = await world.budget();
    // Records born in an import may carry any value: an item no sub-budget has (the master classifier's 0 is unselectable for editing).
    const [imported] = await importedRecords(world, budget, [{ name: 'Importitud', amount: '5', classifiers: { [world.kind]: '0', [world.account]: '4500' } }]);
    const unfitRows = await list(`${place(budget, '-2')}/records?schemaId=${world.schemeId}`);
    expect(unfitRows.map((record) => record.id)).toEqual([imported]);
    const scheme = await list(`/api/budget/${budget}/schema/${world.schemeId}/records`);
    expect(scheme).toEqual([expect.objectContaining({ id: imported, subBudgetId: '-2' })]);
  });

  it('keeps amounts exact over many records', async () => {
    const budget = await world.budget();
    await Promise.all(Array.from({ length: 10 }, () => newRecord({ amount: '0.1' }, { budget })));
    const rows = await list(`/api/budget/${budget}/records`);
    expect(rows.map((row) => row.amount)).toEqual(Array.from({ length: 10 }, () => '0.1'));
  });
});

describe('access (spec 3, section 6)', () => {
  it('a sub-budget grant edits that sub-budget only, and sees only its records in the budget', async () => {
    const editor = world.subBudgetEditor.client;
    const mine = await newRecord({}, { budget: world.grantedBudget, client: editor });
    const other = await newRecord({}, { budget: world.grantedBudget, subBudget: world.culture });
    expectError(
      await createRecord(editor, { name: 'X', amount: '1', classifiers: { konto: '4500' } }, { budget: world.grantedBudget, subBudget: world.culture }),
      403,
      'INSUFFICIENT_PERMISSIONS',
    );
    expect((await list(`${place(world.grantedBudget, world.education)}/records`, editor)).map((record) => record.id)).toEqual([mine]);
    const budgetList = (await list(`/api/budget/${world.grantedBudget}/records`, editor)).map((record) => record.id);
    expect(budgetList).toEqual([mine]);
    expect((await list(`/api/budget/${world.grantedBudget}/records`)).map((record) => record.id).sort()).toEqual([mine, other].sort());
    const scheme = await list(`/api/budget/${world.grantedBudget}/schema/${world.schemeId}/records`, editor);
    expect(scheme.map((record) => record.id)).toEqual([mine]);
    expectError(
      await editor.request({ method: 'GET', url: `${place(world.grantedBudget, '-2')}/records?schemaId=${world.schemeId}` }),
      403,
      'INSUFFICIENT_PERMISSIONS',
    );
    // Another budget of the document is not granted at all.
    expectError(await createRecord(editor, { name: 'X', amount: '1', classifiers: { konto: '4500' } }), 403, 'INSUFFICIENT_PERMISSIONS');
  });

  it('a reader reads and changes nothing', async () => {
    const id = await newRecord();
    const reader = world.reader.client;
    expect((await list(`${place(budgetId, world.education)}/records`, reader)).map((record) => record.id)).toContain(id);
    expectError(await createRecord(reader, { name: 'X', amount: '1', classifiers: { konto: '4500' } }), 403, 'INSUFFICIENT_PERMISSIONS');
    const url = `${place(budgetId, world.education)}/record/${id}`;
    expectError(await reader.request({ method: 'PUT', url, payload: { name: 'X' } }), 403, 'INSUFFICIENT_PERMISSIONS');
    expectError(await reader.request({ method: 'POST', url: `${url}/promote` }), 403, 'INSUFFICIENT_PERMISSIONS');
    expectError(await reader.request({ method: 'DELETE', url }), 403, 'INSUFFICIENT_PERMISSIONS');
  });

  it('a budget whose status locks its data refuses edits with ACTION_DISALLOWED_DUE_TO_STATUS and still reads', async () => {
    const budget = await world.budget();
    const id = await newRecord({}, { budget });
    const url = `${place(budget, world.education)}/record/${id}`;
    const approve = await world.statusAdmin.client.request({
      method: 'PUT',
      url: `/api/budget/${budget}`,
      payload: { name: 'Kinnitatud', description: '', resourceStatusId: APPROVED },
    });
    expect(approve.statusCode, approve.body).toBe(200);
    expectError(await world.editor.client.request({ method: 'PUT', url, payload: { name: 'X' } }), 403, 'ACTION_DISALLOWED_DUE_TO_STATUS');
    expectError(
      await createRecord(world.editor.client, { name: 'X', amount: '1', classifiers: { konto: '4500' } }, { budget }),
      403,
      'ACTION_DISALLOWED_DUE_TO_STATUS',
    );
    expectError(
      await world.editor.client.request({ method: 'POST', url: `${place(budget, world.education)}/records-delete`, payload: { recordIds: [id] } }),
      403,
      'ACTION_DISALLOWED_DUE_TO_STATUS',
    );
    expect((await list(`${place(budget, world.education)}/records`)).map((record) => record.id)).toEqual([id]);
  });

  it('promotion needs metadata writing: a status that disables only it leaves editing open', async () => {
    const status = await world.statusAdmin.client.request({
      method: 'POST',
      url: '/api/resource-statuses',
      payload: {
        name: { et: 'Metaandmed lukus', en: 'Metadata locked' },
        description: { et: 'Seaded lukus.', en: 'Settings locked.' },
        icon: 'lock',
        rules: [{ type: 'METADATA_WRITE_DISABLED' }],
      },
    });
    const budget = await world.budget(await created(status));
    const id = await newRecord({}, { budget });
    const url = `${place(budget, world.education)}/record/${id}`;
    expect((await world.editor.client.request({ method: 'PUT', url, payload: { name: 'Muudetud' } })).statusCode).toBe(200);
    expectError(await world.editor.client.request({ method: 'POST', url: `${url}/promote` }), 403, 'ACTION_DISALLOWED_DUE_TO_STATUS');
  });

  it("another organisation's budget is not found, exactly as an unknown one", async () => {
    const id = await newRecord();
    const outsider = world.outsider.client;
    for (const budget of [budgetId, randomUUID()]) {
      expectError(await outsider.request({ method: 'GET', url: `/api/budget/${budget}/records` }), 404, 'BUDGET_NOT_FOUND');
      expectError(
        await outsider.request({ method: 'PUT', url: `${place(budget, world.education)}/record/${id}`, payload: { name: 'X' } }),
        404,
        'BUDGET_NOT_FOUND',
      );
    }
    expectError(await world.editor.client.request({ method: 'GET', url: `${place(budgetId, randomUUID())}/records` }), 404, 'SUB_BUDGET_NOT_FOUND');
  });
});

describe('concurrent editors', () => {
  it('16 people editing records of one budget at once all succeed and nothing is lost', async () => {
    const budget = await world.budget();
    const people = await world.editors(16);
    const ids = await Promise.all(people.map((person, n) => newRecord({ name: `Samaaegne ${n}` }, { budget, client: person.client })));
    const rounds = 5;
    for (let round = 1; round <= rounds; round++) {
      const answers = await Promise.all(
        people.map((person, n) =>
          person.client.request({
            method: 'PUT',
            url: `${place(budget, world.education)}/record/${ids[n]}`,
            payload: { name: `Samaaegne ${n}`, amount: `${round}.${n}` },
          }),
        ),
      );
      expect(answers.map((answer) => answer.statusCode)).toEqual(ids.map(() => 200));
      // Each answer is read-your-writes: the next read holds every write of the round.
      const rows = await list(`/api/budget/${budget}/records`);
      expect(Object.fromEntries(rows.map((row) => [row.id, row.amount]))).toEqual(
        Object.fromEntries(ids.map((id, n) => [id, canonicalAmount(`${round}.${n}`)])),
      );
    }
    // Each version is its author's.
    const history = (
      await people[3]?.client.request({ method: 'GET', url: `${place(budget, world.education)}/record/${ids[3]}/history` })
    )?.json() as never as RecordHistoryEntry[];
    expect(new Set(history.map((entry) => entry.changedBy.userId))).toEqual(new Set([people[3]?.userId]));
  });

  it('concurrent edits of one record are each decided on the latest state: all succeed, the last write stands', async () => {
    const id = await newRecord({ name: 'Üks rida' });
    const url = `${place(budgetId, world.education)}/record/${id}`;
    const answers = await Promise.all(
      Array.from({ length: 8 }, (_, n) => world.editor.client.request({ method: 'PUT', url, payload: { name: `Versioon ${n}` } })),
    );
    expect(answers.map((answer) => answer.statusCode)).toEqual(answers.map(() => 200));
    const history = (await world.editor.client.request({ method: 'GET', url: `${url}/history` })).json() as never as RecordHistoryEntry[];
    expect(history).toHaveLength(9);
    expect((await recordOf(id))?.name).toBe(history.at(-1)?.record?.name);
  });
});

describe('history, revert and raw events (issue 11, point 3)', () => {
  it('lists each version with its changed fields, who, in which occupation and when', async () => {
    const id = await newRecord({ name: 'Ajalugu', amount: '10' });
    const url = `${place(budgetId, world.education)}/record/${id}`;
    await world.editor.client.request({ method: 'PUT', url, payload: { name: 'Ajalugu', amount: '20', classifiers: { allikas: 'A' } } });
    await world.editor.client.request({ method: 'POST', url: `${url}/promote` });
    const response = await world.reader.client.request({ method: 'GET', url: `${url}/history` });
    expect(response.statusCode, response.body).toBe(200);
    const history = response.json() as never as RecordHistoryEntry[];
    expect(history.map((entry) => [entry.kind, entry.changedFields])).toEqual([
      ['CREATED', ['name', 'amount', ...[`classifiers.${world.account}`, `classifiers.${world.kind}`].sort()]],
      ['UPDATED', ['amount', `classifiers.${world.source}`]],
      ['PROMOTED', ['extra.promoted']],
    ]);
    for (const entry of history) {
      expect(entry.changedBy).toEqual({
        userId: world.editor.userId,
        userName: 'Test User',
        occupationId: world.editor.occupationId,
        occupationName: expect.any(String),
      });
      expect(Date.now() - Date.parse(entry.changedAt)).toBeLessThan(120_000);
    }
    expect(history[1]?.record).toMatchObject({ amount: '20' });
  });

  it('reverts a past change as a new event; a creation is not reverted', async () => {
    const id = await newRecord({ name: 'Tagasi', amount: '10' });
    const url = `${place(budgetId, world.education)}/record/${id}`;
    await world.editor.client.request({ method: 'PUT', url, payload: { name: 'Tagasi', amount: '25' } });
    await world.editor.client.request({ method: 'PUT', url, payload: { name: 'Tagasi uus nimi' } });
    const before = (await world.editor.client.request({ method: 'GET', url: `${url}/history` })).json() as never as RecordHistoryEntry[];
    const amountChange = before[1] as RecordHistoryEntry;
    const reverted = await world.editor.client.request({ method: 'POST', url: `${url}/revert`, payload: { eventId: amountChange.eventId } });
    expect(reverted.statusCode, reverted.body).toBe(200);
    // The amount goes back; the later rename stays.
    expect(await recordOf(id)).toMatchObject({ name: 'Tagasi uus nimi', amount: '10' });
    const after = (await world.editor.client.request({ method: 'GET', url: `${url}/history` })).json() as never as RecordHistoryEntry[];
    expect(after.at(-1)).toMatchObject({ kind: 'REVERTED', revertedEventId: amountChange.eventId, changedFields: ['amount'] });
    expect(after.slice(0, 3)).toEqual(before);
    expectError(
      await world.editor.client.request({ method: 'POST', url: `${url}/revert`, payload: { eventId: before[0]?.eventId } }),
      422,
      'RECORD_REVERT_NOT_POSSIBLE',
    );
    expectError(await world.editor.client.request({ method: 'POST', url: `${url}/revert`, payload: { eventId: randomUUID() } }), 400, 'RECORD_ID_INVALID');
    expectError(
      await world.reader.client.request({ method: 'POST', url: `${url}/revert`, payload: { eventId: amountChange.eventId } }),
      403,
      'INSUFFICIENT_PERMISSIONS',
    );
  });

  it('brings a deleted record back by reverting its deletion', async () => {
    const id = await newRecord({ name: 'Tagasi tulev', amount: '3' });
    const url = `${place(budgetId, world.education)}/record/${id}`;
    await world.editor.client.request({ method: 'DELETE', url });
    const history = (await world.editor.client.request({ method: 'GET', url: `${url}/history` })).json() as never as RecordHistoryEntry[];
    expect(history.map((entry) => entry.kind)).toEqual(['CREATED', 'DELETED']);
    const restored = await world.editor.client.request({ method: 'POST', url: `${url}/revert`, payload: { eventId: history[1]?.eventId } });
    expect(restored.statusCode, restored.body).toBe(200);
    expect(await recordOf(id)).toMatchObject({ name: 'Tagasi tulev', amount: '3' });
  });

  it('an imported record: its history begins with its import row, and it is edited like any other', async () => {
    const [id] = await importedRecords(world, budgetId, [
      { name: 'Imporditud rida', amount: '40', classifiers: { [world.kind]: '01', [world.account]: '5500' } },
    ]);
    const url = `${place(budgetId, world.education)}/record/${id}`;
    // Its chunk is read from the log once: each later command finds it kept (readChunk).
    const store = world.server.app.store;
    const readStream = store.readStream.bind(store);
    const chunkReads: string[] = [];
    store.readStream = (stream, options) => {
      if (stream.startsWith('record-import-')) chunkReads.push(stream);
      return readStream(stream, options);
    };
    expect((await world.editor.client.request({ method: 'POST', url: `${url}/promote` })).statusCode).toBe(200);
    const edited = await world.editor.client.request({ method: 'PUT', url, payload: { name: 'Imporditud ja muudetud' } });
    store.readStream = readStream;
    expect(chunkReads).toHaveLength(1);
    expect(edited.statusCode, edited.body).toBe(200);
    expect(await recordOf(id as string)).toMatchObject({ name: 'Imporditud ja muudetud', amount: '40', extra: { promoted: true } });
    const history = (await world.editor.client.request({ method: 'GET', url: `${url}/history` })).json() as never as RecordHistoryEntry[];
    expect(history.map((entry) => [entry.kind, entry.changedFields])).toEqual([
      ['IMPORTED', expect.arrayContaining(['name', 'amount'])],
      ['PROMOTED', ['extra.promoted']],
      ['UPDATED', ['name']],
    ]);
    // Raw events: the import chunk (this record's row) and the record's own stream.
    const events = (await world.auditor.client.request({ method: 'GET', url: `${url}/events` })).json() as never as RecordStoredEvent[];
    expect(events.map((event) => [event.type, event.streamName.startsWith('record-import-')])).toEqual([
      ['RecordsImported', true],
      ['RecordPromotionSet', false],
      ['RecordUpdated', false],
    ]);
  });

  it('raw events of a record with their metadata, for user administrators only', async () => {
    const id = await newRecord({ name: 'Audit' });
    const url = `${place(budgetId, world.education)}/record/${id}`;
    await world.editor.client.request({ method: 'PUT', url, payload: { name: 'Audit 2' }, headers: { 'x-request-id': 'audit-correlation-1' } });
    const response = await world.auditor.client.request({ method: 'GET', url: `${url}/events` });
    expect(response.statusCode, response.body).toBe(200);
    const events = response.json() as never as RecordStoredEvent[];
    expect(events.map((event) => event.type)).toEqual(['RecordCreated', 'RecordUpdated']);
    expect(events[1]).toMatchObject({
      streamName: `record-${id}`,
      revision: '1',
      data: { recordId: id, name: 'Audit 2' },
      metadata: {
        userId: world.editor.userId,
        userName: 'Test User',
        occupationId: world.editor.occupationId,
        occupationName: expect.any(String),
        correlationId: 'audit-correlation-1',
      },
    });
    expect(Date.parse(events[1]?.metadata.occurredAt ?? '')).not.toBeNaN();
    expectError(await world.editor.client.request({ method: 'GET', url: `${url}/events` }), 403, 'INSUFFICIENT_PERMISSIONS');
    expect((await world.admin.request({ method: 'GET', url: `${url}/events` })).statusCode).toBe(200);
  });
});
