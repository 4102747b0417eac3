import type { StoredSettings, StoredSettingType } from '@eelarve/shared';
import type { DomainEvent } from '../decider';

/** Whose a setting is: a user in one occupation (personal), or everyone who reads the budget (general: both null). */
export interface StoredSettingOwner {
  userId: string | null;
  occupationId: string | null;
}

/** Where a setting is offered: a budget of the document, or (budgetId null) every budget of it. */
export interface StoredSettingPlace {
  documentId: string;
  budgetId: string | null;
  type: StoredSettingType;
}

interface Key {
  documentId: string;
  settingId: string;
}

export type StoredSettingCreated = DomainEvent<
  'StoredSettingCreated',
  Key & StoredSettingPlace & StoredSettingOwner & { organizationId: string; name: string; settings: StoredSettings; order: number; createdAt: string }
>;
export type StoredSettingUpdated = DomainEvent<'StoredSettingUpdated', Key & { name: string; settings: StoredSettings }>;
export type StoredSettingDeleted = DomainEvent<'StoredSettingDeleted', Key>;
/** A personal setting becomes general (spec 3, section 4): placed last among the general ones. */
export type StoredSettingPromoted = DomainEvent<'StoredSettingPromoted', Key & { order: number }>;
/** The order of one list: `settingIds` get orders 0, 1, ... in that sequence. */
export type StoredSettingsReordered = DomainEvent<'StoredSettingsReordered', { documentId: string; settingIds: string[] }>;

export type StoredSettingEvent = StoredSettingCreated | StoredSettingUpdated | StoredSettingDeleted | StoredSettingPromoted | StoredSettingsReordered;

export const STORED_SETTING_EVENT_TYPES = [
  'StoredSettingCreated',
  'StoredSettingUpdated',
  'StoredSettingDeleted',
  'StoredSettingPromoted',
  'StoredSettingsReordered',
] as const satisfies readonly StoredSettingEvent['type'][];
