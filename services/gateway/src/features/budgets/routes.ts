import {
  adminBudgetSchema,
  adminBudgetsQuerySchema,
  budgetApiKeySchema,
  budgetCopyPartsSchema,
  budgetCopySchemeSchema,
  budgetCreateSchema,
  budgetHierarchyNodeSchema,
  budgetInputSchema,
  budgetOrderSchema,
  budgetResponseSchema,
  budgetSyncSchema,
  budgetTagsSchema,
  commandResultSchema,
  copySchemesQuerySchema,
  idParamsSchema,
  type Privilege,
  transferrableSubBudgetSchema,
  transferrableSubBudgetsQuerySchema,
} from '@eelarve/shared';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { budgetService } from './service';

const tags = ['budgets'];
const platformAdmins = { privileges: ['IS_ADMIN'] as Privilege[] };
const includeMetaSchema = z.object({ includeMeta: z.enum(['true', 'false'], { message: 'validation.allowedValues' }).optional() });
const budgetIdParamsSchema = z.object({ budgetId: z.uuid({ message: 'validation.format' }) });

export async function budgetRoutes(app: FastifyInstance): Promise<void> {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const budgets = budgetService(app);

  api.get(
    '/api/document/:id/budgets',
    { schema: { tags, params: idParamsSchema, querystring: includeMetaSchema, response: { 200: z.array(budgetResponseSchema) } } },
    (request) => budgets.list(request.caller, request.params.id, request.query.includeMeta === 'true'),
  );

  api.get(
    '/api/document/:id/budgets/hierarchy',
    { schema: { tags, params: idParamsSchema, response: { 200: z.array(budgetHierarchyNodeSchema) } } },
    (request) => budgets.hierarchy(request.caller, request.params.id),
  );

  api.get(
    '/api/document/:id/budgets/transferrable-sub-budgets',
    { schema: { tags, params: idParamsSchema, querystring: transferrableSubBudgetsQuerySchema, response: { 200: z.array(transferrableSubBudgetSchema) } } },
    (request) => budgets.transferrableSubBudgets(request.caller, request.params.id, request.query.sourceBudgetId),
  );

  api.get('/api/organization/:id/budgets', { schema: { tags, params: idParamsSchema, response: { 200: z.array(budgetResponseSchema) } } }, (request) =>
    budgets.ofOrganization(request.caller, request.params.id),
  );

  api.get('/api/budget/:id', { schema: { tags, params: idParamsSchema, response: { 200: budgetResponseSchema } } }, (request) =>
    budgets.get(request.caller, request.params.id),
  );

  api.post(
    '/api/document/:id/budget',
    { schema: { tags, params: idParamsSchema, body: budgetCreateSchema, response: { 201: commandResultSchema } } },
    async (request, reply) => reply.status(201).send(await budgets.create(request.caller, request.params.id, request.body)),
  );

  api.put('/api/budget/:id', { schema: { tags, params: idParamsSchema, body: budgetInputSchema, response: { 200: commandResultSchema } } }, (request) =>
    budgets.update(request.caller, request.params.id, request.body),
  );

  api.put('/api/budget/:id/tags', { schema: { tags, params: idParamsSchema, body: budgetTagsSchema, response: { 200: commandResultSchema } } }, (request) =>
    budgets.setTags(request.caller, request.params.id, request.body.tags),
  );

  api.delete('/api/budget/:id', { schema: { tags, params: idParamsSchema, response: { 200: commandResultSchema } } }, (request) =>
    budgets.remove(request.caller, request.params.id),
  );

  api.get(
    '/api/budget/:id/api-key',
    { config: { access: platformAdmins }, schema: { tags, params: idParamsSchema, response: { 200: budgetApiKeySchema } } },
    (request) => budgets.apiKey(request.caller, request.params.id),
  );

  // Not in the spec's list: the web greys out copy parts whose feature is not there yet.
  api.get('/api/budget-copy/parts', { schema: { tags, response: { 200: budgetCopyPartsSchema } } }, async (request) => budgets.copyParts(request.caller));

  api.get(
    '/api/budget/:id/copy-schemes',
    { schema: { tags, params: idParamsSchema, querystring: copySchemesQuerySchema, response: { 200: z.array(budgetCopySchemeSchema) } } },
    (request) => budgets.copySchemes(request.caller, request.params.id, request.query.targetDocumentId),
  );

  api.put(
    '/api/document/:id/budgets/order',
    { schema: { tags, params: idParamsSchema, body: budgetOrderSchema, response: { 200: commandResultSchema } } },
    (request) => budgets.reorder(request.caller, request.params.id, request.body.list),
  );

  api.put(
    '/api/admin/budgets/:budgetId/sync',
    { config: { access: platformAdmins }, schema: { tags, params: budgetIdParamsSchema, body: budgetSyncSchema, response: { 200: commandResultSchema } } },
    (request) => budgets.setSync(request.caller, request.params.budgetId, request.body.enabled),
  );

  api.get(
    '/api/admin/budgets',
    { config: { access: platformAdmins }, schema: { tags, querystring: adminBudgetsQuerySchema, response: { 200: z.array(adminBudgetSchema) } } },
    (request) => budgets.adminList(request.caller, request.query),
  );
}
