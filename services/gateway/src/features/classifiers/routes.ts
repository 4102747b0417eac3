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
  idParamsSchema,
  importValidationSchema,
} from '@eelarve/shared';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { readSingleFile, UPLOAD_LIMITS } from '../../infrastructure/upload-limits';
import { CLASSIFIER_EDITORS as editors, CLASSIFIER_VIEWERS as viewers } from './access';
import { classifierItemService } from './item-service';
import { classifierService } from './service';

const tags = ['classifiers'];
const uuid = z.uuid({ message: 'validation.format' });
const documentParams = z.object({ documentId: uuid });
const classifierParams = z.object({ classifierId: uuid });
const itemParams = z.object({ classifierId: uuid, itemId: uuid });
const includeMetaQuery = z.object({ includeMeta: z.enum(['true', 'false']).default('false') });
const classifierIdsQuery = z.object({ classifierIds: z.string().default('') });
const templateQuery = z.object({ format: z.enum(['xlsx', 'csv']).default('xlsx') });
const itemsOfManySchema = z.object({ classifiers: z.array(classifierSchema), list: z.array(classifierItemSchema) });

export async function classifierRoutes(app: FastifyInstance): Promise<void> {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const classifiers = classifierService(app);
  const items = classifierItemService(app);

  // ---- classifiers -------------------------------------------------------------------------

  // Any occupation: the classifier privileges, or update of the document (its settings choose the master classifier from this list).
  api.get(
    '/api/document/:id/classifiers',
    { schema: { tags, params: idParamsSchema, querystring: includeMetaQuery, response: { 200: z.array(classifierSchema) } } },
    (request) => classifiers.list(request.caller, request.params.id, request.query.includeMeta === 'true'),
  );

  api.post(
    '/api/document/:documentId/classifier',
    { config: { access: editors }, schema: { tags, params: documentParams, body: classifierCreateSchema, response: { 201: commandResultSchema } } },
    async (request, reply) => reply.status(201).send(await classifiers.create(request.caller, request.params.documentId, request.body)),
  );

  api.put(
    '/api/classifier/:id',
    { config: { access: editors }, schema: { tags, params: idParamsSchema, body: classifierUpdateSchema, response: { 200: commandResultSchema } } },
    (request) => classifiers.update(request.caller, request.params.id, request.body),
  );

  api.delete(
    '/api/classifier/:id',
    { config: { access: editors }, schema: { tags, params: idParamsSchema, response: { 200: commandResultSchema } } },
    (request) => classifiers.remove(request.caller, request.params.id),
  );

  api.put(
    '/api/document/:documentId/classifier-order',
    { config: { access: editors }, schema: { tags, params: documentParams, body: classifierOrderSchema, response: { 200: commandResultSchema } } },
    (request) => classifiers.reorder(request.caller, request.params.documentId, request.body),
  );

  // ---- items -------------------------------------------------------------------------------

  api.get(
    '/api/classifier-items',
    { config: { access: viewers }, schema: { tags, querystring: classifierIdsQuery, response: { 200: itemsOfManySchema } } },
    (request) => classifiers.itemsOfMany(request.caller, request.query.classifierIds),
  );

  api.get(
    '/api/classifier/:classifierId/items',
    {
      config: { access: viewers },
      schema: { tags, params: classifierParams, querystring: includeMetaQuery, response: { 200: z.array(classifierItemSchema) } },
    },
    (request) => classifiers.items(request.caller, request.params.classifierId, request.query.includeMeta === 'true'),
  );

  api.post(
    '/api/classifier/:classifierId/item',
    { config: { access: editors }, schema: { tags, params: classifierParams, body: classifierItemInputSchema, response: { 201: commandResultSchema } } },
    async (request, reply) => reply.status(201).send(await items.add(request.caller, request.params.classifierId, request.body)),
  );

  api.put(
    '/api/classifier/:classifierId/item/:itemId',
    { config: { access: editors }, schema: { tags, params: itemParams, body: classifierItemInputSchema, response: { 200: commandResultSchema } } },
    (request) => items.update(request.caller, request.params.classifierId, request.params.itemId, request.body),
  );

  api.put(
    '/api/classifier/:classifierId/items',
    { config: { access: editors }, schema: { tags, params: classifierParams, body: classifierItemsBulkEditSchema, response: { 200: commandResultSchema } } },
    (request) => items.bulkEdit(request.caller, request.params.classifierId, request.body),
  );

  api.delete(
    '/api/classifier/:classifierId/item/:itemId',
    { config: { access: editors }, schema: { tags, params: itemParams, response: { 200: commandResultSchema } } },
    (request) => items.remove(request.caller, request.params.classifierId, request.params.itemId),
  );

  api.post(
    '/api/classifier/:classifierId/items/delete',
    { config: { access: editors }, schema: { tags, params: classifierParams, body: classifierItemsDeleteSchema, response: { 200: commandResultSchema } } },
    (request) => items.removeMany(request.caller, request.params.classifierId, request.body.itemIds),
  );

  // ---- import ------------------------------------------------------------------------------

  api.post(
    '/api/classifier/:classifierId/items',
    { config: { access: editors }, schema: { tags, params: classifierParams, body: classifierImportSchema, response: { 200: classifierImportResultSchema } } },
    (request) => items.import(request.caller, request.params.classifierId, request.body),
  );

  api.post(
    '/api/classifier/:classifierId/items/validate',
    { config: { access: editors }, schema: { tags, params: classifierParams, response: { 200: importValidationSchema } } },
    (request) => items.validateFile(request.caller, request.params.classifierId, () => readSingleFile(request, UPLOAD_LIMITS.spreadsheetBytes)),
  );

  api.get(
    '/api/classifier/:classifierId/items/template',
    { config: { access: viewers }, schema: { tags, params: classifierParams, querystring: templateQuery } },
    async (request, reply) => {
      const file = await classifiers.template(request.caller, request.params.classifierId, request.query.format);
      return reply.header('content-disposition', `attachment; filename="${file.filename}"`).type(file.contentType).send(file.body);
    },
  );
}
