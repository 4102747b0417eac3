import { randomUUID } from 'node:crypto';
import { type ClassifierCommand, type ClassifierFields, classifierDecider, classifierOrderDecider, importColumns } from '@eelarve/domain';
import {
  classifierUsedInScheme,
  findClassifier,
  groupingContexts,
  listClassifiers as listClassifierRows,
  listItems,
} from '@eelarve/projections/classifiers/queries';
import type { ReadDatabase } from '@eelarve/projections/read-models';
import {
  type Classifier,
  type ClassifierItem,
  type classifierCreateSchema,
  type classifierOrderSchema,
  type classifierUpdateSchema,
  DomainError,
} from '@eelarve/shared';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { readModels } from '../../infrastructure/database';
import type { Caller } from '../../types';
import { documentResource } from '../permissions/authorize';
import { CLASSIFIER_EDITORS, CLASSIFIER_READ_MODELS, CLASSIFIER_VIEWERS, classifierInPath } from './access';
import { classifierContext } from './context';
import { classifierState, releaseFieldNameOf, withFieldName } from './field-names';
import { itemsCsv, itemsWorkbook } from './files';
import { listClassifiers, toClassifierItem } from './responses';

type ClassifierCreateInput = z.output<typeof classifierCreateSchema>;
type ClassifierUpdateInput = z.output<typeof classifierUpdateSchema>;
type ClassifierOrderInput = z.output<typeof classifierOrderSchema>;

const uuids = z.array(z.uuid());

/** An item template file, ready to send. */
export interface TemplateFile {
  filename: string;
  contentType: string;
  body: string | Buffer;
}

/** A grouping classifier groups a non-grouping classifier of the same document. */
async function assertGroupable(read: ReadDatabase, documentId: string, groupingId: string): Promise<void> {
  const grouped = await findClassifier(read, groupingId);
  if (!grouped || grouped.document_id !== documentId || grouped.grouping_id)
    throw new DomainError('INVALID_GROUPING', 'a grouping classifier groups a non-grouping classifier of the same document');
}

/** Placed after the document's other classifiers unless the caller chose a place. */
async function displayOrderOf(read: ReadDatabase, documentId: string, chosen: number | undefined): Promise<number> {
  if (chosen !== undefined) return chosen;
  return (await listClassifierRows(read, { documentId })).reduce((max, row) => Math.max(max, row.display_order + 1), 0);
}

/**
 * Classifiers of a document (spec 2, sections 4 and 5): the classifiers tab's list and form, their
 * order, and the reads of items and the import template. Field names are claimed (field-names.ts)
 * around create and update; the rule errors come first, so a broken rule is not answered as a taken name.
 */
export function classifierService(app: FastifyInstance) {
  const read = () => readModels(app.db);
  const run = (caller: Caller, command: ClassifierCommand) =>
    app.commands.run({ decider: classifierDecider, command, actor: caller.actor, readModels: CLASSIFIER_READ_MODELS });

  return {
    /** The classifier privileges, or update of the document: its settings choose the master classifier from this list. */
    async list(caller: Caller, documentId: string, includeMeta: boolean): Promise<Classifier[]> {
      const viewer = CLASSIFIER_VIEWERS.privileges.some((privilege) => caller.auth.privileges.includes(privilege));
      await documentResource(app, caller.auth, documentId, viewer ? 'read' : 'updateSettings');
      return listClassifiers(app.db, { documentId }, includeMeta);
    },

    async create(caller: Caller, documentId: string, input: ClassifierCreateInput) {
      const { organizationId } = await documentResource(app, caller.auth, documentId, 'updateSettings', CLASSIFIER_EDITORS);
      if (input.groupingId) await assertGroupable(read(), documentId, input.groupingId);
      // The id is claimed with the field name before the command runs, so it is made here.
      const classifierId = randomUUID();
      const context = await classifierContext(app.db, { classifierId: null, documentId, groupingId: input.groupingId });
      const displayOrder = await displayOrderOf(read(), documentId, input.displayOrder);
      const command: ClassifierCommand = { type: 'CreateClassifier', classifierId, documentId, organizationId, ...input, displayOrder, context };
      classifierDecider.decide(command, { status: 'none' });
      return withFieldName(app, caller.actor, { documentId, fieldName: input.fieldName, classifierId }, () => run(caller, command));
    },

    async update(caller: Caller, classifierId: string, input: ClassifierUpdateInput) {
      const classifier = await classifierInPath(app, caller.auth, classifierId, 'updateSettings');
      const context = await classifierContext(app.db, { classifierId: classifier.id, documentId: classifier.document_id, groupingId: classifier.grouping_id });
      const command: ClassifierCommand = { type: 'UpdateClassifier', classifierId: classifier.id, ...(input as ClassifierFields), context };
      classifierDecider.decide(command, await classifierState(app, classifier.id));
      const claim = { documentId: classifier.document_id, fieldName: input.fieldName, classifierId: classifier.id };
      return withFieldName(app, caller.actor, claim, () => run(caller, command));
    },

    async remove(caller: Caller, classifierId: string) {
      const classifier = await classifierInPath(app, caller.auth, classifierId, 'updateSettings');
      const context = await classifierContext(app.db, { classifierId: classifier.id, documentId: classifier.document_id, groupingId: classifier.grouping_id });
      const usedInScheme = await classifierUsedInScheme(read(), classifier.id);
      const result = await run(caller, {
        type: 'DeleteClassifier',
        classifierId: classifier.id,
        usedInScheme,
        isMaster: context.isMaster,
        groupedByIds: context.groupedByIds,
      });
      await releaseFieldNameOf(app, caller.actor, result, { documentId: classifier.document_id, classifierId: classifier.id });
      return result;
    },

    async reorder(caller: Caller, documentId: string, input: ClassifierOrderInput) {
      await documentResource(app, caller.auth, documentId, 'updateSettings', CLASSIFIER_EDITORS);
      const known = new Set((await listClassifierRows(read(), { documentId })).map((row) => row.id));
      if (input.list.some((entry) => !known.has(entry.id))) throw new DomainError('CLASSIFIER_NOT_FOUND');
      return app.commands.run({
        decider: classifierOrderDecider,
        command: { type: 'ReorderClassifiers', documentId, list: input.list },
        actor: caller.actor,
        readModels: CLASSIFIER_READ_MODELS,
      });
    },

    /** Items of several classifiers at once (comma-separated ids), with those classifiers. */
    async itemsOfMany(caller: Caller, classifierIds: string): Promise<{ classifiers: Classifier[]; list: ClassifierItem[] }> {
      const ids = classifierIds
        .split(',')
        .map((id) => id.trim())
        .filter(Boolean);
      const parsed = uuids.safeParse(ids);
      // A query-string parameter, not a body field: named with its own path.
      if (!parsed.success)
        throw new DomainError('SCHEMA_VALIDATION_ERROR', 'classifierIds', [{ path: 'querystring.classifierIds', message: 'validation.format' }]);
      const rows = await Promise.all(parsed.data.map((id) => classifierInPath(app, caller.auth, id, 'read')));
      const classifiers = await listClassifiers(app.db, { ids: parsed.data }, false);
      return { classifiers, list: (await listItems(read(), rows)).map(toClassifierItem) };
    },

    async items(caller: Caller, classifierId: string, includeMeta: boolean): Promise<ClassifierItem[]> {
      const classifier = await classifierInPath(app, caller.auth, classifierId, 'read');
      return (await listItems(read(), [classifier], { includeUsage: includeMeta })).map(toClassifierItem);
    },

    /** The import template: the item columns and one per grouping classifier, as .xlsx or .csv. */
    async template(caller: Caller, classifierId: string, format: 'xlsx' | 'csv'): Promise<TemplateFile> {
      const classifier = await classifierInPath(app, caller.auth, classifierId, 'read');
      const columns = importColumns(classifier.item_can_change_sign, await groupingContexts(read(), classifier.id));
      const filename = `${classifier.field_name}-items.${format}`;
      if (format === 'csv') return { filename, contentType: 'text/csv; charset=utf-8', body: `\uFEFF${itemsCsv(columns)}` };
      return { filename, contentType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', body: await itemsWorkbook(columns) };
    },
  };
}
