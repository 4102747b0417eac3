import { commandResultSchema, idParamsSchema, schemeDisplayOrderSchema, schemeInputSchema, schemeSchema } from '@eelarve/shared';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { SCHEME_EDITORS as editors, SCHEME_VIEWERS as viewers } from './access';
import { schemeService } from './service';

const tags = ['schemes'];
/** Reading the list of a document's schemes: the budget's sub-budgets tab needs it too, so any occupation with read access. */
const readers = 'occupation' as const;

/** A new scheme may leave the technical name out: it is derived from the name (spec 2, section 5). */
const schemeCreateSchema = schemeInputSchema.extend({ fieldName: schemeInputSchema.shape.fieldName.optional() });
const uuid = z.uuid({ message: 'validation.format' });
const documentParamsSchema = z.object({ documentId: uuid });
const schemeParamsSchema = z.object({ schemaId: uuid });

export async function schemeRoutes(app: FastifyInstance): Promise<void> {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const schemes = schemeService(app);

  api.get(
    '/api/document/:id/schemas',
    { config: { access: readers }, schema: { tags, params: idParamsSchema, response: { 200: z.array(schemeSchema) } } },
    (request) => schemes.listOfDocument(request.caller, request.params.id),
  );

  api.get(
    '/api/organization/:id/schemas',
    { config: { access: viewers }, schema: { tags, params: idParamsSchema, response: { 200: z.array(schemeSchema) } } },
    (request) => schemes.listOfOrganization(request.caller, request.params.id),
  );

  api.post(
    '/api/document/:documentId/schema',
    { config: { access: editors }, schema: { tags, params: documentParamsSchema, body: schemeCreateSchema, response: { 201: commandResultSchema } } },
    async (request, reply) => reply.status(201).send(await schemes.create(request.caller, request.params.documentId, request.body)),
  );

  api.put(
    '/api/schema/:schemaId',
    { config: { access: editors }, schema: { tags, params: schemeParamsSchema, body: schemeInputSchema, response: { 200: commandResultSchema } } },
    (request) => schemes.update(request.caller, request.params.schemaId, request.body),
  );

  api.delete(
    '/api/schema/:schemaId',
    { config: { access: editors }, schema: { tags, params: schemeParamsSchema, response: { 200: commandResultSchema } } },
    (request) => schemes.remove(request.caller, request.params.schemaId),
  );

  api.put(
    '/api/document/:documentId/schema-display-order',
    { config: { access: editors }, schema: { tags, params: documentParamsSchema, body: schemeDisplayOrderSchema, response: { 200: commandResultSchema } } },
    (request) => schemes.reorder(request.caller, request.params.documentId, request.body),
  );
}
