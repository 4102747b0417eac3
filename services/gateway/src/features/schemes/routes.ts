import { randomUUID } from 'node:crypto';
import { type SchemeCommand, schemeDecider } from '@eelarve/domain';
import { formatPosition, type GlobalPosition } from '@eelarve/eventstore';
import {
  commandResultSchema,
  DomainError,
  deriveFieldName,
  idParamsSchema,
  type Privilege,
  SCHEME_FIELD_NAME_PATTERN,
  schemeDisplayOrderSchema,
  schemeInputSchema,
  schemeSchema,
} from '@eelarve/shared';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { actorOf, runCommand } from '../../plugins/commands';
import { registerDocumentCopyStep } from '../documents/copy';
import { documentResource, organizationResource } from '../permissions/authorize';
import { copySchemes } from './copy';
import { documentClassifierIds, listDocumentSchemes, listOrganizationSchemes, SCHEME_READ_MODELS, schemeInPath } from './queries';

export { SCHEME_READ_MODELS };

const tags = ['schemes'];
/** Reading the list of a document's schemes: the budget's sub-budgets tab needs it too, so any occupation with read access. */
const readers = 'occupation' as const;
const viewers = { privileges: ['SCHEMA_VIEW', 'SCHEMA_ADMIN'] as Privilege[] };
export const schemeEditors = { privileges: ['SCHEMA_ADMIN'] as Privilege[] };
/** Editing a document's schemes: SCHEMA_ADMIN, and update of the document. */
export const editOptions = { privileges: ['SCHEMA_ADMIN'] as Privilege[] };

export const positionOf = (position: GlobalPosition | null) => (position ? formatPosition(position) : null);

/** A new scheme may leave the technical name out: it is derived from the name (spec 2, section 5). */
const schemeCreateSchema = schemeInputSchema.extend({ fieldName: schemeInputSchema.shape.fieldName.optional() });
const documentParamsSchema = z.object({ documentId: z.uuid({ message: 'validation.format' }) });
const schemeParamsSchema = z.object({ schemaId: z.uuid({ message: 'validation.format' }) });
const deleteParamsSchema = z.object({ schemeId: z.uuid({ message: 'validation.format' }) });

function fieldNameOf(name: string, fieldName: string | undefined): string {
  const value = fieldName ?? deriveFieldName(name);
  if (!SCHEME_FIELD_NAME_PATTERN.test(value)) {
    throw new DomainError('SCHEMA_VALIDATION_ERROR', 'request does not match the schema', [{ path: 'body.fieldName', message: 'validation.fieldName' }]);
  }
  return value;
}

export async function schemeRoutes(app: FastifyInstance): Promise<void> {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const execute = (request: FastifyRequest, command: SchemeCommand) => runCommand(app, schemeDecider, command, actorOf(request), SCHEME_READ_MODELS);
  registerDocumentCopyStep('schemes', copySchemes);

  api.get('/api/document/:id/schemas', { config: { access: readers }, schema: { tags, params: idParamsSchema, response: { 200: z.array(schemeSchema) } } }, async (request) => {
    await documentResource(app, request.auth, request.params.id, 'read');
    return listDocumentSchemes(app, request.params.id);
  });

  api.get('/api/organization/:id/schemas', { config: { access: viewers }, schema: { tags, params: idParamsSchema, response: { 200: z.array(schemeSchema) } } }, async (request) => {
    await organizationResource(app, request.auth, request.params.id, 'read');
    return listOrganizationSchemes(app, request.params.id);
  });

  api.post(
    '/api/document/:documentId/schema',
    { config: { access: schemeEditors }, schema: { tags, params: documentParamsSchema, body: schemeCreateSchema, response: { 201: commandResultSchema } } },
    async (request, reply) => {
      const { documentId } = request.params;
      const { organizationId } = await documentResource(app, request.auth, documentId, 'update', editOptions);
      const schemeId = randomUUID();
      const { name, description, displayOrder, classifierList } = request.body;
      const outcome = await execute(request, {
        type: 'CreateScheme',
        documentId,
        organizationId,
        schemeId,
        name,
        fieldName: fieldNameOf(name, request.body.fieldName),
        description,
        displayOrder,
        classifierList,
        documentClassifierIds: await documentClassifierIds(app, documentId),
      });
      return reply.status(201).send({ id: schemeId, position: positionOf(outcome.position) });
    },
  );

  api.put(
    '/api/schema/:schemaId',
    { config: { access: schemeEditors }, schema: { tags, params: schemeParamsSchema, body: schemeInputSchema, response: { 200: commandResultSchema } } },
    async (request) => {
      const { schemaId } = request.params;
      const scheme = await schemeInPath(app, request.auth, schemaId, 'update', editOptions);
      const { name, fieldName, description, displayOrder, classifierList } = request.body;
      const outcome = await execute(request, {
        type: 'UpdateScheme',
        documentId: scheme.document_id,
        schemeId: schemaId,
        name,
        fieldName,
        description,
        displayOrder,
        classifierList,
        documentClassifierIds: await documentClassifierIds(app, scheme.document_id),
      });
      return { id: schemaId, position: positionOf(outcome.position) };
    },
  );

  api.delete('/api/schema/:schemeId', { config: { access: schemeEditors }, schema: { tags, params: deleteParamsSchema, response: { 200: commandResultSchema } } }, async (request) => {
    const { schemeId } = request.params;
    const scheme = await schemeInPath(app, request.auth, schemeId, 'update', editOptions);
    const outcome = await execute(request, { type: 'DeleteScheme', documentId: scheme.document_id, schemeId });
    return { id: schemeId, position: positionOf(outcome.position) };
  });

  api.put(
    '/api/document/:documentId/schema-display-order',
    { config: { access: schemeEditors }, schema: { tags, params: documentParamsSchema, body: schemeDisplayOrderSchema, response: { 200: commandResultSchema } } },
    async (request) => {
      const { documentId } = request.params;
      await documentResource(app, request.auth, documentId, 'update', editOptions);
      const outcome = await execute(request, { type: 'ReorderSchemes', documentId, list: request.body });
      return { id: documentId, position: positionOf(outcome.position) };
    },
  );
}
