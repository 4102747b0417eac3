import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { findFreePort } from '@eelarve/postgres';
import { processInfo } from '@eelarve/postgres/stale-server';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { validOrganization } from './helpers';

/**
 * Issue 8, finding 10: the real process (services/gateway/src/main.ts with its embedded
 * PostgreSQL in a temporary DATA_DIR) killed, interrupted and robbed of its database. The tests
 * run in order on one data directory: each starts from what the previous one left.
 */

const root = path.resolve(import.meta.dirname, '../../..');
const ADMIN = { username: 'admin@eelarve.local', password: 'Eelarve-Demo-2026' };

let dataDir: string;
let port: number;
let gateway: Gateway | undefined;
const started: ChildProcess[] = [];
/** Keep-alive connections, so requests sent together are all in flight at once. */
const agent = new http.Agent({ keepAlive: true, maxSockets: 32 });

interface Gateway {
  child: ChildProcess;
  output: () => string;
  exited: Promise<number | null>;
}

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  // biome-ignore lint/suspicious/noExplicitAny: response bodies are checked by value in the assertions.
  body: any;
}

function request(method: string, url: string, options: { cookie?: string; body?: object } = {}): Promise<Answer> {
  const payload = options.body ? JSON.stringify(options.body) : undefined;
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: '127.0.0.1',
        port,
        method,
        path: url,
        agent,
        headers: { ...(payload ? { 'content-type': 'application/json' } : {}), ...(options.cookie ? { cookie: options.cookie } : {}) },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk) => {
          text += chunk;
        });
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text.startsWith('{') || text.startsWith('[') ? JSON.parse(text) : text }),
        );
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

/** main.ts in its own process group (as a terminal runs it), so a "Ctrl+C" can go to the whole group. */
function startGateway(): Gateway {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    DATA_DIR: dataDir,
    PORT: String(port),
    HOST: '127.0.0.1',
    EID_PROVIDER_PORT: String(port + 1),
    LOG_LEVEL: 'warn',
  };
  delete env.DEMO_DATA;
  delete env.DATABASE_URL;
  const child = spawn(process.execPath, ['--import', 'tsx', 'services/gateway/src/main.ts'], {
    cwd: root,
    env,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  started.push(child);
  let output = '';
  for (const stream of [child.stdout, child.stderr]) stream?.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, output: () => output, exited };
}

/** The task worker (services/workers/src/main.ts) beside the gateway, as `npm start` runs it: it finds the database through DATA_DIR. */
function startWorkerProcess(): Gateway {
  const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir, LOG_LEVEL: 'info' };
  delete env.DATABASE_URL;
  const child = spawn(process.execPath, ['--import', 'tsx', 'services/workers/src/main.ts'], {
    cwd: root,
    env,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  started.push(child);
  let output = '';
  for (const stream of [child.stdout, child.stderr]) stream?.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, output: () => output, exited };
}

async function waitUntilReady(started: Gateway, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let exited = false;
  void started.exited.then(() => {
    exited = true;
  });
  while (Date.now() < deadline && !exited) {
    const answer = await request('GET', '/ready').catch(() => null);
    if (answer?.status === 200) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`the gateway did not become ready (${exited ? `exited ${started.child.exitCode}` : 'timeout'}):\n${started.output().slice(-3000)}`);
}

/** The gateway the previous test left running, or (when that test failed) a fresh one, so each test stands alone. */
async function runningGateway(): Promise<Gateway> {
  if (gateway && gateway.child.exitCode === null && gateway.child.signalCode === null) {
    if ((await request('GET', '/ready').catch(() => null))?.status === 200) return gateway;
    process.kill(-gateway.child.pid!, 'SIGKILL');
    await gateway.exited;
  }
  killLeftoverServer();
  gateway = startGateway();
  await waitUntilReady(gateway);
  return gateway;
}

function killLeftoverServer(): void {
  try {
    const pid = postmasterPid();
    if (processInfo(pid)) process.kill(pid, 'SIGKILL');
  } catch {
    // no server left
  }
}

function postmasterPid(): number {
  return Number(readFileSync(path.join(dataDir, 'postgres', 'postmaster.pid'), 'utf8').split('\n')[0]);
}

async function signIn(): Promise<string> {
  const answer = await request('POST', '/initial/auth/login', { body: ADMIN });
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  const cookies = answer.headers['set-cookie'] ?? [];
  return cookies.map((cookie) => cookie.split(';')[0]).join('; ');
}

let organization: Promise<{ cookie: string; organizationId: string }> | undefined;

/** An organisation (made once) in whose ADMIN occupation the administrator works. */
function organizationAdmin(): Promise<{ cookie: string; organizationId: string }> {
  organization ??= newOrganizationAdmin();
  return organization;
}

async function newOrganizationAdmin(): Promise<{ cookie: string; organizationId: string }> {
  const cookie = await signIn();
  const organization = await request('POST', '/api/organization', { cookie, body: { ...validOrganization, name: `Restart ${Date.now()}` } });
  expect(organization.status, JSON.stringify(organization.body)).toBe(201);
  const organizationId = organization.body.id as string;
  const me = await request('POST', `/api/admin/${organizationId}`, { cookie });
  expect(me.status, JSON.stringify(me.body)).toBe(200);
  const occupation = (me.body.occupations as { id: string; organizationId: string }[]).find((candidate) => candidate.organizationId === organizationId)!;
  const switched = await request('POST', '/api/auth/switch', { cookie, body: { occupationId: occupation.id } });
  expect(switched.status, JSON.stringify(switched.body)).toBe(200);
  return { cookie, organizationId };
}

const documentBody = (name: string, changes: object = {}) => ({ name, description: '', period: { year: 2027, month: 1, duration: 1 }, ...changes });

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'eelarve-restarts-'));
  await chmod(dataDir, 0o755); // the server runs as the postgres user when we are root
  port = await findFreePort();
});

afterAll(async () => {
  agent.destroy();
  for (const child of started) {
    if (child.exitCode === null && child.signalCode === null) process.kill(-child.pid!, 'SIGKILL');
  }
  killLeftoverServer();
  await rm(dataDir, { recursive: true, force: true });
});

it('starts again after the gateway was killed outright, stopping the PostgreSQL it left behind', async () => {
  gateway = startGateway();
  await waitUntilReady(gateway);
  const orphan = postmasterPid();

  gateway.child.kill('SIGKILL'); // an out-of-memory kill: no shutdown code runs
  await gateway.exited;
  expect(processInfo(orphan), 'the killed gateway left its PostgreSQL running').not.toBeNull();

  gateway = startGateway();
  await waitUntilReady(gateway);
  expect(processInfo(orphan), 'the orphaned server is stopped').toBeNull();
  expect(postmasterPid()).not.toBe(orphan);
  // Readiness follows once every projector has caught up again.
  await expect.poll(async () => (await request('GET', '/ready')).status, { timeout: 30_000, interval: 250 }).toBe(200);
}, 120_000);

it('answers 503 while its PostgreSQL is away, restarts it, and serves again', async () => {
  await runningGateway();
  const { cookie, organizationId } = await organizationAdmin();
  const documents = () => request('GET', `/api/organization/${organizationId}/documents`, { cookie });
  expect((await documents()).status).toBe(200);
  const server = postmasterPid();

  process.kill(server, 'SIGKILL');
  const answers: Answer[] = [];
  const readiness: number[] = [];
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    const answer = await documents();
    answers.push(answer);
    if (answer.status === 200 && answers.some((earlier) => earlier.status === 503)) break;
    readiness.push((await request('GET', '/ready')).status);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }

  const statuses = answers.map((answer) => answer.status);
  expect(statuses).not.toContain(500);
  const unavailable = answers.find((answer) => answer.status === 503);
  expect(unavailable?.body.code).toBe('SERVICE_UNAVAILABLE');
  expect(Number(unavailable?.headers['retry-after'])).toBeGreaterThan(0);
  expect(statuses.at(-1)).toBe(200);
  expect(readiness).not.toContain(500);
  expect(readiness).toContain(503);
  expect(postmasterPid()).not.toBe(server);

  // Writes go through and the projectors picked up again: the new document is listed.
  const created = await request('POST', `/api/organization/${organizationId}/document`, { cookie, body: documentBody('After the restart') });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  expect(((await documents()).body as { id: string }[]).map((document) => document.id)).toContain(created.body.id);
  // Readiness follows once every projector has caught up again.
  await expect.poll(async () => (await request('GET', '/ready')).status, { timeout: 30_000, interval: 250 }).toBe(200);
}, 120_000);

it('on Ctrl+C the worker finishes its running copy task, the gateway answers every in-flight request and stops PostgreSQL last', async () => {
  const running = await runningGateway();
  const worker = startWorkerProcess();
  await expect.poll(() => worker.output(), { timeout: 60_000, interval: 100 }).toContain('worker started');
  const { cookie, organizationId } = await organizationAdmin();
  const source = await request('POST', `/api/organization/${organizationId}/document`, { cookie, body: documentBody('Source') });
  expect(source.status).toBe(201);
  for (const fieldName of ['kulu', 'tulu', 'asutus', 'allikas', 'tegevus', 'projekt']) {
    const classifier = await request('POST', `/api/document/${source.body.id}/classifier`, {
      cookie,
      body: {
        name: `Klassifikaator ${fieldName}`,
        itemName: fieldName,
        fieldName,
        required: false,
        codeSettings: { typeName: 'Code', minLength: 1, maxLength: 10, hierarchical: false },
      },
    });
    expect(classifier.status, JSON.stringify(classifier.body)).toBe(201);
  }
  // Open the connections first, so that everything below reaches the server at once.
  await Promise.all(Array.from({ length: 16 }, () => request('GET', '/health')));
  const server = postmasterPid();

  const copy = await request('POST', `/api/organization/${organizationId}/document`, {
    cookie,
    body: documentBody('Copy', { copy: { sourceDocumentId: source.body.id, classifiers: true } }),
  });
  expect(copy.status, JSON.stringify(copy.body)).toBe(201);
  // npm start stops the worker first: once it has taken the copy, it runs it to its end before it exits.
  await expect
    .poll(async () => (await request('GET', `/api/task/${copy.body.taskId}`, { cookie })).body.status, { timeout: 30_000, interval: 20 })
    .not.toBe('UNPROCESSED');
  process.kill(-worker.child.pid!, 'SIGINT');
  expect(await worker.exited, worker.output().slice(-3000)).toBe(0);
  const inFlight = Array.from({ length: 12 }, (_, index) =>
    index % 2 === 0
      ? request('POST', `/api/organization/${organizationId}/document`, { cookie, body: documentBody(`In flight ${index}`) })
      : request('GET', `/api/organization/${organizationId}/documents`, { cookie }),
  );
  await new Promise((resolve) => setTimeout(resolve, 30));
  process.kill(-running.child.pid!, 'SIGINT'); // what a terminal's Ctrl+C does: the whole foreground group

  const answers = await Promise.all(inFlight.map((answer) => answer.catch((error: Error) => ({ status: 0, body: error.message, headers: {} }))));
  expect(answers.map((answer) => answer.status).filter((status) => status === 0 || (status >= 500 && status !== 503))).toEqual([]);
  expect(await running.exited, running.output().slice(-3000)).toBe(0);
  expect(processInfo(server), 'PostgreSQL is stopped once the gateway has finished').toBeNull();

  // The copy task ran to its end while the worker stopped: a new start reports it SUCCESS.
  gateway = startGateway();
  await waitUntilReady(gateway);
  const task = await request('GET', `/api/task/${copy.body.taskId}`, { cookie: await signInTo(organizationId) });
  expect(task.body).toMatchObject({ status: 'SUCCESS' });
  const stopped = gateway.exited;
  process.kill(-gateway.child.pid!, 'SIGINT');
  expect(await stopped).toBe(0);
}, 120_000);

/** A new session working in the organisation's ADMIN occupation (sessions survive restarts, but start clean). */
async function signInTo(organizationId: string): Promise<string> {
  const cookie = await signIn();
  const me = await request('GET', '/api/auth/me', { cookie });
  const occupation = (me.body.occupations as { id: string; organizationId: string }[]).find((candidate) => candidate.organizationId === organizationId)!;
  const switched = await request('POST', '/api/auth/switch', { cookie, body: { occupationId: occupation.id } });
  expect(switched.status, JSON.stringify(switched.body)).toBe(200);
  return cookie;
}
