import { sql } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../testing/src/server';
import type { ScheduledJob } from '../src/handlers';
import { startWorker, type Worker } from '../src/worker';

/**
 * The hook for system jobs on a clock (ERP sync, clean-ups): a scheduled job gets its cron
 * schedule in the queue, and a worker runs it with the task context when its slot comes.
 */
let server: TestServer;
let worker: Worker | undefined;

beforeAll(async () => {
  server = await startTestServer({ listen: false, worker: false });
});
afterAll(async () => {
  await worker?.stop({ timeoutMs: 1_000 });
  await server?.close();
});

it('schedules a system job on its cron and runs it with the task context when its slot comes', async () => {
  const runs: string[] = [];
  const job: ScheduledJob = {
    name: 'nightly-check',
    cron: '0 3 * * *',
    run: async (context) => {
      const { rows } = await sql<{ count: number }>`select count(*)::int as count from operational.tasks`.execute(context.db);
      runs.push(`tasks:${rows[0]?.count}`);
    },
  };
  worker = await startWorker({ context: server.app, taskTypes: [], scheduledJobs: [job] });
  const { rows } = await sql<{ name: string; cron: string }>`select name, cron from pgboss.schedule`.execute(server.app.db);
  expect(rows).toEqual([{ name: 'scheduled-nightly-check', cron: '0 3 * * *' }]);
  // What the queue's clock sends when the slot comes (03:00 UTC), sent now.
  await worker.boss.send('scheduled-nightly-check', {});
  await expect.poll(() => runs, { timeout: 10_000 }).toEqual(['tasks:0']);
});
