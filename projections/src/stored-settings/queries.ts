import type { StoredSettingType } from '@eelarve/shared';
import type { Selectable } from 'kysely';
import type { ReadDatabase } from '../read-models';
import type { StoredSettingsTable } from './tables';

export type StoredSettingRow = Selectable<StoredSettingsTable>;

export interface StoredSettingsMenu {
  documentId: string;
  /** Absent: only the settings of the whole document. */
  budgetId?: string;
  type: StoredSettingType;
  /** Whose personal settings are shown beside the general ones. */
  userId: string;
  occupationId: string;
}

/**
 * One menu of the report screen: the general settings, then the user's own in that occupation, each
 * in its order; a budget's menu holds the budget's settings and those of the whole document.
 */
export function storedSettingsMenu(read: ReadDatabase, menu: StoredSettingsMenu): Promise<StoredSettingRow[]> {
  return read
    .selectFrom('stored_settings')
    .selectAll()
    .where('document_id', '=', menu.documentId)
    .where('type', '=', menu.type)
    .where((eb) => (menu.budgetId ? eb.or([eb('budget_id', '=', menu.budgetId), eb('budget_id', 'is', null)]) : eb('budget_id', 'is', null)))
    .where((eb) => eb.or([eb('user_id', 'is', null), eb.and([eb('user_id', '=', menu.userId), eb('occupation_id', '=', menu.occupationId)])]))
    .orderBy((eb) => eb('user_id', 'is not', null))
    .orderBy('order')
    .orderBy('name')
    .execute();
}

export function findStoredSetting(read: ReadDatabase, settingId: string): Promise<StoredSettingRow | undefined> {
  return read.selectFrom('stored_settings').selectAll().where('id', '=', settingId).executeTakeFirst();
}

/** Every saved view and column set of a document, general and personal (the document copy). */
export function documentStoredSettings(read: ReadDatabase, documentId: string): Promise<StoredSettingRow[]> {
  return read.selectFrom('stored_settings').selectAll().where('document_id', '=', documentId).orderBy('created_at').orderBy('id').execute();
}
