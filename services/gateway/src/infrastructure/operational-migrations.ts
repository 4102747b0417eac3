import { type Generated, type Kysely, type Migration, sql } from 'kysely';
import { type AuthTables, authMigrations } from '../features/auth/migrations';
import { type BudgetTables, budgetMigrations } from '../features/budgets/migrations';
import { type ElectronicIdTables, electronicIdMigrations } from '../features/electronic-id/migrations';
import { type ImportsTables, importsMigrations } from '../features/imports/migrations';
import { type MailTables, mailMigrations } from '../features/mail/migrations';
import { type RecordImportsTables, recordImportsMigrations } from '../features/record-imports/migrations';
import { type RegistrationTables, registrationMigrations } from '../features/registration/migrations';
import { type TasksTables, tasksMigrations } from '../features/tasks/migrations';
import { type ThrottleTables, throttleMigrations } from '../features/throttle/migrations';
import { type UserActionLogTables, userActionLogMigrations } from '../features/user-action-logs/migrations';
import { type UserSettingsTables, userSettingsMigrations } from '../features/user-settings/migrations';
import { type CommandRunnerTables, commandRunnerMigrations } from './command-runner';
import { type OneOffMigrationTables, oneOffMigrationTables } from '../one-off-migrations/tables';

/**
 * Operational state that is not domain history (DESIGN.md section 1): sessions, credentials and
 * sign-in bookkeeping. Plain tables in schema `operational`.
 */
export const operationalMigrations: Record<string, Migration> = {
  '2026-11-21-001-sessions-and-credentials': {
    async up(db: Kysely<unknown>) {
      await sql`create schema if not exists operational`.execute(db);
      await sql`
        create table operational.credentials (
          user_id uuid primary key,
          password_hash text not null,
          updated_at timestamptz not null default now()
        )`.execute(db);
      await sql`
        create table operational.sessions (
          token_hash bytea primary key,
          user_id uuid not null,
          occupation_id uuid,
          organization_id uuid,
          authentication_type text not null,
          remember_me boolean not null,
          created_at timestamptz not null default now(),
          last_seen_at timestamptz not null default now(),
          expires_at timestamptz not null,
          ip text,
          user_agent text
        )`.execute(db);
      await sql`create index sessions_user on operational.sessions (user_id)`.execute(db);
      await sql`
        create table operational.sign_ins (
          user_id uuid primary key,
          last_occupation_id uuid,
          sign_in_count integer not null default 0,
          current_sign_in_at timestamptz,
          current_sign_in_ip text,
          last_sign_in_at timestamptz,
          last_sign_in_ip text
        )`.execute(db);
    },
  },
  ...authMigrations,
  ...electronicIdMigrations,
  ...mailMigrations,
  ...registrationMigrations,
  ...tasksMigrations,
  ...importsMigrations,
  ...budgetMigrations,
  ...throttleMigrations,
  ...userSettingsMigrations,
  ...userActionLogMigrations,
  ...oneOffMigrationTables,
  ...commandRunnerMigrations,
  ...recordImportsMigrations,
};

export interface OperationalTables
  extends AuthTables,
    BudgetTables,
    CommandRunnerTables,
    ElectronicIdTables,
    ImportsTables,
    MailTables,
    OneOffMigrationTables,
    RecordImportsTables,
    RegistrationTables,
    TasksTables,
    ThrottleTables,
    UserSettingsTables,
    UserActionLogTables {
  'operational.credentials': { user_id: string; password_hash: string; updated_at: Generated<Date> };
  'operational.sessions': {
    token_hash: Buffer;
    user_id: string;
    occupation_id: string | null;
    organization_id: string | null;
    authentication_type: string;
    remember_me: boolean;
    created_at: Generated<Date>;
    last_seen_at: Generated<Date>;
    expires_at: Date;
    ip: string | null;
    user_agent: string | null;
  };
  'operational.sign_ins': {
    user_id: string;
    last_occupation_id: string | null;
    sign_in_count: Generated<number>;
    current_sign_in_at: Date | null;
    current_sign_in_ip: string | null;
    last_sign_in_at: Date | null;
    last_sign_in_ip: string | null;
  };
}
