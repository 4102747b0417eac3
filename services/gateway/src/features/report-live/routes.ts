import { PassThrough } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { REPORT_READ_MODELS } from '../report/service';
import { ReportChangeHub } from './hub';
import { reportLiveService } from './service';

/** How long an announcement waits for the report's read model before it goes out anyway. */
const READ_MODEL_WAIT_MS = 5_000;
/** How soon a browser reconnects after the stream drops (EventSource's `retry`). */
const RECONNECT_MS = 2_000;

const params = z.object({ budgetId: z.uuid({ message: 'validation.format' }) });
/** The stream takes no parameters: unknown ones are refused (400) rather than ignored, so a mistaken client notices. */
const querystring = z.object({}).strict();

/**
 * Live reports (issue 12, point 8): a server-sent-event stream per open report that says
 * `changed` (with the log position to pass to the report as `after`) whenever records of its
 * budget change. One hub per gateway process listens for every stream.
 */
export async function reportLiveRoutes(app: FastifyInstance): Promise<void> {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const reports = reportLiveService(app);
  const hub = new ReportChangeHub({
    store: app.store,
    awaitReadModel: (position) => app.projections.waitForPosition(REPORT_READ_MODELS, position, READ_MODEL_WAIT_MS),
    onError: (error) => app.log.warn({ err: error }, 'live report changes'),
  });
  // Before the server waits for its connections to end: open streams would keep it waiting.
  app.addHook('preClose', async () => hub.close());

  api.get(
    '/api/budget/:budgetId/report/changes',
    {
      // A compressor would hold events back until its buffer fills.
      compress: false,
      config: { access: 'occupation' },
      schema: {
        tags: ['report'],
        operationId: 'getBudgetReportChanges',
        summary:
          "Follow a budget's report: a text/event-stream whose `changed` events ({budgetId, position}) say its records changed; pass the position to the report as `after`",
        params,
        querystring,
        produces: ['text/event-stream'],
        response: {
          200: z.string().describe('Server-sent events: `event: changed` with JSON data {budgetId, position}, and `: keep-alive` comments every 15 s'),
        },
      },
    },
    async (request, reply) => {
      const watched = await reports.watched(request.auth, request.params.budgetId);
      const stream = new PassThrough();
      const remove = await hub.add({
        userId: request.auth.userId,
        ...watched,
        send: (text) => stream.write(text),
        end: () => stream.end(),
      });
      reply.raw.on('close', () => {
        remove();
        stream.end();
      });
      // Cache-Control is the API's no-store (plugins/security-headers.ts); nginx must not buffer the stream.
      stream.write(`retry: ${RECONNECT_MS}\n: connected\n\n`);
      return (
        reply
          .header('content-type', 'text/event-stream; charset=utf-8')
          .header('x-accel-buffering', 'no')
          // An ended stream's connection closes with it rather than idle on, which would hold a closing server for its keep-alive time.
          .header('connection', 'close')
          // A stream goes out as written: the response schema only describes it for the OpenAPI document.
          .send(stream as never)
      );
    },
  );
}
