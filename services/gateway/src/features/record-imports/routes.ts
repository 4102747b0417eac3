import {
  importBodySchema,
  importErrorReportSchema,
  importPreviewSchema,
  importQuerySchema,
  importStartedSchema,
  importStatusSchema,
  uuid,
} from '@eelarve/shared';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { importPlace } from './access';
import { gzipBodyOf, useImportBodyParser } from './body';
import { erpImportTarget } from './erp';
import type { ImportTarget } from './facts';
import { type ImportStarter, recordImportService } from './service';

const tags = ['record imports'];
const budgetParams = z.object({ budgetId: uuid });
const subBudgetParams = z.object({ budgetId: uuid, subBudgetId: uuid });

type ImportBody = z.infer<typeof importBodySchema>;

/** The signed-in caller as the import's starter. */
function userStarter(request: FastifyRequest): ImportStarter {
  const { auth, actor } = request.caller;
  return { userId: auth.userId, occupationId: auth.occupationId, actor, source: 'WEB' };
}

/** An ERP job: no user; its events carry the budget's organisation and the request's id. */
function erpStarter(request: FastifyRequest, target: ImportTarget): ImportStarter {
  return {
    userId: null,
    occupationId: null,
    actor: { correlationId: request.id, userId: null, occupationId: null, organizationId: target.budget.organization_id },
    source: 'ERP',
  };
}

/**
 * Record imports (spec 3, section 7; issue 11, points 4 and 5): POST .../records with a gzip JSON
 * body starts an import job (202, UNPROCESSED); POST .../records/preview answers what it would
 * change; GET .../import/status, /report and /error answer the latest import. The ERP import
 * address (/budgets/{budgetId}/import) takes the same body with the budget's API key.
 */
export async function recordImportRoutes(app: FastifyInstance): Promise<void> {
  // This plugin's own scope: the gzip body parser and its size answers apply to these routes only.
  useImportBodyParser(app);
  const api = app.withTypeProvider<ZodTypeProvider>();
  const imports = recordImportService(app);

  const start = (request: FastifyRequest, target: ImportTarget, body: ImportBody, originResourceName: string, starter: ImportStarter) =>
    imports.start(target, { list: body.list, importId: body.importId, originResourceName, payload: gzipBodyOf(request) }, starter);

  api.post(
    '/api/budget/:budgetId/records',
    { schema: { tags, params: budgetParams, querystring: importQuerySchema, body: importBodySchema, response: { 202: importStartedSchema } } },
    async (request, reply) => {
      const target = await importPlace(app, request.auth, request.params.budgetId, null, 'import');
      return reply.status(202).send(await start(request, target, request.body, request.query.originResourceName, userStarter(request)));
    },
  );

  api.post(
    '/api/budget/:budgetId/sub-budget/:subBudgetId/records',
    { schema: { tags, params: subBudgetParams, querystring: importQuerySchema, body: importBodySchema, response: { 202: importStartedSchema } } },
    async (request, reply) => {
      const target = await importPlace(app, request.auth, request.params.budgetId, request.params.subBudgetId, 'import');
      return reply.status(202).send(await start(request, target, request.body, request.query.originResourceName, userStarter(request)));
    },
  );

  api.post(
    '/api/budget/:budgetId/records/preview',
    { schema: { tags, params: budgetParams, body: importBodySchema, response: { 200: importPreviewSchema } } },
    async (request) => imports.preview(await importPlace(app, request.auth, request.params.budgetId, null, 'import'), request.body.list),
  );

  api.post(
    '/api/budget/:budgetId/sub-budget/:subBudgetId/records/preview',
    { schema: { tags, params: subBudgetParams, body: importBodySchema, response: { 200: importPreviewSchema } } },
    async (request) => imports.preview(await importPlace(app, request.auth, request.params.budgetId, request.params.subBudgetId, 'import'), request.body.list),
  );

  api.get('/api/budget/:budgetId/import/status', { schema: { tags, params: budgetParams, response: { 200: importStatusSchema } } }, async (request) => {
    await importPlace(app, request.auth, request.params.budgetId, null, 'view');
    return imports.status({ budgetId: request.params.budgetId });
  });

  api.get('/api/budget/:budgetId/import/report', { schema: { tags, params: budgetParams, response: { 200: importStatusSchema } } }, async (request) => {
    await importPlace(app, request.auth, request.params.budgetId, null, 'view');
    return imports.status({ budgetId: request.params.budgetId, finished: true });
  });

  api.get('/api/budget/:budgetId/import/error', { schema: { tags, params: budgetParams, response: { 200: importErrorReportSchema } } }, async (request) => {
    await importPlace(app, request.auth, request.params.budgetId, null, 'view');
    return imports.errorReport({ budgetId: request.params.budgetId });
  });

  api.get(
    '/api/budget/:budgetId/sub-budget/:subBudgetId/import/status',
    { schema: { tags, params: subBudgetParams, response: { 200: importStatusSchema } } },
    async (request) => {
      const { budgetId, subBudgetId } = request.params;
      await importPlace(app, request.auth, budgetId, subBudgetId, 'view');
      return imports.status({ budgetId, subBudgetId });
    },
  );

  api.get(
    '/api/budget/:budgetId/sub-budget/:subBudgetId/import/report',
    { schema: { tags, params: subBudgetParams, response: { 200: importStatusSchema } } },
    async (request) => {
      const { budgetId, subBudgetId } = request.params;
      await importPlace(app, request.auth, budgetId, subBudgetId, 'view');
      return imports.status({ budgetId, subBudgetId, finished: true });
    },
  );

  // The ERP job's import address: public as a route (no session), the budget's API key is its authentication.
  api.post(
    '/budgets/:budgetId/import',
    {
      config: { access: 'public' },
      schema: { tags, params: budgetParams, querystring: importQuerySchema, body: importBodySchema, response: { 202: importStartedSchema } },
    },
    async (request, reply) => {
      const target = await erpImportTarget(app, request, reply, request.params.budgetId);
      return reply.status(202).send(await start(request, target, request.body, request.query.originResourceName, erpStarter(request, target)));
    },
  );

  api.get(
    '/budgets/:budgetId/import/status',
    { config: { access: 'public' }, schema: { tags, params: budgetParams, response: { 200: importStatusSchema } } },
    async (request, reply) => {
      await erpImportTarget(app, request, reply, request.params.budgetId);
      return imports.status({ budgetId: request.params.budgetId });
    },
  );
}
