import type { StoredSettings, StoredSettingType } from '@eelarve/shared';
import type { ColumnType } from 'kysely';

/** A saved report view or column set (spec 3, section 3: stored setting). */
export interface StoredSettingsTable {
  id: string;
  organization_id: string;
  document_id: string;
  /** Null: offered in every budget of the document. */
  budget_id: string | null;
  type: StoredSettingType;
  /** Null (with occupation_id): a general setting; otherwise the owner in that occupation. */
  user_id: string | null;
  occupation_id: string | null;
  name: string;
  settings: ColumnType<StoredSettings, string, string>;
  order: number;
  created_at: ColumnType<Date, string, never>;
}

export interface StoredSettingsReadModel {
  stored_settings: StoredSettingsTable;
}
