import { randomUUID } from 'node:crypto';
import { type SchemeCommand, schemeDecider } from '@eelarve/domain';
import {
  budgetsWithRecordsInSubBudget,
  classifierCatalogue,
  pinnedSubBudgetIds,
  schemePreselections,
  subBudgetCounts,
  schemeRecordCounts,
  subBudgetsAsJson,
  subBudgetsWithRecords,
} from '@eelarve/projections/schemes/queries';
import type { ClassifierPreselections, SubBudgetImportRow, subBudgetImportSchema, SubBudgetInput } from '@eelarve/shared';
import type { FastifyInstance } from 'fastify';
import type { z } from 'zod';
import type { CommandContext } from '../../infrastructure/command-runner';
import { readModels } from '../../infrastructure/database';
import type { Caller } from '../../types';
import { onceByImportId } from '../imports/idempotency';
import { SCHEME_EDITORS, SCHEME_READ_MODELS, schemeInPath } from '../schemes/access';
import { allows, listAccess, subBudgetAccess } from '../permissions/authorize';
import { subBudgetPlace } from '../records/access';
import { budgetAndScheme, subBudgetInPath } from './access';

type SubBudgetImportInput = z.output<typeof subBudgetImportSchema>;

const valuesOf = (classifiers: Record<string, string | null>) => Object.values(classifiers).filter((code): code is string => code !== null);
/** Every item code an import row names, in its values and its preselections. */
const codesOf = (rows: SubBudgetImportRow[]) => rows.flatMap((row) => [...valuesOf(row.classifiers), ...Object.values(row.preselections).flat()]);

/** How many sub-budgets or preselections an import's event holds. */
function importedCount(events: readonly { type: string; data: unknown }[]): number {
  const event = events[0];
  if (event?.type === 'SubBudgetsAdded') return (event.data as { subBudgets: unknown[] }).subBudgets.length;
  if (event?.type === 'ClassifierPreselectionsSet') return (event.data as { list: unknown[] }).list.length;
  return 0;
}

/**
 * Sub-budgets of a scheme, their classifier preselections, import, and the budgets' pinned
 * sub-budgets (spec 2, section 7). They live in their document's schemes stream (schemeDecider).
 */
export function subBudgetService(app: FastifyInstance) {
  const read = () => readModels(app.db);
  const run = (caller: Caller, command: SchemeCommand | ((context: CommandContext) => SchemeCommand), id: string) =>
    app.commands.run({ decider: schemeDecider, command, actor: caller.actor, readModels: SCHEME_READ_MODELS, id });
  const editableScheme = (caller: Caller, schemeId: string) => schemeInPath(app, caller.auth, schemeId, 'updateSettings', SCHEME_EDITORS);

  /** Appends the sub-budgets or preselections of an import and counts them. */
  async function importRows(caller: Caller, documentId: string, schemeId: string, input: SubBudgetImportInput) {
    const catalogue = await classifierCatalogue(read(), documentId, codesOf(input.list));
    const { importType, list } = input;
    const result = await run(
      caller,
      ({ newId }) => ({ type: 'ImportSubBudgets', documentId, schemeId, importType, rows: list, newIds: list.map(() => newId()), catalogue }),
      schemeId,
    );
    return { imported: importedCount(result.events), position: result.position };
  }

  return {
    /** The scheme's sub-budgets by name, as JSON text (see `subBudgetsAsJson`). */
    async list(caller: Caller, schemeId: string): Promise<string> {
      await schemeInPath(app, caller.auth, schemeId, 'read');
      return subBudgetsAsJson(read(), schemeId, null);
    },

    async counts(caller: Caller, schemeId: string) {
      await schemeInPath(app, caller.auth, schemeId, 'read');
      return subBudgetCounts(read(), schemeId);
    },

    async hasRecords(caller: Caller, subBudgetId: string) {
      const subBudget = await subBudgetInPath(app, caller.auth, subBudgetId, 'read');
      const recordsCount = (await schemeRecordCounts(read(), subBudget.scheme_id, null)).counts.get(subBudgetId) ?? 0;
      return { hasRecords: recordsCount > 0, recordsCount };
    },

    /** The sub-budgets seen from a budget that the caller may read there, as JSON text. */
    async listOfBudget(caller: Caller, budgetId: string, schemeId: string): Promise<string> {
      const { budget } = await budgetAndScheme(app, caller.auth, budgetId, schemeId, 'read');
      const access = await subBudgetAccess(app, caller.auth, { organizationId: budget.organization_id, documentId: budget.document_id, budgetId });
      return subBudgetsAsJson(read(), schemeId, { budgetId, ...access });
    },

    async create(caller: Caller, schemeId: string, input: SubBudgetInput) {
      const scheme = await editableScheme(caller, schemeId);
      const catalogue = await classifierCatalogue(read(), scheme.document_id, valuesOf(input.classifiers));
      // The answer names the new sub-budget, so its id is made here.
      const subBudgetId = randomUUID();
      return run(
        caller,
        { type: 'CreateSubBudget', documentId: scheme.document_id, schemeId, subBudgetId, name: input.name, classifiers: input.classifiers, catalogue },
        subBudgetId,
      );
    },

    async update(caller: Caller, schemeId: string, subBudgetId: string, input: SubBudgetInput) {
      const scheme = await editableScheme(caller, schemeId);
      const [catalogue, withRecords] = await Promise.all([
        classifierCatalogue(read(), scheme.document_id, valuesOf(input.classifiers)),
        subBudgetsWithRecords(read(), [subBudgetId]),
      ]);
      const command: SchemeCommand = {
        type: 'UpdateSubBudget',
        documentId: scheme.document_id,
        schemeId,
        subBudgetId,
        ...input,
        catalogue,
        hasRecords: withRecords.length > 0,
      };
      return run(caller, command, subBudgetId);
    },

    async remove(caller: Caller, schemeId: string, subBudgetId: string) {
      const scheme = await editableScheme(caller, schemeId);
      const withRecords = await subBudgetsWithRecords(read(), [subBudgetId]);
      return run(caller, { type: 'DeleteSubBudgets', documentId: scheme.document_id, schemeId, subBudgetIds: [subBudgetId], withRecords }, subBudgetId);
    },

    async removeMany(caller: Caller, schemeId: string, subBudgetIds: string[]) {
      const scheme = await editableScheme(caller, schemeId);
      const withRecords = await subBudgetsWithRecords(read(), subBudgetIds);
      return run(caller, { type: 'DeleteSubBudgets', documentId: scheme.document_id, schemeId, subBudgetIds, withRecords }, schemeId);
    },

    async import(caller: Caller, schemeId: string, input: SubBudgetImportInput) {
      const scheme = await editableScheme(caller, schemeId);
      // A retry of an import that succeeded answers that result instead of refusing the sub-budgets it made.
      return onceByImportId(app, `sub-budgets:${schemeId}`, input.importId, () => importRows(caller, scheme.document_id, schemeId, input));
    },

    /** Pinning needs write permission on the budget (spec 2, Sub-budgets tab of a budget). */
    async pin(caller: Caller, budgetId: string, schemeId: string, input: { pinned: string[]; confirmed?: boolean }) {
      const { scheme } = await budgetAndScheme(app, caller.auth, budgetId, schemeId, 'update');
      // Unpinning asks for confirmation when this budget has records in the sub-budget.
      const withRecords = await subBudgetsWithRecords(read(), await pinnedSubBudgetIds(read(), schemeId, budgetId), budgetId);
      const command: SchemeCommand = {
        type: 'PinSubBudgets',
        documentId: scheme.document_id,
        schemeId,
        budgetId,
        pinned: input.pinned,
        withRecords,
        confirmed: input.confirmed ?? false,
      };
      return run(caller, command, budgetId);
    },

    /**
     * GET api/budget/{b}/sub-budget/{s}/matching-budgets: the document's other budgets the caller
     * may read that hold records falling in the sub-budget, with how many (import from another budget).
     */
    async matchingBudgets(caller: Caller, budgetId: string, subBudgetId: string) {
      const place = await subBudgetPlace(app, caller.auth, budgetId, subBudgetId, 'read');
      const { organizationId, documentId } = place.budget;
      const rows = await budgetsWithRecordsInSubBudget(read(), subBudgetId, budgetId);
      const access = await listAccess(
        app,
        caller.auth,
        organizationId,
        rows.map((row) => ({ organizationId, documentId, budgetId: row.id, documentStatusId: row.document_status_id, budgetStatusId: row.resource_status_id })),
      );
      return rows
        .filter((_, index) => allows(access[index]!, 'read'))
        .map((row) => ({ id: row.id, name: row.name, type: row.type, recordsCount: row.records_count }));
    },

    async preselections(caller: Caller, subBudgetId: string) {
      const subBudget = await subBudgetInPath(app, caller.auth, subBudgetId, 'read');
      return { subBudgetId: subBudget.id, preselections: subBudget.preselections };
    },

    async setPreselections(caller: Caller, subBudgetId: string, preselections: ClassifierPreselections) {
      const subBudget = await subBudgetInPath(app, caller.auth, subBudgetId, 'updateSettings');
      const catalogue = await classifierCatalogue(read(), subBudget.document_id, Object.values(preselections).flat());
      const command: SchemeCommand = {
        type: 'SetClassifierPreselections',
        documentId: subBudget.document_id,
        schemeId: subBudget.scheme_id,
        subBudgetId: subBudget.id,
        preselections,
        catalogue,
      };
      return run(caller, command, subBudget.id);
    },

    async preselectionsOfScheme(caller: Caller, schemeId: string) {
      await schemeInPath(app, caller.auth, schemeId, 'read');
      return (await schemePreselections(read(), schemeId)).map((row) => ({ subBudgetId: row.id, preselections: row.preselections }));
    },
  };
}
