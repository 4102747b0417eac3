import { type Generated, type Kysely, type Migration, sql } from 'kysely';

/** Per-user screen settings (the user's language is in the users read model: UserLanguageSet). */
export const userSettingsMigrations: Record<string, Migration> = {
  '2026-11-21-user-settings-001-settings': {
    async up(db: Kysely<unknown>) {
      await sql`
        create table operational.user_settings (
          user_id uuid not null,
          occupation_id uuid not null,
          type text not null,
          -- document, budget and sub-budget ids joined with '|' (empty when absent): one key for the upsert
          scope text not null,
          document_id uuid,
          budget_id uuid,
          sub_budget_id uuid,
          settings jsonb not null,
          updated_at timestamptz not null default now(),
          primary key (user_id, occupation_id, type, scope)
        )`.execute(db);
    },
  },
  /** One pending change of one's own e-mail per user; the token (hashed) is mailed to the new address. */
  '2026-11-23-user-settings-002-email-changes': {
    async up(db: Kysely<unknown>) {
      await sql`
        create table operational.email_changes (
          user_id uuid primary key,
          new_email text not null,
          -- the pending claim on the new address's reservation stream, settled when the change ends
          claim_id uuid not null,
          token_hash bytea not null unique,
          requested_at timestamptz not null default now(),
          expires_at timestamptz not null
        )`.execute(db);
    },
  },
};

export interface UserSettingsTables {
  'operational.user_settings': {
    user_id: string;
    occupation_id: string;
    type: string;
    scope: string;
    document_id: string | null;
    budget_id: string | null;
    sub_budget_id: string | null;
    settings: unknown;
    updated_at: Generated<Date>;
  };
  'operational.email_changes': { user_id: string; new_email: string; claim_id: string; token_hash: Buffer; requested_at: Generated<Date>; expires_at: Date };
}
