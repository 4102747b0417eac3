import { type Kysely, type Migration, sql } from 'kysely';

/**
 * Results of imports by the client's import id (issue 8, finding 11): a retry of an import that
 * already succeeded answers the stored result instead of importing again. `result` is null while
 * the first attempt runs.
 */
export const importsMigrations: Record<string, Migration> = {
  '2026-11-23-imports-001-results': {
    async up(db: Kysely<unknown>) {
      await sql`
        create table operational.import_results (
          scope text not null,
          import_id uuid not null,
          result jsonb,
          created_at timestamptz not null default now(),
          primary key (scope, import_id)
        )`.execute(db);
    },
  },
};

export interface ImportsTables {
  'operational.import_results': {
    scope: string;
    import_id: string;
    result: unknown;
    created_at: Date | string;
  };
}
