import { gzipSync } from 'node:zlib';
import { startWorker, type Worker } from '@eelarve/testing/worker';
import { sql } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Client } from './helpers';
import { type SchemesWorld, schemesWorld } from './schemes-world';

/**
 * The stored gzip body of an import (issue 11, gaps): kept while the import's job may still run,
 * gone once its task is final, whether the import succeeded or the queue gave up after the last
 * retry. The workers here give an import one attempt (no retry), so the failure path ends at once;
 * each test starts its own once the import is recorded.
 */
let world: SchemesWorld;
let admin: Client;
let budgetId: string;
let worker: Worker | undefined;

/** A worker that gives an import one attempt and looks for failed jobs every second. */
const oneAttemptWorker = () => startWorker({ context: world.server.app, policy: { retryLimit: 0, retryDelaySeconds: 1 }, maintenanceIntervalSeconds: 1 });

interface StoredImport {
  status: string;
  task_status: string;
  task_error: string | null;
  has_body: boolean;
}

async function stored(importId: string): Promise<StoredImport | undefined> {
  const { rows } = await sql<StoredImport>`
    select i.status, t.status as task_status, t.error as task_error, i.payload is not null as has_body
    from operational.record_imports i join operational.tasks t on t.id = i.task_id
    where i.id = ${importId}`.execute(world.server.app.db);
  return rows[0];
}

async function startImport(): Promise<string> {
  const list = [{ name: 'Palgad', amount: '1200', classifiers: { tegevusala: '01' } }];
  const started = await admin.request({
    method: 'POST',
    url: `/api/budget/${budgetId}/records?originResourceName=palgad.xlsx`,
    headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' },
    payload: gzipSync(JSON.stringify({ list })),
  });
  expect(started.statusCode, started.body).toBe(202);
  return started.json().id;
}

beforeAll(async () => {
  world = await schemesWorld('Tartu Linnavalitsus', 'Viljandi Linnavalitsus');
  admin = world.admin;
  await world.server.worker?.stop();
  const { fixture, organizationId } = world;
  const documentId = await fixture.document(organizationId);
  await fixture.setMaster(documentId, await fixture.classifier(documentId, organizationId, 'tegevusala', { '01': false }));
  budgetId = await fixture.budget(documentId, organizationId);
}, 300_000);

afterAll(async () => {
  await worker?.stop({ timeoutMs: 1_000 });
  await world?.server.close();
});

it('keeps the body while the import waits for its job, and clears it when the import succeeds', async () => {
  const importId = await startImport();
  expect(await stored(importId)).toMatchObject({ status: 'UNPROCESSED', has_body: true });
  worker = await oneAttemptWorker();
  await expect.poll(async () => (await stored(importId))?.task_status, { timeout: 60_000, interval: 100 }).toBe('SUCCESS');
  expect(await stored(importId)).toMatchObject({ status: 'SUCCESS', has_body: false });
}, 120_000);

it('clears the body when the job used up its retries (its attempt lost the database every time)', async () => {
  await worker?.stop({ timeoutMs: 1_000 });
  const importId = await startImport();
  const db = world.server.app.db;
  const attemptsWaiting = async () =>
    (
      await sql<{ pid: number }>`
        select pid from pg_stat_activity
        where wait_event_type = 'Lock' and query like '%operational%record_imports%' and pid <> pg_backend_pid()`.execute(db)
    ).rows;
  // The import's row is locked, so its attempt waits on it; the attempt's connection is then cut: a failure the queue retries, with no retry left.
  await db.transaction().execute(async (trx) => {
    await sql`select id from operational.record_imports where id = ${importId} for update`.execute(trx);
    worker = await oneAttemptWorker();
    await expect.poll(async () => (await attemptsWaiting()).length, { timeout: 30_000, interval: 50 }).toBe(1);
    await sql`select pg_terminate_backend(${(await attemptsWaiting())[0]!.pid})`.execute(db);
  });
  await expect.poll(async () => (await stored(importId))?.task_status, { timeout: 60_000, interval: 100 }).toBe('ERROR');
  expect(await stored(importId)).toMatchObject({ task_error: 'TASK_INTERRUPTED', has_body: false });
  const status = await admin.request({ method: 'GET', url: `/api/budget/${budgetId}/import/status` });
  expect(status.json()).toMatchObject({ id: importId, status: 'ERROR' });
}, 120_000);
