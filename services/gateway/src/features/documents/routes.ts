import { randomUUID } from 'node:crypto';
import { type DocumentCommand, type DocumentEvent, documentDecider, documentOrderDecider, documentStream, foldEvents } from '@eelarve/domain';
import { formatPosition, type GlobalPosition } from '@eelarve/eventstore';
import {
  commandResultSchema,
  type DocumentCopyOptions,
  DomainError,
  documentCopyPartsSchema,
  documentCreatedSchema,
  documentInputSchema,
  documentSchema,
  idParamsSchema,
  orderSchema,
  type Privilege,
} from '@eelarve/shared';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { type CommandActor, executeCommand } from '../../infrastructure/commands';
import { readModels } from '../../infrastructure/database';
import { actorOf, runCommand } from '../../plugins/commands';
import type { AuthContext } from '../../types';
import { documentResource, organizationResource } from '../permissions/authorize';
import { registerTaskCompletionCheck, startTask, type TaskStep } from '../tasks/runner';
import { isPlatformAdmin } from '../permissions/authorize';
import { availableCopySteps, chosenCopySteps, type DocumentCopyContext, documentCopyStep } from './copy';
import { documentCopyIsComplete } from './copy-status';
import { checkMasterClassifier } from './master-classifier';
import { documentWithPermissions, findDocument, listDocuments } from './queries';

/** Every document screen (sider, settings, budgets) reads the documents read model. */
const READ_MODELS = ['documents'] as const;
const tags = ['documents'];
const uuid = z.uuid({ message: 'validation.format' });
const organizationParamsSchema = z.object({ organizationId: uuid });

const positionOf = (position: GlobalPosition | null) => (position ? formatPosition(position) : null);

function fieldError(path: string, message: string): DomainError {
  return new DomainError('SCHEMA_VALIDATION_ERROR', 'request does not match the schema', [{ path, message }]);
}

/** Copy options need privileges (spec 2, section 5); IS_ADMIN may do everything. */
const COPY_PRIVILEGES: Partial<Record<keyof DocumentCopyOptions, Privilege>> = {
  permissions: 'USER_ADMIN',
  classifiers: 'CLASSIFICATION_ADMIN',
  schemes: 'SCHEMA_ADMIN',
};

function assertCopyPrivileges(auth: AuthContext, options: DocumentCopyOptions): void {
  if (isPlatformAdmin(auth)) return;
  for (const [option, privilege] of Object.entries(COPY_PRIVILEGES) as [keyof DocumentCopyOptions, Privilege][]) {
    if (options[option] && !auth.privileges.includes(privilege)) {
      throw new DomainError('INSUFFICIENT_PERMISSIONS', `copying ${option} needs ${privilege}`, [{ path: `body.copy.${option}`, message: 'validation.privilege' }]);
    }
  }
}

/** A chosen part this version cannot copy is refused before the document is made, never skipped. */
function assertCopyPartsAvailable(options: DocumentCopyOptions): void {
  const available = availableCopySteps();
  for (const name of chosenCopySteps(options)) {
    if (!available.includes(name)) throw new DomainError('COPY_PART_NOT_AVAILABLE', `copying ${name} is not available`, [{ path: `body.copy.${name}`, message: 'copyPartUnavailable' }]);
  }
}

/** Sets the copy's master classifier to the copy of the source's one, once classifiers are copied. */
async function copyMasterClassifier(context: DocumentCopyContext): Promise<void> {
  const source = await findDocument(context.app, context.sourceDocumentId);
  const mapped = source?.master_classifier_id ? context.ids.get(source.master_classifier_id) : undefined;
  if (!mapped) return;
  const state = foldEvents(documentDecider, (await context.app.store.readStream(documentStream(context.targetDocumentId))) as unknown as DocumentEvent[]);
  if (state.status !== 'active') return;
  const { name, description, period, recordAmountKey, allowCommentingWithReadPermissions, resourceStatusId } = state;
  const outcome = await executeCommand(context.app.store, documentDecider, {
    type: 'UpdateDocument',
    documentId: context.targetDocumentId,
    name,
    description,
    period,
    recordAmountKey,
    allowCommentingWithReadPermissions,
    resourceStatusId,
    masterClassifierId: mapped,
    recordsCount: 0,
    platformAdmin: true,
  }, context.actor);
  // The task reports SUCCESS only once the copy's screens show it.
  if (outcome.position) await context.app.projections.waitForPosition(READ_MODELS, outcome.position, context.app.config.readYourWritesTimeoutMs);
}

function copySteps(context: DocumentCopyContext): TaskStep[] {
  const steps: TaskStep[] = chosenCopySteps(context.options).map((name) => ({
    name,
    run: async () => {
      const step = documentCopyStep(name);
      if (!step) throw new Error('COPY_STEP_NOT_AVAILABLE');
      await step(context);
    },
  }));
  if (context.options.classifiers) {
    const after = steps.findIndex((step) => step.name === 'classifiers') + 1;
    steps.splice(after, 0, { name: 'masterClassifier', run: () => copyMasterClassifier(context) });
  }
  return steps;
}

async function startCopy(app: FastifyInstance, request: FastifyRequest, auth: AuthContext, organizationId: string, targetDocumentId: string, options: DocumentCopyOptions): Promise<string> {
  const actor: CommandActor = { ...actorOf(request), causationId: request.id };
  const context: DocumentCopyContext = { app, actor, organizationId, sourceDocumentId: options.sourceDocumentId, targetDocumentId, options, ids: new Map() };
  return startTask(
    app,
    { type: 'DOCUMENT_COPY', organizationId, userId: auth.userId, occupationId: auth.occupationId, documentId: targetDocumentId, params: { ...options, targetDocumentId } },
    copySteps(context),
  );
}

export async function documentRoutes(app: FastifyInstance): Promise<void> {
  const api = app.withTypeProvider<ZodTypeProvider>();
  // A copy interrupted after its last write is SUCCESS when the copy holds every chosen part (tasks/runner.ts).
  registerTaskCompletionCheck('DOCUMENT_COPY', documentCopyIsComplete);
  const execute = <C extends DocumentCommand>(request: FastifyRequest, command: C) => runCommand(app, documentDecider, command, actorOf(request), READ_MODELS);

  api.get(
    '/api/organization/:organizationId/documents',
    { schema: { tags, params: organizationParamsSchema, response: { 200: z.array(documentSchema) } } },
    async (request) => {
      const auth = request.auth;
      await organizationResource(app, auth, request.params.organizationId, 'read');
      return listDocuments(app, auth, request.params.organizationId, true);
    },
  );

  api.get('/api/organization/:id/all-documents', { schema: { tags, params: idParamsSchema, response: { 200: z.array(documentSchema) } } }, async (request) => {
    const auth = request.auth;
    await organizationResource(app, auth, request.params.id, 'read');
    return listDocuments(app, auth, request.params.id, false);
  });

  // Which copy options the create form can offer (not in the spec's list: the web greys out parts whose feature is not there yet).
  api.get('/api/document-copy/parts', { schema: { tags, response: { 200: documentCopyPartsSchema } } }, async (request) => {
    request.auth;
    return { parts: availableCopySteps() };
  });

  api.get('/api/document/:id', { schema: { tags, params: idParamsSchema, response: { 200: documentSchema } } }, async (request) => {
    const auth = request.auth;
    await documentResource(app, auth, request.params.id, 'read');
    const row = await findDocument(app, request.params.id);
    if (!row) throw new DomainError('OBJECT_NOT_FOUND', 'document not found');
    return documentWithPermissions(app, auth, row);
  });

  api.post(
    '/api/organization/:organizationId/document',
    { schema: { tags, params: organizationParamsSchema, body: documentInputSchema, response: { 201: documentCreatedSchema } } },
    async (request, reply) => {
      const auth = request.auth;
      const { organizationId } = request.params;
      await organizationResource(app, auth, organizationId, 'update');
      const body = request.body;
      if (body.organizationId && body.organizationId !== organizationId) throw fieldError('body.organizationId', 'validation.mismatch');
      const copy = body.copy ?? null;
      if (copy) {
        assertCopyPrivileges(auth, copy);
        assertCopyPartsAvailable(copy);
        await documentResource(app, auth, copy.sourceDocumentId, 'read');
      }
      const allowComments = body.allowCommentingWithReadPermissions ?? false;
      if (allowComments && !isPlatformAdmin(auth)) throw new DomainError('INSUFFICIENT_PERMISSIONS', 'only a platform administrator may set allowCommentingWithReadPermissions');
      const documentId = randomUUID();
      const outcome = await execute(request, {
        type: 'CreateDocument',
        documentId,
        organizationId,
        name: body.name,
        description: body.description,
        period: body.period,
        recordAmountKey: body.recordAmountKey,
        allowCommentingWithReadPermissions: allowComments,
        resourceStatusId: body.resourceStatusId,
        copiedFromDocumentId: copy?.sourceDocumentId ?? null,
        now: new Date(),
      });
      const result: z.infer<typeof documentCreatedSchema> = { id: documentId, position: positionOf(outcome.position) };
      if (copy) result.taskId = await startCopy(app, request, auth, organizationId, documentId, copy);
      return reply.status(201).send(result);
    },
  );

  api.put('/api/document/:id', { schema: { tags, params: idParamsSchema, body: documentInputSchema, response: { 200: commandResultSchema } } }, async (request) => {
    const auth = request.auth;
    const documentId = request.params.id;
    await documentResource(app, auth, documentId, 'update');
    const row = await findDocument(app, documentId);
    if (!row) throw new DomainError('OBJECT_NOT_FOUND', 'document not found');
    const body = request.body;
    if (body.id && body.id !== documentId) throw fieldError('body.id', 'validation.mismatch');
    const masterClassifierId = body.masterClassifierId === undefined ? row.master_classifier_id : body.masterClassifierId;
    await checkMasterClassifier(app, documentId, masterClassifierId, row.master_classifier_id);
    const outcome = await execute(request, {
      type: 'UpdateDocument',
      documentId,
      name: body.name,
      description: body.description,
      period: body.period,
      masterClassifierId,
      recordAmountKey: body.recordAmountKey,
      allowCommentingWithReadPermissions: body.allowCommentingWithReadPermissions ?? row.allow_commenting_with_read_permissions,
      resourceStatusId: body.resourceStatusId,
      recordsCount: row.records_count,
      platformAdmin: isPlatformAdmin(auth),
    });
    return { id: documentId, position: positionOf(outcome.position) };
  });

  api.delete('/api/document/:id', { schema: { tags, params: idParamsSchema, response: { 200: commandResultSchema } } }, async (request) => {
    const auth = request.auth;
    const documentId = request.params.id;
    await documentResource(app, auth, documentId, 'update');
    const outcome = await execute(request, { type: 'DeleteDocument', documentId });
    return { id: documentId, position: positionOf(outcome.position) };
  });

  api.put(
    '/api/organization/:organizationId/documents/order',
    { schema: { tags, params: organizationParamsSchema, body: orderSchema, response: { 200: commandResultSchema } } },
    async (request) => {
      const auth = request.auth;
      const { organizationId } = request.params;
      await organizationResource(app, auth, organizationId, 'update');
      const { list } = request.body;
      if (request.body.organizationId && request.body.organizationId !== organizationId) throw fieldError('body.organizationId', 'validation.mismatch');
      const ids = [...new Set(list.map((entry) => entry.id))];
      const found = await readModels(app.db).selectFrom('documents').select('id').where('organization_id', '=', organizationId).where('id', 'in', ids).execute();
      if (found.length !== ids.length) throw new DomainError('OBJECT_NOT_FOUND', 'a document of the list is not in the organisation');
      const outcome = await runCommand(app, documentOrderDecider, { type: 'ReorderDocuments', organizationId, list }, actorOf(request), READ_MODELS);
      return { id: organizationId, position: positionOf(outcome.position) };
    },
  );
}
