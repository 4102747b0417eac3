import type { schemesFixture } from '@eelarve/testing/schemes';
import type { TestServer } from '@eelarve/testing/server';
import { startWorker } from '@eelarve/testing/worker';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copyClassifiers } from '../src/features/classifiers/copy';
import { registerDocumentCopyStep } from '../src/features/documents/copy';
import { COPY_TASK_POLICY } from '../src/features/tasks/definition';
import { ensureTaskQueue } from '../src/features/tasks/queue';
import type { Client } from './helpers';
import { schemesWorld } from './schemes-world';

/**
 * Issue 8, finding 11, on the job queue (issue 9, point 5): an interrupted document copy. An
 * attempt that fails after writing part of the copy is retried and resumes without copying
 * anything twice; a copy whose step fails after all its data was written is SUCCESS, not ERROR;
 * one whose attempts are all lost halfway is ERROR TASK_INTERRUPTED and its document is marked
 * INCOMPLETE (COPYING while it runs), and the owner can delete it.
 */
let server: TestServer;
let admin: Client;
let fixture: ReturnType<typeof schemesFixture>;
let organizationId: string;

beforeAll(async () => {
  ({ server, admin, fixture, organizationId } = await schemesWorld('Narva Linnavalitsus', 'Paide Linnavalitsus'));
});
afterAll(async () => server?.close());

/** A source document with two classifiers and their items (no master classifier). */
async function sourceDocument(): Promise<string> {
  const documentId = await fixture.document(organizationId);
  await fixture.classifier(documentId, organizationId, 'tegevusala', { '01': false, '02': false });
  await fixture.classifier(documentId, organizationId, 'allikas', { A: false }, false);
  return documentId;
}

/** Starts a classifier copy of `sourceId`; answers the new document and its task. */
async function copyOf(sourceId: string): Promise<{ id: string; taskId: string }> {
  const response = await admin.request({
    method: 'POST',
    url: `/api/organization/${organizationId}/document`,
    payload: { name: 'Koopia', description: '', period: { year: 2027, month: 1, duration: 1 }, copy: { sourceDocumentId: sourceId, classifiers: true } },
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json();
}

async function getTask(taskId: string) {
  const response = await admin.request({ method: 'GET', url: `/api/task/${taskId}` });
  expect(response.statusCode, response.body).toBe(200);
  return response.json();
}

async function getDocument(id: string) {
  return admin.request({ method: 'GET', url: `/api/document/${id}` });
}

/** The copy's classifiers as the read model holds them: field name and id, by field name. */
async function copiedClassifiers(documentId: string): Promise<{ field_name: string; id: string }[]> {
  const { rows } = await sql<{ field_name: string; id: string }>`
    select field_name, id from read.classifiers where document_id = ${documentId} order by field_name`.execute(server.app.db);
  return rows;
}

/** What node-postgres throws when the server ends the connection (SQLSTATE 57P01): the database's failure, not the copy's. */
const connectionTerminated = () => Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' });

describe('interrupted document copies', () => {
  it('retries an attempt the database broke off after part of the copy, and copies nothing twice', async () => {
    const source = await sourceDocument();
    const attempts: string[][] = [];
    const off = registerDocumentCopyStep('classifiers', async (context) => {
      await copyClassifiers(context);
      attempts.push([...context.ids.values()].sort());
      if (attempts.length === 1) throw connectionTerminated();
    });
    try {
      const copy = await copyOf(source);
      await expect.poll(async () => (await getTask(copy.taskId)).status, { timeout: 20_000 }).toBe('SUCCESS');
      // The retry arrived at the same copy ids, found the classifiers there and went on.
      expect(attempts).toHaveLength(2);
      expect(attempts[1]).toEqual(attempts[0]);
      const copied = await copiedClassifiers(copy.id);
      expect(copied.map((row) => row.field_name)).toEqual(['allikas', 'tegevusala']);
      expect(copied.every((row) => attempts[0]?.includes(row.id))).toBe(true);
      expect((await getTask(copy.taskId)).steps.map((step: { status: string }) => step.status)).toEqual(['SUCCESS', 'SUCCESS']);
      expect((await getDocument(copy.id)).json().copyStatus).toBeNull();
    } finally {
      off();
    }
  });

  it('reports SUCCESS when a step fails after writing everything', async () => {
    const source = await sourceDocument();
    const off = registerDocumentCopyStep('classifiers', async (context) => {
      await copyClassifiers(context);
      throw new Error('connection lost while waiting for the read models');
    });
    try {
      const copy = await copyOf(source);
      await expect.poll(async () => (await getTask(copy.taskId)).status, { timeout: 10_000 }).toBe('SUCCESS');
      expect((await getTask(copy.taskId)).steps.every((entry: { status: string }) => entry.status === 'SUCCESS')).toBe(true);
    } finally {
      off();
    }
  });

  it('marks a copy whose attempts were all lost halfway INCOMPLETE (COPYING while it runs), and its owner deletes it', async () => {
    const source = await sourceDocument();
    // A worker whose settings give an attempt one second and no retry (the queue takes the last worker's settings).
    const impatient = await startWorker({ context: server.app, policy: { expireInSeconds: 1, retryLimit: 0 }, maintenanceIntervalSeconds: 1 });
    let release = () => {};
    const stalled = new Promise<void>((resolve) => {
      release = resolve;
    });
    let reached = false;
    // The classifiers step hangs before writing anything, as a worker that stopped answering would.
    const off = registerDocumentCopyStep('classifiers', async () => {
      reached = true;
      await stalled;
    });
    try {
      const copy = await copyOf(source);
      await expect.poll(() => reached, { timeout: 10_000 }).toBe(true);
      expect((await getDocument(copy.id)).json().copyStatus).toBe('COPYING');
      await expect
        .poll(async () => (await sql<{ state: string }>`select state from pgboss.job where id = ${copy.taskId}`.execute(server.app.db)).rows[0]?.state, {
          timeout: 15_000,
        })
        .toBe('failed');
      release();

      await expect.poll(async () => (await getTask(copy.taskId)).status, { timeout: 15_000 }).toBe('ERROR');
      expect(await getTask(copy.taskId)).toMatchObject({ status: 'ERROR', error: 'TASK_INTERRUPTED' });
      expect((await getDocument(copy.id)).json().copyStatus).toBe('INCOMPLETE');
      const listed = (await admin.request({ method: 'GET', url: `/api/organization/${organizationId}/documents` })).json();
      expect(listed.find((document: { id: string }) => document.id === copy.id)?.copyStatus).toBe('INCOMPLETE');
      expect(listed.find((document: { id: string }) => document.id === source)?.copyStatus).toBeNull();

      const deleted = await admin.request({ method: 'DELETE', url: `/api/document/${copy.id}` });
      expect(deleted.statusCode, deleted.body).toBe(200);
      expect((await getDocument(copy.id)).statusCode).toBe(404);
    } finally {
      release();
      off();
      await impatient.stop({ timeoutMs: 1_000 });
      await ensureTaskQueue(server.worker!.boss, 'DOCUMENT_COPY', { ...COPY_TASK_POLICY, retryDelaySeconds: 1 }, true);
    }
  });
});
