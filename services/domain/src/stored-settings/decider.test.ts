import type { ReportViewSettings } from '@eelarve/shared';
import { describe, expect, it } from 'vitest';
import { expectDomainError, givenFor } from '../testing';
import {
  type StoredSettingActor,
  type StoredSettingCommand,
  type StoredSettingCopy,
  type StoredSettingsState,
  storedSettingsDecider,
  storedSettingsStream,
} from './decider';
import type { StoredSettingCreated, StoredSettingEvent, StoredSettingPlace } from './events';

const documentId = '6a1f0c3e-0000-4000-8000-000000000001';
const organizationId = '6a1f0c3e-0000-4000-8000-000000000002';
const budgetId = '6a1f0c3e-0000-4000-8000-000000000003';
const otherBudgetId = '6a1f0c3e-0000-4000-8000-000000000004';
const [first, second, third] = ['6a1f0c3e-0000-4000-8000-0000000000a1', '6a1f0c3e-0000-4000-8000-0000000000a2', '6a1f0c3e-0000-4000-8000-0000000000a3'];
const owner: StoredSettingActor = { userId: 'u-1', occupationId: 'o-1', mayChangeGeneral: false };
const editor: StoredSettingActor = { userId: 'u-2', occupationId: 'o-2', mayChangeGeneral: true };
const settings: ReportViewSettings = { rememberedSchemeId: 's-1', rememberedGroupingClassifierId: null, filters: [], filterChanges: [], filtersOrder: [] };
const now = new Date('2026-11-26T01:00:00Z');

const given = givenFor<StoredSettingCommand, StoredSettingEvent, StoredSettingsState>(storedSettingsDecider);
const create = (
  settingId: string,
  name: string,
  actor = owner,
  place: StoredSettingPlace = { documentId, budgetId, type: 'REPORT' },
): StoredSettingCommand => ({
  type: 'CreateStoredSetting',
  documentId,
  settingId,
  organizationId,
  place,
  actor,
  name,
  settings,
  now,
});
const created = (
  settingId: string,
  name: string,
  order: number,
  who: { userId: string | null; occupationId: string | null } = owner,
): StoredSettingCreated => ({
  type: 'StoredSettingCreated',
  data: {
    documentId,
    budgetId,
    type: 'REPORT',
    settingId,
    organizationId,
    userId: who.userId,
    occupationId: who.occupationId,
    name,
    settings,
    order,
    createdAt: now.toISOString(),
  },
});
const general = { userId: null, occupationId: null };

describe('stored settings decider', () => {
  it('keeps a document’s settings in one stream', () => {
    expect(storedSettingsDecider.streamName(create(first, 'A'))).toBe(storedSettingsStream(documentId));
  });

  it('creates a personal setting, trimmed, placed after the owner’s last one', () => {
    expect(given([]).when(create(first, '  Kulud  '))()).toEqual([created(first, 'Kulud', 0)]);
    expect(given([created(first, 'Kulud', 0)]).when(create(second, 'Tulud'))()).toEqual([created(second, 'Tulud', 1)]);
    // Another user's list starts on its own.
    const theirs = given([created(first, 'Kulud', 0)]).when(create(second, 'Kulud', editor))();
    expect(theirs).toEqual([created(second, 'Kulud', 0, editor)]);
  });

  it('refuses a name already in the menu the user sees: their own and the general ones, whatever the case', () => {
    expectDomainError(given([created(first, 'Kulud', 0)]).when(create(second, 'KULUD ')), 'STORED_SETTING_NAME_NOT_UNIQUE');
    expectDomainError(given([created(first, 'Kulud', 0, general)]).when(create(second, 'kulud')), 'STORED_SETTING_NAME_NOT_UNIQUE');
    // A whole-document view is in every budget's menu.
    const documentWide = create(second, 'Kulud', owner, { documentId, budgetId: null, type: 'REPORT' });
    expectDomainError(given([created(first, 'Kulud', 0)]).when(documentWide), 'STORED_SETTING_NAME_NOT_UNIQUE');
    // Another budget, another type: other menus.
    expect(given([created(first, 'Kulud', 0)]).when(create(second, 'Kulud', owner, { documentId, budgetId: otherBudgetId, type: 'REPORT' }))()).toHaveLength(1);
    expect(given([created(first, 'Kulud', 0)]).when(create(second, 'Kulud', owner, { documentId, budgetId, type: 'REPORT_COLUMNS' }))()).toHaveLength(1);
  });

  it('lets only the owner change their personal setting; others do not find it', () => {
    const update: StoredSettingCommand = { type: 'UpdateStoredSetting', documentId, settingId: first, actor: owner, name: 'Uus', settings };
    expect(given([created(first, 'Kulud', 0)]).when(update)()).toEqual([
      { type: 'StoredSettingUpdated', data: { documentId, settingId: first, name: 'Uus', settings } },
    ]);
    expectDomainError(given([created(first, 'Kulud', 0)]).when({ ...update, actor: editor }), 'OBJECT_NOT_FOUND');
    expectDomainError(
      given([created(first, 'Kulud', 0)]).when({ type: 'DeleteStoredSetting', documentId, settingId: first, actor: editor }),
      'OBJECT_NOT_FOUND',
    );
    // The same user in another occupation is someone else here.
    expectDomainError(given([created(first, 'Kulud', 0)]).when({ ...update, actor: { ...owner, occupationId: 'o-9' } }), 'OBJECT_NOT_FOUND');
    // Nothing changed: nothing written.
    expect(given([created(first, 'Kulud', 0)]).when({ ...update, name: 'Kulud' })()).toEqual([]);
  });

  it('changes and deletes a general setting only with update permission on the document', () => {
    const events = [created(first, 'Kulud', 0, general)];
    const update: StoredSettingCommand = { type: 'UpdateStoredSetting', documentId, settingId: first, actor: owner, name: 'Uus', settings };
    expectDomainError(given(events).when(update), 'INSUFFICIENT_PERMISSIONS');
    expect(given(events).when({ ...update, actor: editor })()).toHaveLength(1);
    expectDomainError(given(events).when({ type: 'DeleteStoredSetting', documentId, settingId: first, actor: owner }), 'INSUFFICIENT_PERMISSIONS');
    expect(given(events).when({ type: 'DeleteStoredSetting', documentId, settingId: first, actor: editor })()).toEqual([
      { type: 'StoredSettingDeleted', data: { documentId, settingId: first } },
    ]);
  });

  it('promotes one’s own personal setting to general with update permission, placed last among the general ones', () => {
    const ownByEditor = created(second, 'Minu', 0, editor);
    const events = [created(first, 'Üldine', 0, general), ownByEditor];
    expect(given(events).when({ type: 'PromoteStoredSetting', documentId, settingId: second, actor: editor })()).toEqual([
      { type: 'StoredSettingPromoted', data: { documentId, settingId: second, order: 1 } },
    ]);
    const mine = [created(first, 'Minu', 0)];
    expectDomainError(given(mine).when({ type: 'PromoteStoredSetting', documentId, settingId: first, actor: owner }), 'INSUFFICIENT_PERMISSIONS');
    // Someone else's personal setting is not found, and a general one stays as it is.
    expectDomainError(given(mine).when({ type: 'PromoteStoredSetting', documentId, settingId: first, actor: editor }), 'OBJECT_NOT_FOUND');
    const promoted = { type: 'StoredSettingPromoted' as const, data: { documentId, settingId: second, order: 1 } };
    expect(given([...events, promoted]).when({ type: 'PromoteStoredSetting', documentId, settingId: second, actor: editor })()).toEqual([]);
    // A general setting of the same name blocks it.
    const clash = [created(first, 'Minu', 0, general), ownByEditor];
    expectDomainError(given(clash).when({ type: 'PromoteStoredSetting', documentId, settingId: second, actor: editor }), 'STORED_SETTING_NAME_NOT_UNIQUE');
  });

  it('reorders one list: the given ids first, the rest after; ids of other lists are refused', () => {
    const events = [created(first, 'A', 0), created(second, 'B', 1), created(third, 'C', 2)];
    const reorder = (settingIds: string[], actor = owner, isGeneral = false): StoredSettingCommand => ({
      type: 'ReorderStoredSettings',
      documentId,
      actor,
      general: isGeneral,
      budgetId,
      settingType: 'REPORT',
      settingIds,
    });
    expect(given(events).when(reorder([third, first]))()).toEqual([
      { type: 'StoredSettingsReordered', data: { documentId, settingIds: [third, first, second] } },
    ]);
    expect(given(events).when(reorder([first, second, third]))()).toEqual([]);
    expectDomainError(given(events).when(reorder([first], editor)), 'OBJECT_NOT_FOUND');
    expectDomainError(given(events).when(reorder([first], owner, true)), 'INSUFFICIENT_PERMISSIONS');
    const reordered = { type: 'StoredSettingsReordered' as const, data: { documentId, settingIds: [third, first, second] } };
    const state = [...events, reordered].reduce(storedSettingsDecider.evolve, storedSettingsDecider.initialState());
    expect(state.status === 'holding' && [...state.settings].map(([id, setting]) => [id, setting.status === 'active' && setting.order])).toEqual([
      [first, 1],
      [second, 2],
      [third, 0],
    ]);
  });

  it('copies settings with fixed ids, skipping those an earlier attempt made or that were deleted', () => {
    const copies = [first, second].map((settingId, order): StoredSettingCopy => {
      const { createdAt: _createdAt, ...data } = created(settingId, `V${order}`, order).data;
      return data;
    });
    const command: StoredSettingCommand = { type: 'CopyStoredSettings', documentId, copies, now };
    expect(given([]).when(command)()).toEqual([created(first, 'V0', 0), created(second, 'V1', 1)]);
    expect(given([created(first, 'V0', 0)]).when(command)()).toEqual([created(second, 'V1', 1)]);
    const deleted = { type: 'StoredSettingDeleted' as const, data: { documentId, settingId: first } };
    expect(given([created(first, 'V0', 0), deleted]).when(command)()).toEqual([created(second, 'V1', 1)]);
    expectDomainError(given([created(first, 'V0', 0), deleted]).when(create(first, 'Again')), 'CONCURRENT_MODIFICATION');
  });
});
