import { budgetCopyTask } from '@eelarve/gateway/features/budgets/copy';
import { documentCopyTask } from '@eelarve/gateway/features/documents/copy';
import { recordImportTask } from '@eelarve/gateway/features/record-imports/task';
import type { TaskContext } from '@eelarve/gateway/features/tasks/context';
import type { TaskDefinition } from '@eelarve/gateway/features/tasks/definition';
// Registers the permission parts of both copies (they live in their own feature).
import '@eelarve/gateway/features/resource-permissions/copy-steps';
// And the document copy's report views.
import '@eelarve/gateway/features/stored-settings/copy-step';

/**
 * What the worker process runs. A new kind of background work (imports, ERP sync) adds its task
 * definition to `taskTypes`; a system job that runs on a clock (clean-ups, nightly sync) adds a
 * `ScheduledJob` to `scheduledJobs`.
 */
export const taskTypes: readonly TaskDefinition[] = [documentCopyTask, budgetCopyTask, recordImportTask];

/** A system job on a cron schedule (pg-boss `schedule`: one run per slot across all workers). */
export interface ScheduledJob {
  /** Also its queue's name: letters, digits, '-' and '_'. */
  name: string;
  /** Five-field cron expression, UTC (e.g. '0 3 * * *'). */
  cron: string;
  run(context: TaskContext): Promise<void>;
}

/** None yet: ERP sync and the system's clean-ups arrive with their issues. */
export const scheduledJobs: readonly ScheduledJob[] = [];
