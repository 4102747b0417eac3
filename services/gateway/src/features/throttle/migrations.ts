import { type Kysely, type Migration, sql } from 'kysely';

/** Failure counters for sign-in and MFA codes, shared by every gateway replica. */
export const throttleMigrations: Record<string, Migration> = {
  '2026-11-21-throttle-001-attempts': {
    async up(db: Kysely<unknown>) {
      await sql`
        create table operational.auth_failures (
          key text primary key,
          failures integer not null,
          window_started_at timestamptz not null
        )`.execute(db);
    },
  },
};

export interface ThrottleTables {
  'operational.auth_failures': { key: string; failures: number; window_started_at: Date };
}
