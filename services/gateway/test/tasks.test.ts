import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildApp } from '../src/app';
import { recoverInterruptedTasks, startTask } from '../src/features/tasks/runner';
import { startTestServer, type TestServer, testConfig } from '@eelarve/testing/server';
import { type Client, login } from './helpers';

let server: TestServer;
let admin: Client;

beforeAll(async () => {
  server = await startTestServer({ listen: false });
  admin = await login(server.app, server.admin.email, server.admin.password);
});
afterAll(async () => {
  await server?.close();
});

/** A task row as a gateway that was running it left it, heartbeat `ageSeconds` old. */
async function leftTask(status: 'UNPROCESSED' | 'PROCESSING', ageSeconds: number): Promise<string> {
  const id = randomUUID();
  const steps = [
    { name: 'budgets', status: 'SUCCESS', error: null },
    { name: 'classifiers', status: status === 'PROCESSING' ? 'PROCESSING' : 'UNPROCESSED', error: null },
    { name: 'schemes', status: 'UNPROCESSED', error: null },
  ];
  await sql`
    insert into operational.tasks (id, type, status, organization_id, params, steps, heartbeat_at)
    values (${id}, 'DOCUMENT_COPY', ${status}, ${randomUUID()}, '{}'::jsonb, ${JSON.stringify(steps)}::jsonb,
            now() - make_interval(secs => ${ageSeconds}))`.execute(server.app.db);
  return id;
}

async function getTask(id: string) {
  const response = await admin.request({ method: 'GET', url: `/api/task/${id}` });
  expect(response.statusCode, response.body).toBe(200);
  return response.json();
}

it('fails tasks a dead gateway left unfinished when a gateway starts, and leaves live ones alone', async () => {
  const crashed = await leftTask('PROCESSING', 600);
  const neverStarted = await leftTask('UNPROCESSED', 600);
  const live = await leftTask('PROCESSING', 1);

  // Another gateway starts on the same database (a restart, or a second instance).
  const restarted = await buildApp(testConfig(server.app.config.databaseUrl, { runProjections: false }));
  try {
    await restarted.ready();
  } finally {
    await restarted.close();
  }

  const task = await getTask(crashed);
  expect(task).toMatchObject({ status: 'ERROR', error: 'TASK_INTERRUPTED' });
  expect(task.steps).toEqual([
    { name: 'budgets', status: 'SUCCESS', error: null },
    { name: 'classifiers', status: 'ERROR', error: 'TASK_INTERRUPTED' },
    { name: 'schemes', status: 'UNPROCESSED', error: null },
  ]);
  expect(await getTask(neverStarted)).toMatchObject({ status: 'ERROR', error: 'TASK_INTERRUPTED' });
  // Its heartbeat is fresh: some gateway is still running it.
  expect(await getTask(live)).toMatchObject({ status: 'PROCESSING', error: null });
});

it('never takes a task this gateway is running for interrupted', async () => {
  let finish = () => {};
  const blocked = new Promise<void>((resolve) => {
    finish = resolve;
  });
  const id = await startTask(
    server.app,
    { type: 'TEST', organizationId: randomUUID(), userId: null, occupationId: null, documentId: null, params: {} },
    [{ name: 'wait', run: () => blocked }],
  );
  try {
    await expect.poll(async () => (await getTask(id)).status).toBe('PROCESSING');
    const { rows } = await sql<{ age: number }>`
      select extract(epoch from now() - heartbeat_at)::float as age from operational.tasks where id = ${id}`.execute(server.app.db);
    expect(rows[0]!.age).toBeLessThan(5);
    // Even with a zero stale limit, the gateway running it skips it.
    expect(await recoverInterruptedTasks(server.app, 0)).not.toContain(id);
  } finally {
    finish();
  }
  await expect.poll(async () => (await getTask(id)).status).toBe('SUCCESS');
});
