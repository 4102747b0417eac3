import { randomUUID } from 'node:crypto';
import { type ClassifierCommand, classifierDecider, importColumns, type RawRow, validateImportRows } from '@eelarve/domain';
import { findItemsInUse, groupingContexts, usedIds } from '@eelarve/projections/classifiers/queries';
import {
  type ClassifierItemsBulkEdit,
  type ClassifierItemInput,
  type classifierImportSchema,
  DomainError,
  type ImportRowError,
  type ImportValidation,
} from '@eelarve/shared';
import type { FastifyInstance } from 'fastify';
import type { z } from 'zod';
import { readModels } from '../../infrastructure/database';
import type { UploadedFile } from '../../infrastructure/upload-limits';
import type { Caller } from '../../types';
import { onceByImportId } from '../imports/idempotency';
import { CLASSIFIER_READ_MODELS, classifierInPath } from './access';
import { classifierState } from './field-names';
import { formatOf, parseImportFile } from './files';

type ClassifierImportInput = z.output<typeof classifierImportSchema>;

/** What an item import answers: the rows added, and in loose mode the rows skipped with their errors. */
export interface ItemImportResult {
  id: string;
  position: string | null;
  imported: number;
  skipped: { row: number; errors: ImportRowError[] }[];
}

/**
 * Items of a classifier (spec 2, sections 5 and 9): add, edit, bulk edit, delete, and import from
 * rows or from an .xlsx/.csv file checked row by row first.
 */
export function classifierItemService(app: FastifyInstance) {
  const read = () => readModels(app.db);
  const run = (caller: Caller, command: ClassifierCommand | ((context: { newId(): string }) => ClassifierCommand), id?: string) =>
    app.commands.run({ decider: classifierDecider, command, actor: caller.actor, readModels: CLASSIFIER_READ_MODELS, ...(id ? { id } : {}) });

  /** The classifier as its stream holds it, for rules checked before its command (it must be live). */
  const activeState = async (classifierId: string) => {
    const state = await classifierState(app, classifierId);
    if (state.status !== 'active') throw new DomainError('CLASSIFIER_NOT_FOUND');
    return state;
  };

  /** Appends the rows (strict: all or none; loose: the valid ones) and counts what was added. */
  async function importRows(caller: Caller, classifierId: string, rows: RawRow[], loose: boolean): Promise<ItemImportResult> {
    const groupings = await groupingContexts(read(), classifierId);
    // The decider checks every row on the state it appends to; in loose mode this pass reports the rows it skips.
    let skipped: ItemImportResult['skipped'] = [];
    if (loose) {
      const state = await activeState(classifierId);
      skipped = validateImportRows(rows, {
        codeSettings: state.codeSettings,
        itemCanChangeSign: state.itemCanChangeSign,
        existingCodes: new Set(state.codes.keys()),
        groupings,
      })
        .filter((result) => result.errors.length > 0)
        .map(({ row, errors }) => ({ row, errors }));
    }
    const result = await run(caller, ({ newId }) => ({ type: 'ImportClassifierItems', classifierId, rows, loose, newIds: rows.map(() => newId()), groupings }));
    const added = result.events[0]?.type === 'ClassifierItemsAdded' ? result.events[0].data.items : [];
    return { id: classifierId, position: result.position, imported: added.length, skipped };
  }

  async function deleteItems(caller: Caller, classifierId: string, itemIds: string[]) {
    const classifier = await classifierInPath(app, caller.auth, classifierId, 'updateSettings');
    const usage = await findItemsInUse(read(), classifier, itemIds);
    return run(caller, { type: 'DeleteClassifierItems', classifierId: classifier.id, itemIds, inUse: usedIds(usage) });
  }

  return {
    async add(caller: Caller, classifierId: string, input: ClassifierItemInput) {
      const classifier = await classifierInPath(app, caller.auth, classifierId, 'updateSettings');
      const groupings = await groupingContexts(read(), classifier.id);
      // The answer names the new item, so its id is made here rather than by the runner.
      const itemId = randomUUID();
      return run(caller, { type: 'AddClassifierItem', classifierId: classifier.id, item: { id: itemId, ...input }, groupings }, itemId);
    },

    async update(caller: Caller, classifierId: string, itemId: string, input: ClassifierItemInput) {
      const classifier = await classifierInPath(app, caller.auth, classifierId, 'updateSettings');
      const usage = await findItemsInUse(read(), classifier, [itemId]);
      const groupings = await groupingContexts(read(), classifier.id);
      return run(
        caller,
        { type: 'UpdateClassifierItem', classifierId: classifier.id, item: { id: itemId, ...input }, groupings, inUse: usedIds(usage).length > 0 },
        itemId,
      );
    },

    async bulkEdit(caller: Caller, classifierId: string, edit: ClassifierItemsBulkEdit) {
      const classifier = await classifierInPath(app, caller.auth, classifierId, 'updateSettings');
      return run(caller, { type: 'BulkEditClassifierItems', classifierId: classifier.id, edit, groupings: await groupingContexts(read(), classifier.id) });
    },

    remove: (caller: Caller, classifierId: string, itemId: string) => deleteItems(caller, classifierId, [itemId]),
    removeMany: (caller: Caller, classifierId: string, itemIds: string[]) => deleteItems(caller, classifierId, itemIds),

    /** Imports rows the web sends after validation; a retry with the same import id answers the first result. */
    async import(caller: Caller, classifierId: string, input: ClassifierImportInput) {
      const classifier = await classifierInPath(app, caller.auth, classifierId, 'updateSettings');
      if (input.documentId && input.documentId !== classifier.document_id) throw new DomainError('CLASSIFIER_NOT_FOUND');
      // The API sends objects; the file parser keyed them by column already.
      const rows: RawRow[] = input.items.map((item) => ({ ...item }));
      // A retry of an import that succeeded (its answer was lost) answers that result, not 422 for the codes it added.
      return onceByImportId(app, `classifier-items:${classifier.id}`, input.importId, () => importRows(caller, classifier.id, rows, input.loose));
    },

    /** Reads an uploaded file (only once access is granted) and checks every row as the import would. */
    async validateFile(caller: Caller, classifierId: string, upload: () => Promise<UploadedFile>): Promise<ImportValidation> {
      const classifier = await classifierInPath(app, caller.auth, classifierId, 'updateSettings');
      const file = await upload();
      const format = formatOf(file.filename, file.mimetype);
      const state = await activeState(classifier.id);
      const groupings = await groupingContexts(read(), classifier.id);
      const columns = importColumns(state.itemCanChangeSign, groupings);
      const parsed = await parseImportFile(file.buffer, format, columns);
      const results = validateImportRows(
        parsed.rows.map((row) => row.values),
        { codeSettings: state.codeSettings, itemCanChangeSign: state.itemCanChangeSign, existingCodes: new Set(state.codes.keys()), groupings },
      );
      const rows = results.map((result, index) => ({ row: parsed.rows[index]!.row, values: result.values, errors: result.errors }));
      return { columns, rows, valid: rows.length > 0 && rows.every((row) => row.errors.length === 0) };
    },
  };
}
