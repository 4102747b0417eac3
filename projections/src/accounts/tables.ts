import type { ColumnType } from 'kysely';

type Timestamp = ColumnType<Date, string, string>;

/** Active users; a deleted user's row is removed so no sign-in path can find it again. */
export interface UsersTable {
  id: string;
  /** Where the user was registered. */
  organization_id: string;
  name: string;
  email: string;
  registered_at: Timestamp;
  /** Time of the last change to the user (any user event). */
  updated_at: Timestamp;
  confirmed_at: ColumnType<Date | null, string | null, string | null>;
  has_password: boolean;
  mfa_added: boolean;
  /** An electronic ID (personal code) is bound. */
  has_personal_code: boolean;
  /** The user's own language (et, en), null when following the organisation. */
  language: string | null;
}

export interface RolesTable {
  id: string;
  organization_id: string;
  name: string;
  description: string;
  privilege_ids: string[];
  type: 'ADMIN' | 'DEFAULT';
}

/** Live occupations; a deleted one's row is removed. */
export interface OccupationsTable {
  id: string;
  organization_id: string;
  user_id: string;
  name: string;
  description: string;
  type: 'ADMIN' | 'DEFAULT';
  role_ids: string[];
}

export interface AccountsReadModel {
  users: UsersTable;
  roles: RolesTable;
  occupations: OccupationsTable;
}
