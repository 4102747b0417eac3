import type { ColumnType } from 'kysely';

export interface OrganizationsTable {
  id: string;
  name: string;
  created_at: ColumnType<Date, string, string>;
  locale_code: string;
  locale_settings: ColumnType<Record<string, string>, string, string>;
  enable_resource_statuses: boolean;
  allow_resource_status_editing: boolean;
  allowed_authentication_types: string[];
  api_usage_allowed: boolean;
  session_length: number;
  session_length_multiplier: ColumnType<string, number, number>;
  is_platform: boolean;
  nr_of_users: number;
}

export interface OrganizationsReadModel {
  organizations: OrganizationsTable;
}
