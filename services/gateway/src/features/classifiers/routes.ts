import { randomUUID } from 'node:crypto';
import {
  type ClassifierCommand,
  type ClassifierFields,
  classifierDecider,
  classifierOrderDecider,
  type RawRow,
  importColumns,
  validateImportRows,
} from '@eelarve/domain';
import { formatPosition, type GlobalPosition } from '@eelarve/eventstore';
import {
  classifierCreateSchema,
  classifierImportResultSchema,
  classifierImportSchema,
  classifierItemInputSchema,
  classifierItemSchema,
  classifierItemsBulkEditSchema,
  classifierItemsDeleteSchema,
  classifierOrderSchema,
  classifierSchema,
  classifierUpdateSchema,
  commandResultSchema,
  DomainError,
  idParamsSchema,
  importValidationSchema,
  type Privilege,
} from '@eelarve/shared';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { readSingleFile, UPLOAD_LIMITS } from '../../infrastructure/upload-limits';
import { onceByImportId } from '../imports/idempotency';
import { actorOf, runCommand } from '../../plugins/commands';
import { assertResourceAccess, documentResource, findDocumentOrganization } from '../permissions/authorize';
import { registerDocumentCopyStep } from '../documents/copy';
import { copyClassifiers } from './copy';
import { classifierState, releaseFieldNameOf, withFieldName } from './field-names';
import { formatOf, itemsCsv, itemsWorkbook, parseImportFile } from './files';
import {
  type ClassifierRow,
  classifierContext,
  classifierUsedInScheme,
  findClassifier,
  findItemsInUse,
  groupingContexts,
  listClassifiers,
  listItems,
  usedIds,
} from './queries';

/** The classifiers tab reads the classifiers read models. */
const READ_MODELS = ['classifiers'] as const;
const tags = ['classifiers'];
const viewers = { privileges: ['CLASSIFICATION_VIEW', 'CLASSIFICATION_ADMIN'] as Privilege[] };
const editors = { privileges: ['CLASSIFICATION_ADMIN'] as Privilege[] };
const editOptions = { privileges: ['CLASSIFICATION_ADMIN'] as Privilege[] };

const uuid = z.uuid({ message: 'validation.format' });
const documentParams = z.object({ documentId: uuid });
const classifierParams = z.object({ classifierId: uuid });
const itemParams = z.object({ classifierId: uuid, id: uuid });
const itemDeleteParams = z.object({ classifierId: uuid, itemId: uuid });
const includeMetaQuery = z.object({ includeMeta: z.enum(['true', 'false']).default('false') });

const positionOf = (position: GlobalPosition | null) => (position ? formatPosition(position) : null);

/** A classifier named in a path, after checking the caller may read or update its document. */
async function classifierInPath(app: FastifyInstance, request: FastifyRequest, classifierId: string, action: 'read' | 'update'): Promise<ClassifierRow> {
  const classifier = await findClassifier(app.db, classifierId);
  // The classifiers of a deleted document are gone with it.
  if (!(await findDocumentOrganization(app, classifier.document_id))) throw new DomainError('CLASSIFIER_NOT_FOUND');
  const auth = request.auth;
  try {
    await assertResourceAccess(app, auth, { organizationId: classifier.organization_id, documentId: classifier.document_id }, action, editOptions);
  } catch (error) {
    // Another organisation's classifier is "not found", like any unknown id.
    if (error instanceof DomainError && error.code === 'OBJECT_NOT_FOUND') throw new DomainError('CLASSIFIER_NOT_FOUND');
    throw error;
  }
  return classifier;
}

/** Import rows: the API sends objects; the file parser keyed them by column already. */
function importRowsOf(items: z.infer<typeof classifierImportSchema>['items']): RawRow[] {
  return items.map((item) => ({ ...item }));
}

export async function classifierRoutes(app: FastifyInstance): Promise<void> {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const execute = (request: FastifyRequest, command: ClassifierCommand) => runCommand(app, classifierDecider, command, actorOf(request), READ_MODELS);
  registerDocumentCopyStep('classifiers', copyClassifiers);

  // ---- classifiers -------------------------------------------------------------------------

  api.get(
    '/api/document/:id/classifiers',
    // The classifier privileges, or update of the document: its settings choose the master classifier from this list.
    { schema: { tags, params: idParamsSchema, querystring: includeMetaQuery, response: { 200: z.array(classifierSchema) } } },
    async (request) => {
      const auth = request.auth;
      const viewer = viewers.privileges.some((privilege) => auth.privileges.includes(privilege));
      await documentResource(app, auth, request.params.id, viewer ? 'read' : 'update');
      return listClassifiers(app.db, { documentId: request.params.id }, request.query.includeMeta === 'true');
    },
  );

  api.post(
    '/api/document/:documentId/classifier',
    { config: { access: editors }, schema: { tags, params: documentParams, body: classifierCreateSchema, response: { 201: commandResultSchema } } },
    async (request, reply) => {
      const { documentId } = request.params;
      const resource = await documentResource(app, request.auth, documentId, 'update', editOptions);
      const body = request.body;
      if (body.groupingId) {
        const grouped = await findClassifier(app.db, body.groupingId).catch(() => null);
        if (!grouped || grouped.document_id !== documentId || grouped.grouping_id) throw new DomainError('INVALID_GROUPING', 'a grouping classifier groups a non-grouping classifier of the same document');
      }
      const classifierId = randomUUID();
      const context = await classifierContext(app.db, { classifierId: null, documentId, groupingId: body.groupingId });
      const displayOrder = body.displayOrder ?? (await listClassifiers(app.db, { documentId }, false)).reduce((max, row) => Math.max(max, row.displayOrder + 1), 0);
      const command: ClassifierCommand = { type: 'CreateClassifier', classifierId, documentId, organizationId: resource.organizationId, ...body, displayOrder, context };
      // Rule errors come before the field name is claimed.
      classifierDecider.decide(command, { status: 'none' });
      const outcome = await withFieldName(app, actorOf(request), { documentId, fieldName: body.fieldName, classifierId }, () => execute(request, command));
      return reply.status(201).send({ id: classifierId, position: positionOf(outcome.position) });
    },
  );

  api.put(
    '/api/classifier/:id',
    { config: { access: editors }, schema: { tags, params: idParamsSchema, body: classifierUpdateSchema, response: { 200: commandResultSchema } } },
    async (request) => {
      const classifier = await classifierInPath(app, request, request.params.id, 'update');
      const context = await classifierContext(app.db, { classifierId: classifier.id, documentId: classifier.document_id, groupingId: classifier.grouping_id });
      const command: ClassifierCommand = { type: 'UpdateClassifier', classifierId: classifier.id, ...(request.body as ClassifierFields), context };
      classifierDecider.decide(command, await classifierState(app, classifier.id));
      const claim = { documentId: classifier.document_id, fieldName: request.body.fieldName, classifierId: classifier.id };
      const outcome = await withFieldName(app, actorOf(request), claim, () => execute(request, command));
      return { id: classifier.id, position: positionOf(outcome.position) };
    },
  );

  api.delete(
    '/api/classifier/:id',
    { config: { access: editors }, schema: { tags, params: idParamsSchema, response: { 200: commandResultSchema } } },
    async (request) => {
      const classifier = await classifierInPath(app, request, request.params.id, 'update');
      const context = await classifierContext(app.db, { classifierId: classifier.id, documentId: classifier.document_id, groupingId: classifier.grouping_id });
      const outcome = await execute(request, {
        type: 'DeleteClassifier',
        classifierId: classifier.id,
        usedInScheme: await classifierUsedInScheme(app.db, classifier.id),
        isMaster: context.isMaster,
        groupedByIds: context.groupedByIds,
      });
      await releaseFieldNameOf(app, actorOf(request), outcome, { documentId: classifier.document_id, classifierId: classifier.id });
      return { id: classifier.id, position: positionOf(outcome.position) };
    },
  );

  api.put(
    '/api/document/:documentId/classifier-order',
    { config: { access: editors }, schema: { tags, params: documentParams, body: classifierOrderSchema, response: { 200: commandResultSchema } } },
    async (request) => {
      const { documentId } = request.params;
      await documentResource(app, request.auth, documentId, 'update', editOptions);
      const known = new Set((await listClassifiers(app.db, { documentId }, false)).map((row) => row.id));
      if (request.body.list.some((entry) => !known.has(entry.id))) throw new DomainError('CLASSIFIER_NOT_FOUND');
      const outcome = await runCommand(app, classifierOrderDecider, { type: 'ReorderClassifiers', documentId, list: request.body.list }, actorOf(request), READ_MODELS);
      return { id: documentId, position: positionOf(outcome.position) };
    },
  );

  // ---- items -------------------------------------------------------------------------------

  api.get(
    '/api/classifier-items',
    {
      config: { access: viewers },
      schema: {
        tags,
        querystring: z.object({ classifierIds: z.string().default('') }),
        response: { 200: z.object({ classifiers: z.array(classifierSchema), list: z.array(classifierItemSchema) }) },
      },
    },
    async (request) => {
      const ids = request.query.classifierIds
        .split(',')
        .map((id) => id.trim())
        .filter(Boolean);
      const parsed = z.array(uuid).safeParse(ids);
      if (!parsed.success) throw new DomainError('SCHEMA_VALIDATION_ERROR', 'classifierIds', [{ path: 'querystring.classifierIds', message: 'validation.format' }]);
      const rows = await Promise.all(parsed.data.map((id) => classifierInPath(app, request, id, 'read')));
      const classifiers = await listClassifiers(app.db, { ids: parsed.data }, false);
      return { classifiers, list: await listItems(app.db, rows, false) };
    },
  );

  api.get(
    '/api/classifier/:id/items',
    { config: { access: viewers }, schema: { tags, params: idParamsSchema, querystring: includeMetaQuery, response: { 200: z.array(classifierItemSchema) } } },
    async (request) => {
      const classifier = await classifierInPath(app, request, request.params.id, 'read');
      return listItems(app.db, [classifier], request.query.includeMeta === 'true');
    },
  );

  api.post(
    '/api/classifier/:classifierId/item',
    { config: { access: editors }, schema: { tags, params: classifierParams, body: classifierItemInputSchema, response: { 201: commandResultSchema } } },
    async (request, reply) => {
      const classifier = await classifierInPath(app, request, request.params.classifierId, 'update');
      const itemId = randomUUID();
      const outcome = await execute(request, {
        type: 'AddClassifierItem',
        classifierId: classifier.id,
        item: { id: itemId, ...request.body },
        groupings: await groupingContexts(app.db, classifier.id),
      });
      return reply.status(201).send({ id: itemId, position: positionOf(outcome.position) });
    },
  );

  api.put(
    '/api/classifier/:classifierId/item/:id',
    { config: { access: editors }, schema: { tags, params: itemParams, body: classifierItemInputSchema, response: { 200: commandResultSchema } } },
    async (request) => {
      const classifier = await classifierInPath(app, request, request.params.classifierId, 'update');
      const itemId = request.params.id;
      const usage = await findItemsInUse(app.db, classifier, [itemId]);
      const outcome = await execute(request, {
        type: 'UpdateClassifierItem',
        classifierId: classifier.id,
        item: { id: itemId, ...request.body },
        groupings: await groupingContexts(app.db, classifier.id),
        inUse: usedIds(usage).length > 0,
      });
      return { id: itemId, position: positionOf(outcome.position) };
    },
  );

  api.put(
    '/api/classifier/:classifierId/items',
    { config: { access: editors }, schema: { tags, params: classifierParams, body: classifierItemsBulkEditSchema, response: { 200: commandResultSchema } } },
    async (request) => {
      const classifier = await classifierInPath(app, request, request.params.classifierId, 'update');
      const outcome = await execute(request, { type: 'BulkEditClassifierItems', classifierId: classifier.id, edit: request.body, groupings: await groupingContexts(app.db, classifier.id) });
      return { id: classifier.id, position: positionOf(outcome.position) };
    },
  );

  const deleteItems = async (request: FastifyRequest, classifierId: string, itemIds: string[]) => {
    const classifier = await classifierInPath(app, request, classifierId, 'update');
    const usage = await findItemsInUse(app.db, classifier, itemIds);
    const outcome = await execute(request, { type: 'DeleteClassifierItems', classifierId: classifier.id, itemIds, inUse: usedIds(usage) });
    return { id: classifier.id, position: positionOf(outcome.position) };
  };

  api.delete(
    '/api/classifier/:classifierId/item/:itemId',
    { config: { access: editors }, schema: { tags, params: itemDeleteParams, response: { 200: commandResultSchema } } },
    async (request) => deleteItems(request, request.params.classifierId, [request.params.itemId]),
  );

  api.post(
    '/api/classifier/:classifierId/items/delete',
    { config: { access: editors }, schema: { tags, params: classifierParams, body: classifierItemsDeleteSchema, response: { 200: commandResultSchema } } },
    async (request) => deleteItems(request, request.params.classifierId, request.body.itemIds),
  );

  // ---- import ------------------------------------------------------------------------------

  api.post(
    '/api/classifier/:classifierId/items',
    { config: { access: editors }, schema: { tags, params: classifierParams, body: classifierImportSchema, response: { 200: classifierImportResultSchema } } },
    async (request) => {
      const classifier = await classifierInPath(app, request, request.params.classifierId, 'update');
      const { items, loose, documentId, importId } = request.body;
      if (documentId && documentId !== classifier.document_id) throw new DomainError('CLASSIFIER_NOT_FOUND');
      // A retry of an import that succeeded (its answer was lost) answers that result, not 422 for the codes it added.
      return onceByImportId(app, `classifier-items:${classifier.id}`, importId, () => importItems(request, classifier.id, items, loose));
    },
  );

  /** Appends the rows (strict: all or none; loose: the valid ones) and counts what was added. */
  const importItems = async (request: FastifyRequest, classifierId: string, items: z.infer<typeof classifierImportSchema>['items'], loose: boolean) => {
    const rows = importRowsOf(items);
    const groupings = await groupingContexts(app.db, classifierId);
    // The decider checks every row on the state it appends to; in loose mode this pass reports the rows it skips.
    let skipped: { row: number; errors: { field: string; message: string }[] }[] = [];
    if (loose) {
      const state = await classifierState(app, classifierId);
      if (state.status !== 'active') throw new DomainError('CLASSIFIER_NOT_FOUND');
      skipped = validateImportRows(rows, { codeSettings: state.codeSettings, itemCanChangeSign: state.itemCanChangeSign, existingCodes: new Set(state.codes.keys()), groupings })
        .filter((result) => result.errors.length > 0)
        .map(({ row, errors }) => ({ row, errors }));
    }
    const outcome = await execute(request, { type: 'ImportClassifierItems', classifierId, rows, loose, newIds: rows.map(() => randomUUID()), groupings });
    const added = outcome.events[0]?.type === 'ClassifierItemsAdded' ? outcome.events[0].data.items : [];
    return { id: classifierId, position: positionOf(outcome.position), imported: added.length, skipped };
  };

  api.post(
    '/api/classifier/:classifierId/items/validate',
    { config: { access: editors }, schema: { tags, params: classifierParams, response: { 200: importValidationSchema } } },
    async (request) => {
      const classifier = await classifierInPath(app, request, request.params.classifierId, 'update');
      const file = await readSingleFile(request, UPLOAD_LIMITS.spreadsheetBytes);
      const format = formatOf(file.filename, file.mimetype);
      const state = await classifierState(app, classifier.id);
      if (state.status !== 'active') throw new DomainError('CLASSIFIER_NOT_FOUND');
      const groupings = await groupingContexts(app.db, classifier.id);
      const columns = importColumns(state.itemCanChangeSign, groupings);
      const parsed = await parseImportFile(file.buffer, format, columns);
      const results = validateImportRows(
        parsed.rows.map((row) => row.values),
        { codeSettings: state.codeSettings, itemCanChangeSign: state.itemCanChangeSign, existingCodes: new Set(state.codes.keys()), groupings },
      );
      const rows = results.map((result, index) => ({ row: parsed.rows[index]!.row, values: result.values, errors: result.errors }));
      return { columns, rows, valid: rows.length > 0 && rows.every((row) => row.errors.length === 0) };
    },
  );

  api.get(
    '/api/classifier/:classifierId/items/template',
    { config: { access: viewers }, schema: { tags, params: classifierParams, querystring: z.object({ format: z.enum(['xlsx', 'csv']).default('xlsx') }) } },
    async (request, reply) => {
      const classifier = await classifierInPath(app, request, request.params.classifierId, 'read');
      const columns = importColumns(classifier.item_can_change_sign, await groupingContexts(app.db, classifier.id));
      const filename = `${classifier.field_name}-items.${request.query.format}`;
      reply.header('content-disposition', `attachment; filename="${filename}"`);
      if (request.query.format === 'csv') return reply.type('text/csv; charset=utf-8').send(`\uFEFF${itemsCsv(columns)}`);
      return reply.type('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet').send(await itemsWorkbook(columns));
    },
  );
}

