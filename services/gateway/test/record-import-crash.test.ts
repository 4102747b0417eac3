import type { ChildProcess } from 'node:child_process';
import { gzipSync } from 'node:zlib';
import { recordImportStreamName } from '@eelarve/domain';
import { sql } from 'kysely';
import { type WorkerProcess, startWorkerProcess } from '@eelarve/testing/worker-process';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Client } from './helpers';
import { type SchemesWorld, schemesWorld } from './schemes-world';

/**
 * An import is all or nothing, and exactly once (issue 11, "done when"): the worker process
 * running an import is killed outright while the import is PROCESSING. At that moment the
 * import's stream and the records read model hold none or all of its rows, never a part; the
 * next worker takes the job after its expiry, and the import ends SUCCESS with each row once.
 */
const EXPIRE_SECONDS = 10;
const ROWS = 20_000;
const CHUNKS = ROWS / 500;

let world: SchemesWorld;
let admin: Client;
let budgetId: string;
let documentId: string;
const workers: ChildProcess[] = [];

/** A worker process of this test (killed in afterAll). */
async function startWorker(): Promise<WorkerProcess> {
  const worker = await startWorkerProcess(world.server.app.config, { expireSeconds: EXPIRE_SECONDS });
  workers.push(worker.child);
  return worker;
}

async function one<Row>(query: ReturnType<typeof sql<Row>>): Promise<Row> {
  return (await query.execute(world.server.app.db)).rows[0]!;
}

const importRow = (importId: string) =>
  one<{ status: string } | undefined>(sql`select status from operational.record_imports where id = ${importId}`).then((row) => row?.status);
const visibleRecords = (importId: string) =>
  one<{ count: number }>(sql`select count(*)::int as count from read.records where import_id = ${importId}`).then((row) => row.count);
const streamEvents = async (importId: string) => world.server.app.store.readStream(recordImportStreamName(importId));
/** Manual vacuums of the records read model's table (an import of many rows settles it at the end). */
const recordsVacuums = () =>
  one<{ count: number }>(sql`
    select coalesce(sum(t.vacuum_count), 0)::int as count from pg_stat_user_tables t
      join projections.checkpoints c on c.schema_name = t.schemaname and c.role = 'active' and c.projector = 'records'
     where t.relname = 'records'`).then((row) => row.count);

beforeAll(async () => {
  world = await schemesWorld('Tartu Linnavalitsus', 'Viljandi Linnavalitsus');
  admin = world.admin;
  // Imports of this test run only in the worker processes it starts.
  await world.server.worker?.stop();
  const { fixture, organizationId } = world;
  documentId = await fixture.document(organizationId);
  const master = await fixture.classifier(documentId, organizationId, 'tegevusala', { '01': false, '02': false });
  await fixture.setMaster(documentId, master);
  budgetId = await fixture.budget(documentId, organizationId);
}, 300_000);

afterAll(async () => {
  for (const child of workers) {
    if (child.exitCode === null && child.signalCode === null) process.kill(-child.pid!, 'SIGKILL');
  }
  await world?.server.close();
});

/** Imports ROWS rows into the budget and kills the worker process once `killWhen` holds; answers the import id. */
async function importAndKill(budget: string, killWhen: (importId: string) => Promise<boolean>): Promise<string> {
  const first = await startWorker();
  const list = Array.from({ length: ROWS }, (_, index) => ({
    name: `Rida ${index}`,
    amount: `${index}.25`,
    months: index % 2 ? null : [`${index}.25`, ...Array(11).fill('0')],
    classifiers: { tegevusala: index % 3 ? '01' : '02' },
  }));
  const started = await admin.request({
    method: 'POST',
    url: `/api/budget/${budget}/records?originResourceName=suur.xlsx`,
    headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' },
    payload: gzipSync(JSON.stringify({ list })),
  });
  expect(started.statusCode, started.body).toBe(202);
  const importId: string = started.json().id;
  await expect.poll(() => killWhen(importId), { timeout: 60_000, interval: 10 }).toBe(true);
  process.kill(-first.child.pid!, 'SIGKILL');
  await first.exited;
  expect(await importRow(importId)).toBe('PROCESSING');
  const status = await admin.request({ method: 'GET', url: `/api/budget/${budget}/import/status` });
  expect(status.json()).toMatchObject({ id: importId, status: 'PROCESSING', result: null });
  return importId;
}

/** The next worker finishes the import: SUCCESS once, one event per chunk, each row's record once and visible. */
async function resumedExactlyOnce(budget: string, importId: string): Promise<void> {
  const vacuumsBefore = await recordsVacuums();
  const second = await startWorker();
  await expect
    .poll(async () => (await admin.request({ method: 'GET', url: `/api/budget/${budget}/import/status` })).json().status, { timeout: 120_000, interval: 250 })
    .toBe('SUCCESS');
  const done = (await admin.request({ method: 'GET', url: `/api/budget/${budget}/import/report` })).json();
  expect(done.result).toEqual({ recordsInserted: ROWS, totalErrorsCount: 0, criticalErrorsCount: 0 });
  const events = await streamEvents(importId);
  expect(events.map((event) => (event.data as { chunk: number }).chunk)).toEqual(Array.from({ length: CHUNKS }, (_, chunk) => chunk));
  const ids = events.flatMap((event) => (event.data as { records: { recordId: string }[] }).records.map((record) => record.recordId));
  expect(new Set(ids).size).toBe(ROWS);
  await expect.poll(() => visibleRecords(importId), { timeout: 60_000 }).toBe(ROWS);
  const total = await one<{ total: string }>(sql`select sum(amount)::text as total from read.records where import_id = ${importId}`);
  // Σ (i + 0.25) for i < ROWS, exactly.
  expect(total.total).toMatch(new RegExp(`^${(BigInt(ROWS) * BigInt(ROWS - 1)) / 2n + BigInt(ROWS / 4)}(\\.0+)?$`));
  const job = await one<{ retry_count: number }>(
    sql`select retry_count from pgboss.job where id = (select task_id from operational.record_imports where id = ${importId})`,
  );
  expect(job.retry_count).toBe(1);
  // Its 20,000 rows settled: the records table vacuumed at once, not left to autovacuum.
  await expect.poll(recordsVacuums, { timeout: 60_000 }).toBeGreaterThan(vacuumsBefore);
  process.kill(-second.child.pid!, 'SIGINT');
  expect(await second.exited).toBe(0);
}

it('a worker killed as the import starts leaves nothing of it; the next worker imports each row exactly once', async () => {
  const importId = await importAndKill(budgetId, async (id) => (await importRow(id)) === 'PROCESSING');
  // Nothing partial: the stream holds no chunk or every chunk (the kill may land after the one append), and the read model follows it.
  const eventsAtKill = (await streamEvents(importId)).length;
  expect([0, CHUNKS]).toContain(eventsAtKill);
  if (eventsAtKill === 0) expect(await visibleRecords(importId)).toBe(0);
  await resumedExactlyOnce(budgetId, importId);
}, 300_000);

it('a worker killed after the append, before SUCCESS: the retry appends nothing again and counts the rows from the stream', async () => {
  const budget = await world.fixture.budget(documentId, world.organizationId);
  const importId = await importAndKill(budget, async (id) => (await streamEvents(id)).length > 0);
  expect(await streamEvents(importId)).toHaveLength(CHUNKS);
  await resumedExactlyOnce(budget, importId);
}, 300_000);
