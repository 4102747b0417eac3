import type { TaskContext } from '@eelarve/gateway/features/tasks/context';
import type { TaskDefinition } from '@eelarve/gateway/features/tasks/definition';
import type { TaskJobData } from '@eelarve/gateway/features/tasks/queue';
import { allSucceeded, failTask, findTask, isFinal, saveTask, TASK_INTERRUPTED, taskActor, unprocessedSteps } from '@eelarve/gateway/features/tasks/records';
import { withAdvisoryLock } from '@eelarve/gateway/infrastructure/advisory-lock';
import { isTransientDatabaseFailure } from '@eelarve/postgres/failures';
import type { Task } from '@eelarve/shared';
import type PgBoss from 'pg-boss';

/**
 * One attempt at a task, as the job queue hands it to a worker.
 *
 * - One attempt at a time per task: the attempt holds a PostgreSQL advisory lock named after the
 *   task on a connection of its own. A dead worker's lock goes with its connection, so a retry
 *   starts at once after the queue's expiry; a retry of an attempt that is alive but slow waits.
 * - An attempt that outlives its job's expiry has lost it (the queue retried or failed the job):
 *   it stops before its next step and leaves the task to whoever has the job now.
 * - A step that fails ends the task ERROR with its message, unless the data shows the work
 *   complete (SUCCESS). A failure of the database's own (unavailable, deadlock, serialization)
 *   is not the task's fault: the attempt fails and the queue retries it with backoff.
 */
export class AttemptLost extends Error {
  constructor(taskId: string) {
    super(`the job of task ${taskId} expired while this attempt ran; its next attempt carries on`);
  }
}

const lockName = (taskId: string) => `eelarve.task:${taskId}`;

function messageOf(error: unknown): string {
  if (error && typeof error === 'object' && 'code' in error && typeof (error as { code: unknown }).code === 'string') return (error as { code: string }).code;
  return error instanceof Error ? error.message : String(error);
}

/** False when the type has no check or the check fails (then the task's failure stands). */
async function workIsDone(context: TaskContext, definition: TaskDefinition | undefined, task: Task): Promise<boolean> {
  if (!definition?.isComplete) return false;
  try {
    return await definition.isComplete(context, task);
  } catch (error) {
    context.log.warn({ err: error, taskId: task.id }, 'task completion check failed');
    return false;
  }
}

export async function runTaskJob(context: TaskContext, definition: TaskDefinition, job: PgBoss.JobWithMetadata<TaskJobData>): Promise<void> {
  const expiresAt = Date.now() + job.expireInSeconds * 1000;
  const lease = () => {
    if (Date.now() >= expiresAt) throw new AttemptLost(job.data.taskId);
  };
  await withAdvisoryLock(context.db, lockName(job.data.taskId), () => attempt(context, definition, job.data.taskId, lease), job.expireInSeconds * 1000);
}

async function attempt(context: TaskContext, definition: TaskDefinition, taskId: string, lease: () => void): Promise<void> {
  const { db, log } = context;
  const task = await findTask(db, taskId);
  if (!task || isFinal(task)) return;
  const steps = definition.steps(context, task, await taskActor(db, taskId));
  const records = unprocessedSteps(steps.map((step) => step.name));
  if (!(await saveTask(db, taskId, { status: 'PROCESSING', steps: records }))) return;
  for (const [index, step] of steps.entries()) {
    lease();
    records[index] = { ...records[index]!, status: 'PROCESSING' };
    if (!(await saveTask(db, taskId, { steps: records }))) return;
    try {
      await step.run();
    } catch (error) {
      lease();
      if (isTransientDatabaseFailure(error)) throw error;
      log.error({ err: error, taskId, step: step.name }, 'task step failed');
      // The step may have failed after its last write (e.g. waiting for read models): the data decides.
      if (await workIsDone(context, definition, task)) {
        await saveTask(db, taskId, { status: 'SUCCESS', steps: allSucceeded(records) });
        return;
      }
      records[index] = { ...records[index]!, status: 'ERROR', error: messageOf(error) };
      await saveTask(db, taskId, { status: 'ERROR', steps: records, error: messageOf(error) });
      return;
    }
    records[index] = { ...records[index]!, status: 'SUCCESS' };
  }
  await saveTask(db, taskId, { status: 'SUCCESS', steps: records });
}

/**
 * A task whose job used up its retries (its workers kept dying, or the database stayed away)
 * ends here: SUCCESS when its data is all there, else ERROR TASK_INTERRUPTED with the step that
 * was running. Waits for an attempt that may still be running.
 */
export async function endFailedTask(
  context: TaskContext,
  definitions: ReadonlyMap<string, TaskDefinition>,
  job: PgBoss.JobWithMetadata<TaskJobData>,
): Promise<void> {
  const { taskId } = job.data;
  await withAdvisoryLock(
    context.db,
    lockName(taskId),
    async () => {
      const task = await findTask(context.db, taskId);
      if (!task || isFinal(task)) return;
      if (await workIsDone(context, definitions.get(task.type), task)) {
        await saveTask(context.db, taskId, { status: 'SUCCESS', steps: allSucceeded(task.steps) });
        context.log.warn({ taskId }, 'task whose attempts were lost found complete: SUCCESS');
        return;
      }
      await failTask(context.db, task, TASK_INTERRUPTED);
      context.log.warn({ taskId, output: job.output }, 'task gave up after its retries: ERROR TASK_INTERRUPTED');
    },
    job.expireInSeconds * 1000,
  );
}
