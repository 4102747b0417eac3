import {
  commandResultSchema,
  idParamsSchema,
  occupationPermissionsQuerySchema,
  type Privilege,
  permissionInputSchema,
  permissionResourcesSchema,
  permissionSubBudgetsSchema,
  permissionSchema,
  permissionsCopySchema,
  permissionsInputSchema,
} from '@eelarve/shared';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { resourcePermissionService } from './service';
// Registers the permission parts of the document and budget copies.
import './copy-steps';

/**
 * Resource permissions (spec 1, section 7). Besides the spec's calls:
 * POST api/occupation/{id}/permissions/copy { fromOccupationId } makes the occupation's grants
 * exactly those of another occupation of the organisation (USER_ADMIN, spec 1 section 6).
 */
const tags = ['permissions'];
const viewers = { privileges: ['USER_VIEW', 'USER_ADMIN'] as Privilege[] };
const editors = { privileges: ['USER_ADMIN'] as Privilege[] };

export async function resourcePermissionRoutes(app: FastifyInstance): Promise<void> {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const permissions = resourcePermissionService(app);

  api.get(
    '/api/occupation/:id/permissions',
    {
      config: { access: viewers },
      schema: {
        tags,
        description:
          'The occupation effective permissions: the organisation and its documents, or with documentId that document, its budgets and the sub-budgets granted one by one.',
        params: idParamsSchema,
        querystring: occupationPermissionsQuerySchema,
        response: { 200: z.array(permissionSchema) },
      },
    },
    (request) => permissions.ofOccupation(request.caller, request.params.id, request.query.documentId),
  );

  api.get(
    '/api/document/:id/permission-resources',
    {
      config: { access: viewers },
      schema: {
        tags,
        description: "The document's budgets and schemes by name, for the permission screens (whatever the caller's own grants).",
        params: idParamsSchema,
        response: { 200: permissionResourcesSchema },
      },
    },
    (request) => permissions.resourcesOf(request.caller, request.params.id),
  );

  api.get(
    '/api/schema/:id/permission-sub-budgets',
    {
      config: { access: viewers },
      schema: {
        tags,
        description: "The scheme's sub-budgets by name, for the permission screens.",
        params: idParamsSchema,
        response: { 200: permissionSubBudgetsSchema },
      },
    },
    (request) => permissions.subBudgetsOf(request.caller, request.params.id),
  );

  api.get(
    '/api/document/:id/permissions',
    {
      config: { access: viewers },
      schema: {
        tags,
        description: 'Every occupation permissions that grant something in the document.',
        params: idParamsSchema,
        response: { 200: z.array(permissionSchema) },
      },
    },
    (request) => permissions.ofDocument(request.caller, request.params.id),
  );

  api.put(
    '/api/occupation/:id/permission',
    { config: { access: editors }, schema: { tags, params: idParamsSchema, body: permissionInputSchema, response: { 200: commandResultSchema } } },
    (request) => permissions.set(request.caller, request.params.id, request.body),
  );

  api.put(
    '/api/occupation/:id/permissions',
    { config: { access: editors }, schema: { tags, params: idParamsSchema, body: permissionsInputSchema, response: { 200: commandResultSchema } } },
    (request) => permissions.setMany(request.caller, request.params.id, request.body.permissions),
  );

  api.post(
    '/api/occupation/:id/permissions/copy',
    {
      config: { access: editors },
      schema: {
        tags,
        description: "Copies permissions: the occupation's grants become exactly those of fromOccupationId (same organisation).",
        params: idParamsSchema,
        body: permissionsCopySchema,
        response: { 200: commandResultSchema },
      },
    },
    (request) => permissions.copy(request.caller, request.params.id, request.body),
  );
}
