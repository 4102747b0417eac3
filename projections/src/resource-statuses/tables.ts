import type { LocalizedText, ResourceStatusRule } from '@eelarve/shared';
import type { ColumnType } from 'kysely';

/**
 * An organisation's statuses as it has edited them: its own statuses, and the default statuses it
 * has renamed (a default status nobody edited has no row; queries add it from the catalogue).
 */
export interface ResourceStatusesTable {
  organization_id: string;
  id: string;
  /** A default status: rules fixed, never deleted. */
  read_only: boolean;
  name: ColumnType<LocalizedText, string, string>;
  description: ColumnType<LocalizedText, string, string>;
  icon: string;
  rules: ColumnType<ResourceStatusRule[], string, string>;
  /** When an own status was made (the list's order); null for default statuses. */
  created_at: ColumnType<Date | null, string | null, string | null>;
}

export interface ResourceStatusesReadModel {
  resource_statuses: ResourceStatusesTable;
}
