import { randomUUID } from 'node:crypto';
import type { ErrorCode, Task } from '@eelarve/shared';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import type { TaskStepRecord } from './migrations';

/**
 * Tasks run in-process, in the background of the request that started them: the request answers
 * with the task id at once and the client polls GET api/task/{taskId}. Each task is a list of
 * named steps run in order; the first failing step fails the task (status ERROR) and the rest
 * stay UNPROCESSED. A process that stops waits for its running tasks (see `drainTasks`).
 *
 * A process that dies cannot finish its tasks, and nothing would ever finish them for it. So the
 * runner refreshes each running task's `heartbeat_at` (database time) every few seconds, and
 * every gateway, on start and then periodically, marks unfinished tasks with a stale heartbeat
 * ERROR `TASK_INTERRUPTED` (`recoverInterruptedTasks`). A heartbeat rather than "fail everything
 * unfinished on start": several gateways may share the database, and a starting one must not
 * fail the tasks another one is running. Before failing one, the sweep asks the task type's
 * completion check (`registerTaskCompletionCheck`) whether its work is all there: then it is SUCCESS.
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

/** How often a running task's heartbeat is refreshed (and stale tasks are looked for). */
export const TASK_HEARTBEAT_MS = 5_000;
/** A heartbeat this old means the task's process is gone; well under the web's 60 s poll limit. */
export const TASK_STALE_AFTER_MS = 30_000;
export const TASK_INTERRUPTED: ErrorCode = 'TASK_INTERRUPTED';

const UNFINISHED: TaskStepRecord['status'][] = ['UNPROCESSED', 'PROCESSING'];

/**
 * Whether a task's work is really all done, judged from the data it makes (never from this
 * process's memory, which a sweeping gateway does not have). A task whose process stopped after
 * its last write but before recording SUCCESS, or whose step failed after writing everything
 * (waiting for read models, a lost connection), is then SUCCESS, not ERROR.
 */
export type TaskCompletionCheck = (app: FastifyInstance, task: Task) => Promise<boolean>;
const completionChecks = new Map<string, TaskCompletionCheck>();

/** Registers the completion check of a task type (documents: 'DOCUMENT_COPY'); returns the undo. */
export function registerTaskCompletionCheck(type: string, check: TaskCompletionCheck): () => void {
  completionChecks.set(type, check);
  return () => {
    if (completionChecks.get(type) === check) completionChecks.delete(type);
  };
}

/** False when the type has no check or the check fails (then the task's failure stands). */
async function workIsDone(app: FastifyInstance, taskId: string): Promise<boolean> {
  const task = await findTask(app, taskId);
  const check = task ? completionChecks.get(task.type) : undefined;
  if (!task || !check) return false;
  try {
    return await check(app, task);
  } catch (error) {
    app.log.warn({ err: error, taskId }, 'task completion check failed');
    return false;
  }
}

const allSucceeded = (steps: readonly TaskStepRecord[]): TaskStepRecord[] => steps.map((step) => ({ ...step, status: 'SUCCESS', error: null }));

/**
 * The tasks an app runs, by id. Keyed by `app.server`, which every encapsulated plugin context of
 * one app shares (the instance itself differs between the documents and the tasks plugins).
 */
const running = new WeakMap<object, Map<string, Promise<void>>>();

function runningOf(app: FastifyInstance): Map<string, Promise<void>> {
  let tasks = running.get(app.server);
  if (!tasks) {
    tasks = new Map();
    running.set(app.server, tasks);
  }
  return tasks;
}

const now = () => new Date().toISOString();

/**
 * Updates a task that is not final yet; false when it is (then another gateway declared it
 * interrupted, and a final status is never overwritten).
 */
async function save(app: FastifyInstance, taskId: string, changes: { status?: TaskStepRecord['status']; steps?: TaskStepRecord[]; error?: string | null }): Promise<boolean> {
  const result = await app.db
    .updateTable('operational.tasks')
    .set({
      ...(changes.status ? { status: changes.status } : {}),
      ...(changes.steps ? { steps: JSON.stringify(changes.steps) } : {}),
      ...(changes.error !== undefined ? { error: changes.error } : {}),
      updated_at: now(),
      heartbeat_at: sql<Date>`now()`,
    })
    .where('id', '=', taskId)
    .where('status', 'in', UNFINISHED)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

function messageOf(error: unknown): string {
  if (error && typeof error === 'object' && 'code' in error && typeof (error as { code: unknown }).code === 'string') return (error as { code: string }).code;
  return error instanceof Error ? error.message : String(error);
}

async function execute(app: FastifyInstance, taskId: string, steps: TaskStep[]): Promise<void> {
  const records: TaskStepRecord[] = steps.map((step) => ({ name: step.name, status: 'UNPROCESSED', error: null }));
  if (!(await save(app, taskId, { status: 'PROCESSING' }))) return;
  for (const [index, step] of steps.entries()) {
    records[index] = { ...records[index]!, status: 'PROCESSING' };
    // Declared interrupted meanwhile (this process stalled past the stale limit): stop here.
    if (!(await save(app, taskId, { steps: records }))) return;
    try {
      await step.run();
      records[index] = { ...records[index]!, status: 'SUCCESS' };
    } catch (error) {
      app.log.error({ err: error, taskId, step: step.name }, 'task step failed');
      // The step may have failed after its last write (e.g. waiting for read models): the data decides.
      if (await workIsDone(app, taskId)) {
        await save(app, taskId, { status: 'SUCCESS', steps: allSucceeded(records) });
        return;
      }
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
  const tasks = runningOf(app);
  const promise: Promise<void> = new Promise<void>((resolve) => setImmediate(resolve))
    .then(() => execute(app, id, steps))
    .catch(async (error) => {
      app.log.error({ err: error, taskId: id }, 'task failed');
      await save(app, id, { status: 'ERROR', error: messageOf(error) }).catch(() => {});
    })
    .finally(() => tasks.delete(id));
  tasks.set(id, promise);
  return id;
}

/** Waits for the tasks this process is running (on close, and in tests). */
export async function drainTasks(app: FastifyInstance): Promise<void> {
  const tasks = running.get(app.server);
  while (tasks && tasks.size > 0) await Promise.allSettled([...tasks.values()]);
}

/** Refreshes the heartbeat of every task this process runs (database time, so clocks may differ). */
async function beat(app: FastifyInstance): Promise<void> {
  const ids = [...runningOf(app).keys()];
  if (ids.length === 0) return;
  await app.db
    .updateTable('operational.tasks')
    .set({ heartbeat_at: sql<Date>`now()` })
    .where('id', 'in', ids)
    .where('status', 'in', UNFINISHED)
    .execute();
}

/**
 * Marks ERROR (`TASK_INTERRUPTED`) every unfinished task whose heartbeat is older than
 * `staleAfterMs` and that this process does not run: its process died. The step that was running
 * gets the same error. Returns the ids marked.
 */
export async function recoverInterruptedTasks(app: FastifyInstance, staleAfterMs = TASK_STALE_AFTER_MS): Promise<string[]> {
  const own = [...runningOf(app).keys()];
  const done = await completeFinishedStaleTasks(app, staleAfterMs, own);
  const { rows } = await sql<{ id: string }>`
    update operational.tasks
       set status = 'ERROR',
           error = ${TASK_INTERRUPTED},
           steps = coalesce((
             select jsonb_agg(case when step->>'status' = 'PROCESSING'
                                   then step || jsonb_build_object('status', 'ERROR', 'error', ${TASK_INTERRUPTED}::text)
                                   else step end order by position)
               from jsonb_array_elements(steps) with ordinality as listed(step, position)), steps),
           updated_at = now()
     where status in ('UNPROCESSED', 'PROCESSING')
       and heartbeat_at < now() - make_interval(secs => ${staleAfterMs / 1000})
       and not (id = any(${[...own, ...done]}::uuid[]))
     returning id`.execute(app.db);
  if (rows.length > 0) app.log.warn({ taskIds: rows.map((row) => row.id) }, 'marked interrupted tasks ERROR');
  return rows.map((row) => row.id);
}

/**
 * Stale unfinished tasks whose work the data shows complete (their process stopped between the
 * last write and recording it) are marked SUCCESS, every step SUCCESS. Returns their ids.
 */
async function completeFinishedStaleTasks(app: FastifyInstance, staleAfterMs: number, own: string[]): Promise<string[]> {
  const types = [...completionChecks.keys()];
  if (types.length === 0) return [];
  const stale = await app.db
    .selectFrom('operational.tasks')
    .select(['id', 'steps'])
    .where('status', 'in', UNFINISHED)
    .where('type', 'in', types)
    .where('heartbeat_at', '<', sql<Date>`now() - make_interval(secs => ${staleAfterMs / 1000})`)
    .$if(own.length > 0, (query) => query.where('id', 'not in', own))
    .execute();
  const done: string[] = [];
  for (const task of stale) {
    if (!(await workIsDone(app, task.id))) continue;
    if (await save(app, task.id, { status: 'SUCCESS', steps: allSucceeded(task.steps as TaskStepRecord[]) })) done.push(task.id);
  }
  if (done.length > 0) app.log.warn({ taskIds: done }, 'stale tasks whose work is complete marked SUCCESS');
  return done;
}

/**
 * Keeps this process's task heartbeats fresh and recovers tasks interrupted elsewhere: one round
 * now (so a restart fails its predecessor's stale tasks before serving), then one every
 * `TASK_HEARTBEAT_MS` until `stop`.
 */
export async function startTaskUpkeep(app: FastifyInstance): Promise<{ stop(): Promise<void> }> {
  let stopped = false;
  let current: Promise<void> = Promise.resolve();
  let timer: NodeJS.Timeout | undefined;
  const round = async () => {
    try {
      await beat(app);
      await recoverInterruptedTasks(app);
    } catch (error) {
      app.log.warn({ err: error }, 'task upkeep failed');
    }
  };
  const schedule = () => {
    if (stopped) return;
    timer = setTimeout(() => {
      current = round().then(schedule);
    }, TASK_HEARTBEAT_MS);
    timer.unref();
  };
  await round();
  schedule();
  return {
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await current;
    },
  };
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
