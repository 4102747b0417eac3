import { type ImportRecordsCommand, importEventIds, recordImportDecider } from '@eelarve/domain/records/import';
import { vacuumEventLog, vacuumReadModels } from '@eelarve/projections/maintenance';
import { DomainError, type ImportRow, importCounts, validateImportRows } from '@eelarve/shared';
import type { CommandActor } from '../../infrastructure/commands';
import { readModels } from '../../infrastructure/database';
import type { TaskContext } from '../tasks/context';
import type { TaskDefinition, TaskPolicy } from '../tasks/definition';
import { currentBudget, importFacts } from './facts';
import { unpackImportBody } from './body';
import { errorReport, packReport } from './report';
import { findImportOfTask, markFailed, markProcessing, markSucceeded, type RecordImportRow } from './store';

/**
 * The import job (issue 11, point 4), run by the worker process: checks the rows again with the
 * facts of the moment, skips the critical ones, appends every chunk of the rest in ONE append to
 * `record-import-<id>` (all or nothing), then stores the error report and SUCCESS.
 *
 * Killed before the append, nothing of the import exists; killed after it, the retry builds the
 * same events (ids fixed by the import id and row numbers) and the decider, finding the stream
 * written, appends nothing: each row is imported exactly once. A refused import (its budget gone,
 * or a sum budget now) ends ERROR with nothing written.
 */
export const RECORDS_IMPORT = 'RECORDS_IMPORT';

/** Ten minutes per attempt: far more than 100,000 rows take; a dead worker's import resumes after it. */
export const RECORDS_IMPORT_POLICY: TaskPolicy = { expireInSeconds: 10 * 60, retryLimit: 3, retryDelaySeconds: 5 };

/**
 * The read model the records screen reads. SUCCESS waits until it shows the rows (the web
 * refreshes when the import ends), bounded well inside an attempt's expiry: 100,000 rows take
 * seconds to project, far longer than a screen's read-your-writes wait.
 */
const RECORDS_READ_MODEL = 'records';
const VISIBLE_WAIT_MS = 2 * 60_000;
/** The read models an import fills in bulk, settled once they hold it (settleReadModels). */
const FILLED_READ_MODELS = [RECORDS_READ_MODEL, 'report'];

function importCommand(
  row: RecordImportRow,
  budget: { document_id: string; organization_id: string },
  rows: ImportRecordsCommand['data']['rows'],
): ImportRecordsCommand {
  return {
    type: 'ImportRecords',
    data: {
      importId: row.id,
      budgetId: row.budget_id,
      documentId: budget.document_id,
      organizationId: budget.organization_id,
      originResourceName: row.origin_resource_name,
      rows,
    },
  };
}

/** Milliseconds per phase of one attempt, logged when it ends: where an import's time goes. */
function phaseClock() {
  const phases: Record<string, number> = {};
  let since = performance.now();
  return {
    phases,
    lap(name: string) {
      const now = performance.now();
      phases[name] = Math.round(now - since);
      since = now;
    },
  };
}

/** Runs the import; answers where to settle the read models (settleReadModels) when it filled them in bulk, else null. */
async function runImport(context: TaskContext, taskId: string, actor: CommandActor): Promise<{ position: SettlePosition } | null> {
  const clock = phaseClock();
  const row = await findImportOfTask(context.db, taskId);
  if (!row?.payload || !(await markProcessing(context.db, row.id))) return null;
  const read = readModels(context.db);
  const budget = await currentBudget(read, row.budget_id);
  const facts = await importFacts(read, { budget, subBudgetId: row.sub_budget_id });
  clock.lap('facts');
  const { list } = (await unpackImportBody(row.payload)) as { list: ImportRow[] };
  clock.lap('unpack');
  const validated = validateImportRows(list, facts.context);
  const valid = validated.flatMap((result, rowIndex) => (result.critical ? [] : [{ rowIndex, values: result.values }]));
  clock.lap('validate');
  const command = importCommand(row, budget, valid);
  const outcome = await context.commands.run({
    decider: recordImportDecider,
    command,
    actor,
    readModels: [],
    eventIds: importEventIds(command),
  });
  clock.lap('append');
  await context.commands.awaitReadModels([RECORDS_READ_MODEL], outcome.position, VISIBLE_WAIT_MS);
  clock.lap('visible');
  const counts = importCounts(validated);
  // A retry after the append: the stream says how many rows were imported, not this attempt's check.
  if (outcome.events.length === 0 && outcome.before.imported) counts.recordsInserted = outcome.before.records;
  await markSucceeded(context.db, row.id, counts, packReport(errorReport(list, validated)));
  clock.lap('report');
  context.log.info({ importId: row.id, rows: list.length, ms: clock.phases }, 'records import finished');
  // A retry whose append was done before has no position of its own: its rows were appended long since.
  return valid.length >= SETTLE_MIN_ROWS ? { position: outcome.position } : null;
}

/** Where an import's events end: the read models are settled once they hold it. */
type SettlePosition = Parameters<TaskContext['commands']['awaitReadModels']>[1];

/** Imports from this many rows settle the read models they filled (smaller ones are autovacuum's, as any edit's). */
const SETTLE_MIN_ROWS = 10_000;

/**
 * After the import has ended SUCCESS: once the read models hold its rows, they are vacuumed and
 * analyzed at once (vacuumReadModels), so the lists and reports read on them do not slow for the
 * minute autovacuum would take; so is the event log its chunk events went into (vacuumEventLog).
 * Housekeeping only: a failure is logged, never the import's.
 */
async function settleReadModels(context: TaskContext, position: SettlePosition): Promise<void> {
  try {
    await context.commands.awaitReadModels(FILLED_READ_MODELS, position, VISIBLE_WAIT_MS);
    await vacuumReadModels(context.db, FILLED_READ_MODELS);
    await vacuumEventLog(context.db);
  } catch (error) {
    context.log.warn({ err: error }, 'settling the read models after an import failed');
  }
}

async function importOrRefuse(context: TaskContext, taskId: string, actor: CommandActor): Promise<void> {
  let settle: { position: SettlePosition } | null;
  try {
    settle = await runImport(context, taskId, actor);
  } catch (error) {
    // A refusal is final; anything else (the database away) is retried by the job queue.
    if (error instanceof DomainError) {
      const row = await findImportOfTask(context.db, taskId);
      if (row) await markFailed(context.db, row.id);
    }
    throw error;
  }
  // After runImport has returned, so the import's rows, parsed and checked, are no longer held.
  if (settle) await settleReadModels(context, settle.position);
}

export const recordImportTask: TaskDefinition = {
  type: RECORDS_IMPORT,
  policy: RECORDS_IMPORT_POLICY,
  steps: (context, task, actor) => [{ name: 'import', run: () => importOrRefuse(context, task.id, actor) }],
  async isComplete(context, task) {
    return (await findImportOfTask(context.db, task.id))?.status === 'SUCCESS';
  },
};
