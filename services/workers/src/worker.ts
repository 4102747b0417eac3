import type { TaskContext } from '@eelarve/gateway/features/tasks/context';
import type { TaskDefinition, TaskPolicy } from '@eelarve/gateway/features/tasks/definition';
import { ensureTaskQueue, FAILED_TASKS_QUEUE, openTaskQueue, type TaskJobData, taskQueueName } from '@eelarve/gateway/features/tasks/queue';
import type PgBoss from 'pg-boss';
import { type ScheduledJob, scheduledJobs, taskTypes } from './handlers';
import { endFailedTask, runTaskJob } from './run-task';

export interface WorkerOptions {
  /** Database, event store, command runner, config and log for the handlers (a gateway app will do in tests). */
  context: TaskContext;
  /** The task types to run; by default every one in handlers.ts. */
  taskTypes?: readonly TaskDefinition[];
  scheduledJobs?: readonly ScheduledJob[];
  /** Overrides each type's queue policy (TASK_* settings; tests use short expiries). */
  policy?: Partial<TaskPolicy>;
  /** Jobs of one type this worker runs at once. */
  concurrency?: number;
  pollingIntervalSeconds?: number;
  /** How often lost attempts (expired jobs) are looked for; pg-boss's default is two minutes. */
  maintenanceIntervalSeconds?: number;
}

export interface Worker {
  boss: PgBoss;
  /** Stops taking jobs and waits (bounded) for the running ones; what is left is retried by the next worker. */
  stop(options?: { timeoutMs?: number }): Promise<void>;
}

const workOptions = (pollingIntervalSeconds: number) => ({ includeMetadata: true as const, batchSize: 1, pollingIntervalSeconds });

/**
 * The worker process's job loop (issue 9, point 5): takes task jobs from the queue, runs their
 * steps (run-task.ts), ends the tasks whose retries are used up, and runs the scheduled jobs.
 */
export async function startWorker(options: WorkerOptions): Promise<Worker> {
  const { context } = options;
  const types = options.taskTypes ?? taskTypes;
  const polling = options.pollingIntervalSeconds ?? 0.5;
  const boss = await openTaskQueue(context.config.databaseUrl, {
    worker: true,
    log: context.log,
    pollingIntervalSeconds: polling,
    maintenanceIntervalSeconds: options.maintenanceIntervalSeconds ?? 30,
  });
  const definitions = new Map(types.map((definition) => [definition.type, definition]));
  for (const definition of types) {
    await ensureTaskQueue(boss, definition.type, { ...definition.policy, ...options.policy }, true);
    for (let slot = 0; slot < (options.concurrency ?? 2); slot++) {
      await boss.work<TaskJobData>(taskQueueName(definition.type), workOptions(polling), async ([job]) => {
        if (job) await runTaskJob(context, definition, job);
      });
    }
  }
  await boss.work<TaskJobData>(FAILED_TASKS_QUEUE, workOptions(polling), async ([job]) => {
    if (job) await endFailedTask(context, definitions, job);
  });
  for (const job of options.scheduledJobs ?? scheduledJobs) await schedule(boss, context, job);
  return {
    boss,
    async stop(stopOptions = {}) {
      await boss.stop({ graceful: true, wait: true, timeout: stopOptions.timeoutMs ?? 30_000 });
    },
  };
}

/** A system job on its cron: pg-boss sends one job per slot (whichever worker's clock gets there first) and a worker runs it. */
async function schedule(boss: PgBoss, context: TaskContext, job: ScheduledJob): Promise<void> {
  const queue = `scheduled-${job.name}`;
  await boss.createQueue(queue, { name: queue, policy: 'singleton' });
  await boss.schedule(queue, job.cron);
  await boss.work(queue, async () => {
    await job.run(context);
  });
}
