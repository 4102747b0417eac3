import { type Generated, type Kysely, type Migration, sql } from 'kysely';

/** Which one-off migrations (runner.ts) this database has run, with what each found. */
export const oneOffMigrationTables: Record<string, Migration> = {
  '2026-11-23-one-off-001-runs': {
    async up(db: Kysely<unknown>) {
      await sql`
        create table operational.one_off_migrations (
          name text primary key,
          ran_at timestamptz not null default now(),
          report jsonb not null
        )`.execute(db);
    },
  },
};

export interface OneOffMigrationTables {
  'operational.one_off_migrations': { name: string; ran_at: Generated<Date>; report: string };
}
