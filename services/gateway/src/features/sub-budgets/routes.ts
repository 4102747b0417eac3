import {
  commandResultSchema,
  deleteSubBudgetsSchema,
  hasRecordsSchema,
  idParamsSchema,
  preselectionsInputSchema,
  preselectionsSchema,
  schemeBudgetSettingsSchema,
  subBudgetCountsSchema,
  subBudgetImportResultSchema,
  subBudgetImportSchema,
  subBudgetInputSchema,
  subBudgetSchema,
} from '@eelarve/shared';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { sendJsonText } from '../../infrastructure/json-text';
import { z } from 'zod';
import { SCHEME_EDITORS as editors, SCHEME_VIEWERS as viewers } from '../schemes/access';
import { subBudgetService } from './service';

/**
 * Sub-budgets of a scheme, their classifier preselections, import, and the budgets' pinned
 * sub-budgets (spec 2, section 7). Besides the spec's calls:
 * - GET api/schema/{id}/sub-budget-counts → { total, pinnedByBudget: { budgetId: count } };
 * - GET api/sub-budget/{id}/has-records → { hasRecords, recordsCount }.
 * GET api/budget/{b}/sub-budget/{s}/matching-budgets (spec 3, section 7) answers the document's
 * other readable budgets with records in the sub-budget: [{ id, name, type, recordsCount }].
 */
const tags = ['sub-budgets'];
const uuid = z.uuid({ message: 'validation.format' });
const schemaParamsSchema = z.object({ schemaId: uuid });
const subBudgetParamsSchema = z.object({ schemaId: uuid, subBudgetId: uuid });
const budgetSchemaParamsSchema = z.object({ budgetId: uuid, schemaId: uuid });
const onlySubBudgetParamsSchema = z.object({ subBudgetId: uuid });
const budgetSubBudgetParamsSchema = z.object({ budgetId: uuid, subBudgetId: uuid });
const matchingBudgetsSchema = z.array(z.object({ id: z.string(), name: z.string(), type: z.string(), recordsCount: z.number() }));

export async function subBudgetRoutes(app: FastifyInstance): Promise<void> {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const subBudgets = subBudgetService(app);

  api.get(
    '/api/schema/:schemaId/sub-budgets',
    { config: { access: viewers }, schema: { tags, params: schemaParamsSchema, response: { 200: z.array(subBudgetSchema) } } },
    (request, reply) => sendJsonText(reply, subBudgets.list(request.caller, request.params.schemaId)),
  );

  api.get(
    '/api/schema/:id/sub-budget-counts',
    { config: { access: viewers }, schema: { tags, params: idParamsSchema, response: { 200: subBudgetCountsSchema } } },
    (request) => subBudgets.counts(request.caller, request.params.id),
  );

  api.get('/api/sub-budget/:id/has-records', { schema: { tags, params: idParamsSchema, response: { 200: hasRecordsSchema } } }, (request) =>
    subBudgets.hasRecords(request.caller, request.params.id),
  );

  api.get(
    '/api/budget/:budgetId/sub-budget/:subBudgetId/matching-budgets',
    { config: { access: { privileges: ['DATA_VIEW'] } }, schema: { tags, params: budgetSubBudgetParamsSchema, response: { 200: matchingBudgetsSchema } } },
    (request) => subBudgets.matchingBudgets(request.caller, request.params.budgetId, request.params.subBudgetId),
  );

  api.get(
    '/api/budget/:budgetId/schema/:schemaId/sub-budgets',
    { schema: { tags, params: budgetSchemaParamsSchema, response: { 200: z.array(subBudgetSchema) } } },
    (request, reply) => sendJsonText(reply, subBudgets.listOfBudget(request.caller, request.params.budgetId, request.params.schemaId)),
  );

  api.post(
    '/api/schema/:schemaId/sub-budget',
    { config: { access: editors }, schema: { tags, params: schemaParamsSchema, body: subBudgetInputSchema, response: { 201: commandResultSchema } } },
    async (request, reply) => reply.status(201).send(await subBudgets.create(request.caller, request.params.schemaId, request.body)),
  );

  api.put(
    '/api/schema/:schemaId/sub-budget/:subBudgetId',
    { config: { access: editors }, schema: { tags, params: subBudgetParamsSchema, body: subBudgetInputSchema, response: { 200: commandResultSchema } } },
    (request) => subBudgets.update(request.caller, request.params.schemaId, request.params.subBudgetId, request.body),
  );

  api.delete(
    '/api/schema/:schemaId/sub-budget/:subBudgetId',
    { config: { access: editors }, schema: { tags, params: subBudgetParamsSchema, response: { 200: commandResultSchema } } },
    (request) => subBudgets.remove(request.caller, request.params.schemaId, request.params.subBudgetId),
  );

  api.delete(
    '/api/schema/:schemaId/sub-budgets',
    { config: { access: editors }, schema: { tags, params: schemaParamsSchema, body: deleteSubBudgetsSchema, response: { 200: commandResultSchema } } },
    (request) => subBudgets.removeMany(request.caller, request.params.schemaId, request.body.ids),
  );

  api.post(
    '/api/schema/:schemaId/sub-budgets/import',
    { config: { access: editors }, schema: { tags, params: schemaParamsSchema, body: subBudgetImportSchema, response: { 200: subBudgetImportResultSchema } } },
    (request) => subBudgets.import(request.caller, request.params.schemaId, request.body),
  );

  api.put(
    '/api/budget/:budgetId/schema/:schemaId/settings',
    { schema: { tags, params: budgetSchemaParamsSchema, body: schemeBudgetSettingsSchema, response: { 200: commandResultSchema } } },
    (request) => subBudgets.pin(request.caller, request.params.budgetId, request.params.schemaId, request.body),
  );

  api.get(
    '/api/sub-budget/:subBudgetId/classifier-preselections',
    { schema: { tags, params: onlySubBudgetParamsSchema, response: { 200: preselectionsSchema } } },
    (request) => subBudgets.preselections(request.caller, request.params.subBudgetId),
  );

  api.put(
    '/api/sub-budget/:subBudgetId/classifier-preselections',
    {
      config: { access: editors },
      schema: { tags, params: onlySubBudgetParamsSchema, body: preselectionsInputSchema, response: { 200: commandResultSchema } },
    },
    (request) => subBudgets.setPreselections(request.caller, request.params.subBudgetId, request.body.preselections),
  );

  api.get(
    '/api/schema/:schemaId/classifier-preselections',
    { config: { access: viewers }, schema: { tags, params: schemaParamsSchema, response: { 200: z.array(preselectionsSchema) } } },
    (request) => subBudgets.preselectionsOfScheme(request.caller, request.params.schemaId),
  );
}
