import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { openTaskQueue, type TaskStarter, taskStarter } from './queue';

declare module 'fastify' {
  interface FastifyInstance {
    /** Starts background tasks: records each and enqueues its job for the worker process (features/tasks/queue.ts). */
    tasks: TaskStarter;
  }
}

/**
 * The gateway's side of the job queue: it only enqueues. Tasks run in the worker process
 * (services/workers), so a gateway keeps no task state and can stop or crash without losing one.
 */
export const taskQueuePlugin = fp(
  async (app: FastifyInstance) => {
    const boss = await openTaskQueue(app.config.databaseUrl, { worker: false, log: app.log });
    app.decorate('tasks', taskStarter(app.db, boss, app));
    app.addHook('onClose', async () => {
      await boss.stop({ graceful: false, wait: true });
    });
  },
  { name: 'task-queue', dependencies: ['commands'] },
);
