import { type Generated, type Kysely, type Migration, sql } from 'kysely';

/** Single-use tokens mailed to users (registration, password reset), stored only as SHA-256. */
export const registrationMigrations: Record<string, Migration> = {
  '2026-11-21-registration-001-tokens': {
    async up(db: Kysely<unknown>) {
      await sql`
        create table operational.account_tokens (
          token_hash bytea primary key,
          user_id uuid not null,
          purpose text not null check (purpose in ('REGISTRATION', 'RESET')),
          created_at timestamptz not null default now(),
          expires_at timestamptz not null,
          used_at timestamptz
        )`.execute(db);
      await sql`create index account_tokens_user on operational.account_tokens (user_id, purpose)`.execute(db);
      await sql`
        create table operational.registration_confirmations (
          user_id uuid primary key,
          sent_at timestamptz not null
        )`.execute(db);
    },
  },
};

export interface RegistrationTables {
  'operational.account_tokens': {
    token_hash: Buffer;
    user_id: string;
    purpose: 'REGISTRATION' | 'RESET';
    created_at: Generated<Date>;
    expires_at: Date;
    used_at: Date | null;
  };
  'operational.registration_confirmations': { user_id: string; sent_at: Date };
}
