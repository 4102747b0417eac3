import { approvalCommentSchema, approvalReasonSchema, budgetApprovalSchema, commandResultSchema, idParamsSchema } from '@eelarve/shared';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { budgetApprovalService } from './service';

const tags = ['budgets'];
const commentStep = { tags, params: idParamsSchema, body: approvalCommentSchema, response: { 200: commandResultSchema } };
const reasonStep = { tags, params: idParamsSchema, body: approvalReasonSchema, response: { 200: commandResultSchema } };

/** A budget's approval route (issue 10, point 6): GET its state, history and the caller's actions; POST one of the four actions. */
export async function budgetApprovalRoutes(app: FastifyInstance): Promise<void> {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const approval = budgetApprovalService(app);

  api.get('/api/budget/:id/approval', { schema: { tags, params: idParamsSchema, response: { 200: budgetApprovalSchema } } }, (request) =>
    approval.get(request.caller, request.params.id),
  );
  api.post('/api/budget/:id/approval/submit', { schema: commentStep }, (request) => approval.submit(request.caller, request.params.id, request.body.comment));
  api.post('/api/budget/:id/approval/approve', { schema: commentStep }, (request) => approval.approve(request.caller, request.params.id, request.body.comment));
  api.post('/api/budget/:id/approval/send-back', { schema: reasonStep }, (request) =>
    approval.sendBack(request.caller, request.params.id, request.body.reason),
  );
  api.post('/api/budget/:id/approval/reopen', { schema: reasonStep }, (request) => approval.reopen(request.caller, request.params.id, request.body.reason));
}
