import { type Generated, type Kysely, type Migration, sql } from 'kysely';

/**
 * Background tasks (document and budget copies, later imports): operational state the client polls through
 * GET api/task/{taskId}; statuses UNPROCESSED, PROCESSING, SUCCESS, ERROR (the last two final).
 */
export const tasksMigrations: Record<string, Migration> = {
  '2026-11-21-tasks-001-tasks': {
    async up(db: Kysely<unknown>) {
      await sql`
        create table operational.tasks (
          id uuid primary key,
          type text not null,
          status text not null,
          organization_id uuid not null,
          user_id uuid,
          occupation_id uuid,
          document_id uuid,
          params jsonb not null,
          steps jsonb not null,
          error text,
          created_at timestamptz not null default now(),
          updated_at timestamptz not null default now()
        )`.execute(db);
      await sql`create index tasks_organization on operational.tasks (organization_id, created_at)`.execute(db);
    },
  },
  // When the task's runner last touched it. Lost attempts are found by the job queue's expiry
  // since tasks run in the worker process (queue.ts); the column stays as a diagnostic.
  '2026-11-21-tasks-002-heartbeat': {
    async up(db: Kysely<unknown>) {
      await sql`alter table operational.tasks add column heartbeat_at timestamptz not null default now()`.execute(db);
      await sql`create index tasks_unfinished on operational.tasks (heartbeat_at) where status in ('UNPROCESSED', 'PROCESSING')`.execute(db);
    },
  },
  // Who started the task: the worker runs its commands as that actor (with the request's correlation id).
  '2026-11-25-tasks-003-actor': {
    async up(db: Kysely<unknown>) {
      await sql`alter table operational.tasks add column actor jsonb`.execute(db);
    },
  },
};

export interface TaskStepRecord {
  name: string;
  status: 'UNPROCESSED' | 'PROCESSING' | 'SUCCESS' | 'ERROR';
  error: string | null;
}

export interface TasksTables {
  'operational.tasks': {
    id: string;
    type: string;
    status: TaskStepRecord['status'];
    organization_id: string;
    user_id: string | null;
    occupation_id: string | null;
    document_id: string | null;
    params: unknown;
    steps: unknown;
    error: string | null;
    created_at: Date | string;
    updated_at: Date | string;
    heartbeat_at: Generated<Date>;
    actor: string | null;
  };
}
