import type { ImportStatusAnswer } from '@eelarve/shared';
import { type Selectable, sql } from 'kysely';
import type { AppDatabase } from '../../infrastructure/database';
import type { RecordImportSource, RecordImportsTables } from './migrations';

/** The rows of operational.record_imports: what the import calls and the job read and write. */

export type RecordImportRow = Selectable<RecordImportsTables['operational.record_imports']>;

export interface NewRecordImport {
  id: string;
  organizationId: string;
  documentId: string;
  budgetId: string;
  subBudgetId: string | null;
  source: RecordImportSource;
  originResourceName: string;
  payload: Buffer;
  userId: string | null;
  occupationId: string | null;
}

export interface ImportResult {
  recordsInserted: number;
  totalErrorsCount: number;
  criticalErrorsCount: number;
}

export async function insertImport(db: AppDatabase, taskId: string, fresh: NewRecordImport): Promise<void> {
  await db
    .insertInto('operational.record_imports')
    .values({
      id: fresh.id,
      task_id: taskId,
      organization_id: fresh.organizationId,
      document_id: fresh.documentId,
      budget_id: fresh.budgetId,
      sub_budget_id: fresh.subBudgetId,
      source: fresh.source,
      status: 'UNPROCESSED',
      result: null,
      origin_resource_name: fresh.originResourceName,
      payload: fresh.payload,
      error_report: null,
      user_id: fresh.userId,
      occupation_id: fresh.occupationId,
    })
    .execute();
}

export function findImport(db: AppDatabase, importId: string): Promise<RecordImportRow | undefined> {
  return db.selectFrom('operational.record_imports').selectAll().where('id', '=', importId).executeTakeFirst();
}

export function findImportOfTask(db: AppDatabase, taskId: string): Promise<RecordImportRow | undefined> {
  return db.selectFrom('operational.record_imports').selectAll().where('task_id', '=', taskId).executeTakeFirst();
}

/** The row's status as the client sees it: a job that gave up (its task ERROR) ends the import ERROR too. */
const answeredStatus = sql<ImportStatusAnswer['status']>`case when t.status = 'ERROR' then 'ERROR' else i.status end`;

export interface ImportScope {
  budgetId: string;
  /** Only the imports into this sub-budget; absent: every import of the budget. */
  subBudgetId?: string;
  /** Only finished ones (the report). */
  finished?: boolean;
}

function answeredImports(db: AppDatabase) {
  return db
    .selectFrom('operational.record_imports as i')
    .innerJoin('operational.tasks as t', 't.id', 'i.task_id')
    .select(['i.id', 'i.result', 'i.origin_resource_name', 'i.created_at', 'i.updated_at', 'i.error_report', answeredStatus.as('status')]);
}

/** One import with its answered status. */
export function answeredImport(db: AppDatabase, importId: string) {
  return answeredImports(db).where('i.id', '=', importId).executeTakeFirst();
}

/** The latest import of a budget or sub-budget (with the answered status), or undefined. */
export async function latestImport(db: AppDatabase, scope: ImportScope) {
  let query = answeredImports(db).where('i.budget_id', '=', scope.budgetId).orderBy('i.created_at', 'desc').orderBy('i.id', 'desc').limit(1);
  if (scope.subBudgetId) query = query.where('i.sub_budget_id', '=', scope.subBudgetId);
  if (scope.finished) query = query.where(answeredStatus, 'in', ['SUCCESS', 'ERROR']);
  return query.executeTakeFirst();
}

const UNFINISHED = ['UNPROCESSED', 'PROCESSING'] as const;

/** The job takes the import on; false when it is already final (an earlier attempt finished it). */
export async function markProcessing(db: AppDatabase, importId: string): Promise<boolean> {
  const updated = await db
    .updateTable('operational.record_imports')
    .set({ status: 'PROCESSING', updated_at: sql`now()` })
    .where('id', '=', importId)
    .where('status', 'in', UNFINISHED)
    .executeTakeFirst();
  return updated.numUpdatedRows > 0n;
}

/** SUCCESS with its counts and error report (the body goes when the task ends: migrations.ts). */
export async function markSucceeded(db: AppDatabase, importId: string, result: ImportResult, errorReport: Buffer): Promise<void> {
  await db
    .updateTable('operational.record_imports')
    .set({ status: 'SUCCESS', result: JSON.stringify(result), error_report: errorReport, updated_at: sql`now()` })
    .where('id', '=', importId)
    .where('status', 'in', UNFINISHED)
    .execute();
}

/** A refused import: ERROR, nothing of it was written. */
export async function markFailed(db: AppDatabase, importId: string): Promise<void> {
  await db
    .updateTable('operational.record_imports')
    .set({ status: 'ERROR', updated_at: sql`now()` })
    .where('id', '=', importId)
    .where('status', 'in', UNFINISHED)
    .execute();
}
