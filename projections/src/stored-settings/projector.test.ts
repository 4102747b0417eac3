import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { newId, type ProjectorSpec, projectorSpec } from '../../test/given-events';
import { storedSettingsProjector } from './projector';
import { documentStoredSettings, findStoredSetting, storedSettingsMenu } from './queries';

let spec: ProjectorSpec;
beforeEach(async () => {
  spec = await projectorSpec(storedSettingsProjector);
});
afterEach(async () => spec.close());

const settings = { rememberedSchemeId: null, rememberedGroupingClassifierId: null, filters: [], filterChanges: [], filtersOrder: [] };

function world() {
  const [organizationId, documentId, budgetId, otherBudgetId, userId, occupationId] = [newId(), newId(), newId(), newId(), newId(), newId()];
  const stream = `stored-settings-${documentId}`;
  const created = (settingId: string, name: string, order: number, options: { budgetId?: string | null; general?: boolean; type?: string } = {}) => ({
    stream,
    type: 'StoredSettingCreated',
    data: {
      documentId,
      settingId,
      organizationId,
      budgetId: options.budgetId === undefined ? budgetId : options.budgetId,
      type: options.type ?? 'REPORT',
      userId: options.general ? null : userId,
      occupationId: options.general ? null : occupationId,
      name,
      settings,
      order,
      createdAt: '2026-11-26T01:00:00.000Z',
    },
  });
  const menu = (overrides: Partial<Parameters<typeof storedSettingsMenu>[1]> = {}) =>
    storedSettingsMenu(spec.read, { documentId, budgetId, type: 'REPORT', userId, occupationId, ...overrides });
  return { organizationId, documentId, budgetId, otherBudgetId, userId, occupationId, stream, created, menu };
}

const names = (rows: Array<{ name: string }>) => rows.map((row) => row.name);

describe('stored settings projector', () => {
  it('given settings made, lists a menu: general first, then the user’s own in that occupation, each in order; the whole document’s too', async () => {
    const w = world();
    const [a, b, c, d, e, f] = [newId(), newId(), newId(), newId(), newId(), newId()];
    await spec.given(
      w.created(a, 'Minu teine', 1),
      w.created(b, 'Minu esimene', 0),
      w.created(c, 'Üldine', 0, { general: true }),
      w.created(d, 'Dokumendi', 2, { budgetId: null }),
      w.created(e, 'Teise eelarve', 0, { budgetId: w.otherBudgetId }),
      w.created(f, 'Veerud', 0, { type: 'REPORT_COLUMNS' }),
    );
    expect(names(await w.menu())).toEqual(['Üldine', 'Minu esimene', 'Minu teine', 'Dokumendi']);
    expect(names(await w.menu({ budgetId: undefined }))).toEqual(['Dokumendi']);
    expect(names(await w.menu({ type: 'REPORT_COLUMNS' }))).toEqual(['Veerud']);
    // Another occupation of the same user sees only the general ones.
    expect(names(await w.menu({ occupationId: newId() }))).toEqual(['Üldine']);
    expect(await findStoredSetting(spec.read, a)).toMatchObject({
      user_id: w.userId,
      occupation_id: w.occupationId,
      budget_id: w.budgetId,
      settings,
      order: 1,
    });
  });

  it('given updates, a promotion, a new order and a deletion, shows the result', async () => {
    const w = world();
    const [a, b, c] = [newId(), newId(), newId()];
    const changed = { ...settings, rememberedSchemeId: 'scheme-1' };
    await spec.given(
      w.created(a, 'A', 0),
      w.created(b, 'B', 1),
      w.created(c, 'C', 2),
      { stream: w.stream, type: 'StoredSettingUpdated', data: { documentId: w.documentId, settingId: a, name: 'A2', settings: changed } },
      { stream: w.stream, type: 'StoredSettingsReordered', data: { documentId: w.documentId, settingIds: [c, a, b] } },
      { stream: w.stream, type: 'StoredSettingPromoted', data: { documentId: w.documentId, settingId: b, order: 0 } },
      { stream: w.stream, type: 'StoredSettingDeleted', data: { documentId: w.documentId, settingId: c } },
    );
    expect(names(await w.menu())).toEqual(['B', 'A2']);
    expect(await findStoredSetting(spec.read, a)).toMatchObject({ name: 'A2', settings: changed, order: 1 });
    expect(await findStoredSetting(spec.read, b)).toMatchObject({ user_id: null, occupation_id: null, order: 0 });
    expect(await findStoredSetting(spec.read, c)).toBeUndefined();
  });

  it('given a budget, a document or an organisation deleted, drops their settings', async () => {
    const w = world();
    const other = world();
    const [a, b, c, d] = [newId(), newId(), newId(), newId()];
    await spec.given(w.created(a, 'Eelarve', 0), w.created(b, 'Dokument', 0, { budgetId: null }), other.created(c, 'Muu', 0), other.created(d, 'Muu 2', 1));
    await spec.given({
      stream: `budget-${w.budgetId}`,
      type: 'BudgetDeleted',
      data: { budgetId: w.budgetId, documentId: w.documentId, organizationId: w.organizationId },
    });
    expect(names(await documentStoredSettings(spec.read, w.documentId))).toEqual(['Dokument']);
    await spec.given({ stream: `document-${w.documentId}`, type: 'DocumentDeleted', data: { documentId: w.documentId, organizationId: w.organizationId } });
    expect(await documentStoredSettings(spec.read, w.documentId)).toEqual([]);
    // Made at the same moment: their order is by id, so compare as a set.
    expect(names(await documentStoredSettings(spec.read, other.documentId)).sort()).toEqual(['Muu', 'Muu 2']);
    await spec.given({ stream: `organization-${other.organizationId}`, type: 'OrganizationDeleted', data: { organizationId: other.organizationId } });
    expect(await documentStoredSettings(spec.read, other.documentId)).toEqual([]);
  });
});
