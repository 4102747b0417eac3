import { randomUUID } from 'node:crypto';
import { DEFAULT_RESOURCE_STATUSES } from '@eelarve/shared';
import type { accountsFixture } from '@eelarve/testing/accounts';
import { PASSWORD } from '@eelarve/testing/accounts';
import type { schemesFixture } from '@eelarve/testing/schemes';
import type { TestServer } from '@eelarve/testing/server';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Client, login } from './helpers';
import { schemesWorld } from './schemes-world';

/** Saved report views and column sets (spec 3, sections 4-7; issue 12, point 3) through the HTTP API on PostgreSQL. */

const HIDDEN = DEFAULT_RESOURCE_STATUSES[3]!.id;

let server: TestServer;
let accounts: ReturnType<typeof accountsFixture>;
let fixture: ReturnType<typeof schemesFixture>;
let organizationId: string;
let documentId: string;
let budgetId: string;
let otherBudgetId: string;
/** Reads the document (and so its budgets). */
let owner: Client & { userId: string };
let colleague: Client & { userId: string };
/** Update permission on the document: changes and promotes general settings. */
let editor: Client & { userId: string };
/** No grant in the document. */
let stranger: Client;
/** Another organisation's user with an organisation-wide update grant there. */
let outsider: Client;

const view = (overrides: Record<string, unknown> = {}) => ({
  rememberedSchemeId: randomUUID(),
  rememberedGroupingClassifierId: randomUUID(),
  filters: [
    {
      key: { id: randomUUID(), type: 'SUB_BUDGET' },
      name: 'Allüksused',
      enabled: true,
      items: ['a', 'b'],
      selectedItems: ['a'],
      visibleItems: ['a', 'b'],
      searchTerm: 'kool',
      regex: '^Kool.*',
      comboSearch: null,
      highlight: true,
      hierarchyDepth: 1,
      hierarchyMaxDepth: 3,
      visible: true,
    },
  ],
  filterChanges: [],
  filtersOrder: ['SUB_BUDGET:x'],
  ...overrides,
});
const columns = () => ({
  reportColumns: ['base', 'cmp-1', 'calc-1'],
  comparisonBudgetIds: [{ budgetId: otherBudgetId, copy: true, period: { start: '2026-01-01', duration: 3 } }],
  calcColumns: [{ id: 'calc-1', firstOperand: 'base', secondOperand: 'cmp-1', operation: 'minus' }],
});

async function member(grant: { update: boolean } | null): Promise<Client & { userId: string }> {
  const made = await accounts.member(organizationId, ['DATA_VIEW']);
  if (grant) await accounts.grant(made.occupationId, [{ documentId, read: true, update: grant.update }]);
  return { ...(await login(server.app, made.email, PASSWORD)), userId: made.userId };
}

const create = (client: Client, payload: Record<string, unknown>) =>
  client.request({ method: 'POST', url: '/api/stored-settings', payload: { type: 'REPORT', documentId, budgetId, settings: view(), ...payload } });
async function created(client: Client, payload: Record<string, unknown>): Promise<string> {
  const response = await create(client, payload);
  expect(response.statusCode, response.body).toBe(201);
  return response.json().id;
}
/** `budget` null: the whole document's menu. */
const menu = (client: Client, type = 'REPORT', budget: string | null = budgetId) =>
  client.request({ method: 'GET', url: `/api/stored-settings?${new URLSearchParams({ documentId, type, ...(budget ? { budgetId: budget } : {}) })}` });
async function menuNames(client: Client, type = 'REPORT', budget: string | null = budgetId, { ownOnly = false } = {}): Promise<string[]> {
  const response = await menu(client, type, budget);
  expect(response.statusCode, response.body).toBe(200);
  const settings: { name: string; userId: string | null }[] = response.json();
  return settings.filter((setting) => !ownOnly || setting.userId !== null).map((setting) => setting.name);
}
const put = (client: Client, settingId: string, payload: Record<string, unknown>) =>
  client.request({ method: 'PUT', url: '/api/stored-settings', payload: { settingId, documentId, name: 'Nimi', settings: view(), ...payload } });
const promote = (client: Client, settingId: string) => client.request({ method: 'POST', url: `/api/stored-settings/${settingId}/promote` });
const remove = (client: Client, settingId: string) => client.request({ method: 'DELETE', url: `/api/stored-settings/${settingId}` });
const order = (client: Client, payload: Record<string, unknown>) =>
  client.request({ method: 'POST', url: '/api/stored-settings/order', payload: { documentId, budgetId, organizationId, type: 'REPORT', ...payload } });
const answer = (response: LightMyRequestResponse) => ({ status: response.statusCode, code: response.json().code });

beforeAll(async () => {
  const world = await schemesWorld('Viljandi Linnavalitsus', 'Valga Vallavalitsus');
  ({ server, accounts, fixture, organizationId } = world);
  documentId = await fixture.documentWithMaster(organizationId);
  budgetId = await fixture.budget(documentId, organizationId);
  otherBudgetId = await fixture.budget(documentId, organizationId);
  [owner, colleague, editor] = [await member({ update: false }), await member({ update: false }), await member({ update: true })];
  stranger = await member(null);
  outsider = world.outsider;
}, 120_000);
afterAll(async () => server?.close());

describe('saved views and column sets', () => {
  it('saves a personal view its owner reads back whole; nobody else sees it', async () => {
    const settings = view();
    const id = await created(owner, { name: '  Haridus  ', settings });
    const got = await owner.request({ method: 'GET', url: `/api/stored-setting/${id}` });
    expect(got.statusCode, got.body).toBe(200);
    expect(got.json()).toEqual({ id, name: 'Haridus', type: 'REPORT', documentId, budgetId, organizationId, userId: owner.userId, order: 0, settings });
    expect(await menuNames(owner)).toEqual(['Haridus']);
    expect(await menuNames(colleague)).toEqual([]);
    expect(answer(await colleague.request({ method: 'GET', url: `/api/stored-setting/${id}` }))).toEqual({ status: 404, code: 'OBJECT_NOT_FOUND' });
    expect(answer(await put(colleague, id, {}))).toEqual({ status: 404, code: 'OBJECT_NOT_FOUND' });
    expect(answer(await remove(colleague, id))).toEqual({ status: 404, code: 'OBJECT_NOT_FOUND' });
    // Another budget's menu does not hold it.
    expect(await menuNames(owner, 'REPORT', otherBudgetId)).toEqual([]);
  });

  it('saves a column set with comparison budgets, periods and calculated columns', async () => {
    const settings = columns();
    const id = await created(owner, { type: 'REPORT_COLUMNS', name: 'Võrdlus', settings });
    expect((await owner.request({ method: 'GET', url: `/api/stored-setting/${id}` })).json().settings).toEqual(settings);
    expect(await menuNames(owner, 'REPORT_COLUMNS')).toEqual(['Võrdlus']);
    // The default operation is percent.
    const defaulted = await created(owner, {
      type: 'REPORT_COLUMNS',
      name: 'Protsent',
      settings: { ...settings, calcColumns: [{ id: 'c', firstOperand: 'a', secondOperand: 'b' }] },
    });
    expect((await owner.request({ method: 'GET', url: `/api/stored-setting/${defaulted}` })).json().settings.calcColumns[0].operation).toBe('percent');
  });

  it('keeps a column set whole: base period, expansion, comparisons as of a moment, component columns; an old one reads as before', async () => {
    const settings = {
      ...columns(),
      comparisonBudgetIds: [
        { budgetId, copy: true, period: null, asOf: '2026-03-01T10:15:00.000Z' },
        { budgetId: otherBudgetId, copy: false, period: { start: '2026-04-01', duration: 6 }, asOf: '2026-05-02T08:00:00.000+03:00' },
      ],
      basePeriod: { start: '2026-01-01', duration: 6 },
      expansion: 'quarterly',
      componentColumns: true,
    };
    const id = await created(owner, { type: 'REPORT_COLUMNS', name: 'Kõik veerud', settings });
    expect((await owner.request({ method: 'GET', url: `/api/stored-setting/${id}` })).json().settings).toEqual(settings);
    // Changed to monthly without component columns, and back to a payload of the spec's keys only.
    const monthly = { ...settings, expansion: 'monthly', componentColumns: false };
    expect((await put(owner, id, { name: 'Kõik veerud', settings: monthly })).statusCode).toBe(200);
    expect((await owner.request({ method: 'GET', url: `/api/stored-setting/${id}` })).json().settings).toEqual(monthly);
    const old = columns();
    expect((await put(owner, id, { name: 'Kõik veerud', settings: old })).statusCode).toBe(200);
    expect((await owner.request({ method: 'GET', url: `/api/stored-setting/${id}` })).json().settings).toEqual(old);
    // Bounded and strict: nothing else is kept.
    for (const wrong of [
      { ...settings, expansion: 'yearly' },
      { ...settings, basePeriod: { start: '2026-01-01', duration: 0 } },
      { ...settings, comparisonBudgetIds: [{ budgetId, asOf: 'eile' }] },
      { ...settings, asOf: '2026-03-01T10:15:00.000Z' },
    ])
      expect(answer(await create(owner, { type: 'REPORT_COLUMNS', name: 'Vale', settings: wrong }))).toEqual({ status: 400, code: 'SCHEMA_VALIDATION_ERROR' });
  });

  it('refuses a missing or long name, a regex that does not compile, unknown or unbounded fields, and settings of the other type; nothing is saved', async () => {
    const refused = [
      { name: '' },
      { name: '   ' },
      { name: 'x'.repeat(41) },
      { name: 'Kell\u0007' },
      { name: 'Otsing', settings: view({ filters: [{ ...view().filters[0], searchTerm: 'a\u0001b' }] }) },
      { name: 'Regex', settings: view({ filters: [{ ...view().filters[0], regex: '([a-z' }] }) },
      { name: 'Regex', settings: view({ filters: [{ ...view().filters[0], regex: 'a'.repeat(257) }] }) },
      { name: 'Key', settings: view({ filters: [{ ...view().filters[0], key: { id: 'x', type: 'NOPE' } }] }) },
      { name: 'Extra', settings: view({ unknown: 1 }) },
      { name: 'Items', settings: view({ filters: [{ ...view().filters[0], items: Array.from({ length: 10_001 }, (_, i) => `${i}`) }] }) },
      { name: 'Type', type: 'REPORT_COLUMNS', settings: view() },
      {
        name: 'Operation',
        type: 'REPORT_COLUMNS',
        settings: { ...columns(), calcColumns: [{ id: 'c', firstOperand: 'a', secondOperand: 'b', operation: 'times' }] },
      },
      {
        name: 'Period',
        type: 'REPORT_COLUMNS',
        settings: { ...columns(), comparisonBudgetIds: [{ budgetId: otherBudgetId, period: { start: 'x', duration: 3 } }] },
      },
    ];
    const client = await member({ update: false });
    for (const payload of refused)
      expect(answer(await create(client, payload)), JSON.stringify(payload).slice(0, 120)).toEqual({ status: 400, code: 'SCHEMA_VALIDATION_ERROR' });
    expect(await menuNames(client, 'REPORT', budgetId, { ownOnly: true })).toEqual([]);
    expect(await menuNames(client, 'REPORT_COLUMNS', budgetId, { ownOnly: true })).toEqual([]);
    // Exactly 40 characters is fine.
    expect((await create(client, { name: 'x'.repeat(40) })).statusCode).toBe(201);
  });

  it('keeps names unique in each menu a user sees, whatever the case', async () => {
    const client = await member({ update: false });
    await created(client, { name: 'Kulud' });
    const clash = await create(client, { name: 'KULUD' });
    expect(answer(clash)).toEqual({ status: 409, code: 'STORED_SETTING_NAME_NOT_UNIQUE' });
    expect(clash.json().details).toEqual([{ path: 'body.name', message: 'validation.unique' }]);
    // Another type, another budget, another user: other menus.
    expect((await create(client, { name: 'Kulud', type: 'REPORT_COLUMNS', settings: columns() })).statusCode).toBe(201);
    expect((await create(client, { name: 'Kulud', budgetId: otherBudgetId })).statusCode).toBe(201);
    expect((await create(await member({ update: false }), { name: 'Kulud' })).statusCode).toBe(201);
  });

  it('renames and changes one’s own view; the settings must fit its type', async () => {
    const client = await member({ update: false });
    const id = await created(client, { name: 'Vana' });
    const [first] = [await created(client, { name: 'Teine' })];
    const changed = view({ rememberedSchemeId: null, filters: [] });
    const response = await put(client, id, { name: 'Uus', settings: changed });
    expect(response.statusCode, response.body).toBe(200);
    expect((await client.request({ method: 'GET', url: `/api/stored-setting/${id}` })).json()).toMatchObject({ name: 'Uus', settings: changed });
    expect(answer(await put(client, id, { name: 'Uus', settings: columns() }))).toEqual({ status: 400, code: 'SCHEMA_VALIDATION_ERROR' });
    expect(answer(await put(client, id, { name: 'teine' }))).toEqual({ status: 409, code: 'STORED_SETTING_NAME_NOT_UNIQUE' });
    // The document must be the setting's own.
    expect(
      answer(
        await client.request({
          method: 'PUT',
          url: '/api/stored-settings',
          payload: { settingId: first, documentId: randomUUID(), name: 'X', settings: view() },
        }),
      ),
    ).toEqual({
      status: 404,
      code: 'OBJECT_NOT_FOUND',
    });
    expect(await menuNames(client, 'REPORT', budgetId, { ownOnly: true })).toEqual(['Uus', 'Teine']);
    expect((await remove(client, id)).statusCode).toBe(200);
    expect(await menuNames(client, 'REPORT', budgetId, { ownOnly: true })).toEqual(['Teine']);
    expect(answer(await client.request({ method: 'GET', url: `/api/stored-setting/${id}` }))).toEqual({ status: 404, code: 'OBJECT_NOT_FOUND' });
  });

  it('promotes a personal view to general with update permission on the document; then every reader sees it and only editors change it', async () => {
    const mine = await created(owner, { name: 'Ei saa' });
    expect(answer(await promote(owner, mine))).toEqual({ status: 403, code: 'INSUFFICIENT_PERMISSIONS' });
    // Someone else's personal view is not found, even for an editor.
    expect(answer(await promote(editor, mine))).toEqual({ status: 404, code: 'OBJECT_NOT_FOUND' });

    const id = await created(editor, { name: 'Üldine' });
    const promoted = await promote(editor, id);
    expect(promoted.statusCode, promoted.body).toBe(200);
    expect((await owner.request({ method: 'GET', url: `/api/stored-setting/${id}` })).json()).toMatchObject({ userId: null, name: 'Üldine' });
    expect((await menuNames(colleague))[0]).toBe('Üldine');
    expect((await menuNames(owner))[0]).toBe('Üldine');
    // Promoting again changes nothing.
    expect((await promote(editor, id)).json().position).toBeNull();
    expect(answer(await put(colleague, id, { name: 'Minu oma' }))).toEqual({ status: 403, code: 'INSUFFICIENT_PERMISSIONS' });
    expect(answer(await remove(colleague, id))).toEqual({ status: 403, code: 'INSUFFICIENT_PERMISSIONS' });
    // A general name is taken in everyone's menu.
    expect(answer(await create(colleague, { name: 'üldine' }))).toEqual({ status: 409, code: 'STORED_SETTING_NAME_NOT_UNIQUE' });
    expect((await put(editor, id, { name: 'Üldine 2' })).statusCode).toBe(200);
    expect((await remove(editor, id)).statusCode).toBe(200);
    expect(await menuNames(colleague)).not.toContain('Üldine 2');
  });

  it('reorders one’s own list, and the general list only with update permission', async () => {
    const client = await member({ update: false });
    const [a, b, c] = [await created(client, { name: 'A' }), await created(client, { name: 'B' }), await created(client, { name: 'C' })];
    expect((await order(client, { userId: client.userId, order: [c, a] })).statusCode).toBe(200);
    expect(await menuNames(client, 'REPORT', budgetId, { ownOnly: true })).toEqual(['C', 'A', 'B']);
    expect((await client.request({ method: 'GET', url: `/api/stored-setting/${b}` })).json().order).toBe(2);
    expect(answer(await order(client, { userId: owner.userId, order: [a] }))).toEqual({ status: 403, code: 'INSUFFICIENT_PERMISSIONS' });
    expect(answer(await order(client, { userId: null, order: [a] }))).toEqual({ status: 403, code: 'INSUFFICIENT_PERMISSIONS' });
    // An id of another list is refused, and nothing moves.
    const foreign = await created(owner, { name: `Võõras ${randomUUID().slice(0, 4)}` });
    expect(answer(await order(client, { userId: client.userId, order: [b, foreign] }))).toEqual({ status: 404, code: 'OBJECT_NOT_FOUND' });
    expect(answer(await order(client, { userId: client.userId, organizationId: randomUUID(), order: [b] }))).toEqual({ status: 404, code: 'OBJECT_NOT_FOUND' });
    expect(await menuNames(client, 'REPORT', budgetId, { ownOnly: true })).toEqual(['C', 'A', 'B']);

    const [g1, g2] = [await created(editor, { name: `G1 ${randomUUID().slice(0, 4)}` }), await created(editor, { name: `G2 ${randomUUID().slice(0, 4)}` })];
    await promote(editor, g1);
    await promote(editor, g2);
    expect((await order(editor, { userId: null, order: [g2, g1] })).statusCode).toBe(200);
    const general = (await menu(colleague)).json().filter((setting: { userId: string | null }) => setting.userId === null);
    expect(general.map((setting: { id: string }) => setting.id).slice(0, 2)).toEqual([g2, g1]);
  });

  it('offers the whole document’s views in every budget’s menu', async () => {
    const client = await member({ update: false });
    await created(client, { name: 'Dokument', budgetId: null });
    await created(client, { name: 'Eelarve' });
    const own = { ownOnly: true };
    expect(await menuNames(client, 'REPORT', budgetId, own)).toEqual(['Dokument', 'Eelarve']);
    expect(await menuNames(client, 'REPORT', otherBudgetId, own)).toEqual(['Dokument']);
    expect(await menuNames(client, 'REPORT', null, own)).toEqual(['Dokument']);
  });

  it('needs read access to the budget: none is 403, another organisation’s or a budget of another document is 404', async () => {
    expect(answer(await menu(stranger))).toEqual({ status: 403, code: 'INSUFFICIENT_PERMISSIONS' });
    expect(answer(await create(stranger, { name: 'X' }))).toEqual({ status: 403, code: 'INSUFFICIENT_PERMISSIONS' });
    expect(answer(await menu(outsider))).toEqual({ status: 404, code: 'BUDGET_NOT_FOUND' });
    expect(answer(await menu(outsider, 'REPORT', null))).toEqual({ status: 404, code: 'OBJECT_NOT_FOUND' });
    const general = await created(editor, { name: `Kõigile ${randomUUID().slice(0, 4)}` });
    await promote(editor, general);
    expect(answer(await stranger.request({ method: 'GET', url: `/api/stored-setting/${general}` }))).toEqual({ status: 403, code: 'INSUFFICIENT_PERMISSIONS' });
    expect(answer(await outsider.request({ method: 'GET', url: `/api/stored-setting/${general}` }))).toEqual({ status: 404, code: 'OBJECT_NOT_FOUND' });
    const elsewhere = await fixture.documentWithMaster(organizationId);
    const foreignBudget = await fixture.budget(elsewhere, organizationId);
    expect(answer(await create(owner, { name: 'X', budgetId: foreignBudget }))).toEqual({ status: 404, code: 'BUDGET_NOT_FOUND' });
    expect((await server.app.inject({ method: 'GET', url: `/api/stored-settings?documentId=${documentId}&type=REPORT` })).statusCode).toBe(401);
  });

  it('hides a hidden budget’s views along with the budget, and drops a deleted budget’s views', async () => {
    const statusOrganization = await accounts.organizationUsingStatuses();
    const made = await accounts.member(statusOrganization, ['DATA_VIEW']);
    await accounts.grant(made.occupationId, [{ read: true, update: true }]);
    const client = await login(server.app, made.email, PASSWORD);
    const hiddenDocument = await fixture.documentWithMaster(statusOrganization, { resourceStatusId: HIDDEN });
    const hiddenBudget = await fixture.budget(hiddenDocument, statusOrganization);
    const response = await client.request({ method: 'GET', url: `/api/stored-settings?documentId=${hiddenDocument}&budgetId=${hiddenBudget}&type=REPORT` });
    expect(answer(response)).toEqual({ status: 403, code: 'ACTION_DISALLOWED_DUE_TO_STATUS' });

    const doomed = await fixture.budget(documentId, organizationId);
    const id = await created(owner, { name: 'Kaob', budgetId: doomed });
    await fixture.deleteBudget(doomed);
    await expect.poll(async () => (await owner.request({ method: 'GET', url: `/api/stored-setting/${id}` })).statusCode, { timeout: 5_000 }).toBe(404);
  });
});
