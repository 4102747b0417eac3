import {
  commandResultSchema,
  documentCopyPartsSchema,
  documentCreatedSchema,
  documentInputSchema,
  documentSchema,
  idParamsSchema,
  orderSchema,
} from '@eelarve/shared';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { documentService } from './service';

const tags = ['documents'];
const organizationParamsSchema = z.object({ organizationId: z.uuid({ message: 'validation.format' }) });

export async function documentRoutes(app: FastifyInstance): Promise<void> {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const documents = documentService(app);

  api.get(
    '/api/organization/:organizationId/documents',
    { schema: { tags, params: organizationParamsSchema, response: { 200: z.array(documentSchema) } } },
    (request) => documents.list(request.caller, request.params.organizationId, { readableOnly: true }),
  );

  api.get('/api/organization/:id/all-documents', { schema: { tags, params: idParamsSchema, response: { 200: z.array(documentSchema) } } }, (request) =>
    documents.list(request.caller, request.params.id, { readableOnly: false }),
  );

  // Which copy options the create form can offer (not in the spec's list).
  api.get('/api/document-copy/parts', { schema: { tags, response: { 200: documentCopyPartsSchema } } }, async (request) => documents.copyParts(request.caller));

  api.get('/api/document/:id', { schema: { tags, params: idParamsSchema, response: { 200: documentSchema } } }, (request) =>
    documents.get(request.caller, request.params.id),
  );

  api.post(
    '/api/organization/:organizationId/document',
    { schema: { tags, params: organizationParamsSchema, body: documentInputSchema, response: { 201: documentCreatedSchema } } },
    async (request, reply) => reply.status(201).send(await documents.create(request.caller, request.params.organizationId, request.body)),
  );

  api.put('/api/document/:id', { schema: { tags, params: idParamsSchema, body: documentInputSchema, response: { 200: commandResultSchema } } }, (request) =>
    documents.update(request.caller, request.params.id, request.body),
  );

  api.delete('/api/document/:id', { schema: { tags, params: idParamsSchema, response: { 200: commandResultSchema } } }, (request) =>
    documents.remove(request.caller, request.params.id),
  );

  api.put(
    '/api/organization/:organizationId/documents/order',
    { schema: { tags, params: organizationParamsSchema, body: orderSchema, response: { 200: commandResultSchema } } },
    (request) => documents.reorder(request.caller, request.params.organizationId, request.body),
  );
}
