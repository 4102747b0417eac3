import type { ChildProcess } from 'node:child_process';
import { sql } from 'kysely';
import { type WorkerProcess, startWorkerProcess } from '../../testing/src/worker-process';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Client } from '../../gateway/test/helpers';
import { type SchemesWorld, schemesWorld } from '../../gateway/test/schemes-world';

/**
 * The worker as its own process (issue 9, point 5, "done when"): killed outright in the middle of
 * a document copy, the gateway keeps answering; the next worker takes the job once its expiry has
 * passed, resumes the copy, and the task ends SUCCESS once, with every classifier, scheme and
 * sub-budget in the copy exactly once.
 */
/** Short, so the test waits seconds rather than the production policy's minutes. */
const EXPIRE_SECONDS = 6;
const FILLER_CLASSIFIERS = 60;

let world: SchemesWorld;
let admin: Client;
let sourceId: string;
const workers: ChildProcess[] = [];

/** A worker process of this test (killed in afterAll). */
async function startWorker(): Promise<WorkerProcess> {
  const worker = await startWorkerProcess(world.server.app.config, { expireSeconds: EXPIRE_SECONDS });
  workers.push(worker.child);
  return worker;
}

async function getTask(taskId: string) {
  const response = await admin.request({ method: 'GET', url: `/api/task/${taskId}` });
  expect(response.statusCode, response.body).toBe(200);
  return response.json();
}

async function rows<Row>(query: ReturnType<typeof sql<Row>>): Promise<Row[]> {
  return (await query.execute(world.server.app.db)).rows;
}

const classifierCount = async (documentId: string) =>
  (await rows<{ count: number }>(sql`select count(*)::int as count from read.classifiers where document_id = ${documentId}`))[0]!.count;

/** Field name → item count, and scheme field name → sub-budget count, of a document. */
async function shape(documentId: string) {
  const classifiers = await rows<{ field_name: string; items: number }>(sql`
    select c.field_name, count(i.id)::int as items from read.classifiers c left join read.classifier_items i on i.classifier_id = c.id
     where c.document_id = ${documentId} group by c.id, c.field_name order by c.field_name`);
  const schemes = await rows<{ field_name: string; sub_budgets: number }>(sql`
    select s.field_name, count(b.id)::int as sub_budgets from read.schemes s left join read.sub_budgets b on b.scheme_id = s.id
     where s.document_id = ${documentId} group by s.id, s.field_name order by s.field_name`);
  return { classifiers, schemes };
}

async function jobOf(taskId: string) {
  return (
    await rows<{ state: string; retry_count: number; started_on: Date | null }>(sql`select state, retry_count, started_on from pgboss.job where id = ${taskId}`)
  )[0];
}

beforeAll(async () => {
  world = await schemesWorld('Tartu Linnavalitsus', 'Viljandi Linnavalitsus');
  admin = world.admin;
  // Tasks of this test run only in the worker processes it starts.
  await world.server.worker?.stop();
  const { fixture, organizationId } = world;
  sourceId = await fixture.document(organizationId);
  const master = await fixture.classifier(sourceId, organizationId, 'tegevusala', { '01': false, '02': false });
  await fixture.setMaster(sourceId, master);
  for (let index = 0; index < FILLER_CLASSIFIERS; index++) {
    const classifierId = await fixture.classifier(sourceId, organizationId, `lisa${String(index).padStart(2, '0')}`, {}, false);
    await fixture.items(
      classifierId,
      Array.from({ length: 15 }, (_, item) => `K${item}`),
    );
  }
  const scheme = await admin.request({
    method: 'POST',
    url: `/api/document/${sourceId}/schema`,
    payload: { name: 'Kulud', classifierList: [{ classifierId: master, type: 'MAIN' }] },
  });
  expect(scheme.statusCode, scheme.body).toBe(201);
  for (const code of ['01', '02']) {
    const subBudget = await admin.request({
      method: 'POST',
      url: `/api/schema/${scheme.json().id}/sub-budget`,
      payload: { name: `Tegevus ${code}`, classifiers: { [master]: code } },
    });
    expect(subBudget.statusCode, subBudget.body).toBe(201);
  }
}, 300_000);

afterAll(async () => {
  for (const child of workers) {
    if (child.exitCode === null && child.signalCode === null) process.kill(-child.pid!, 'SIGKILL');
  }
  await world?.server.close();
});

it('a worker killed mid-copy: the gateway keeps answering, the next worker takes the job after its expiry and the copy ends SUCCESS once', async () => {
  const first = await startWorker();
  const created = await admin.request({
    method: 'POST',
    url: `/api/organization/${world.organizationId}/document`,
    payload: {
      name: 'Koopia',
      description: '',
      period: { year: 2027, month: 1, duration: 1 },
      copy: { sourceDocumentId: sourceId, classifiers: true, schemes: true },
    },
  });
  expect(created.statusCode, created.body).toBe(201);
  const { id: copyId, taskId } = created.json();

  // Mid-copy: some classifiers are there, not all.
  await expect.poll(() => classifierCount(copyId), { timeout: 60_000, interval: 20 }).toBeGreaterThanOrEqual(3);
  process.kill(-first.child.pid!, 'SIGKILL');
  await first.exited;
  const copiedAtKill = await classifierCount(copyId);
  expect(copiedAtKill).toBeLessThan(FILLER_CLASSIFIERS + 1);
  const attempt = await jobOf(taskId);
  expect(attempt?.state).toBe('active');

  // The gateway answers meanwhile: the task is still being copied, the documents list shows the copy as such.
  expect(await getTask(taskId)).toMatchObject({ status: 'PROCESSING', error: null });
  const listed = await admin.request({ method: 'GET', url: `/api/organization/${world.organizationId}/documents` });
  expect(listed.statusCode).toBe(200);
  expect(listed.json().find((document: { id: string }) => document.id === copyId)?.copyStatus).toBe('COPYING');

  // A new worker starts at once, but the dead one's job is not taken before it expires.
  const second = await startWorker();
  await expect.poll(async () => (await getTask(taskId)).status, { timeout: 60_000, interval: 200 }).toBe('SUCCESS');
  const retried = await jobOf(taskId);
  expect(retried?.retry_count).toBe(1);
  expect(retried!.started_on!.getTime() - attempt!.started_on!.getTime()).toBeGreaterThanOrEqual(EXPIRE_SECONDS * 1000);

  // Exactly once: the copy has the source's classifiers (with their items) and schemes (with their sub-budgets), none twice.
  const [source, copy] = [await shape(sourceId), await shape(copyId)];
  expect(copy.classifiers).toHaveLength(FILLER_CLASSIFIERS + 1);
  expect(copy).toEqual(source);
  const task = await getTask(taskId);
  expect(task.steps).toEqual([
    { name: 'classifiers', status: 'SUCCESS', error: null },
    { name: 'masterClassifier', status: 'SUCCESS', error: null },
    { name: 'schemes', status: 'SUCCESS', error: null },
  ]);
  const document = (await admin.request({ method: 'GET', url: `/api/document/${copyId}` })).json();
  expect(document.copyStatus).toBeNull();
  expect(document.masterClassifierId).toEqual(expect.any(String));

  // Ctrl+C stops the worker cleanly.
  process.kill(-second.child.pid!, 'SIGINT');
  expect(await second.exited).toBe(0);
}, 240_000);
