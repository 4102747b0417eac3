import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { isTransientDatabaseFailure } from '@eelarve/postgres/failures';
import { CompiledQuery, type Kysely } from 'kysely';
import PgBoss from 'pg-boss';
import type { AppDatabase } from '../../infrastructure/database';
import type { TaskContext } from './context';
import type { TaskDefinition, TaskPolicy } from './definition';
import { insertTask, type NewTask } from './records';

/**
 * The job queue tasks run on: pg-boss, in its own schema of the product's database. Chosen over
 * graphile-worker and a hand-written runner because it is a plain Node API (no CLI or config
 * files), keeps jobs in PostgreSQL (no other server to run), and brings what tasks need:
 * retries with exponential backoff, expiry of an attempt whose worker died (its job is retried
 * or failed after `expireInSeconds`), dead-letter queues, cron schedules and singleton keys.
 * Version 10: 11 and later, like graphile-worker 0.18, need Node 22, and the product still runs
 * on Node 20.
 *
 * Each task type has its queue `task-<TYPE>`; a job carries only the task's id. Jobs whose
 * retries are used up move to `task-failed`, where a worker ends their task (ERROR
 * TASK_INTERRUPTED, or SUCCESS when its work is all there).
 */
export const TASK_QUEUE_SCHEMA = 'pgboss';
export const FAILED_TASKS_QUEUE = 'task-failed';

export interface TaskJobData {
  taskId: string;
  type: string;
}

export const taskQueueName = (type: string): string => `task-${type}`;

export interface TaskQueueOptions {
  /** A worker supervises (expires lost attempts, archives) and runs cron schedules; a gateway only sends. */
  worker: boolean;
  log: TaskContext['log'];
  /** How often an idle worker looks for jobs (pg-boss polls; half a second at least). */
  pollingIntervalSeconds?: number;
  /** How often expired attempts are looked for. */
  maintenanceIntervalSeconds?: number;
}

/** A started pg-boss on the database (its schema is created or migrated on start). */
export async function openTaskQueue(databaseUrl: string, options: TaskQueueOptions): Promise<PgBoss> {
  const boss = new PgBoss({
    connectionString: databaseUrl,
    schema: TASK_QUEUE_SCHEMA,
    application_name: options.worker ? 'eelarve-worker' : 'eelarve-gateway-queue',
    max: options.worker ? 4 : 2,
    supervise: options.worker,
    schedule: options.worker,
    migrate: true,
    pollingIntervalSeconds: options.pollingIntervalSeconds ?? 0.5,
    ...(options.maintenanceIntervalSeconds ? { maintenanceIntervalSeconds: options.maintenanceIntervalSeconds } : {}),
  });
  // pg-boss reports background failures (a lost connection) as events; unheard, they would end the process.
  boss.on('error', (error) => options.log.error({ err: error }, 'job queue error'));
  await boss.start();
  await retryingSetUp(() => boss.createQueue(FAILED_TASKS_QUEUE));
  return boss;
}

/** Attempts at setting a queue up before its failure stands. */
const SET_UP_ATTEMPTS = 5;

/**
 * Runs a queue's set-up again after a deadlock or another failure a retry may cure. Creating a
 * queue is DDL (pg-boss makes a table partition for it): a worker starting while the gateway
 * sends its first job of a type deadlocked on it, PostgreSQL failed one side, and a worker that
 * lost ended at start (seen in bench:records). A retry finds the queue made, or makes it.
 */
async function retryingSetUp<T>(work: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await work();
    } catch (error) {
      if (attempt >= SET_UP_ATTEMPTS || !isTransientDatabaseFailure(error)) throw error;
      // Apart, so the two sides do not meet again at once.
      await sleep(attempt * 50 + Math.random() * 50);
    }
  }
}

const queueOptions = (name: string, policy: TaskPolicy) => ({
  name,
  expireInSeconds: policy.expireInSeconds,
  retryLimit: policy.retryLimit,
  retryDelay: policy.retryDelaySeconds,
  retryBackoff: true,
  deadLetter: FAILED_TASKS_QUEUE,
});

/** Creates the type's queue if missing; `update` makes an existing one take `policy` (a worker's settings win). */
export async function ensureTaskQueue(boss: PgBoss, type: string, policy: TaskPolicy, update = false): Promise<void> {
  const name = taskQueueName(type);
  await retryingSetUp(() => boss.createQueue(name, queueOptions(name, policy)));
  if (update) await retryingSetUp(() => boss.updateQueue(name, queueOptions(name, policy)));
}

/** pg-boss runs its insert on our transaction, so a task row never exists without its job or the other way round. */
function onTransaction(trx: Kysely<unknown>) {
  return { executeSql: (text: string, values?: unknown[]) => trx.executeQuery(CompiledQuery.raw(text, values ?? [])) as Promise<{ rows: unknown[] }> };
}

/** What starts tasks: the gateway's queue (app.tasks) or, in tests, a worker's. */
export interface TaskStarter {
  /** `alongside` writes the task's own rows (a record import's) in the same transaction as the task and its job. */
  start(definition: TaskDefinition, task: NewTask, alongside?: (trx: AppDatabase, taskId: string) => Promise<void>): Promise<string>;
}

/**
 * Records the task (UNPROCESSED, its steps listed) and enqueues its one job, in one transaction;
 * the job's id is the task's. Answers the task id.
 */
export function taskStarter(db: AppDatabase, boss: PgBoss, context: TaskContext): TaskStarter {
  const ensured = new Set<string>();
  return {
    async start(definition, task, alongside) {
      if (!ensured.has(definition.type)) {
        await ensureTaskQueue(boss, definition.type, definition.policy);
        ensured.add(definition.type);
      }
      const id = randomUUID();
      const draft = {
        id,
        type: task.type,
        status: 'UNPROCESSED' as const,
        organizationId: task.organizationId,
        documentId: task.documentId,
        params: task.params,
        steps: [],
        error: null,
        createdAt: '',
        updatedAt: '',
      };
      const stepNames = definition.steps(context, draft, task.actor).map((step) => step.name);
      await db.transaction().execute(async (trx) => {
        await insertTask(trx, id, task, stepNames);
        await alongside?.(trx as unknown as AppDatabase, id);
        const data: TaskJobData = { taskId: id, type: definition.type };
        await boss.send(taskQueueName(definition.type), data, { id, db: onTransaction(trx as unknown as Kysely<unknown>) });
      });
      return id;
    },
  };
}
