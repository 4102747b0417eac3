import { FINAL_TASK_STATUSES, type Task } from '@eelarve/shared';
import { type Kysely, sql } from 'kysely';
import type { CommandActor } from '../../infrastructure/commands';
import type { AppDatabase } from '../../infrastructure/database';
import type { TaskStepRecord, TasksTables } from './migrations';

/**
 * The task rows of operational.tasks: what GET api/task/{id} answers. The gateway records a
 * task (UNPROCESSED); the worker that runs it moves it on (PROCESSING, each step, SUCCESS or
 * ERROR). A final status is never overwritten.
 */
export interface NewTask {
  type: string;
  organizationId: string;
  userId: string | null;
  occupationId: string | null;
  documentId: string | null;
  params: Record<string, unknown>;
  /** Who asked: the task's commands run as this actor. */
  actor: CommandActor;
}

type TasksDatabase = Kysely<TasksTables>;
const tasksOf = (db: AppDatabase | TasksDatabase) => db as unknown as TasksDatabase;

export const TASK_INTERRUPTED = 'TASK_INTERRUPTED';
const UNFINISHED: TaskStepRecord['status'][] = ['UNPROCESSED', 'PROCESSING'];

export const isFinal = (task: Pick<Task, 'status'>): boolean => FINAL_TASK_STATUSES.includes(task.status);

export const unprocessedSteps = (names: readonly string[]): TaskStepRecord[] => names.map((name) => ({ name, status: 'UNPROCESSED', error: null }));

export async function insertTask(db: AppDatabase | TasksDatabase, id: string, task: NewTask, stepNames: readonly string[]): Promise<void> {
  const now = new Date().toISOString();
  await tasksOf(db)
    .insertInto('operational.tasks')
    .values({
      id,
      type: task.type,
      status: 'UNPROCESSED',
      organization_id: task.organizationId,
      user_id: task.userId,
      occupation_id: task.occupationId,
      document_id: task.documentId,
      params: JSON.stringify(task.params),
      steps: JSON.stringify(unprocessedSteps(stepNames)),
      error: null,
      actor: JSON.stringify(task.actor),
      created_at: now,
      updated_at: now,
    })
    .execute();
}

export async function findTask(db: AppDatabase, taskId: string): Promise<Task | null> {
  const row = await tasksOf(db).selectFrom('operational.tasks').selectAll().where('id', '=', taskId).executeTakeFirst();
  if (!row) return null;
  const iso = (value: Date | string) => (value instanceof Date ? value.toISOString() : new Date(value).toISOString());
  return {
    id: row.id,
    type: row.type,
    status: row.status,
    organizationId: row.organization_id,
    documentId: row.document_id,
    params: (row.params ?? {}) as Record<string, unknown>,
    steps: (row.steps ?? []) as TaskStepRecord[],
    error: row.error,
    createdAt: iso(row.created_at),
    updatedAt: iso(row.updated_at),
  };
}

/** The actor the task's commands run as; for a task recorded before actors were kept, the user in its row. */
export async function taskActor(db: AppDatabase, taskId: string): Promise<CommandActor> {
  const row = await tasksOf(db)
    .selectFrom('operational.tasks')
    .select(['actor', 'user_id', 'occupation_id', 'organization_id'])
    .where('id', '=', taskId)
    .executeTakeFirstOrThrow();
  const stored = row.actor as unknown as CommandActor | null;
  return stored ?? { correlationId: taskId, userId: row.user_id, occupationId: row.occupation_id, organizationId: row.organization_id };
}

/** Updates a task that is not final yet; false when it is. `heartbeat_at` says when its worker last touched it. */
export async function saveTask(
  db: AppDatabase,
  taskId: string,
  changes: { status?: TaskStepRecord['status']; steps?: TaskStepRecord[]; error?: string | null },
): Promise<boolean> {
  const result = await tasksOf(db)
    .updateTable('operational.tasks')
    .set({
      ...(changes.status ? { status: changes.status } : {}),
      ...(changes.steps ? { steps: JSON.stringify(changes.steps) } : {}),
      ...(changes.error !== undefined ? { error: changes.error } : {}),
      updated_at: new Date().toISOString(),
      heartbeat_at: sql<Date>`now()`,
    })
    .where('id', '=', taskId)
    .where('status', 'in', UNFINISHED)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** Every step SUCCESS: the data showed the work complete. */
export const allSucceeded = (steps: readonly TaskStepRecord[]): TaskStepRecord[] => steps.map((step) => ({ ...step, status: 'SUCCESS', error: null }));

/** The task ends ERROR `code`; the step that was running gets the same error. False when it was final already. */
export async function failTask(db: AppDatabase, task: Task, code: string): Promise<boolean> {
  const steps = task.steps.map((step) => (step.status === 'PROCESSING' ? { ...step, status: 'ERROR' as const, error: code } : step));
  return saveTask(db, task.id, { status: 'ERROR', steps, error: code });
}

/**
 * Waits until the task is final (polling its row) or `timeoutMs` passed; answers the task as it
 * then is. For a request that answers only once its task's work is done (budget copy).
 */
export async function awaitTask(db: AppDatabase, taskId: string, timeoutMs: number): Promise<Task | null> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const task = await findTask(db, taskId);
    if (!task || isFinal(task) || Date.now() >= deadline) return task;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
