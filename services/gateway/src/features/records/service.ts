import {
  foldEvents,
  type RecordChanges,
  type RecordCommand,
  type RecordOrigin,
  recordDecider,
  recordFitsSubBudget,
  recordHistory,
  snapshotAfter,
} from '@eelarve/domain';
import { formatPosition, parsePosition, comparePositions, type GlobalPosition } from '@eelarve/eventstore';
import { findBudgetRecords, type RecordApiRow } from '@eelarve/projections/records/api-queries';
import { findRecordOrigin } from '@eelarve/projections/records/queries';
import { DomainError, fieldError, type RecordHistoryEntry, type RecordInput, type recordsBulkEditSchema, type RecordStoredEvent } from '@eelarve/shared';
import type { FastifyInstance } from 'fastify';
import type { z } from 'zod';
import type { CommandContext, CommandResult } from '../../infrastructure/command-runner';
import { traced } from '../../infrastructure/command-trace';
import { readModels } from '../../infrastructure/database';
import type { Caller } from '../../types';
import { RECORD_COUNT_READ_MODELS, RECORD_READ_MODELS, type RecordAction, type RecordsPlace, subBudgetPlace } from './access';
import { codesOf, recordFacts } from './facts';
import { toStoredEvent } from './responses';
import { actorNamesOf, namedVersions, recordOrigins, recordVersions } from './versions';

type BulkUpdates = z.output<typeof recordsBulkEditSchema>['updates'];

/** How many records of a bulk command are written at once (each is its own stream). */
const BULK_CONCURRENCY = 8;

/** Where a record path points: the budget, the sub-budget (or the unfit row of a scheme with `schemeId`). */
export interface RecordPath {
  budgetId: string;
  subBudgetId: string;
  schemeId?: string;
}

/** A record edited from a place must be in it now: a sub-budget grant reaches only the sub-budget's records. */
function assertInPlace(place: RecordsPlace, classifiers: Readonly<Record<string, string>>, missing: () => DomainError): void {
  if (place.kind === 'subBudget' && !recordFitsSubBudget(classifiers, place.subBudgetFact)) throw missing();
  if (place.kind === 'unfit' && place.fits(classifiers)) throw missing();
}

/** Runs the tasks with at most `limit` under way at once; the first failure stops taking new ones. */
async function limited<T, R>(items: readonly T[], limit: number, run: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await run(items[index] as T);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}

function latestPosition(positions: readonly (string | null)[]): string | null {
  let latest: GlobalPosition | null = null;
  for (const text of positions) {
    const position = text ? parsePosition(text) : null;
    if (position && (!latest || comparePositions(position, latest) > 0)) latest = position;
  }
  return latest ? formatPosition(latest) : null;
}

/** A record's input (create, PUT) as the decider's changes: omitted months keep the split, null removes it. */
const changesOf = (input: RecordInput): RecordChanges => ({
  name: input.name,
  ...(input.amount !== undefined ? { amount: input.amount } : {}),
  ...(input.factors !== undefined ? { months: input.factors.months } : {}),
  classifiers: input.classifiers,
});

const bulkChangesOf = (updates: BulkUpdates): RecordChanges => ({
  ...(updates.name !== undefined ? { name: updates.name } : {}),
  ...(updates.amount !== undefined ? { amount: updates.amount } : {}),
  ...(updates.classifiers !== undefined ? { classifiers: updates.classifiers } : {}),
});

/**
 * Records (budget lines) of a budget and its sub-budgets (spec 3, sections 5-7; issue 11, points 1
 * and 3). Every function checks access first (access.ts), reads the facts the decider needs from
 * the read models, and runs the record's command through the command runner; each record is its
 * own stream, so people editing different lines of one budget never wait for each other.
 */
export function recordService(app: FastifyInstance) {
  const read = () => readModels(app.db);

  const run = (caller: Caller, command: RecordCommand | ((context: CommandContext) => RecordCommand), readModels: readonly string[] = RECORD_READ_MODELS) =>
    app.commands.run({ decider: recordDecider, command, actor: caller.actor, readModels });

  const placeOf = (caller: Caller, path: RecordPath, action: RecordAction) =>
    traced(caller.actor.correlationId, 'access', subBudgetPlace(app, caller.auth, path.budgetId, path.subBudgetId, action, path.schemeId));

  /** The records of the place by id; an id that is not one of them answers `missing(id, index)`. */
  async function recordsIn(place: RecordsPlace, recordIds: readonly string[], missing: (id: string, index: number) => DomainError): Promise<RecordApiRow[]> {
    const rows = await findBudgetRecords(read(), place.budget.id, recordIds);
    const byId = new Map(rows.map((row) => [row.id, row]));
    return recordIds.map((id, index) => {
      const row = byId.get(id);
      if (!row) throw missing(id, index);
      assertInPlace(place, row.classifiers, () => missing(id, index));
      return row;
    });
  }

  const oneRecord = async (place: RecordsPlace, recordId: string) =>
    (await recordsIn(place, [recordId], () => new DomainError('RECORD_NOT_FOUND')))[0] as RecordApiRow;

  /**
   * A record whose history is asked: live in the read model, or deleted (the read model no longer
   * holds it; its own stream does, and its deletion can be reverted). A deleted record belongs to
   * the place its last values fell in.
   */
  async function recordWithHistory(place: RecordsPlace, recordId: string): Promise<Pick<RecordApiRow, 'id' | 'origin_stream' | 'origin_revision'>> {
    const [row] = await findBudgetRecords(read(), place.budget.id, [recordId]);
    if (row) {
      assertInPlace(place, row.classifiers, () => new DomainError('RECORD_NOT_FOUND'));
      return row;
    }
    const origin = await findRecordOrigin(read(), recordId);
    if (!origin || origin.budgetId !== place.budget.id) throw new DomainError('RECORD_NOT_FOUND');
    const deleted = { id: recordId, origin_stream: origin.originStream, origin_revision: origin.originRevision.toString() };
    const last = snapshotAfter((await recordVersions(app, recordId, deleted)).versions.map((version) => version.event));
    if (!last) throw new DomainError('RECORD_NOT_FOUND');
    assertInPlace(place, last.values.classifiers, () => new DomainError('RECORD_NOT_FOUND'));
    return deleted;
  }

  /** An imported record's commands carry its chunk row (its own stream may still be empty). */
  const originOf = async (row: RecordApiRow): Promise<RecordOrigin | null> => (await recordOrigins(app, [row]))[0] ?? null;

  const factsFor = (place: RecordsPlace, codes: string[], laterCodes?: Promise<string[]>) =>
    recordFacts(app, place.budget.documentId, codes, place.kind === 'subBudget' ? place.subBudgetFact : null, laterCodes);

  /** Decides every command on its record's current stream without writing: one refusal refuses the whole bulk. */
  async function assertAllDecide(commands: readonly RecordCommand[]): Promise<void> {
    await limited(commands, BULK_CONCURRENCY, async (command) => {
      const stored = await app.store.readStream(recordDecider.streamName(command));
      recordDecider.decide(command, foldEvents(recordDecider, stored as never));
    });
  }

  /** Validates all, then writes each record's command (bounded), answering the latest position for read-your-writes. */
  async function runBulk(
    caller: Caller,
    commands: readonly RecordCommand[],
    readModels: readonly string[],
  ): Promise<{ id: string; position: string | null; count: number }> {
    await assertAllDecide(commands);
    const results = await limited(commands, BULK_CONCURRENCY, (command) => run(caller, command, []));
    const position = latestPosition(results.map((result) => result.position));
    await app.commands.awaitReadModels(readModels, position);
    return { id: commands[0]?.recordId ?? '', position, count: results.filter((result) => result.events.length > 0).length };
  }

  return {
    async create(caller: Caller, path: RecordPath, input: RecordInput): Promise<CommandResult> {
      const place = await placeOf(caller, path, 'update');
      if (input.duplicatedFrom) await recordsIn(place, [input.duplicatedFrom], () => fieldError('RECORD_ID_INVALID', 'duplicatedFrom', 'validation.invalid'));
      // Made inside a sub-budget, a record gets its values; a value the input gives otherwise is refused (doesNotMatchSubBudget).
      const classifiers = { ...(place.kind === 'subBudget' ? place.subBudget.classifiers : {}), ...input.classifiers };
      const facts = await factsFor(place, codesOf(classifiers));
      const months = input.factors?.months ?? null;
      const { id: budgetId, documentId, organizationId } = place.budget;
      return run(
        caller,
        ({ newId }) => ({
          type: 'CreateRecord',
          recordId: newId(),
          budgetId,
          documentId,
          organizationId,
          values: { name: input.name, amount: input.amount ?? null, months, classifiers },
          facts,
          duplicatedFrom: input.duplicatedFrom ?? null,
        }),
        RECORD_COUNT_READ_MODELS,
      );
    },

    async update(caller: Caller, path: RecordPath, recordId: string, input: RecordInput): Promise<CommandResult> {
      const place = await placeOf(caller, path, 'update');
      const requestId = caller.actor.correlationId;
      const reading = traced(requestId, 'record', oneRecord(place, recordId));
      // The items of the codes sent are read with the record, not after it: only the record's other codes wait for it.
      const [row, facts] = await Promise.all([
        reading,
        traced(
          requestId,
          'facts',
          factsFor(
            place,
            codesOf(input.classifiers),
            reading.then((found) => codesOf(found.classifiers)),
          ),
        ),
      ]);
      const origin = await traced(requestId, 'origin', originOf(row));
      return run(caller, { type: 'UpdateRecord', recordId, changes: changesOf(input), facts, origin });
    },

    /** Toggles the promoted flag (or sets it as given); metadata writing must not be disabled. */
    async promote(caller: Caller, path: RecordPath, recordId: string, promoted: boolean | undefined): Promise<CommandResult> {
      const place = await placeOf(caller, path, 'promote');
      const row = await oneRecord(place, recordId);
      return run(caller, { type: 'SetRecordPromotion', recordId, promoted: promoted ?? !row.promoted, origin: await originOf(row) });
    },

    async remove(caller: Caller, path: RecordPath, recordId: string): Promise<CommandResult> {
      const place = await placeOf(caller, path, 'update');
      const row = await oneRecord(place, recordId);
      return run(caller, { type: 'DeleteRecord', recordId, origin: await originOf(row) }, RECORD_COUNT_READ_MODELS);
    },

    /** POST .../records-delete: all or none (every id must be a record of the place). */
    async removeMany(caller: Caller, path: RecordPath, recordIds: readonly string[]) {
      const place = await placeOf(caller, path, 'update');
      const rows = await recordsIn(place, [...new Set(recordIds)], (_, index) => fieldError('RECORD_ID_INVALID', `recordIds.${index}`, 'validation.invalid'));
      const origins = await recordOrigins(app, rows);
      return runBulk(
        caller,
        rows.map((row, index) => ({ type: 'DeleteRecord', recordId: row.id, origin: origins[index] ?? null })),
        RECORD_COUNT_READ_MODELS,
      );
    },

    /** POST .../records-bulk-edit: one field for every record named; validated for all before any is written. */
    async editMany(caller: Caller, path: RecordPath, recordIds: readonly string[], updates: BulkUpdates) {
      const place = await placeOf(caller, path, 'update');
      const rows = await recordsIn(place, [...new Set(recordIds)], (_, index) => fieldError('RECORD_ID_INVALID', `recordIds.${index}`, 'validation.invalid'));
      const [facts, origins] = await Promise.all([
        factsFor(place, codesOf(updates.classifiers, ...rows.map((row) => row.classifiers))),
        recordOrigins(app, rows),
      ]);
      const changes = bulkChangesOf(updates);
      return runBulk(
        caller,
        rows.map((row, index) => ({ type: 'UpdateRecord', recordId: row.id, changes, facts, origin: origins[index] ?? null })),
        RECORD_READ_MODELS,
      );
    },

    /** GET .../record/{id}/history: each version with its changed fields, who (and in which occupation) and when. */
    async history(caller: Caller, path: RecordPath, recordId: string): Promise<RecordHistoryEntry[]> {
      const place = await placeOf(caller, path, 'read');
      const row = await recordWithHistory(place, recordId);
      const { versions } = await recordVersions(app, recordId, row);
      return recordHistory(await namedVersions(app, versions));
    },

    /** POST .../record/{id}/revert: undoes one past change as a new, compensating event. */
    async revert(caller: Caller, path: RecordPath, recordId: string, eventId: string): Promise<CommandResult> {
      const place = await placeOf(caller, path, 'update');
      const row = await recordWithHistory(place, recordId);
      const { versions, origin } = await recordVersions(app, recordId, row);
      const index = versions.findIndex((version) => version.stored.id === eventId && version.event.type !== 'RecordImported');
      const target = versions[index];
      if (!target) throw fieldError('RECORD_ID_INVALID', 'eventId', 'validation.invalid', 'not a change of this record');
      const before = versions.slice(0, index).map((version) => version.event);
      const codes = versions.flatMap((version) => ('classifiers' in version.event.data ? Object.values(version.event.data.classifiers) : []));
      const facts = await factsFor(place, codes);
      // Reverting a deletion brings the record back: the counts change.
      return run(caller, { type: 'RevertRecordChange', recordId, target: { eventId, event: target.event }, before, facts, origin }, RECORD_COUNT_READ_MODELS);
    },

    /** GET .../record/{id}/events: the stored events of the record's streams with their metadata (auditors). */
    async events(caller: Caller, path: RecordPath, recordId: string): Promise<RecordStoredEvent[]> {
      const place = await placeOf(caller, path, 'read');
      const row = await recordWithHistory(place, recordId);
      const { versions } = await recordVersions(app, recordId, row);
      const names = await actorNamesOf(
        app,
        versions.map((version) => version.stored),
      );
      return versions.map((version) => toStoredEvent(version, names));
    },
  };
}
