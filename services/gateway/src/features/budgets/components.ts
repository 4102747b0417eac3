import { type BudgetCommand, type BudgetEvent, budgetDecider } from '@eelarve/domain';
import { formatPosition, type GlobalPosition, parsePosition } from '@eelarve/eventstore';
import { DomainError } from '@eelarve/shared';
import type { FastifyInstance } from 'fastify';
import { withAdvisoryLock } from '../../infrastructure/advisory-lock';
import { type CommandActor, type CommandOutcome, executeCommand } from '../../infrastructure/commands';
import type { AppDatabase } from '../../infrastructure/database';

/**
 * Changes of sum-budget components, made safe under concurrency.
 *
 * The rules of spec 2 section 5 (no cycle, no component counted twice, no deleting a budget a
 * sum budget adds up) span all budget streams of a document and are checked against the budgets
 * read model. Unguarded, two concurrent edits (A adds B while B adds A) each pass against a read
 * model without the other's change, and together form a cycle.
 *
 * So every change that can break them (creating or updating a sum budget, deleting any budget)
 * runs under one advisory lock per document, and decides on a read model that holds every earlier
 * such change: each change records its global position, and the next one first waits until the
 * budgets projector has applied it (SERVICE_UNAVAILABLE rather than deciding on stale facts).
 * The lock lives in the shared database, so it holds across gateway instances. (A holder that
 * dies between its append and the record leaves that one change unrecorded; the next change then
 * relies on the projector having applied it, which it normally has within milliseconds.)
 *
 * Why not a per-document stream of the component graph appended at an expected revision: the
 * budget's own event and a graph event cannot be appended atomically (two streams), so the graph
 * would have to become the only record of components, with projector changes and a seed for
 * existing documents. The lock keeps events and projector as they are.
 */
export async function runComponentChange(
  app: FastifyInstance,
  documentId: string,
  actor: CommandActor,
  command: () => Promise<BudgetCommand>,
): Promise<CommandOutcome<BudgetEvent>> {
  return withAdvisoryLock(app.db, `eelarve.budget-components:${documentId}`, async (db) => {
    await awaitPreviousChange(app, db, documentId);
    // The command is built (its facts read) only now, under the lock.
    const outcome = await executeCommand(app.store, budgetDecider, await command(), actor);
    if (outcome.position) await recordChange(db, documentId, outcome.position);
    return outcome;
  });
}

async function awaitPreviousChange(app: FastifyInstance, db: AppDatabase, documentId: string): Promise<void> {
  const row = await db.selectFrom('operational.budget_component_writes').select('position').where('document_id', '=', documentId).executeTakeFirst();
  const position = row ? parsePosition(row.position) : null;
  if (!position) return;
  if (!(await app.projections.waitForPosition(['budgets'], position, app.config.readYourWritesTimeoutMs))) {
    throw new DomainError('SERVICE_UNAVAILABLE', 'the budgets read model is behind; try again');
  }
}

async function recordChange(db: AppDatabase, documentId: string, position: GlobalPosition): Promise<void> {
  await db
    .insertInto('operational.budget_component_writes')
    .values({ document_id: documentId, position: formatPosition(position) })
    .onConflict((conflict) => conflict.column('document_id').doUpdateSet({ position: formatPosition(position), written_at: new Date() }))
    .execute();
}
