import { DomainError, idParamsSchema, taskSchema } from '@eelarve/shared';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { inOrganization } from '../permissions/authorize';
import { drainTasks, findTask, startTaskUpkeep } from './runner';

const tags = ['tasks'];

/** GET api/task/{taskId}: the status of a background task; a task of another organisation is not found. */
export async function taskRoutes(app: FastifyInstance): Promise<void> {
  const api = app.withTypeProvider<ZodTypeProvider>();
  let upkeep: Awaited<ReturnType<typeof startTaskUpkeep>> | undefined;
  app.addHook('onReady', async () => {
    upkeep = await startTaskUpkeep(app);
  });
  // Heartbeats go on while the running tasks finish, so no other gateway fails them meanwhile.
  app.addHook('onClose', async () => {
    await drainTasks(app);
    await upkeep?.stop();
  });

  api.get('/api/task/:id', { schema: { tags, params: idParamsSchema, response: { 200: taskSchema } } }, async (request) => {
    const auth = request.auth;
    const task = await findTask(app, request.params.id);
    if (!task || !inOrganization(auth, task.organizationId)) throw new DomainError('OBJECT_NOT_FOUND', 'task not found');
    return task;
  });
}
