import { type Generated, type Kysely, type Migration, sql } from 'kysely';

/**
 * Record imports (issue 11, points 4 and 5): operational state the client polls (GET
 * .../import/status, /report, /error). The rows themselves become events; this keeps the import's
 * status, result and error report, and the gzip body until its job has run (a retried job reads
 * it again). One row per import; `task_id` is the job's task (operational.tasks).
 */
export const recordImportsMigrations: Record<string, Migration> = {
  '2026-11-25-record-imports-001-imports': {
    async up(db: Kysely<unknown>) {
      await sql`
        create table operational.record_imports (
          id uuid primary key,
          task_id uuid not null unique,
          organization_id uuid not null,
          document_id uuid not null,
          budget_id uuid not null,
          sub_budget_id uuid,
          source text not null,
          status text not null,
          result jsonb,
          origin_resource_name text not null,
          payload bytea,
          error_report bytea,
          user_id uuid,
          occupation_id uuid,
          created_at timestamptz not null default now(),
          updated_at timestamptz not null default now()
        )`.execute(db);
      await sql`create index record_imports_budget on operational.record_imports (budget_id, created_at desc)`.execute(db);
      await sql`create index record_imports_sub_budget on operational.record_imports (sub_budget_id, created_at desc) where sub_budget_id is not null`.execute(
        db,
      );
    },
  },
};

export type RecordImportSource = 'WEB' | 'ERP';

export interface RecordImportsTables {
  'operational.record_imports': {
    id: string;
    task_id: string;
    organization_id: string;
    document_id: string;
    budget_id: string;
    sub_budget_id: string | null;
    source: RecordImportSource;
    status: 'UNPROCESSED' | 'PROCESSING' | 'SUCCESS' | 'ERROR';
    result: unknown;
    origin_resource_name: string;
    payload: Buffer | null;
    error_report: Buffer | null;
    user_id: string | null;
    occupation_id: string | null;
    created_at: Generated<Date>;
    updated_at: Generated<Date>;
  };
}
