import { type Generated, type Kysely, type Migration, sql } from 'kysely';

/** Import API keys of monitoring budgets: encrypted for display to platform admins, hashed for lookup. */
export const budgetMigrations: Record<string, Migration> = {
  '2026-11-21-budgets-001-api-keys': {
    async up(db: Kysely<unknown>) {
      await sql`
        create table if not exists operational.budget_api_keys (
          budget_id uuid primary key,
          key_hash bytea not null unique,
          key_ciphertext bytea not null,
          issued_at timestamptz not null default now()
        )`.execute(db);
    },
  },
  // The global position of each document's latest change of sum-budget components (components.ts).
  '2026-11-21-budgets-002-component-writes': {
    async up(db: Kysely<unknown>) {
      await sql`
        create table operational.budget_component_writes (
          document_id uuid primary key,
          position text not null,
          written_at timestamptz not null default now()
        )`.execute(db);
    },
  },
};

export interface BudgetTables {
  'operational.budget_api_keys': { budget_id: string; key_hash: Buffer; key_ciphertext: Buffer; issued_at: Date };
  'operational.budget_component_writes': { document_id: string; position: string; written_at: Generated<Date> };
}
