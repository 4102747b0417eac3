import { randomUUID } from 'node:crypto';
import { type BudgetCommand, type BudgetOrderCommand, budgetDecider, budgetOrderDecider } from '@eelarve/domain';
import { formatPosition, type GlobalPosition } from '@eelarve/eventstore';
import {
  adminBudgetSchema,
  adminBudgetsQuerySchema,
  budgetApiKeySchema,
  budgetCopySchemeSchema,
  budgetCreateSchema,
  budgetHierarchyNodeSchema,
  budgetInputSchema,
  budgetOrderSchema,
  budgetResponseSchema,
  budgetSyncSchema,
  budgetTagsSchema,
  commandResultSchema,
  budgetCopyPartsSchema,
  copySchemesQuerySchema,
  DomainError,
  idParamsSchema,
  type Privilege,
  transferrableSubBudgetSchema,
  transferrableSubBudgetsQuerySchema,
} from '@eelarve/shared';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { readModels } from '../../infrastructure/database';
import { actorOf, runCommand } from '../../plugins/commands';
import type { AuthContext } from '../../types';
import { canAccessEach, documentResource, organizationResource } from '../permissions/authorize';
import { isPlatformAdmin } from '../permissions/authorize';
import { deleteApiKey, issueApiKey, readApiKey } from './api-keys';
import { runComponentChange } from './components';
import {
  assertCopyPartsAvailable,
  assertCopySchemes,
  availableBudgetCopyParts,
  copyPins,
  matchingSchemes,
  registerBudgetCopyPart,
  runBudgetCopyParts,
  transferrableSubBudgets,
} from './copy';
import {
  budgetResource,
  componentFacts,
  documentBudgets,
  findDocumentRow,
  hierarchy,
  type BudgetStructure,
  budgetStructures,
  listBudgets,
  organizationBudgets,
  permissionsOf,
  sumBudgetsUsing,
  toBudget,
} from './queries';

/** The budgets list, hierarchy and forms read the budgets read model. */
const READ_MODELS = ['budgets'] as const;
const tags = ['budgets'];
const platformAdmins = { privileges: ['IS_ADMIN'] as Privilege[] };
const includeMetaSchema = z.object({ includeMeta: z.enum(['true', 'false'], { message: 'validation.allowedValues' }).optional() });
const budgetIdParamsSchema = z.object({ budgetId: z.uuid({ message: 'validation.format' }) });

const positionOf = (position: GlobalPosition | null) => (position ? formatPosition(position) : null);

/** Gateway and ERP URLs are for platform administrators only (spec 2, section 6). */
function assertAdminFields(auth: AuthContext, body: { gwUrl?: string | null; erpUrl?: string | null }): void {
  if ((body.gwUrl !== undefined || body.erpUrl !== undefined) && !isPlatformAdmin(auth)) {
    throw new DomainError('INSUFFICIENT_PERMISSIONS', 'only a platform administrator may set the gateway and ERP URLs');
  }
}

const copiesPermissions = (copy: { copyPermissions: boolean; schemes: { copySubBudgetPermissions: boolean }[] }) =>
  copy.copyPermissions || copy.schemes.some((scheme) => scheme.copySubBudgetPermissions);

export async function budgetRoutes(app: FastifyInstance): Promise<void> {
  registerBudgetCopyPart('pinnedPreselections', copyPins);

  const api = app.withTypeProvider<ZodTypeProvider>();
  const execute = (request: FastifyRequest, command: BudgetCommand) => runCommand(app, budgetDecider, command, actorOf(request), READ_MODELS);
  /** A change that may break the sum-budget rules: decided under the document's lock (components.ts). */
  const executeComponentChange = async (request: FastifyRequest, documentId: string, command: () => Promise<BudgetCommand>) => {
    const outcome = await runComponentChange(app, documentId, actorOf(request), command);
    if (outcome.position) await app.projections.waitForPosition(READ_MODELS, outcome.position, app.config.readYourWritesTimeoutMs);
    return outcome;
  };

  api.get(
    '/api/document/:id/budgets',
    { schema: { tags, params: idParamsSchema, querystring: includeMetaSchema, response: { 200: z.array(budgetResponseSchema) } } },
    async (request) => {
      const auth = request.auth;
      await documentResource(app, auth, request.params.id, 'read');
      return listBudgets(app, auth, await documentBudgets(app, request.params.id), request.query.includeMeta === 'true');
    },
  );

  api.get(
    '/api/document/:id/budgets/hierarchy',
    { schema: { tags, params: idParamsSchema, response: { 200: z.array(budgetHierarchyNodeSchema) } } },
    async (request) => {
      const auth = request.auth;
      await documentResource(app, auth, request.params.id, 'read');
      return hierarchy(app, auth, await documentBudgets(app, request.params.id));
    },
  );

  api.get(
    '/api/document/:id/budgets/transferrable-sub-budgets',
    { schema: { tags, params: idParamsSchema, querystring: transferrableSubBudgetsQuerySchema, response: { 200: z.array(transferrableSubBudgetSchema) } } },
    async (request) => {
      const auth = request.auth;
      await documentResource(app, auth, request.params.id, 'read');
      const source = await budgetResource(app, auth, request.query.sourceBudgetId, 'read');
      return transferrableSubBudgets(app, source, request.params.id);
    },
  );

  /** The organisation's readable budgets of readable documents (the copy form's tree of documents). */
  api.get('/api/organization/:id/budgets', { schema: { tags, params: idParamsSchema, response: { 200: z.array(budgetResponseSchema) } } }, async (request) => {
    const auth = request.auth;
    await organizationResource(app, auth, request.params.id, 'read');
    const rows = await organizationBudgets(app, request.params.id);
    const documentIds = [...new Set(rows.map((row) => row.document_id))];
    const access = await canAccessEach(
      app,
      auth,
      documentIds.map((documentId) => ({ organizationId: request.params.id, documentId })),
      'read',
    );
    const readable = new Set(documentIds.filter((_, index) => access[index]));
    return listBudgets(
      app,
      auth,
      rows.filter((row) => readable.has(row.document_id)),
      false,
    );
  });

  api.get('/api/budget/:id', { schema: { tags, params: idParamsSchema, response: { 200: budgetResponseSchema } } }, async (request) => {
    const auth = request.auth;
    const row = await budgetResource(app, auth, request.params.id, 'read');
    const structure = (await budgetStructures(app, [row])).get(row.id) as BudgetStructure;
    return toBudget(app, auth, row, await permissionsOf(app, auth, row), structure);
  });

  api.post(
    '/api/document/:id/budget',
    { schema: { tags, params: idParamsSchema, body: budgetCreateSchema, response: { 201: commandResultSchema } } },
    async (request, reply) => {
      const auth = request.auth;
      const documentId = request.params.id;
      const resource = await documentResource(app, auth, documentId, 'update');
      const document = await findDocumentRow(app, documentId);
      const body = request.body;
      assertAdminFields(auth, body);
      const budgetId = randomUUID();
      let source = null;
      if (body.copy) {
        source = await budgetResource(app, auth, body.copy.sourceBudgetId, 'read');
        if (copiesPermissions(body.copy) && !auth.privileges.includes('USER_ADMIN') && !isPlatformAdmin(auth)) {
          throw new DomainError('INSUFFICIENT_PERMISSIONS', 'copying permissions needs USER_ADMIN');
        }
        assertCopySchemes(body.copy.schemes, await matchingSchemes(app, source, documentId));
      }
      const command = async (): Promise<BudgetCommand> => ({
        type: 'CreateBudget',
        budgetId,
        documentId,
        organizationId: resource.organizationId,
        budgetType: body.type,
        name: body.name,
        description: body.description,
        tags: body.tags,
        resourceStatusId: body.resourceStatusId,
        sumBudgetComponentIds: body.sumBudgetComponentIds,
        gwUrl: body.gwUrl,
        erpUrl: body.erpUrl,
        componentFacts: body.type === 'SUM_BUDGET' ? await componentFacts(app, auth, await documentBudgets(app, documentId)) : [],
        documentHasMasterClassifier: Boolean(document?.master_classifier_id),
        copiedFrom: body.copy ?? null,
        now: new Date(),
      });
      const outcome = await (async () => {
        // Only a sum budget has components; other new budgets cannot break the sum-budget rules.
        if (body.type === 'SUM_BUDGET') return executeComponentChange(request, documentId, command);
        const built = await command();
        if (body.copy) {
          // The budget rules (e.g. no comment copy into a monitoring budget) answer before a missing copy part does.
          budgetDecider.decide(built, budgetDecider.initialState());
          assertCopyPartsAvailable(body.copy);
        }
        return execute(request, built);
      })();
      if (body.type === 'MONITORING') {
        await issueApiKey(app.db, budgetId);
        await execute(request, { type: 'IssueBudgetApiKey', budgetId, now: new Date() });
      }
      if (source && body.copy) await runBudgetCopyParts({ app, request, source, budgetId, documentId }, body.copy);
      return reply.status(201).send({ id: budgetId, position: positionOf(outcome.position) });
    },
  );

  api.put('/api/budget/:id', { schema: { tags, params: idParamsSchema, body: budgetInputSchema, response: { 200: commandResultSchema } } }, async (request) => {
    const auth = request.auth;
    const row = await budgetResource(app, auth, request.params.id, 'update');
    const body = request.body;
    assertAdminFields(auth, body);
    const command = async (): Promise<BudgetCommand> => ({
      type: 'UpdateBudget',
      budgetId: row.id,
      budgetType: body.type,
      name: body.name,
      description: body.description,
      resourceStatusId: body.resourceStatusId,
      sumBudgetComponentIds: body.sumBudgetComponentIds,
      gwUrl: body.gwUrl,
      erpUrl: body.erpUrl,
      componentFacts: row.type === 'SUM_BUDGET' ? await componentFacts(app, auth, await documentBudgets(app, row.document_id)) : [],
    });
    const outcome = row.type === 'SUM_BUDGET' ? await executeComponentChange(request, row.document_id, command) : await execute(request, await command());
    return { id: row.id, position: positionOf(outcome.position) };
  });

  api.put('/api/budget/:id/tags', { schema: { tags, params: idParamsSchema, body: budgetTagsSchema, response: { 200: commandResultSchema } } }, async (request) => {
    const auth = request.auth;
    const row = await budgetResource(app, auth, request.params.id, 'update');
    const outcome = await execute(request, { type: 'SetBudgetTags', budgetId: row.id, tags: request.body.tags });
    return { id: row.id, position: positionOf(outcome.position) };
  });

  api.delete('/api/budget/:id', { schema: { tags, params: idParamsSchema, response: { 200: commandResultSchema } } }, async (request) => {
    const auth = request.auth;
    const row = await budgetResource(app, auth, request.params.id, 'update');
    // Any budget may be a component: its deletion must not race a sum budget adding it.
    const outcome = await executeComponentChange(request, row.document_id, async () => ({
      type: 'DeleteBudget',
      budgetId: row.id,
      usedAsComponentBy: await sumBudgetsUsing(app, row.id),
    }));
    await deleteApiKey(app.db, row.id);
    return { id: row.id, position: positionOf(outcome.position) };
  });

  api.get(
    '/api/budget/:id/api-key',
    { config: { access: platformAdmins }, schema: { tags, params: idParamsSchema, response: { 200: budgetApiKeySchema } } },
    async (request) => {
      const auth = request.auth;
      const row = await budgetResource(app, auth, request.params.id, 'read');
      if (row.type !== 'MONITORING') throw new DomainError('BUDGET_NOT_MONITORING');
      const existing = await readApiKey(app.db, row.id);
      if (existing) return { apiKey: existing };
      const apiKey = await issueApiKey(app.db, row.id);
      await execute(request, { type: 'IssueBudgetApiKey', budgetId: row.id, now: new Date() });
      return { apiKey };
    },
  );

  // Which copy options the budget form can offer (not in the spec's list: the web greys out parts whose feature is not there yet).
  api.get('/api/budget-copy/parts', { schema: { tags, response: { 200: budgetCopyPartsSchema } } }, async (request) => {
    request.auth;
    return { parts: availableBudgetCopyParts() };
  });

  api.get(
    '/api/budget/:id/copy-schemes',
    { schema: { tags, params: idParamsSchema, querystring: copySchemesQuerySchema, response: { 200: z.array(budgetCopySchemeSchema) } } },
    async (request) => {
      const auth = request.auth;
      const source = await budgetResource(app, auth, request.params.id, 'read');
      const targetDocumentId = request.query.targetDocumentId ?? source.document_id;
      await documentResource(app, auth, targetDocumentId, 'read');
      return matchingSchemes(app, source, targetDocumentId);
    },
  );

  api.put(
    '/api/document/:id/budgets/order',
    { schema: { tags, params: idParamsSchema, body: budgetOrderSchema, response: { 200: commandResultSchema } } },
    async (request) => {
      const auth = request.auth;
      const documentId = request.params.id;
      await documentResource(app, auth, documentId, 'update');
      const ids = new Set((await documentBudgets(app, documentId)).map((row) => row.id));
      const unknown = request.body.list.find((entry) => !ids.has(entry.id));
      if (unknown) throw new DomainError('BUDGET_NOT_FOUND', 'not a budget of the document', { id: unknown.id });
      const command: BudgetOrderCommand = { type: 'ReorderBudgets', documentId, list: request.body.list };
      const outcome = await runCommand(app, budgetOrderDecider, command, actorOf(request), READ_MODELS);
      return { id: documentId, position: positionOf(outcome.position) };
    },
  );

  api.put(
    '/api/admin/budgets/:budgetId/sync',
    { config: { access: platformAdmins }, schema: { tags, params: budgetIdParamsSchema, body: budgetSyncSchema, response: { 200: commandResultSchema } } },
    async (request) => {
      const auth = request.auth;
      const row = await budgetResource(app, auth, request.params.budgetId, 'update');
      const outcome = await execute(request, { type: 'SetBudgetSync', budgetId: row.id, enabled: request.body.enabled });
      return { id: row.id, position: positionOf(outcome.position) };
    },
  );

  api.get(
    '/api/admin/budgets',
    { config: { access: platformAdmins }, schema: { tags, querystring: adminBudgetsQuerySchema, response: { 200: z.array(adminBudgetSchema) } } },
    async (request) => {
      const { type, inclusionList } = request.query;
      const included = inclusionList
        ?.split(',')
        .map((value) => value.trim())
        .filter((value) => z.uuid().safeParse(value).success);
      let query = readModels(app.db)
        .selectFrom('budgets')
        .leftJoin('documents', 'documents.id', 'budgets.document_id')
        .select([
          'budgets.id',
          'budgets.name',
          'budgets.type',
          'budgets.document_id',
          'budgets.organization_id',
          'budgets.sync_enabled',
          'budgets.last_execution_time',
          'documents.name as document_name',
        ])
        .orderBy('budgets.organization_id')
        .orderBy('budgets.document_id')
        .orderBy('budgets.sort_order', 'desc')
        .orderBy('budgets.id');
      if (type) query = query.where('budgets.type', '=', type);
      if (included) {
        if (included.length === 0) return [];
        query = query.where('budgets.id', 'in', included);
      }
      const rows = await query.execute();
      return rows.map((row) => ({
        id: row.id,
        name: row.name,
        type: row.type,
        documentId: row.document_id,
        documentName: row.document_name,
        organizationId: row.organization_id,
        syncEnabled: row.sync_enabled,
        result: { lastExecutionTime: row.last_execution_time ? new Date(row.last_execution_time).toISOString() : null, status: null },
      }));
    },
  );
}
