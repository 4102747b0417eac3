import { randomUUID } from 'node:crypto';
import { type SchemeCommand, schemeDecider } from '@eelarve/domain';
import {
  commandResultSchema,
  DomainError,
  deleteSubBudgetsSchema,
  hasRecordsSchema,
  idParamsSchema,
  type Privilege,
  preselectionsInputSchema,
  preselectionsSchema,
  schemeBudgetSettingsSchema,
  subBudgetCountsSchema,
  subBudgetImportResultSchema,
  subBudgetImportSchema,
  subBudgetInputSchema,
  subBudgetSchema,
  type SUB_BUDGET_IMPORT_TYPES,
  type SubBudgetImportRow,
} from '@eelarve/shared';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { actorOf, runCommand } from '../../plugins/commands';
import type { AuthContext } from '../../types';
import { onceByImportId } from '../imports/idempotency';
import { assertResourceAccess } from '../permissions/authorize';
import {
  budgetInPath,
  classifierCatalogue,
  findSubBudget,
  listSubBudgets,
  schemeInPath,
  schemePreselections,
  subBudgetCounts,
  subBudgetsWithRecords,
} from '../schemes/queries';
import { editOptions, positionOf, SCHEME_READ_MODELS, schemeEditors } from '../schemes/routes';

/**
 * Sub-budgets of a scheme, their classifier preselections, import, and the budgets' pinned
 * sub-budgets (spec 2, section 7). Besides the spec's calls:
 * - GET api/schema/{id}/sub-budget-counts → { total, pinnedByBudget: { budgetId: count } };
 * - GET api/sub-budget/{id}/has-records → { hasRecords, recordsCount }.
 */
const tags = ['sub-budgets'];
const viewers = { privileges: ['SCHEMA_VIEW', 'SCHEMA_ADMIN'] as Privilege[] };
const uuidParam = z.uuid({ message: 'validation.format' });
const schemaParamsSchema = z.object({ schemaId: uuidParam });
const subBudgetParamsSchema = z.object({ schemaId: uuidParam, subBudgetId: uuidParam });
const budgetSchemaParamsSchema = z.object({ budgetId: uuidParam, schemaId: uuidParam });
const onlySubBudgetParamsSchema = z.object({ subBudgetId: uuidParam });

const valuesOf = (classifiers: Record<string, string | null>) => Object.values(classifiers).filter((code): code is string => code !== null);

/** A sub-budget in the path, after the access check on its document; another organisation's is "not found". */
async function subBudgetInPath(app: FastifyInstance, auth: AuthContext, subBudgetId: string, action: 'read' | 'update') {
  const subBudget = await findSubBudget(app, subBudgetId);
  if (!subBudget) throw new DomainError('SUB_BUDGET_NOT_FOUND');
  await assertResourceAccess(app, auth, { organizationId: subBudget.organization_id, documentId: subBudget.document_id, subBudgetId }, action, action === 'update' ? editOptions : {}).catch(
    (error) => {
      throw error instanceof DomainError && error.code === 'OBJECT_NOT_FOUND' ? new DomainError('SUB_BUDGET_NOT_FOUND') : error;
    },
  );
  return subBudget;
}

/** A budget and a scheme of the same document. */
async function budgetAndScheme(app: FastifyInstance, auth: AuthContext, budgetId: string, schemaId: string, action: 'read' | 'update') {
  const budget = await budgetInPath(app, auth, budgetId, action);
  const scheme = await schemeInPath(app, auth, schemaId, 'read');
  if (scheme.document_id !== budget.document_id) throw new DomainError('SCHEME_NOT_FOUND', 'the scheme is not of the budget\'s document');
  return { budget, scheme };
}

export async function subBudgetRoutes(app: FastifyInstance): Promise<void> {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const execute = (request: FastifyRequest, command: SchemeCommand) => runCommand(app, schemeDecider, command, actorOf(request), SCHEME_READ_MODELS);

  api.get('/api/schema/:id/sub-budgets', { config: { access: viewers }, schema: { tags, params: idParamsSchema, response: { 200: z.array(subBudgetSchema) } } }, async (request) => {
    await schemeInPath(app, request.auth, request.params.id, 'read');
    return listSubBudgets(app, request.params.id);
  });

  api.get(
    '/api/schema/:id/sub-budget-counts',
    { config: { access: viewers }, schema: { tags, params: idParamsSchema, response: { 200: subBudgetCountsSchema } } },
    async (request) => {
      await schemeInPath(app, request.auth, request.params.id, 'read');
      return subBudgetCounts(app, request.params.id);
    },
  );

  api.get('/api/sub-budget/:id/has-records', { schema: { tags, params: idParamsSchema, response: { 200: hasRecordsSchema } } }, async (request) => {
    await subBudgetInPath(app, request.auth, request.params.id, 'read');
    const withRecords = await subBudgetsWithRecords(app, [request.params.id]);
    return { hasRecords: withRecords.length > 0, recordsCount: 0 };
  });

  api.get(
    '/api/budget/:budgetId/schema/:schemaId/sub-budgets',
    { schema: { tags, params: budgetSchemaParamsSchema, response: { 200: z.array(subBudgetSchema) } } },
    async (request) => {
      const { budgetId, schemaId } = request.params;
      await budgetAndScheme(app, request.auth, budgetId, schemaId, 'read');
      return listSubBudgets(app, schemaId, budgetId);
    },
  );

  api.post(
    '/api/schema/:schemaId/sub-budget',
    { config: { access: schemeEditors }, schema: { tags, params: schemaParamsSchema, body: subBudgetInputSchema, response: { 201: commandResultSchema } } },
    async (request, reply) => {
      const { schemaId } = request.params;
      const scheme = await schemeInPath(app, request.auth, schemaId, 'update', editOptions);
      const subBudgetId = randomUUID();
      const { name, classifiers } = request.body;
      const catalogue = await classifierCatalogue(app, scheme.document_id, valuesOf(classifiers));
      const outcome = await execute(request, { type: 'CreateSubBudget', documentId: scheme.document_id, schemeId: schemaId, subBudgetId, name, classifiers, catalogue });
      return reply.status(201).send({ id: subBudgetId, position: positionOf(outcome.position) });
    },
  );

  api.put(
    '/api/schema/:schemaId/sub-budget/:subBudgetId',
    { config: { access: schemeEditors }, schema: { tags, params: subBudgetParamsSchema, body: subBudgetInputSchema, response: { 200: commandResultSchema } } },
    async (request) => {
      const { schemaId, subBudgetId } = request.params;
      const scheme = await schemeInPath(app, request.auth, schemaId, 'update', editOptions);
      const { name, classifiers } = request.body;
      const [catalogue, withRecords] = await Promise.all([classifierCatalogue(app, scheme.document_id, valuesOf(classifiers)), subBudgetsWithRecords(app, [subBudgetId])]);
      const outcome = await execute(request, {
        type: 'UpdateSubBudget',
        documentId: scheme.document_id,
        schemeId: schemaId,
        subBudgetId,
        name,
        classifiers,
        catalogue,
        hasRecords: withRecords.length > 0,
      });
      return { id: subBudgetId, position: positionOf(outcome.position) };
    },
  );

  api.delete(
    '/api/schema/:schemaId/sub-budget/:subBudgetId',
    { config: { access: schemeEditors }, schema: { tags, params: subBudgetParamsSchema, response: { 200: commandResultSchema } } },
    async (request) => {
      const { schemaId, subBudgetId } = request.params;
      const scheme = await schemeInPath(app, request.auth, schemaId, 'update', editOptions);
      const withRecords = await subBudgetsWithRecords(app, [subBudgetId]);
      const outcome = await execute(request, { type: 'DeleteSubBudgets', documentId: scheme.document_id, schemeId: schemaId, subBudgetIds: [subBudgetId], withRecords });
      return { id: subBudgetId, position: positionOf(outcome.position) };
    },
  );

  api.delete(
    '/api/schema/:schemaId/sub-budgets',
    { config: { access: schemeEditors }, schema: { tags, params: schemaParamsSchema, body: deleteSubBudgetsSchema, response: { 200: commandResultSchema } } },
    async (request) => {
      const { schemaId } = request.params;
      const scheme = await schemeInPath(app, request.auth, schemaId, 'update', editOptions);
      const withRecords = await subBudgetsWithRecords(app, request.body.ids);
      const outcome = await execute(request, { type: 'DeleteSubBudgets', documentId: scheme.document_id, schemeId: schemaId, subBudgetIds: request.body.ids, withRecords });
      return { id: schemaId, position: positionOf(outcome.position) };
    },
  );

  api.post(
    '/api/schema/:schemaId/sub-budgets/import',
    { config: { access: schemeEditors }, schema: { tags, params: schemaParamsSchema, body: subBudgetImportSchema, response: { 200: subBudgetImportResultSchema } } },
    async (request) => {
      const { schemaId } = request.params;
      const scheme = await schemeInPath(app, request.auth, schemaId, 'update', editOptions);
      const { importType, list, importId } = request.body;
      // A retry of an import that succeeded answers that result instead of refusing the sub-budgets it made.
      return onceByImportId(app, `sub-budgets:${schemaId}`, importId, () => importSubBudgets(request, scheme.document_id, schemaId, importType, list));
    },
  );

  /** Appends the sub-budgets or preselections of an import and counts them. */
  const importSubBudgets = async (request: FastifyRequest, documentId: string, schemaId: string, importType: (typeof SUB_BUDGET_IMPORT_TYPES)[number], list: SubBudgetImportRow[]) => {
    const outcome = await execute(request, {
      type: 'ImportSubBudgets',
      documentId,
      schemeId: schemaId,
      importType,
      rows: list,
      newIds: list.map(() => randomUUID()),
      catalogue: await classifierCatalogue(app, documentId, list.flatMap((row) => [...valuesOf(row.classifiers), ...Object.values(row.preselections).flat()])),
    });
    const event = outcome.events[0];
    const imported = !event ? 0 : event.type === 'SubBudgetsAdded' ? event.data.subBudgets.length : event.type === 'ClassifierPreselectionsSet' ? event.data.list.length : 0;
    return { imported, position: positionOf(outcome.position) };
  };

  api.put(
    '/api/budget/:budgetId/schema/:schemaId/settings',
    { schema: { tags, params: budgetSchemaParamsSchema, body: schemeBudgetSettingsSchema, response: { 200: commandResultSchema } } },
    async (request) => {
      const { budgetId, schemaId } = request.params;
      // Pinning needs write permission on the budget (spec 2, Sub-budgets tab of a budget).
      const { scheme } = await budgetAndScheme(app, request.auth, budgetId, schemaId, 'update');
      const current = await listSubBudgets(app, schemaId, budgetId);
      const withRecords = await subBudgetsWithRecords(
        app,
        current.filter((subBudget) => subBudget.pinned).map((subBudget) => subBudget.id),
      );
      const outcome = await execute(request, {
        type: 'PinSubBudgets',
        documentId: scheme.document_id,
        schemeId: schemaId,
        budgetId,
        pinned: request.body.pinned,
        withRecords,
        confirmed: request.body.confirmed ?? false,
      });
      return { id: budgetId, position: positionOf(outcome.position) };
    },
  );

  api.get(
    '/api/sub-budget/:subBudgetId/classifier-preselections',
    { schema: { tags, params: onlySubBudgetParamsSchema, response: { 200: preselectionsSchema } } },
    async (request) => {
      const subBudget = await subBudgetInPath(app, request.auth, request.params.subBudgetId, 'read');
      return { subBudgetId: subBudget.id, preselections: subBudget.preselections as unknown as Record<string, string[]> };
    },
  );

  api.put(
    '/api/sub-budget/:subBudgetId/classifier-preselections',
    { config: { access: schemeEditors }, schema: { tags, params: onlySubBudgetParamsSchema, body: preselectionsInputSchema, response: { 200: commandResultSchema } } },
    async (request) => {
      const subBudget = await subBudgetInPath(app, request.auth, request.params.subBudgetId, 'update');
      const outcome = await execute(request, {
        type: 'SetClassifierPreselections',
        documentId: subBudget.document_id,
        schemeId: subBudget.scheme_id,
        subBudgetId: subBudget.id,
        preselections: request.body.preselections,
        catalogue: await classifierCatalogue(app, subBudget.document_id, Object.values(request.body.preselections).flat()),
      });
      return { id: subBudget.id, position: positionOf(outcome.position) };
    },
  );

  api.get(
    '/api/schema/:schemaId/classifier-preselections',
    { config: { access: viewers }, schema: { tags, params: schemaParamsSchema, response: { 200: z.array(preselectionsSchema) } } },
    async (request) => {
      await schemeInPath(app, request.auth, request.params.schemaId, 'read');
      return schemePreselections(app, request.params.schemaId);
    },
  );
}
