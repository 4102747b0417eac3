import { DomainError, fieldError, type StoredSettings } from '@eelarve/shared';
import type { Decider } from '../decider';
import type { StoredSettingEvent, StoredSettingOwner, StoredSettingPlace } from './events';

interface ActiveSetting extends StoredSettingPlace, StoredSettingOwner {
  status: 'active';
  organizationId: string;
  name: string;
  settings: StoredSettings;
  order: number;
}

/** A deleted setting keeps its id taken: a retried copy must not bring it back. */
type SettingState = ActiveSetting | { status: 'deleted' };

/** The saved views and column sets of one document (one stream: a name is unique in the menu it shows in). */
export type StoredSettingsState = { status: 'empty' } | { status: 'holding'; settings: ReadonlyMap<string, SettingState> };

/** Who acts: the user in their occupation, and whether they may change the document's general settings. */
export interface StoredSettingActor {
  userId: string;
  occupationId: string;
  /** Update permission on the document (spec 3, section 6): changes and promotes general settings. */
  mayChangeGeneral: boolean;
}

/** A setting as the copy of a document brings it (ids fixed by the copy task). */
export interface StoredSettingCopy extends StoredSettingPlace, StoredSettingOwner {
  settingId: string;
  organizationId: string;
  name: string;
  settings: StoredSettings;
  order: number;
}

interface Target {
  documentId: string;
  settingId: string;
}

export type StoredSettingCommand =
  | (Target & {
      type: 'CreateStoredSetting';
      organizationId: string;
      place: StoredSettingPlace;
      actor: StoredSettingActor;
      name: string;
      settings: StoredSettings;
      now: Date;
    })
  | (Target & { type: 'UpdateStoredSetting'; actor: StoredSettingActor; name: string; settings: StoredSettings })
  | (Target & { type: 'DeleteStoredSetting'; actor: StoredSettingActor })
  | (Target & { type: 'PromoteStoredSetting'; actor: StoredSettingActor })
  | {
      type: 'ReorderStoredSettings';
      documentId: string;
      actor: StoredSettingActor;
      /** True: the general list; false: the actor's own. */
      general: boolean;
      budgetId: string | null;
      settingType: StoredSettingPlace['type'];
      settingIds: string[];
    }
  | { type: 'CopyStoredSettings'; documentId: string; copies: StoredSettingCopy[]; now: Date };

export const storedSettingsStream = (documentId: string) => `stored-settings-${documentId}`;

const isGeneral = (setting: StoredSettingOwner) => setting.userId === null;
const ownedBy = (setting: StoredSettingOwner, actor: Pick<StoredSettingActor, 'userId' | 'occupationId'>) =>
  setting.userId === actor.userId && setting.occupationId === actor.occupationId;

function entries(state: StoredSettingsState): [string, ActiveSetting][] {
  if (state.status === 'empty') return [];
  return [...state.settings].filter((entry): entry is [string, ActiveSetting] => entry[1].status === 'active');
}

/** Offered together: same type, and the same budget or one of them for the whole document. */
const sameMenu = (a: StoredSettingPlace, b: StoredSettingPlace) =>
  a.type === b.type && (a.budgetId === b.budgetId || a.budgetId === null || b.budgetId === null);

const sameName = (a: string, b: string) => a.trim().toLocaleLowerCase('et') === b.trim().toLocaleLowerCase('et');

/**
 * Names are unique in each menu a user sees: their own settings and the general ones (personal
 * settings of others are not seen, so they do not count). A general name is unique among general ones.
 */
function assertNameFree(state: StoredSettingsState, candidate: StoredSettingPlace & StoredSettingOwner & { name: string }, except?: string): void {
  const clash = entries(state).some(
    ([id, other]) =>
      id !== except &&
      sameMenu(other, candidate) &&
      sameName(other.name, candidate.name) &&
      (isGeneral(other) || (!isGeneral(candidate) && other.userId === candidate.userId && other.occupationId === candidate.occupationId)),
  );
  if (clash) throw fieldError('STORED_SETTING_NAME_NOT_UNIQUE', 'name', 'validation.unique', 'a view with this name is already in the menu');
}

/** The setting as the actor may see it: their own, or a general one; anything else is "not found". */
function visibleSetting(state: StoredSettingsState, settingId: string, actor: StoredSettingActor): ActiveSetting {
  const setting = state.status === 'holding' ? state.settings.get(settingId) : undefined;
  if (setting?.status !== 'active' || !(isGeneral(setting) || ownedBy(setting, actor))) throw new DomainError('OBJECT_NOT_FOUND', 'no such stored setting');
  return setting;
}

/** Changing a general setting needs update permission on the document; one's own needs nothing more. */
function changeableSetting(state: StoredSettingsState, settingId: string, actor: StoredSettingActor): ActiveSetting {
  const setting = visibleSetting(state, settingId, actor);
  if (isGeneral(setting) && !actor.mayChangeGeneral)
    throw new DomainError('INSUFFICIENT_PERMISSIONS', 'general settings need update permission on the document');
  return setting;
}

/** The next order in a list: after the last one of the same owner and menu. */
function nextOrder(state: StoredSettingsState, place: StoredSettingPlace, owner: StoredSettingOwner): number {
  const orders = entries(state)
    .map(([, other]) => other)
    .filter((other) => sameMenu(other, place) && other.userId === owner.userId && other.occupationId === owner.occupationId)
    .map((other) => other.order);
  return orders.length === 0 ? 0 : Math.max(...orders) + 1;
}

function create(command: Extract<StoredSettingCommand, { type: 'CreateStoredSetting' }>, state: StoredSettingsState): StoredSettingEvent[] {
  if (state.status === 'holding' && state.settings.has(command.settingId)) throw new DomainError('CONCURRENT_MODIFICATION', 'setting id already used');
  // New settings are personal; a general one is made by promoting (spec 3, section 4).
  const owner = { userId: command.actor.userId, occupationId: command.actor.occupationId };
  const name = command.name.trim();
  assertNameFree(state, { ...command.place, ...owner, name });
  const { documentId, settingId, organizationId, settings, place } = command;
  return [
    {
      type: 'StoredSettingCreated',
      data: {
        ...place,
        documentId,
        settingId,
        organizationId,
        ...owner,
        name,
        settings,
        order: nextOrder(state, place, owner),
        createdAt: command.now.toISOString(),
      },
    },
  ];
}

const sameSettings = (a: StoredSettings, b: StoredSettings) => JSON.stringify(a) === JSON.stringify(b);

function update(command: Extract<StoredSettingCommand, { type: 'UpdateStoredSetting' }>, state: StoredSettingsState): StoredSettingEvent[] {
  const setting = changeableSetting(state, command.settingId, command.actor);
  const name = command.name.trim();
  if (name === setting.name && sameSettings(command.settings, setting.settings)) return [];
  assertNameFree(state, { ...setting, name }, command.settingId);
  return [{ type: 'StoredSettingUpdated', data: { documentId: command.documentId, settingId: command.settingId, name, settings: command.settings } }];
}

function remove(command: Extract<StoredSettingCommand, { type: 'DeleteStoredSetting' }>, state: StoredSettingsState): StoredSettingEvent[] {
  changeableSetting(state, command.settingId, command.actor);
  return [{ type: 'StoredSettingDeleted', data: { documentId: command.documentId, settingId: command.settingId } }];
}

/** Personal to general (userId null); promoting a general one again changes nothing. */
function promote(command: Extract<StoredSettingCommand, { type: 'PromoteStoredSetting' }>, state: StoredSettingsState): StoredSettingEvent[] {
  const setting = visibleSetting(state, command.settingId, command.actor);
  if (!command.actor.mayChangeGeneral) throw new DomainError('INSUFFICIENT_PERMISSIONS', 'promoting needs update permission on the document');
  if (isGeneral(setting)) return [];
  const general = { userId: null, occupationId: null };
  assertNameFree(state, { ...setting, ...general }, command.settingId);
  return [{ type: 'StoredSettingPromoted', data: { documentId: command.documentId, settingId: command.settingId, order: nextOrder(state, setting, general) } }];
}

/**
 * One list in a new order: the given settings first, in the order given, then the rest of the list
 * as they were. Every given id must be in the list (the actor's own, or the general ones).
 */
function reorder(command: Extract<StoredSettingCommand, { type: 'ReorderStoredSettings' }>, state: StoredSettingsState): StoredSettingEvent[] {
  const { actor, general } = command;
  if (general && !actor.mayChangeGeneral) throw new DomainError('INSUFFICIENT_PERMISSIONS', 'general settings need update permission on the document');
  const place: StoredSettingPlace = { documentId: command.documentId, budgetId: command.budgetId, type: command.settingType };
  const list = entries(state)
    .filter(([, setting]) => sameMenu(setting, place) && (general ? isGeneral(setting) : ownedBy(setting, actor)))
    .sort(([, a], [, b]) => a.order - b.order);
  const inList = new Set(list.map(([id]) => id));
  const given = [...new Set(command.settingIds)];
  const stranger = given.findIndex((id) => !inList.has(id));
  if (stranger >= 0) throw fieldError('OBJECT_NOT_FOUND', `order.${stranger}`, 'validation.invalid', 'not a setting of this list');
  const settingIds = [...given, ...list.map(([id]) => id).filter((id) => !given.includes(id))];
  const unchanged = settingIds.every((id, index) => list[index]?.[0] === id && list[index]?.[1].order === index);
  return unchanged ? [] : [{ type: 'StoredSettingsReordered', data: { documentId: command.documentId, settingIds } }];
}

/** A document copy's settings: those whose ids the document already holds were made by an earlier attempt. */
function copy(command: Extract<StoredSettingCommand, { type: 'CopyStoredSettings' }>, state: StoredSettingsState): StoredSettingEvent[] {
  const taken = state.status === 'holding' ? state.settings : new Map<string, SettingState>();
  return command.copies
    .filter((copied) => !taken.has(copied.settingId))
    .map(({ settingId, ...copied }) => ({
      type: 'StoredSettingCreated' as const,
      data: { ...copied, documentId: command.documentId, settingId, createdAt: command.now.toISOString() },
    }));
}

function evolveSetting(settings: Map<string, SettingState>, event: StoredSettingEvent): void {
  switch (event.type) {
    case 'StoredSettingCreated': {
      const { settingId, createdAt: _createdAt, ...setting } = event.data;
      settings.set(settingId, { status: 'active', ...setting });
      return;
    }
    case 'StoredSettingUpdated':
    case 'StoredSettingPromoted': {
      const current = settings.get(event.data.settingId);
      if (current?.status !== 'active') return;
      settings.set(
        event.data.settingId,
        event.type === 'StoredSettingUpdated'
          ? { ...current, name: event.data.name, settings: event.data.settings }
          : { ...current, userId: null, occupationId: null, order: event.data.order },
      );
      return;
    }
    case 'StoredSettingDeleted':
      settings.set(event.data.settingId, { status: 'deleted' });
      return;
    case 'StoredSettingsReordered':
      event.data.settingIds.forEach((id, order) => {
        const current = settings.get(id);
        if (current?.status === 'active') settings.set(id, { ...current, order });
      });
      return;
  }
}

/** Saved report views and column sets of a document (spec 3, sections 4-7). */
export const storedSettingsDecider: Decider<StoredSettingCommand, StoredSettingEvent, StoredSettingsState> = {
  streamName: (command) => storedSettingsStream(command.documentId),
  initialState: () => ({ status: 'empty' }),
  evolve(state, event) {
    const settings = new Map(state.status === 'holding' ? state.settings : []);
    evolveSetting(settings, event);
    return { status: 'holding', settings };
  },
  decide(command, state) {
    switch (command.type) {
      case 'CreateStoredSetting':
        return create(command, state);
      case 'UpdateStoredSetting':
        return update(command, state);
      case 'DeleteStoredSetting':
        return remove(command, state);
      case 'PromoteStoredSetting':
        return promote(command, state);
      case 'ReorderStoredSettings':
        return reorder(command, state);
      case 'CopyStoredSettings':
        return copy(command, state);
    }
  },
};
