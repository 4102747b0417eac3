import { randomUUID } from 'node:crypto';
import type { Task } from '@eelarve/shared';
import type { FastifyInstance } from 'fastify';
import type { TaskStepRecord } from './migrations';

/**
 * Tasks run in-process, in the background of the request that started them: the request answers
 * with the task id at once and the client polls GET api/task/{taskId}. Each task is a list of
 * named steps run in order; the first failing step fails the task (status ERROR) and the rest
 * stay UNPROCESSED. A process that stops waits for its running tasks (see `drainTasks`).
 */
export interface TaskStep {
  name: string;
  run(): Promise<void>;
}

export interface NewTask {
  type: string;
  organizationId: string;
  userId: string | null;
  occupationId: string | null;
  documentId: string | null;
  params: Record<string, unknown>;
}

const running = new WeakMap<FastifyInstance, Set<Promise<void>>>();

function runningOf(app: FastifyInstance): Set<Promise<void>> {
  let set = running.get(app);
  if (!set) {
    set = new Set();
    running.set(app, set);
  }
  return set;
}

const now = () => new Date().toISOString();

async function save(app: FastifyInstance, taskId: string, changes: { status?: TaskStepRecord['status']; steps?: TaskStepRecord[]; error?: string | null }): Promise<void> {
  await app.db
    .updateTable('operational.tasks')
    .set({
      ...(changes.status ? { status: changes.status } : {}),
      ...(changes.steps ? { steps: JSON.stringify(changes.steps) } : {}),
      ...(changes.error !== undefined ? { error: changes.error } : {}),
      updated_at: now(),
    })
    .where('id', '=', taskId)
    .execute();
}

function messageOf(error: unknown): string {
  if (error && typeof error === 'object' && 'code' in error && typeof (error as { code: unknown }).code === 'string') return (error as { code: string }).code;
  return error instanceof Error ? error.message : String(error);
}

async function execute(app: FastifyInstance, taskId: string, steps: TaskStep[]): Promise<void> {
  const records: TaskStepRecord[] = steps.map((step) => ({ name: step.name, status: 'UNPROCESSED', error: null }));
  await save(app, taskId, { status: 'PROCESSING' });
  for (const [index, step] of steps.entries()) {
    records[index] = { ...records[index]!, status: 'PROCESSING' };
    await save(app, taskId, { steps: records });
    try {
      await step.run();
      records[index] = { ...records[index]!, status: 'SUCCESS' };
    } catch (error) {
      app.log.error({ err: error, taskId, step: step.name }, 'task step failed');
      records[index] = { ...records[index]!, status: 'ERROR', error: messageOf(error) };
      await save(app, taskId, { status: 'ERROR', steps: records, error: messageOf(error) });
      return;
    }
  }
  await save(app, taskId, { status: 'SUCCESS', steps: records });
}

/** Records the task (UNPROCESSED) and starts its steps in the background; returns its id. */
export async function startTask(app: FastifyInstance, task: NewTask, steps: TaskStep[]): Promise<string> {
  const id = randomUUID();
  const records: TaskStepRecord[] = steps.map((step) => ({ name: step.name, status: 'UNPROCESSED', error: null }));
  await app.db
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
      steps: JSON.stringify(records),
      error: null,
      created_at: now(),
      updated_at: now(),
    })
    .execute();
  const set = runningOf(app);
  const promise: Promise<void> = new Promise<void>((resolve) => setImmediate(resolve))
    .then(() => execute(app, id, steps))
    .catch((error) => {
      app.log.error({ err: error, taskId: id }, 'task failed');
      return save(app, id, { status: 'ERROR', error: messageOf(error) }).catch(() => {});
    })
    .finally(() => set.delete(promise));
  set.add(promise);
  return id;
}

/** Waits for the tasks this process is running (on close, and in tests). */
export async function drainTasks(app: FastifyInstance): Promise<void> {
  const set = running.get(app);
  while (set && set.size > 0) await Promise.allSettled([...set]);
}

export async function findTask(app: FastifyInstance, taskId: string): Promise<Task | null> {
  const row = await app.db.selectFrom('operational.tasks').selectAll().where('id', '=', taskId).executeTakeFirst();
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
