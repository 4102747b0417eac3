import { type Kysely, type Migration, sql } from 'kysely';

/**
 * The recently visited report views of each occupation (spec 1, section 2). Operational, not events:
 * the dashboard needs only the latest visit per budget, and a lasting record of who looked at what
 * would be personal data kept without a purpose (reading changes nothing an auditor must trace;
 * every change is in the event log). So one row per budget, and only the newest few per occupation.
 */
export const userActionLogMigrations: Record<string, Migration> = {
  '2026-11-26-user-action-logs-001-visits': {
    async up(db: Kysely<unknown>) {
      await sql`
        create table operational.user_action_logs (
          occupation_id uuid not null,
          user_id uuid not null,
          action_type text not null,
          document_id uuid not null,
          budget_id uuid not null,
          visited_at timestamptz not null,
          primary key (occupation_id, action_type, budget_id)
        )`.execute(db);
      await sql`create index user_action_logs_newest on operational.user_action_logs (occupation_id, action_type, visited_at desc)`.execute(db);
    },
  },
};

export interface UserActionLogTables {
  'operational.user_action_logs': {
    occupation_id: string;
    user_id: string;
    action_type: string;
    document_id: string;
    budget_id: string;
    visited_at: Date;
  };
}
