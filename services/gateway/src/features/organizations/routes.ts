import { randomUUID } from 'node:crypto';
import { type OrganizationCommand, type OrganizationSettings, organizationDecider } from '@eelarve/domain';
import { formatPosition } from '@eelarve/eventstore';
import { commandResultSchema, idParamsSchema, organizationInputSchema, organizationListSchema } from '@eelarve/shared';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { z } from 'zod';
import { actorOf, runCommand } from '../../plugins/commands';
import { listOrganizations } from './queries';

/** The screens that show organisations read this projector: commands wait for it. */
const READ_MODELS = ['organizations'] as const;
const access = { privileges: ['IS_ADMIN' as const] };
const tags = ['organizations'];

function settingsFrom(input: z.output<typeof organizationInputSchema>): OrganizationSettings {
  return { ...input, localeSettings: input.localeSettings as OrganizationSettings['localeSettings'] };
}

export async function organizationRoutes(app: FastifyInstance): Promise<void> {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const execute = (request: FastifyRequest, command: OrganizationCommand) => runCommand(app, organizationDecider, command, actorOf(request), READ_MODELS);

  api.get('/api/organizations', { config: { access }, schema: { tags, response: { 200: organizationListSchema } } }, async () => listOrganizations(app.db));

  api.post(
    '/api/organization',
    { config: { access }, schema: { tags, body: organizationInputSchema, response: { 201: commandResultSchema } } },
    async (request, reply) => {
      const organizationId = randomUUID();
      const outcome = await execute(request, { type: 'CreateOrganization', organizationId, settings: settingsFrom(request.body), isPlatform: false, now: new Date() });
      return reply.status(201).send({ id: organizationId, position: formatPosition(outcome.position!) });
    },
  );

  api.put(
    '/api/organization/:id',
    { config: { access }, schema: { tags, params: idParamsSchema, body: organizationInputSchema, response: { 200: commandResultSchema } } },
    async (request) => {
      const outcome = await execute(request, { type: 'UpdateOrganization', organizationId: request.params.id, settings: settingsFrom(request.body) });
      return { id: request.params.id, position: outcome.position ? formatPosition(outcome.position) : null };
    },
  );

  api.delete('/api/organization/:id', { config: { access }, schema: { tags, params: idParamsSchema, response: { 200: commandResultSchema } } }, async (request) => {
    const auth = request.auth;
    const outcome = await execute(request, { type: 'DeleteOrganization', organizationId: request.params.id, inUseBySession: auth.organizationId === request.params.id });
    return { id: request.params.id, position: outcome.position ? formatPosition(outcome.position) : null };
  });
}
