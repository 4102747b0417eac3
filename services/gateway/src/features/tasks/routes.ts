import { DomainError, idParamsSchema, taskSchema } from '@eelarve/shared';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { inOrganization } from '../permissions/authorize';
import { findTask } from './records';

const tags = ['tasks'];

/** GET api/task/{taskId}: the status of a background task; a task of another organisation is not found. */
export async function taskRoutes(app: FastifyInstance): Promise<void> {
  const api = app.withTypeProvider<ZodTypeProvider>();
  api.get('/api/task/:id', { schema: { tags, params: idParamsSchema, response: { 200: taskSchema } } }, async (request) => {
    const task = await findTask(app.db, request.params.id);
    if (!task || !inOrganization(request.auth, task.organizationId)) throw new DomainError('OBJECT_NOT_FOUND', 'task not found');
    return task;
  });
}
