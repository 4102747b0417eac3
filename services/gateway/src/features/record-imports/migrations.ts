import { type Generated, type Kysely, type Migration, sql } from 'kysely';

/**
 * Record imports (issue 11, points 4 and 5): operational state the client polls (GET
 * .../import/status, /report, /error). The rows themselves become events; this keeps the import's
 * status, result and error report, and the gzip body until its task is final (a retried job reads
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
  /**
   * The gzip body is kept only while its job may still run (data minimisation; a 100,000-row body
   * is megabytes). Once the import's task is final, however it got there (SUCCESS, a refusal, a
   * failed step, or the queue giving up after the last retry), the body goes in the same
   * statement that makes the task final: no path and no crash between two writes can leave it.
   */
  '2026-11-26-record-imports-002-body-cleared-when-task-final': {
    async up(db: Kysely<unknown>) {
      await sql`
        create function operational.clear_record_import_body() returns trigger language plpgsql as $$
        begin
          update operational.record_imports set payload = null where task_id = new.id and payload is not null;
          return null;
        end $$`.execute(db);
      await sql`
        create trigger record_import_body_cleared after update of status on operational.tasks
        for each row when (new.status in ('SUCCESS', 'ERROR') and old.status is distinct from new.status)
        execute function operational.clear_record_import_body()`.execute(db);
      // Bodies left behind by imports whose tasks ended before this migration.
      await sql`
        update operational.record_imports i set payload = null
        from operational.tasks t
        where t.id = i.task_id and t.status in ('SUCCESS', 'ERROR') and i.payload is not null`.execute(db);
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
