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
  /** The organisation's members (organization_members): the users its users list shows. */
  nr_of_users: number;
}

/**
 * Who belongs to an organisation, as its users list counts them: users registered there and users
 * holding an occupation there (a platform administrator's ADMIN occupation, say). One row per
 * organisation and user; `nr_of_users` is the count of these rows.
 */
export interface OrganizationMembersTable {
  organization_id: string;
  user_id: string;
  /** Registered in this organisation (UserRegistered). */
  registered: boolean;
  /** Occupations the user holds in this organisation. */
  occupations: number;
}

export interface OrganizationsReadModel {
  organizations: OrganizationsTable;
  organization_members: OrganizationMembersTable;
}
