import { approvalRouteSchema, commandResultSchema, idParamsSchema, organizationApprovalRouteSchema, type Privilege } from '@eelarve/shared';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { approvalRouteService } from './service';

const tags = ['resource-statuses'];
// The route belongs to the status settings: read by whoever may read statuses, changed by status administrators.
const viewers = { privileges: ['STATUS_VIEW', 'STATUS_ADMIN'] as Privilege[] };
const editors = { privileges: ['STATUS_ADMIN'] as Privilege[] };

/** GET, PUT and DELETE (reset to the default) of an organisation's approval route (issue 10, point 6). */
export async function approvalRouteRoutes(app: FastifyInstance): Promise<void> {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const routes = approvalRouteService(app);
  const path = '/api/organization/:id/approval-route';

  api.get(path, { config: { access: viewers }, schema: { tags, params: idParamsSchema, response: { 200: organizationApprovalRouteSchema } } }, (request) =>
    routes.get(request.caller, request.params.id),
  );
  api.put(
    path,
    { config: { access: editors }, schema: { tags, params: idParamsSchema, body: approvalRouteSchema, response: { 200: commandResultSchema } } },
    (request) => routes.configure(request.caller, request.params.id, request.body),
  );
  api.delete(path, { config: { access: editors }, schema: { tags, params: idParamsSchema, response: { 200: commandResultSchema } } }, (request) =>
    routes.reset(request.caller, request.params.id),
  );
}
