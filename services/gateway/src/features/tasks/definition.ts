import type { Task } from '@eelarve/shared';
import type { CommandActor } from '../../infrastructure/commands';
import type { TaskContext } from './context';

/** One named step of a task; the task's steps run in order in one attempt. */
export interface TaskStep {
  name: string;
  run(): Promise<void>;
}

/**
 * How the job queue treats one task type's jobs (pg-boss queue options). An attempt that runs
 * longer than `expireInSeconds` counts as lost (its worker died or hangs) and is retried after
 * `retryDelaySeconds`, doubled per retry; once `retryLimit` retries are used up the task ends
 * ERROR TASK_INTERRUPTED.
 */
export interface TaskPolicy {
  expireInSeconds: number;
  retryLimit: number;
  retryDelaySeconds: number;
}

/**
 * A kind of background task (DOCUMENT_COPY, BUDGET_COPY; imports and ERP sync later). The
 * gateway records a task of the type and enqueues one job; a worker builds the steps from the
 * recorded params and runs them. A retried attempt runs every step again, so each step must be
 * idempotent: it skips what an earlier attempt already wrote (ids fixed up front, never drawn anew).
 */
export interface TaskDefinition {
  type: string;
  policy: TaskPolicy;
  /** The steps of one attempt; `actor` is who started the task (its commands run as them). */
  steps(context: TaskContext, task: Task, actor: CommandActor): TaskStep[];
  /**
   * Whether the task's work is all there, judged from the data it makes. A task whose step
   * failed after its last write (waiting for read models, a lost connection), or whose attempts
   * were all lost after it, is then SUCCESS rather than ERROR. Without it a failure stands.
   */
  isComplete?(context: TaskContext, task: Task): Promise<boolean>;
}

/**
 * Tasks that copy. Five minutes per attempt is far more than a large copy takes, and is how long
 * a copy whose worker died waits before another worker resumes it. An attempt that does run
 * longer is not lost: the retry resumes where it stopped.
 */
export const COPY_TASK_POLICY: TaskPolicy = { expireInSeconds: 5 * 60, retryLimit: 3, retryDelaySeconds: 5 };
