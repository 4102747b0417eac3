import type { ColumnType } from 'kysely';

export interface UsersTable {
  id: string;
  organization_id: string;
  name: string;
  email: string;
  registered_at: ColumnType<Date, string, string>;
  confirmed_at: ColumnType<Date | null, string | null, string | null>;
  has_password: boolean;
}

export interface RolesTable {
  id: string;
  organization_id: string;
  name: string;
  description: string;
  privilege_ids: string[];
  type: 'ADMIN' | 'DEFAULT';
}

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
