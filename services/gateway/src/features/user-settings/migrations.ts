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
}
