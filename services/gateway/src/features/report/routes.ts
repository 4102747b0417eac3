import { reportRequestSchema, reportResponseSchema } from '@eelarve/shared';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { LARGE_JSON_COMPRESSION as compress, sendJsonText } from '../../infrastructure/json-text';
import { reportService } from './service';

/**
 * The budget report (issue 12, points 1, 2 and 7). The spec names no path for report data (the
 * old client added records up itself), so this is the product's own: POST, because a report's
 * filters, columns and calculations do not fit a query string.
 */
const tags = ['report'];
const params = z.object({ budgetId: z.uuid({ message: 'validation.format' }) });

export async function reportRoutes(app: FastifyInstance): Promise<void> {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const reports = reportService(app);

  api.post(
    '/api/budget/:budgetId/report',
    {
      config: { access: 'occupation' },
      compress,
      schema: {
        tags,
        operationId: 'postBudgetReport',
        summary: "Compute a budget's report: sums per sub-budget, classifier group, item and promoted record for each column, now or as of a past moment",
        params,
        body: reportRequestSchema,
        response: { 200: reportResponseSchema },
      },
    },
    // Thousands of rows: sent as the service built them (typed as the response schema), not parsed again on the way out.
    (request, reply) =>
      sendJsonText(
        reply,
        reports.report(request.caller.auth, request.params.budgetId, request.body).then((report) => JSON.stringify(report)),
      ),
  );
}
