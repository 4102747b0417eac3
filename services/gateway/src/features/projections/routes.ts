import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { projectionAdminService } from './service';

const access = { privileges: ['IS_ADMIN' as const] };
const tags = ['admin: projections'];

/** An event the projector's handler kept failing on, skipped so the rest of the log was applied. */
const parkedEventSchema = z.object({
  position: z.string(),
  streamName: z.string(),
  eventId: z.string(),
  eventType: z.string(),
  error: z.string(),
  attempts: z.number(),
  firstFailedAt: z.string(),
  parkedAt: z.string(),
});

const statusSchema = z.array(
  z.object({
    name: z.string(),
    version: z.number(),
    generation: z.number(),
    role: z.string(),
    state: z.string(),
    position: z.string(),
    head: z.string(),
    eventsBehind: z.number().nullable(),
    eventsApplied: z.number(),
    lastError: z.string().nullable(),
    /** Events this generation parked (0 when healthy); a rebuild with a fixed projector replays them. */
    parkedCount: z.number(),
    parkedEvents: z.array(parkedEventSchema),
    updatedAt: z.string(),
  }),
);

/** Projection status (with parked events) and rebuilds for platform administrators (DESIGN.md section 3). */
export async function projectionRoutes(app: FastifyInstance): Promise<void> {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const projections = projectionAdminService(app);

  api.get('/api/admin/projections', { config: { access }, schema: { tags, response: { 200: statusSchema } } }, (request) => projections.status(request.caller));

  api.post(
    '/api/admin/projections/:name/rebuild',
    {
      config: { access },
      schema: { tags, params: z.object({ name: z.string().max(40) }), response: { 202: z.object({ name: z.string(), status: z.literal('started') }) } },
    },
    async (request, reply) => reply.status(202).send(projections.rebuild(request.caller, request.params.name, request.log)),
  );
}
