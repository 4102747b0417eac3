import { randomUUID } from 'node:crypto';
import { startTestServer, type TestServer } from '@eelarve/testing/server';
import { startWorker, type Worker } from '@eelarve/testing/worker';
import { sql } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { TaskDefinition, TaskPolicy, TaskStep } from '../src/features/tasks/definition';
import { ensureTaskQueue, taskQueueName } from '../src/features/tasks/queue';
import { type Client, login } from './helpers';

/**
 * Tasks run in a worker from the job queue (issue 9, point 5): the gateway records the task and
 * enqueues its job; the worker runs the steps, one attempt at a time, and a task whose attempts
 * are all lost ends ERROR TASK_INTERRUPTED. Test task types run in a worker of their own.
 */
let server: TestServer;
let admin: Client;
const workers: Worker[] = [];

beforeAll(async () => {
  server = await startTestServer({ listen: false });
  admin = await login(server.app, server.admin.email, server.admin.password);
});
afterAll(async () => {
  for (const worker of workers) await worker.stop({ timeoutMs: 1_000 });
  await server?.close();
});

async function getTask(id: string) {
  const response = await admin.request({ method: 'GET', url: `/api/task/${id}` });
  expect(response.statusCode, response.body).toBe(200);
  return response.json();
}

/** A task type of the test's own, run by a worker started for it. */
async function testTaskType(type: string, policy: TaskPolicy, steps: () => TaskStep[]): Promise<TaskDefinition> {
  const definition: TaskDefinition = { type, policy, steps };
  workers.push(await startWorker({ context: server.app, taskTypes: [definition], maintenanceIntervalSeconds: 1 }));
  return definition;
}

const start = (definition: TaskDefinition) =>
  server.app.tasks.start(definition, {
    type: definition.type,
    organizationId: randomUUID(),
    userId: null,
    occupationId: null,
    documentId: null,
    params: {},
    actor: { correlationId: randomUUID(), userId: null, occupationId: null, organizationId: null },
  });

async function jobOf(taskId: string): Promise<{ state: string; retry_count: number } | undefined> {
  const { rows } = await sql<{ state: string; retry_count: number }>`select state, retry_count from pgboss.job where id = ${taskId}`.execute(server.app.db);
  return rows[0];
}

function gate() {
  let open = () => {};
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { opened, open };
}

it('records the task with its steps and one job, and a worker runs the steps in order to SUCCESS', async () => {
  const ran: string[] = [];
  const paused = gate();
  const definition = await testTaskType('TEST_STEPS', { expireInSeconds: 60, retryLimit: 0, retryDelaySeconds: 1 }, () => [
    {
      name: 'first',
      run: async () => {
        await paused.opened;
        ran.push('first');
      },
    },
    { name: 'second', run: async () => void ran.push('second') },
  ]);
  const id = await start(definition);
  // The gateway answered before any step ran; the job carries the task's id.
  expect((await jobOf(id))?.state).toMatch(/created|active/);
  await expect.poll(async () => (await getTask(id)).steps[0].status, { timeout: 10_000 }).toBe('PROCESSING');
  expect((await getTask(id)).steps).toEqual([
    { name: 'first', status: 'PROCESSING', error: null },
    { name: 'second', status: 'UNPROCESSED', error: null },
  ]);
  paused.open();
  await expect.poll(async () => (await getTask(id)).status, { timeout: 10_000 }).toBe('SUCCESS');
  expect((await getTask(id)).steps.map((step: { status: string }) => step.status)).toEqual(['SUCCESS', 'SUCCESS']);
  expect(ran).toEqual(['first', 'second']);
  await expect.poll(async () => (await jobOf(id))?.state).toBe('completed');
});

it('ends a task ERROR TASK_INTERRUPTED once its attempts are lost (expired, no retry left), the running step too', async () => {
  const stalled = gate();
  let laterStepRan = false;
  const definition = await testTaskType('TEST_STALLS', { expireInSeconds: 1, retryLimit: 0, retryDelaySeconds: 1 }, () => [
    { name: 'first', run: async () => {} },
    { name: 'stalls', run: () => stalled.opened },
    {
      name: 'never',
      run: async () => {
        laterStepRan = true;
      },
    },
  ]);
  const id = await start(definition);
  try {
    // The attempt hangs past its expiry: the queue fails the job, and with no retry left it goes to the dead-letter queue.
    await expect.poll(async () => (await jobOf(id))?.state, { timeout: 15_000 }).toBe('failed');
    expect((await getTask(id)).status).toBe('PROCESSING');
  } finally {
    // The hung attempt comes back: it no longer has the job, so it stops before its next step.
    stalled.open();
  }
  await expect.poll(async () => (await getTask(id)).status, { timeout: 15_000 }).toBe('ERROR');
  const task = await getTask(id);
  expect(task.error).toBe('TASK_INTERRUPTED');
  expect(task.steps).toEqual([
    { name: 'first', status: 'SUCCESS', error: null },
    { name: 'stalls', status: 'ERROR', error: 'TASK_INTERRUPTED' },
    { name: 'never', status: 'UNPROCESSED', error: null },
  ]);
  expect(laterStepRan).toBe(false);
});

it('runs one attempt of a task at a time: the retry of a slow attempt waits for it and finds the task done', async () => {
  let running = 0;
  let runs = 0;
  let overlapped = false;
  const definition = await testTaskType('TEST_SLOW', { expireInSeconds: 1, retryLimit: 2, retryDelaySeconds: 1 }, () => [
    {
      name: 'slow',
      run: async () => {
        running += 1;
        runs += 1;
        if (running > 1) overlapped = true;
        await new Promise((resolve) => setTimeout(resolve, 4_000));
        running -= 1;
      },
    },
  ]);
  const id = await start(definition);
  // The slow attempt outlives its expiry, so the queue retries the job while it still runs.
  await expect.poll(async () => (await jobOf(id))?.retry_count ?? 0, { timeout: 15_000 }).toBeGreaterThan(0);
  await expect.poll(async () => (await getTask(id)).status, { timeout: 15_000 }).toBe('SUCCESS');
  await expect.poll(async () => (await jobOf(id))?.state, { timeout: 15_000 }).toBe('completed');
  expect(runs).toBe(1);
  expect(overlapped).toBe(false);
});

it('takes the job of a worker that died only once its expiry has passed, and runs the task then', async () => {
  const policy: TaskPolicy = { expireInSeconds: 3, retryLimit: 1, retryDelaySeconds: 1 };
  const ranAt: number[] = [];
  const definition: TaskDefinition = { type: 'TEST_ORPHANED', policy, steps: () => [{ name: 'work', run: async () => void ranAt.push(Date.now()) }] };
  const queue = server.worker!.boss;
  await ensureTaskQueue(queue, definition.type, policy);
  const id = await start(definition);
  // A worker takes the job and dies before its first step: the job stays active with nobody on it.
  const [taken] = await queue.fetch(taskQueueName(definition.type));
  expect(taken?.id).toBe(id);
  const takenAt = Date.now();
  workers.push(await startWorker({ context: server.app, taskTypes: [definition], maintenanceIntervalSeconds: 1 }));
  await expect.poll(async () => (await getTask(id)).status, { timeout: 30_000 }).toBe('SUCCESS');
  expect(ranAt).toHaveLength(1);
  expect(ranAt[0]! - takenAt).toBeGreaterThanOrEqual(policy.expireInSeconds * 1000 - 250);
  expect((await jobOf(id))?.retry_count).toBe(1);
});

it('finishes a task without steps, and answers 404 for an unknown task', async () => {
  const definition = await testTaskType('TEST_NOTHING', { expireInSeconds: 60, retryLimit: 0, retryDelaySeconds: 1 }, () => []);
  const id = await start(definition);
  await expect.poll(async () => (await getTask(id)).status, { timeout: 10_000 }).toBe('SUCCESS');
  const response = await admin.request({ method: 'GET', url: `/api/task/${randomUUID()}` });
  expect(response.statusCode).toBe(404);
  expect(response.json().code).toBe('OBJECT_NOT_FOUND');
});
