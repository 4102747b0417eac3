import { createTestDatabase, type TestDatabase } from '@eelarve/postgres/testing/test-database';
import type PgBoss from 'pg-boss';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { TaskPolicy } from '../src/features/tasks/definition';
import { ensureTaskQueue, openTaskQueue, taskQueueName } from '../src/features/tasks/queue';

const policy: TaskPolicy = { expireInSeconds: 60, retryLimit: 2, retryDelaySeconds: 1 };
const log = { error: () => {}, warn: () => {}, info: () => {}, debug: () => {} } as never;

/** An error as node-postgres reports a server's refusal, with its SQLSTATE. */
const databaseError = (code: string) => Object.assign(new Error(`server said ${code}`), { code });

describe('setting a task queue up', () => {
  it('tries again after a deadlock (a gateway and a worker creating queues at once), and the queue is set up', async () => {
    const createQueue = vi.fn().mockRejectedValueOnce(databaseError('40P01')).mockResolvedValue(undefined);
    const updateQueue = vi.fn().mockRejectedValueOnce(databaseError('40P01')).mockResolvedValue(undefined);
    await ensureTaskQueue({ createQueue, updateQueue } as unknown as PgBoss, 'RECORD_IMPORT', policy, true);
    expect(createQueue).toHaveBeenCalledTimes(2);
    expect(updateQueue).toHaveBeenCalledTimes(2);
  });

  it('lets a failure a retry cannot cure stand at once, and a lasting deadlock after a few attempts', async () => {
    const wrong = vi.fn().mockRejectedValue(databaseError('42601'));
    await expect(ensureTaskQueue({ createQueue: wrong } as unknown as PgBoss, 'RECORD_IMPORT', policy)).rejects.toMatchObject({ code: '42601' });
    expect(wrong).toHaveBeenCalledTimes(1);
    const stuck = vi.fn().mockRejectedValue(databaseError('40P01'));
    await expect(ensureTaskQueue({ createQueue: stuck } as unknown as PgBoss, 'RECORD_IMPORT', policy)).rejects.toMatchObject({ code: '40P01' });
    expect(stuck).toHaveBeenCalledTimes(5);
  });

  describe('on a real database', () => {
    let database: TestDatabase;
    let sender: PgBoss;
    let worker: PgBoss;

    beforeAll(async () => {
      database = await createTestDatabase('task_queue_setup');
      worker = await openTaskQueue(database.url, { worker: false, log });
      sender = await openTaskQueue(database.url, { worker: false, log });
    }, 60_000);

    afterAll(async () => {
      await Promise.all([sender?.stop({ graceful: false, wait: true }), worker?.stop({ graceful: false, wait: true })]);
      await database.drop();
    });

    it('sets the same queues up from two processes at once, in opposite orders', async () => {
      for (let round = 0; round < 3; round++) {
        const types = Array.from({ length: 6 }, (_, index) => `SETUP_${round}_${index}`);
        await Promise.all([
          Promise.all(types.map((type) => ensureTaskQueue(sender, type, policy))),
          Promise.all([...types].reverse().map((type) => ensureTaskQueue(worker, type, policy, true))),
        ]);
        for (const type of types) expect(await sender.getQueue(taskQueueName(type))).toMatchObject({ name: taskQueueName(type) });
      }
    }, 60_000);
  });
});
