import { randomUUID } from 'node:crypto';
import { type SchemeCommand, schemeDecider } from '@eelarve/domain';
import { documentClassifierIds, listDocumentSchemes, listOrganizationSchemes } from '@eelarve/projections/schemes/queries';
import { deriveFieldName, fieldError, SCHEME_FIELD_NAME_PATTERN, type Scheme, type schemeDisplayOrderSchema, type schemeInputSchema } from '@eelarve/shared';
import type { FastifyInstance } from 'fastify';
import type { z } from 'zod';
import type { CommandContext } from '../../infrastructure/command-runner';
import { readModels } from '../../infrastructure/database';
import type { Caller } from '../../types';
import { documentResource, organizationResource, readableDocumentIds } from '../permissions/authorize';
import { SCHEME_EDITORS, SCHEME_READ_MODELS, schemeInPath } from './access';
import { toScheme } from './responses';

type SchemeInput = z.output<typeof schemeInputSchema>;
/** A new scheme may leave the technical name out: it is derived from the name (spec 2, section 5). */
type SchemeCreateInput = Omit<SchemeInput, 'fieldName'> & { fieldName?: string };
type SchemeOrderInput = z.output<typeof schemeDisplayOrderSchema>;

/** The technical name given, or derived from the name; a derived one must still fit the pattern. */
function fieldNameOf(name: string, fieldName: string | undefined): string {
  const value = fieldName ?? deriveFieldName(name);
  if (!SCHEME_FIELD_NAME_PATTERN.test(value))
    throw fieldError('SCHEMA_VALIDATION_ERROR', 'fieldName', 'validation.fieldName', 'request does not match the schema');
  return value;
}

/**
 * Schemes of a document (spec 2, section 5): lists for the document's and the organisation's
 * screens, create, update, delete and their order. All of a document's schemes live in one
 * stream, so their rules (unique names, classifiers of the document) hold under concurrent requests.
 */
export function schemeService(app: FastifyInstance) {
  const read = () => readModels(app.db);
  const run = (caller: Caller, command: SchemeCommand | ((context: CommandContext) => SchemeCommand), id?: string) =>
    app.commands.run({ decider: schemeDecider, command, actor: caller.actor, readModels: SCHEME_READ_MODELS, ...(id ? { id } : {}) });

  return {
    async listOfDocument(caller: Caller, documentId: string): Promise<Scheme[]> {
      await documentResource(app, caller.auth, documentId, 'read');
      return (await listDocumentSchemes(read(), documentId)).map(toScheme);
    },

    async listOfOrganization(caller: Caller, organizationId: string): Promise<Scheme[]> {
      await organizationResource(app, caller.auth, organizationId, 'read');
      const [schemes, readable] = await Promise.all([listOrganizationSchemes(read(), organizationId), readableDocumentIds(app, caller.auth, organizationId)]);
      return schemes.filter((scheme) => readable.has(scheme.document_id)).map(toScheme);
    },

    async create(caller: Caller, documentId: string, input: SchemeCreateInput) {
      const { organizationId } = await documentResource(app, caller.auth, documentId, 'updateSettings', SCHEME_EDITORS);
      const { name, description, displayOrder, classifierList } = input;
      const fieldName = fieldNameOf(name, input.fieldName);
      const classifierIds = await documentClassifierIds(read(), documentId);
      // The answer names the new scheme; the document's schemes stream is named after the document.
      const schemeId = randomUUID();
      return run(
        caller,
        {
          type: 'CreateScheme',
          documentId,
          organizationId,
          schemeId,
          name,
          fieldName,
          description,
          displayOrder,
          classifierList,
          documentClassifierIds: classifierIds,
        },
        schemeId,
      );
    },

    async update(caller: Caller, schemeId: string, input: SchemeInput) {
      const scheme = await schemeInPath(app, caller.auth, schemeId, 'updateSettings', SCHEME_EDITORS);
      const { name, fieldName, description, displayOrder, classifierList } = input;
      const classifierIds = await documentClassifierIds(read(), scheme.document_id);
      return run(
        caller,
        {
          type: 'UpdateScheme',
          documentId: scheme.document_id,
          schemeId,
          name,
          fieldName,
          description,
          displayOrder,
          classifierList,
          documentClassifierIds: classifierIds,
        },
        schemeId,
      );
    },

    async remove(caller: Caller, schemeId: string) {
      const scheme = await schemeInPath(app, caller.auth, schemeId, 'updateSettings', SCHEME_EDITORS);
      return run(caller, { type: 'DeleteScheme', documentId: scheme.document_id, schemeId }, schemeId);
    },

    async reorder(caller: Caller, documentId: string, list: SchemeOrderInput) {
      await documentResource(app, caller.auth, documentId, 'updateSettings', SCHEME_EDITORS);
      return run(caller, { type: 'ReorderSchemes', documentId, list });
    },
  };
}
