import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app';
import { copyClassifiers } from '../src/features/classifiers/copy';
import { type DocumentCopyContext, registerDocumentCopyStep } from '../src/features/documents/copy';
import type { schemesFixture } from '@eelarve/testing/schemes';
import { recoverInterruptedTasks } from '../src/features/tasks/runner';
import { type TestServer, testConfig } from '@eelarve/testing/server';
import type { Client } from './helpers';
import { schemesWorld } from './schemes-world';

/**
 * Issue 8, finding 11: an interrupted document copy. A copy whose process stopped after all its
 * data was written is SUCCESS, not ERROR; one that stopped halfway is ERROR and its document is
 * marked INCOMPLETE (COPYING while it runs), and the owner can delete it.
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

/**
 * The classifiers step as a process that stops: `before` runs first (the real copy, or nothing),
 * then the step never returns until `release` (the process is gone as far as anyone can tell).
 */
function stoppingClassifierStep(before: (context: DocumentCopyContext) => Promise<void>) {
  let release = () => {};
  const stopped = new Promise<void>((resolve) => {
    release = resolve;
  });
  let reached = false;
  const off = registerDocumentCopyStep('classifiers', async (context) => {
    await before(context);
    reached = true;
    await stopped;
  });
  return { reached: () => reached, release, off };
}

/** Another gateway on the same database sweeps tasks whose heartbeat it takes for stale. */
async function sweepFromAnotherGateway(): Promise<string[]> {
  const other = await buildApp(testConfig(server.app.config.databaseUrl, { runProjections: false }));
  try {
    await other.ready();
    return await recoverInterruptedTasks(other, 0);
  } finally {
    await other.close();
  }
}

describe('interrupted document copies', () => {
  it('reports SUCCESS for a copy interrupted after all its data was copied', async () => {
    const source = await sourceDocument();
    const step = stoppingClassifierStep(copyClassifiers);
    try {
      const copy = await copyOf(source);
      await expect.poll(step.reached, { timeout: 10_000 }).toBe(true);
      await sweepFromAnotherGateway();

      const task = await getTask(copy.taskId);
      expect(task).toMatchObject({ status: 'SUCCESS', error: null });
      expect(task.steps.every((entry: { status: string }) => entry.status === 'SUCCESS')).toBe(true);
      expect((await getDocument(copy.id)).json().copyStatus).toBeNull();
      const classifiers = (await admin.request({ method: 'GET', url: `/api/document/${copy.id}/classifiers` })).json();
      expect(classifiers.map((row: { fieldName: string }) => row.fieldName).sort()).toEqual(['allikas', 'tegevusala']);
    } finally {
      step.release();
      step.off();
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
    } finally {
      off();
    }
  });

  it('marks a copy interrupted halfway INCOMPLETE (COPYING while it runs), and its owner deletes it', async () => {
    const source = await sourceDocument();
    const step = stoppingClassifierStep(async () => {});
    try {
      const copy = await copyOf(source);
      await expect.poll(step.reached, { timeout: 10_000 }).toBe(true);
      expect((await getDocument(copy.id)).json().copyStatus).toBe('COPYING');

      expect(await sweepFromAnotherGateway()).toContain(copy.taskId);
      expect(await getTask(copy.taskId)).toMatchObject({ status: 'ERROR', error: 'TASK_INTERRUPTED' });
      expect((await getDocument(copy.id)).json().copyStatus).toBe('INCOMPLETE');
      const listed = (await admin.request({ method: 'GET', url: `/api/organization/${organizationId}/documents` })).json();
      expect(listed.find((document: { id: string }) => document.id === copy.id)?.copyStatus).toBe('INCOMPLETE');
      expect(listed.find((document: { id: string }) => document.id === source)?.copyStatus).toBeNull();

      const deleted = await admin.request({ method: 'DELETE', url: `/api/document/${copy.id}` });
      expect(deleted.statusCode, deleted.body).toBe(200);
      expect((await getDocument(copy.id)).statusCode).toBe(404);
    } finally {
      step.release();
      step.off();
    }
  });
});
