import {
  commandResultSchema,
  recordHistoryEntrySchema,
  recordInputSchema,
  recordRevertSchema,
  recordSchema,
  recordsBulkEditSchema,
  recordsDeleteSchema,
  recordStoredEventSchema,
  schemeRecordSchema,
  schemesRecordSchema,
} from '@eelarve/shared';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { LARGE_JSON_COMPRESSION as compress, sendJsonArray } from '../../infrastructure/json-text';
import { RECORD_AUDITORS as auditors, RECORD_READERS as access, UNFIT_SUB_BUDGET } from './access';
import { recordLists } from './lists';
import { type RecordPath, recordService } from './service';

/**
 * Records of a budget and its sub-budgets (spec 3, section 7; issue 11, points 1 and 3). Besides
 * the spec's calls: POST .../record/{id}/revert (undo one change as a new event) and GET
 * .../record/{id}/events (the stored events, for auditors). A sub-budget id of -2 with
 * `schemaId` is the scheme's row of records that fit none of its sub-budgets.
 */
const tags = ['records'];
const uuid = z.uuid({ message: 'validation.format' });
const subBudgetId = z.union([uuid, z.literal(UNFIT_SUB_BUDGET)], { message: 'validation.format' });
const budgetParams = z.object({ budgetId: uuid });
const placeParams = z.object({ budgetId: uuid, subBudgetId });
const recordParams = placeParams.extend({ id: uuid });
const budgetSchemeParams = z.object({ budgetId: uuid, schemaId: uuid });
/** Only with the unfit row (-2): whose scheme it is. */
const placeQuery = z.object({ schemaId: uuid.optional() });
const budgetRecordsQuery = z.object({ 'include-comments': z.enum(['true', 'false'], { message: 'validation.allowedValues' }).optional() });
const schemesQuery = z.object({
  schemaIds: z
    .string()
    .transform((text) =>
      text
        .split(',')
        .map((id) => id.trim())
        .filter((id) => id !== ''),
    )
    .pipe(z.array(uuid).min(1, { message: 'validation.required' }).max(50, { message: 'validation.max' })),
});
const promoteBody = z.object({ promoted: z.boolean().optional() }).nullish();
const bulkResultSchema = commandResultSchema.extend({ count: z.number() });

const pathOf = (params: { budgetId: string; subBudgetId: string }, query: { schemaId?: string }): RecordPath => ({
  budgetId: params.budgetId,
  subBudgetId: params.subBudgetId,
  schemeId: query.schemaId,
});

export async function budgetRecordRoutes(app: FastifyInstance): Promise<void> {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const records = recordService(app);
  const lists = recordLists(app);
  const place = '/api/budget/:budgetId/sub-budget/:subBudgetId';

  api.get(
    '/api/budget/:budgetId/records',
    { config: { access }, compress, schema: { tags, params: budgetParams, querystring: budgetRecordsQuery, response: { 200: z.array(recordSchema) } } },
    async (request, reply) => sendJsonArray(reply, await lists.ofBudget(request.caller, request.params.budgetId)),
  );

  api.get(
    '/api/budget/:budgetId/schema/:schemaId/records',
    { config: { access }, compress, schema: { tags, params: budgetSchemeParams, response: { 200: z.array(schemeRecordSchema) } } },
    async (request, reply) => sendJsonArray(reply, await lists.ofScheme(request.caller, request.params.budgetId, request.params.schemaId)),
  );

  api.get(
    '/api/budget/:budgetId/schema-records',
    { config: { access }, compress, schema: { tags, params: budgetParams, querystring: schemesQuery, response: { 200: z.array(schemesRecordSchema) } } },
    async (request, reply) => sendJsonArray(reply, await lists.ofSchemes(request.caller, request.params.budgetId, request.query.schemaIds)),
  );

  api.get(
    `${place}/records`,
    { config: { access }, compress, schema: { tags, params: placeParams, querystring: placeQuery, response: { 200: z.array(recordSchema) } } },
    async (request, reply) => sendJsonArray(reply, await lists.ofSubBudget(request.caller, pathOf(request.params, request.query))),
  );

  api.post(
    `${place}/record`,
    { config: { access }, schema: { tags, params: placeParams, querystring: placeQuery, body: recordInputSchema, response: { 201: commandResultSchema } } },
    async (request, reply) => reply.status(201).send(await records.create(request.caller, pathOf(request.params, request.query), request.body)),
  );

  api.put(
    `${place}/record/:id`,
    { config: { access }, schema: { tags, params: recordParams, querystring: placeQuery, body: recordInputSchema, response: { 200: commandResultSchema } } },
    (request) => records.update(request.caller, pathOf(request.params, request.query), request.params.id, request.body),
  );

  api.post(
    `${place}/record/:id/promote`,
    { config: { access }, schema: { tags, params: recordParams, querystring: placeQuery, body: promoteBody, response: { 200: commandResultSchema } } },
    (request) => records.promote(request.caller, pathOf(request.params, request.query), request.params.id, request.body?.promoted),
  );

  api.delete(
    `${place}/record/:id`,
    { config: { access }, schema: { tags, params: recordParams, querystring: placeQuery, response: { 200: commandResultSchema } } },
    (request) => records.remove(request.caller, pathOf(request.params, request.query), request.params.id),
  );

  api.post(
    `${place}/records-delete`,
    { config: { access }, schema: { tags, params: placeParams, querystring: placeQuery, body: recordsDeleteSchema, response: { 200: bulkResultSchema } } },
    (request) => records.removeMany(request.caller, pathOf(request.params, request.query), request.body.recordIds),
  );

  api.post(
    `${place}/records-bulk-edit`,
    { config: { access }, schema: { tags, params: placeParams, querystring: placeQuery, body: recordsBulkEditSchema, response: { 200: bulkResultSchema } } },
    (request) => records.editMany(request.caller, pathOf(request.params, request.query), request.body.recordIds, request.body.updates),
  );

  api.get(
    `${place}/record/:id/history`,
    { config: { access }, schema: { tags, params: recordParams, querystring: placeQuery, response: { 200: z.array(recordHistoryEntrySchema) } } },
    (request) => records.history(request.caller, pathOf(request.params, request.query), request.params.id),
  );

  api.post(
    `${place}/record/:id/revert`,
    { config: { access }, schema: { tags, params: recordParams, querystring: placeQuery, body: recordRevertSchema, response: { 200: commandResultSchema } } },
    (request) => records.revert(request.caller, pathOf(request.params, request.query), request.params.id, request.body.eventId),
  );

  api.get(
    `${place}/record/:id/events`,
    { config: { access: auditors }, schema: { tags, params: recordParams, querystring: placeQuery, response: { 200: z.array(recordStoredEventSchema) } } },
    (request) => records.events(request.caller, pathOf(request.params, request.query), request.params.id),
  );
}
