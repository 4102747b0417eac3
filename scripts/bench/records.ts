/**
 * Records at the size of a real organisation: `pnpm bench:records` (issue 11, point 9).
 *
 * The product runs as it does in production: the gateway and the worker are their own processes
 * (services/gateway/src/main.ts, services/workers/src/main.ts) on one PostgreSQL, and this script
 * is only their client, over HTTP, as the web and an ERP job are. Measured:
 * 1. a 100,000-row .xlsx through the import: read the file as the web does (readXlsxRows), check the
 *    rows with the shared validation, send them gzip-compressed, until every row is in the records
 *    read model: target ≤ 20 s, and the peak memory (VmHWM) of the gateway, the worker and each
 *    PostgreSQL process ≤ 1 GB;
 * 2. a budget of 1,000,000 records built by imports (10 × 100,000 rows, as an ERP job sends them):
 *    ≤ 3 minutes; then the records list of a 10,000-record sub-budget (p95 of 50 requests) ≤ 200 ms;
 * 3. 16 users editing records of one budget at once for 60 s: p99 command latency (request to its
 *    read-your-writes answer) ≤ 50 ms, and no lost update (each user's records end as they wrote them last).
 * Prints a table and exits 1 when a target is missed, unless run with --no-assert. BENCH_RECORDS
 * (default 1,000,000) and BENCH_EDIT_SECONDS (60) change the size; `--only=edit` imports a budget of
 * BENCH_RECORDS records and measures only the editing (e.g. BENCH_RECORDS=10000 for a quick run);
 * `--only=import` runs only the file import, with its phases (the client's, the job's wait in the
 * queue and the worker's logged phases) and the processes' peak memory; `--only=list` imports a
 * budget of BENCH_RECORDS records and measures only the list of a sub-budget (a hundredth of them).
 * BENCH_PORT (3480) is the gateway's port; --keep-database (with DATABASE_URL) leaves the built database. BENCH_TRACE=1 runs the gateway with its command trace
 * (EELARVE_TRACE_COMMANDS, every command logged with its phases and overlapping GC pauses) and
 * prints where the slowest 1% of the edits spent their time beside the median edit's phases.
 *
 * Starts an embedded PostgreSQL (durable defaults) in a temporary directory unless DATABASE_URL
 * names a server; either way it works in a fresh database of its own.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { gzipSync } from 'node:zlib';
import { buildApp } from '@eelarve/gateway/app';
import { createDatabase, dropDatabase, startEmbeddedPostgres } from '@eelarve/postgres';
import { type CellValue, readXlsxRows } from '@eelarve/shared/spreadsheet/read-xlsx';
import { amountsEqual, type ImportClassifier, type ImportRow, type ImportValidationContext, validateImportRows } from '@eelarve/shared';
import { accountsFixture, type Caller, PASSWORD } from '@eelarve/testing/accounts';

type InjectOptions = Parameters<Caller['request']>[0];
import { testConfig } from '@eelarve/testing/server';
import ExcelJS from 'exceljs';
import pg from 'pg';
import { cpuNow, mainThreadSeconds, postmasterPidOf, processSeconds } from './cpu';
import { serviceNodeFlags } from '../service-flags.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const RECORDS_TOTAL = Number(process.env.BENCH_RECORDS ?? 1_000_000);
const IMPORT_ROWS = 100_000;
const ACTIVITIES = 100;
const EXPENSES = 50;
const SOURCES = ['RE', 'OT', 'VV'];
const EDITORS = 16;
const EDIT_SECONDS = Number(process.env.BENCH_EDIT_SECONDS ?? 60);
const RECORDS_PER_EDITOR = 20;
const LIST_REQUESTS = 50;
const PORT = Number(process.env.BENCH_PORT ?? 3480);
/** `--only=edit`: only the editing, on a budget of BENCH_RECORDS imported records. */
const ONLY = process.argv.find((arg) => arg.startsWith('--only='))?.slice('--only='.length);
if (ONLY !== undefined && ONLY !== 'edit' && ONLY !== 'import' && ONLY !== 'list')
  throw new Error(`--only=${ONLY}: the parts that run alone are 'edit', 'import' and 'list'`);
const TARGETS = { fileImportS: 20, memoryMiB: 1024, millionS: 180, listP95Ms: 200, editP99Ms: 50 };
const assertTargets = !process.argv.includes('--no-assert');
const TRACE = process.env.BENCH_TRACE === '1';
/** --keep-database (with DATABASE_URL): the built database stays for trying statements on it; its URL is printed. */
const keepDatabase = process.argv.includes('--keep-database') && process.env.DATABASE_URL !== undefined;

interface Row {
  name: string;
  target: string;
  value: string;
  met: boolean | null;
}
const results: Row[] = [];
const report = (name: string, target: string, value: string, met: boolean | null) => {
  results.push({ name, target, value, met });
  console.log(`  ${name}: ${value} (target ${target})`);
};

const percentile = (values: readonly number[], fraction: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(fraction * sorted.length) - 1)] ?? Number.NaN;
};
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

// ---- the world ---------------------------------------------------------------------------------

interface World {
  organizationId: string;
  documentId: string;
  budgetId: string;
  /** Activity code → its sub-budget (the scheme's MAIN classifier is the activity). */
  subBudgetIds: Map<string, string>;
  editors: { email: string }[];
  /** What the import modal checks rows against (the web reads it from the classifier routes). */
  validation: ImportValidationContext;
}

const activityCode = (index: number) => String(100 + index);
const expenseCode = (index: number) => String(1000 + index);

/** Seeds the organisation, users, document, classifiers, scheme and budget through a gateway in this process, then closes it. */
async function seedWorld(databaseUrl: string): Promise<World> {
  const app = await buildApp(testConfig(databaseUrl));
  await app.ready();
  try {
    const login = await app.inject({
      method: 'POST',
      url: '/initial/auth/login',
      payload: { username: app.config.bootstrapAdmin?.email, password: app.config.bootstrapAdmin?.password },
    });
    const cookie = login.cookies.map((c) => `${c.name}=${c.value}`).join('; ');
    const admin = { request: (options: InjectOptions) => app.inject({ ...options, headers: { ...(options.headers ?? {}), cookie } }) };
    const accounts = accountsFixture(app, admin);
    const organizationId = await accounts.organization('Bench records');
    const editors: { email: string }[] = [];
    for (let index = 0; index < EDITORS; index++) {
      const member = await accounts.member(organizationId, ['DATA_VIEW', 'SCHEMA_ADMIN', 'CLASSIFICATION_ADMIN']);
      await accounts.grant(member.occupationId, [{ read: true, update: true }]);
      editors.push({ email: member.email });
    }
    // The first editor builds the structure through the routes, as an organisation's own administrator would.
    const first = await signInInProcess(app, editors[0]!.email);
    const post = async (url: string, payload: object) => {
      const response = await first({ method: 'POST', url, payload });
      if (response.statusCode !== 201) throw new Error(`POST ${url}: ${response.statusCode} ${response.body}`);
      return response.json().id as string;
    };
    const period = { year: 2027, month: 1, duration: 1 };
    const settings = { name: 'Eelarve 2027', description: '', period };
    const documentId = await post(`/api/organization/${organizationId}/document`, settings);
    const classifiers: ImportClassifier[] = [];
    const classifier = async (name: string, fieldName: string, codes: string[], required: boolean) => {
      const id = await post(`/api/document/${documentId}/classifier`, {
        name,
        itemName: name,
        fieldName,
        required,
        codeSettings: { typeName: 'Code', minLength: 2, maxLength: 10, hierarchical: false },
      });
      for (const code of codes) await post(`/api/classifier/${id}/item`, { code, name: `${name} ${code}` });
      classifiers.push({ id, fieldName, required, master: false, items: codes.map((code) => ({ code, name: `${name} ${code}`, selectable: true })) });
      return id;
    };
    const activity = await classifier(
      'Tegevusala',
      'tegevusala',
      Array.from({ length: ACTIVITIES }, (_, i) => activityCode(i)),
      true,
    );
    await first({ method: 'PUT', url: `/api/document/${documentId}`, payload: { ...settings, masterClassifierId: activity } });
    await classifier(
      'Kululiik',
      'kululiik',
      Array.from({ length: EXPENSES }, (_, i) => expenseCode(i)),
      false,
    );
    await classifier('Allikas', 'allikas', SOURCES, false);
    const schemeId = await post(`/api/document/${documentId}/schema`, {
      name: 'Tegevusalad',
      // Lines fall in the sub-budget of their activity, whatever their expense type and source.
      classifierList: [{ classifierId: activity, type: 'MAIN' }],
    });
    const subBudgetIds = new Map<string, string>();
    for (let index = 0; index < ACTIVITIES; index++) {
      const code = activityCode(index);
      subBudgetIds.set(code, await post(`/api/schema/${schemeId}/sub-budget`, { name: `Tegevusala ${code}`, classifiers: { [activity]: code } }));
    }
    const budgetId = await post(`/api/document/${documentId}/budget`, { type: 'COMMON', name: 'Põhieelarve', tags: [] });
    await first({ method: 'PUT', url: `/api/budget/${budgetId}/schema/${schemeId}/settings`, payload: { pinned: [...subBudgetIds.values()] } });
    const validation = { classifiers: classifiers.map((entry) => ({ ...entry, master: entry.id === activity })), monthCount: 12 };
    return { organizationId, documentId, budgetId, subBudgetIds, editors, validation };
  } finally {
    await app.close();
  }
}

async function signInInProcess(app: Awaited<ReturnType<typeof buildApp>>, email: string) {
  const login = await app.inject({ method: 'POST', url: '/initial/auth/login', payload: { username: email, password: PASSWORD } });
  if (login.statusCode !== 200) throw new Error(`sign-in ${email}: ${login.statusCode} ${login.body}`);
  const cookie = login.cookies.map((c) => `${c.name}=${c.value}`).join('; ');
  return (options: InjectOptions) => app.inject({ ...options, headers: { ...(options.headers ?? {}), cookie } });
}

// ---- rows --------------------------------------------------------------------------------------

/** Whole cents → decimal text; integers only, so the months add up exactly. */
const euros = (cents: number) => `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}`;

/** `count` rows for the sub-budgets from `firstActivity`, 1,000 per activity, monthly splits on every other row. */
function rows(count: number, batch: number): ImportRow[] {
  const list: ImportRow[] = [];
  for (let index = 0; index < count; index++) {
    const global = batch * count + index;
    const activity = activityCode(Math.floor(global / (RECORDS_TOTAL / ACTIVITIES)) % ACTIVITIES);
    const monthCents = 1_000 + ((global * 7919) % 500_000);
    const split = index % 2 === 0;
    list.push({
      name: `Rida ${global + 1}`,
      amount: euros(monthCents * 12),
      months: split ? Array.from({ length: 12 }, () => euros(monthCents)) : null,
      classifiers: { tegevusala: activity, kululiik: expenseCode(global % EXPENSES), allikas: SOURCES[global % SOURCES.length]! },
    });
  }
  return list;
}

/** The rows as an .xlsx a person would upload: name, amount, 12 months, then the classifiers. */
async function writeWorkbook(file: string, list: ImportRow[]): Promise<void> {
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ filename: file, useSharedStrings: false });
  const sheet = workbook.addWorksheet('Kirjed');
  sheet.addRow(['nimi', 'summa', ...Array.from({ length: 12 }, (_, m) => `kuu${m + 1}`), 'tegevusala', 'kululiik', 'allikas']).commit();
  for (const row of list) {
    const months = row.months ?? Array.from({ length: 12 }, () => null);
    sheet
      .addRow([
        row.name,
        Number(row.amount),
        ...months.map((value) => (value === null ? null : Number(value))),
        row.classifiers.tegevusala,
        row.classifiers.kululiik,
        row.classifiers.allikas,
      ])
      .commit();
  }
  await workbook.commit();
}

/** Reads the file back as the import modal does: header names, then one row per line. */
async function readWorkbook(file: string): Promise<ImportRow[]> {
  const [header, ...lines] = readXlsxRows(new Uint8Array(readFileSync(file)));
  if (header?.[0] !== 'nimi') throw new Error(`${file}: the header is not the one written`);
  const text = (value: CellValue | undefined) => (value === null || value === undefined ? null : typeof value === 'number' ? value : String(value));
  return lines.map((values) => {
    const months = Array.from({ length: 12 }, (_, month) => text(values[2 + month]));
    return {
      name: String(values[0] ?? ''),
      amount: text(values[1]),
      months: months.every((value) => value === null) ? null : months,
      classifiers: { tegevusala: String(values[14]), kululiik: String(values[15]), allikas: String(values[16]) },
    };
  });
}

// ---- the product's processes -------------------------------------------------------------------

interface Product {
  gateway: ChildProcess;
  worker: ChildProcess;
  stop(): Promise<void>;
}

/** `onLine`: the process's log lines (stdout), else they are dropped. */
function startService(entry: string, env: NodeJS.ProcessEnv, onLine?: (line: string) => void): ChildProcess {
  // With the flags npm start gives the services (their heap bound: scripts/service-flags.mjs).
  const child = spawn(process.execPath, [...serviceNodeFlags(), '--import', 'tsx', entry], {
    cwd: ROOT,
    env,
    stdio: ['ignore', onLine ? 'pipe' : 'ignore', 'inherit'],
  });
  if (onLine && child.stdout) createInterface({ input: child.stdout }).on('line', onLine);
  child.on('exit', (code, signal) => {
    if (code !== 0 && signal === null) console.error(`${entry} stopped with exit code ${code}`);
  });
  return child;
}

async function startProduct(databaseUrl: string, dataDir: string): Promise<Product> {
  const env = {
    ...process.env,
    NODE_ENV: 'development',
    DATABASE_URL: databaseUrl,
    PORT: String(PORT),
    DATA_DIR: dataDir,
    DEMO_DATA: 'false',
    LOG_LEVEL: 'warn',
  };
  const gateway = TRACE
    ? startService('services/gateway/src/main.ts', { ...env, EELARVE_TRACE_COMMANDS: '1', EELARVE_TRACE_SLOW_MS: '0' }, collectTrace)
    : startService('services/gateway/src/main.ts', env);
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    const up = await fetch(`http://127.0.0.1:${PORT}/health`).then(
      (response) => response.ok,
      () => false,
    );
    if (up) break;
    await sleep(250);
  }
  // The worker logs each import's phases at info (features/record-imports/task.ts): the file import reports them.
  const worker = startService('services/workers/src/main.ts', { ...env, LOG_LEVEL: 'info' }, collectImportPhases);
  const stopOne = (child: ChildProcess) =>
    new Promise<void>((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve();
      child.once('exit', () => resolve());
      child.kill('SIGTERM');
    });
  return {
    gateway,
    worker,
    async stop() {
      await stopOne(worker);
      await stopOne(gateway);
    },
  };
}

/** Peak resident memory (VmHWM) of a process in MiB, from /proc. */
function peakMiB(pid: number | undefined): number | null {
  if (!pid) return null;
  try {
    const line = readFileSync(`/proc/${pid}/status`, 'utf8')
      .split('\n')
      .find((candidate) => candidate.startsWith('VmHWM:'));
    return line ? Number(line.replace(/\D+/g, '')) / 1024 : null;
  } catch {
    return null;
  }
}

/** The largest peak among the database server's processes (postmaster and its backends, live ones only). */
function databasePeakMiB(postmasterPid: number | null): number | null {
  if (!postmasterPid) return null;
  let peak = peakMiB(postmasterPid) ?? 0;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const parent = Number(readFileSync(`/proc/${entry}/stat`, 'utf8').split(') ')[1]?.split(' ')[1]);
      if (parent === postmasterPid) peak = Math.max(peak, peakMiB(Number(entry)) ?? 0);
    } catch {
      // the process ended meanwhile
    }
  }
  return peak;
}

// ---- HTTP client -------------------------------------------------------------------------------

interface Client {
  /** The session cookie, for the editors' thread (editors-thread.mjs). */
  cookie: string;
  call(method: string, url: string, body?: unknown, headers?: Record<string, string>): Promise<{ status: number; json: () => Promise<unknown> }>;
}

async function signIn(email: string): Promise<Client> {
  const base = `http://127.0.0.1:${PORT}`;
  const login = await fetch(`${base}/initial/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: email, password: PASSWORD }),
  });
  if (login.status !== 200) throw new Error(`sign-in ${email}: ${login.status} ${await login.text()}`);
  const cookie = login.headers
    .getSetCookie()
    .map((value) => value.split(';')[0])
    .join('; ');
  return {
    cookie,
    async call(method, url, body, headers = {}) {
      const isBuffer = body instanceof Uint8Array;
      const response = await fetch(`${base}${url}`, {
        method,
        headers: { cookie, ...(body === undefined || isBuffer ? {} : { 'content-type': 'application/json' }), ...headers },
        body: body === undefined ? undefined : isBuffer ? (body as Uint8Array<ArrayBuffer>) : JSON.stringify(body),
      });
      const text = await response.text();
      return { status: response.status, json: async () => (text ? JSON.parse(text) : null) };
    },
  };
}

/** A command's phases as the gateway traced them (services/gateway/src/infrastructure/command-trace.ts). */
interface ServerTrace {
  totalMs: number;
  spans: { name: string; at: number; ms: number }[];
  gc: { kind: string; ms: number }[];
  stalls: number[];
}
/** The gateway's traces by request id (BENCH_TRACE=1). */
const serverTraces = new Map<string, ServerTrace>();

function collectTrace(line: string): void {
  if (!line.includes('slow command')) return;
  try {
    const entry = JSON.parse(line) as { trace: ServerTrace & { requestId: string } };
    serverTraces.set(entry.trace.requestId, entry.trace);
  } catch {
    // not a JSON log line
  }
}

/** Milliseconds per phase of each import the worker finished (its 'records import finished' log line), by import id. */
const importPhases = new Map<string, Record<string, number>>();

function collectImportPhases(line: string): void {
  if (!line.includes('records import finished')) return;
  try {
    const entry = JSON.parse(line) as { importId: string; ms: Record<string, number> };
    importPhases.set(entry.importId, entry.ms);
  } catch {
    // not a JSON log line
  }
}

async function importRows(client: Client, budgetId: string, list: ImportRow[], origin: string): Promise<string> {
  const id = await sendImport(client, budgetId, gzipSync(JSON.stringify({ list, importId: randomUUID() })), origin);
  await awaitImport(client, budgetId);
  return id;
}

/** Posts a gzip import body; answers the import's id once the gateway has taken it (202). */
async function sendImport(client: Client, budgetId: string, body: Uint8Array, origin: string): Promise<string> {
  const started = await client.call('POST', `/api/budget/${budgetId}/records?originResourceName=${encodeURIComponent(origin)}`, body, {
    'content-type': 'application/json',
    'content-encoding': 'gzip',
  });
  if (started.status !== 202 && started.status !== 201 && started.status !== 200)
    throw new Error(`import: ${started.status} ${JSON.stringify(await started.json())}`);
  return ((await started.json()) as { id: string }).id;
}

/** Polls the import's status (as the web does, but every 100 ms) until SUCCESS. */
async function awaitImport(client: Client, budgetId: string): Promise<void> {
  for (;;) {
    const status = (await (await client.call('GET', `/api/budget/${budgetId}/import/status`)).json()) as { status: string; result: unknown };
    if (status.status === 'SUCCESS') return;
    if (status.status === 'ERROR') throw new Error(`import failed: ${JSON.stringify(status.result)}`);
    await sleep(100);
  }
}

async function waitForRecords(db: pg.Pool, budgetId: string, count: number): Promise<void> {
  for (;;) {
    const { rows: counted } = await db.query<{ n: string }>('select count(*) as n from read.records where budget_id = $1', [budgetId]);
    if (Number(counted[0]?.n) >= count) return;
    await sleep(50);
  }
}

// ---- the measurements --------------------------------------------------------------------------

/** Seconds between two marks, for the phase lines. */
const secondsBetween = (from: number, to: number) => `${((to - from) / 1000).toFixed(1)} s`;

async function measureFileImport(client: Client, db: pg.Pool, world: World, tmp: string): Promise<void> {
  const file = path.join(tmp, 'kirjed.xlsx');
  await writeWorkbook(file, rows(IMPORT_ROWS, 0));
  const marks = [performance.now()];
  const read = await readWorkbook(file);
  marks.push(performance.now());
  // As the import modal: the rows are checked in the browser first, and only those without a critical error are sent.
  const checked = validateImportRows(read, world.validation);
  const list = read.filter((_, index) => !checked[index]!.critical);
  if (list.length !== IMPORT_ROWS) throw new Error(`${IMPORT_ROWS - list.length} rows refused: ${JSON.stringify(checked.find((row) => row.critical))}`);
  marks.push(performance.now());
  const body = gzipSync(JSON.stringify({ list, importId: randomUUID() }));
  marks.push(performance.now());
  const id = await sendImport(client, world.budgetId, body, 'kirjed.xlsx');
  marks.push(performance.now());
  await awaitImport(client, world.budgetId);
  marks.push(performance.now());
  await waitForRecords(db, world.budgetId, IMPORT_ROWS);
  marks.push(performance.now());
  const seconds = (marks.at(-1)! - marks[0]!) / 1000;
  await reportImportPhases(db, id, marks);
  report(
    `${IMPORT_ROWS.toLocaleString('en')}-row .xlsx: read, sent, imported, visible`,
    `≤ ${TARGETS.fileImportS} s`,
    `${seconds.toFixed(1)} s`,
    seconds <= TARGETS.fileImportS,
  );
}

/** Where the file import's time went: the client's marks, the job's wait in the queue, and the worker's phases. */
async function reportImportPhases(db: pg.Pool, importId: string, marks: readonly number[]): Promise<void> {
  const [start, read, checked, packed, sent, succeeded, visible] = marks as [number, number, number, number, number, number, number];
  const { rows: queued } = await db.query<{ ms: number }>(
    `select extract(epoch from j.started_on - j.created_on) * 1000 as ms
       from operational.record_imports i join pgboss.job j on j.id = i.task_id where i.id = $1`,
    [importId],
  );
  // The log line may arrive a moment after the status says SUCCESS.
  for (let tries = 0; tries < 20 && !importPhases.has(importId); tries++) await sleep(50);
  const worker = importPhases.get(importId) ?? {};
  const ms = (name: string) => (worker[name] === undefined ? '?' : `${(worker[name]! / 1000).toFixed(1)} s`);
  console.log(`  phases: read ${secondsBetween(start, read)}, check ${secondsBetween(read, checked)}, gzip ${secondsBetween(checked, packed)}, \
upload (until 202) ${secondsBetween(packed, sent)}; job: in the queue ${queued[0] ? `${(Number(queued[0].ms) / 1000).toFixed(1)} s` : '?'}, \
facts ${ms('facts')}, unpack ${ms('unpack')}, validate ${ms('validate')}, append ${ms('append')}, projected (visible) ${ms('visible')}, \
report ${ms('report')}; from 202 to SUCCESS seen ${secondsBetween(sent, succeeded)}, then in the read model ${secondsBetween(succeeded, visible)}`);
}

async function measureMillion(client: Client, db: pg.Pool, world: World): Promise<void> {
  const started = performance.now();
  const batches = RECORDS_TOTAL / IMPORT_ROWS;
  for (let batch = 1; batch < batches; batch++) await importRows(client, world.budgetId, rows(IMPORT_ROWS, batch), `erp-${batch}.json`);
  await waitForRecords(db, world.budgetId, RECORDS_TOTAL);
  // The first 100,000 came from the file import above: their time is counted there, so this scales the rest.
  const seconds = ((performance.now() - started) / 1000) * (batches / (batches - 1));
  report(
    `budget of ${RECORDS_TOTAL.toLocaleString('en')} records built by imports`,
    `≤ ${TARGETS.millionS} s`,
    `${seconds.toFixed(0)} s`,
    seconds <= TARGETS.millionS,
  );
}

/**
 * Until every read model has caught up (the report projector, in the gateway's process, follows a
 * million-record import for a while) and every import's job has ended: an import of 10,000 rows
 * or more ends by vacuuming the read models it filled (settleReadModels), and a list measured
 * during the last one's VACUUM of the million-record tables measured that vacuum too.
 */
async function waitForSettled(db: pg.Pool): Promise<void> {
  for (;;) {
    const { rows: behind } = await db.query<{ n: number }>(
      `select (select count(*)::int from projections.checkpoints
                where role = 'active' and (status <> 'live' or position_prepare < (select coalesce(max(position), 0) from eventstore.events)))
            + (select count(*)::int from operational.record_imports i join pgboss.job j on j.id = i.task_id
                where j.state in ('created', 'retry', 'active')) as n`,
    );
    if (behind[0]?.n === 0) return;
    await sleep(500);
  }
}

/** One list request's times from its start: the answer's head (the server's first byte), its last byte received as text, and parsed. */
interface ListTiming {
  head: number;
  received: number;
  parsed: number;
  count: number;
}

/**
 * The list's requests, one after another, on a thread of their own (list-thread.mjs), as a
 * browser tab asks: in this thread each 6 MB answer set off collections of the whole bench's
 * heap (the imported rows, the world), timed inside the requests.
 */
function listTimings(workerData: { url: string; cookie: string; encodings: string; warm: number; requests: number }): Promise<ListTiming[]> {
  return threadResult<ListTiming[]>('list-thread.mjs', workerData);
}

/**
 * What a bench thread (a plain JavaScript file beside this one) posts back once. A thread that
 * ends without it (out of memory, say) must not leave the bench waiting.
 */
function threadResult<Result>(file: string, workerData: unknown): Promise<Result> {
  const thread = new Worker(new URL(`./${file}`, import.meta.url), { workerData, execArgv: [] });
  return new Promise((resolve, reject) => {
    thread.once('error', reject);
    thread.once('exit', (code) => reject(new Error(`${file} ended (exit code ${code}) without its result`)));
    thread.once('message', resolve);
  });
}

/** Busy server backends (not this pool's) and the load average: what else runs while the list is measured. */
async function listNeighbours(db: pg.Pool): Promise<string> {
  const { rows: busy } = await db.query<{ what: string }>(
    `select coalesce(nullif(backend_type, 'client backend'), 'query') || ': ' || left(coalesce(query, ''), 60) as what
       from pg_stat_activity where state is distinct from 'idle' and pid <> pg_backend_pid() and backend_type in ('client backend', 'autovacuum worker')`,
  );
  return `load average ${os.loadavg()[0]?.toFixed(2)}; busy in PostgreSQL: ${busy.length === 0 ? 'nothing' : busy.map((row) => row.what).join(' | ')}`;
}

/** What a browser asks for (Chrome, Firefox): the gateway answers it with brotli 1. */
const BROWSER_ENCODINGS = 'gzip, deflate, br';
/** Node 20's fetch asks for gzip or deflate only, so the gateway answers gzip 1 (~14 ms of its CPU per 6 MB, against ~7 ms for brotli 1). */
const NODE_FETCH_ENCODINGS = 'gzip, deflate';
const NODE_FETCH_LIST_REQUESTS = 20;

/**
 * The records list of a 10,000-record sub-budget as the web reads it: 50 sequential GETs asking
 * for the encodings a browser asks for, each read as text and parsed. The target is on the answer
 * received whole (its last byte, decompressed, as text): that is the list's answer, the gateway's
 * work and the transfer. Beside it, so that no part is hidden: its head (the server's first byte)
 * and the client's JSON.parse after it; and the same list as Node's fetch asks for it by default (gzip).
 */
async function measureList(db: pg.Pool, world: World): Promise<void> {
  await waitForSettled(db);
  const subBudgetId = world.subBudgetIds.get(activityCode(0))!;
  const base = `http://127.0.0.1:${PORT}`;
  const url = `${base}/api/budget/${world.budgetId}/sub-budget/${subBudgetId}/records`;
  const login = await fetch(`${base}/initial/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: world.editors[0]!.email, password: PASSWORD }),
  });
  const cookie = login.headers
    .getSetCookie()
    .map((value) => value.split(';')[0])
    .join('; ');
  const measure = async (encodings: string, requests: number) => {
    const timings = await listTimings({ url, cookie, encodings, warm: 3, requests });
    const values = (part: keyof ListTiming) => timings.map((timing) => timing[part]);
    const ms = (part: keyof ListTiming) => `p50 ${percentile(values(part), 0.5).toFixed(0)} ms, p95 ${percentile(values(part), 0.95).toFixed(0)} ms`;
    return { ms, p95: percentile(values('received'), 0.95), count: timings[0]?.count ?? 0 };
  };
  console.log(`  before the list: ${await listNeighbours(db)}`);
  const browser = await measure(BROWSER_ENCODINGS, LIST_REQUESTS);
  console.log(`  after the list: ${await listNeighbours(db)}`);
  const nodeFetch = await measure(NODE_FETCH_ENCODINGS, NODE_FETCH_LIST_REQUESTS);
  report(
    `records list of a sub-budget (${browser.count.toLocaleString('en')} records, brotli as a browser asks): answer received whole`,
    `p95 ≤ ${TARGETS.listP95Ms} ms`,
    browser.ms('received'),
    browser.p95 <= TARGETS.listP95Ms,
  );
  report('  its head (first byte from the server)', 'informational', browser.ms('head'), null);
  report("  received and parsed (the client's JSON.parse)", 'informational', browser.ms('parsed'), null);
  report(
    `  the same list as Node's fetch asks for it (gzip), ${NODE_FETCH_LIST_REQUESTS} requests: received whole`,
    'informational',
    nodeFetch.ms('received'),
    null,
  );
  report('  ... and parsed', 'informational', nodeFetch.ms('parsed'), null);
}

interface EditorRecord {
  id: string;
  body: { name: string; amount: string; classifiers: Record<string, string> };
}

/**
 * People editing a budget pause between edits: they find the line, read it, type the amount.
 * 0.5–2 s (uniform) between one answer and the next edit is a brisk data-entry pace, faster than
 * anyone reads and types a budget line, so 16 of them (about 13 edits/s together) are a busy
 * budget round, not a quiet one. The closed loop without pauses is not a load people make: it
 * measures throughput (by Little's law its latency is editors / throughput), printed beside it.
 */
const THINK_MS = { min: 500, max: 2_000 };
/** A lone editor without pauses: the service time of one edit, nothing queued behind it. */
const ALONE_SECONDS = Math.min(EDIT_SECONDS, 15);

interface EditingRun {
  latencies: number[];
  /** The request id of each latency (the gateway's trace of it, with BENCH_TRACE=1). */
  requestIds: string[];
  /** When each edit was sent (performance.now()): edits sent together queue behind each other. */
  sentAt: number[];
  /** The editors' thread's own event-loop delay over the run (ms): a pause there would send their next edits together. */
  clientDelay: { p99Ms: number; maxMs: number };
  failures: number;
  /** Record id → the amount its editor wrote last (answered 200). */
  lastWritten: Map<string, string>;
  seconds: number;
}

/** Budget of BENCH_RECORDS records for `--only=edit` and `--only=list`, imported as an ERP job sends them. */
async function importBudget(client: Client, db: pg.Pool, world: World): Promise<void> {
  const size = Math.min(IMPORT_ROWS, RECORDS_TOTAL);
  for (let batch = 0; batch * size < RECORDS_TOTAL; batch++) await importRows(client, world.budgetId, rows(size, batch), `erp-${batch}.json`);
  await waitForRecords(db, world.budgetId, RECORDS_TOTAL);
  await waitForSettled(db);
  console.log(`budget of ${RECORDS_TOTAL.toLocaleString('en')} records imported`);
}

/** What editors-thread.mjs posts back at the end of a run. */
interface EditorsThreadResult {
  latencies: number[];
  requestIds: string[];
  sentAt: number[];
  failures: number;
  lastWritten: [string, string][];
  delayP99Ms: number;
  delayMaxMs: number;
}

/**
 * Each editor in a loop over their own records for `seconds`, pausing 0.5–2 s after each answer
 * when `think` (else none). They run on a worker thread of their own (editors-thread.mjs): this
 * thread's heap holds the imported rows and the traces, and one of its major collections held
 * all editors' next edits, which then reached the gateway together.
 */
async function editFor(editors: Client[], owned: EditorRecord[][], base: string, seconds: number, think: boolean): Promise<EditingRun> {
  const workerData = {
    base: `http://127.0.0.1:${PORT}${base}`,
    editors: editors.map((editor, index) => ({ cookie: editor.cookie, records: owned[index]!.slice(0, RECORDS_PER_EDITOR) })),
    seconds,
    think: think ? THINK_MS : null,
  };
  const result = await threadResult<EditorsThreadResult>('editors-thread.mjs', workerData);
  const { latencies, requestIds, sentAt, failures } = result;
  return {
    latencies,
    requestIds,
    sentAt,
    failures,
    lastWritten: new Map(result.lastWritten),
    seconds,
    clientDelay: { p99Ms: result.delayP99Ms, maxMs: result.delayMaxMs },
  };
}

/** Records whose stored amount is not what their editor wrote last. */
async function lostUpdates(reader: Client, base: string, run: EditingRun): Promise<number> {
  const listed = (await (await reader.call('GET', `${base}/records`)).json()) as { id: string; amount: string }[];
  const amounts = new Map(listed.map((record) => [record.id, record.amount]));
  return [...run.lastWritten].filter(([id, amount]) => {
    const stored = amounts.get(id);
    return stored === undefined || !amountsEqual(stored, amount);
  }).length;
}

/** CPU seconds of the gateway and of PostgreSQL so far (null where unknown). */
interface CpuReading {
  gateway: number | null;
  /** The gateway's main thread alone: the event loop that answers requests (the projections thread and libuv's pool excluded). */
  eventLoop: number | null;
  database: number | null;
}

type CpuMeter = () => CpuReading;

/**
 * CPU per edit of the gateway and of PostgreSQL over a run: unlike the latencies, other load on
 * the machine hardly changes it, so it tells a costlier edit from a crowded machine.
 */
async function withCpu(meter: CpuMeter, edit: () => Promise<EditingRun>): Promise<{ run: EditingRun; cpu: string }> {
  const before = meter();
  const run = await edit();
  const after = meter();
  const perEdit = (start: number | null, end: number | null) =>
    start === null || end === null ? '?' : `${(((end - start) * 1000) / Math.max(1, run.latencies.length)).toFixed(1)} ms`;
  const gateway = `gateway ${perEdit(before.gateway, after.gateway)} (its event loop ${perEdit(before.eventLoop, after.eventLoop)})`;
  return { run, cpu: `CPU per edit: ${gateway}, PostgreSQL ${perEdit(before.database, after.database)}` };
}

/** Median of each phase over the traces given (phases absent from a trace count as absent, not 0). */
function phaseMedians(traces: readonly ServerTrace[]): string {
  const byName = new Map<string, number[]>();
  for (const trace of traces) for (const span of trace.spans) byName.set(span.name, [...(byName.get(span.name) ?? []), span.ms]);
  return [...byName].map(([name, values]) => `${name} ${percentile(values, 0.5).toFixed(1)}`).join(', ');
}

/** Edits sent this close to each other arrive together; 16 editors pausing 0.5–2 s (about 13 edits/s) send 0.65 others within it on average. */
const TOGETHER_MS = 25;

/**
 * Where the slowest 1% of a run's edits spent their time, by the gateway's trace (BENCH_TRACE=1):
 * each one's phases and the GC pauses that overlapped it, then the median edit's phases to compare.
 */
async function reportSlowest(label: string, run: EditingRun): Promise<void> {
  if (!TRACE) return;
  await sleep(500);
  const order = run.latencies.map((ms, index) => ({ ms, id: run.requestIds[index]!, sentAt: run.sentAt[index]! })).sort((a, b) => b.ms - a.ms);
  const slowest = order.slice(0, Math.max(1, Math.ceil(order.length / 100)));
  const all = order.flatMap((entry) => serverTraces.get(entry.id) ?? []);
  console.log(`  ${label}: phases (ms) of the median edit: ${phaseMedians(all)}`);
  console.log(
    `  ${label}: the slowest 1% (${slowest.length}), client ms (edits sent within ${TOGETHER_MS} ms of it) → server phases (start+ms) | GC | event-loop stalls:`,
  );
  for (const entry of slowest) {
    const trace = serverTraces.get(entry.id);
    const phases = trace ? trace.spans.map((span) => `${span.name} ${span.at.toFixed(0)}+${span.ms.toFixed(0)}`).join(', ') : 'no trace';
    const gc = trace?.gc.length ? trace.gc.map((pause) => `${pause.kind} ${pause.ms.toFixed(1)}`).join(', ') : 'none';
    const stalls = trace?.stalls.length ? trace.stalls.map((ms) => ms.toFixed(0)).join(', ') : 'none';
    const together = run.sentAt.filter((at) => Math.abs(at - entry.sentAt) <= TOGETHER_MS).length - 1;
    console.log(`    ${entry.ms.toFixed(0)} ms (${together}) → server ${trace?.totalMs.toFixed(0) ?? '?'}: ${phases} | ${gc} | ${stalls}`);
  }
  console.log(`  ${label}: phases (ms), median over the slowest 1%: ${phaseMedians(slowest.flatMap((entry) => serverTraces.get(entry.id) ?? []))}`);
}

const latencySummary = (run: EditingRun) => `p50 ${percentile(run.latencies, 0.5).toFixed(0)} ms, p99 ${percentile(run.latencies, 0.99).toFixed(0)} ms`;
/** With the machine's load average at the end of the run: the latencies mean little without it on a shared machine. */
const editsLabel = (run: EditingRun) =>
  `${run.latencies.length.toLocaleString('en')} edits, ${run.failures} refused, load average ${os.loadavg()[0]?.toFixed(1)}, the editors' thread's event-loop delay p99 ${run.clientDelay.p99Ms.toFixed(0)} / max ${run.clientDelay.maxMs.toFixed(0)} ms`;

async function measureEditing(world: World, meter: CpuMeter): Promise<void> {
  const editors = await Promise.all(world.editors.map((editor) => signIn(editor.email)));
  const activity = activityCode(ACTIVITIES - 1);
  const subBudgetId = world.subBudgetIds.get(activity)!;
  const base = `/api/budget/${world.budgetId}/sub-budget/${subBudgetId}`;
  // Each editor gets records of their own in one sub-budget of the budget.
  const owned: EditorRecord[][] = [];
  for (const [index, editor] of editors.entries()) {
    const mine: EditorRecord[] = [];
    for (let n = 0; n < RECORDS_PER_EDITOR; n++) {
      const body = {
        name: `Toimetaja ${index + 1} rida ${n + 1}`,
        amount: '100.00',
        classifiers: { tegevusala: activity, kululiik: expenseCode(n % EXPENSES) },
      };
      const response = await editor.call('POST', `${base}/record`, body);
      if (response.status !== 201) throw new Error(`create record: ${response.status} ${JSON.stringify(await response.json())}`);
      mine.push({ id: ((await response.json()) as { id: string }).id, body });
    }
    owned.push(mine);
  }
  const { run: alone, cpu: aloneCpu } = await withCpu(meter, () => editFor(editors.slice(0, 1), owned, base, ALONE_SECONDS, false));
  report(`one editor alone, no pause (service time; ${editsLabel(alone)})`, 'informational', `${latencySummary(alone)}; ${aloneCpu}`, null);
  await reportSlowest('alone', alone);

  const { run: people, cpu: peopleCpu } = await withCpu(meter, () => editFor(editors, owned, base, EDIT_SECONDS, true));
  const p99 = percentile(people.latencies, 0.99);
  report(
    `${EDITORS} users editing one budget for ${EDIT_SECONDS} s, ${THINK_MS.min / 1000}–${THINK_MS.max / 1000} s between edits (${editsLabel(people)})`,
    `p99 ≤ ${TARGETS.editP99Ms} ms`,
    `${latencySummary(people)}; ${peopleCpu}`,
    p99 <= TARGETS.editP99Ms && people.failures === 0,
  );
  await reportSlowest('with pauses', people);
  const lost = await lostUpdates(editors[0]!, base, people);
  report('lost updates', '0', String(lost), lost === 0);

  const { run: saturation, cpu: saturationCpu } = await withCpu(meter, () => editFor(editors, owned, base, EDIT_SECONDS, false));
  const perSecond = saturation.latencies.length / saturation.seconds;
  report(
    `saturation: ${EDITORS} editors without pause for ${EDIT_SECONDS} s (${editsLabel(saturation)})`,
    'informational',
    `${perSecond.toFixed(0)} edits/s, ${latencySummary(saturation)}; ${saturationCpu}`,
    null,
  );
  await reportSlowest('saturation', saturation);
  const lostAtSaturation = await lostUpdates(editors[0]!, base, saturation);
  report('lost updates at saturation', '0', String(lostAtSaturation), lostAtSaturation === 0);
}

const cpuMeter =
  (product: Product, postmasterPid: number | null): CpuMeter =>
  () => {
    const pid = product.gateway.pid;
    return { gateway: pid ? processSeconds(pid) : null, eventLoop: pid ? mainThreadSeconds(pid) : null, database: cpuNow(postmasterPid).server };
  };

function reportMemory(product: Product, postmasterPid: number | null): void {
  const peaks = { gateway: peakMiB(product.gateway.pid), worker: peakMiB(product.worker.pid), 'PostgreSQL (largest process)': databasePeakMiB(postmasterPid) };
  for (const [name, mib] of Object.entries(peaks))
    report(
      `peak memory: ${name}`,
      `≤ ${TARGETS.memoryMiB} MiB`,
      mib === null ? 'unknown' : `${mib.toFixed(0)} MiB`,
      mib === null ? null : mib <= TARGETS.memoryMiB,
    );
}

async function main(): Promise<void> {
  const tmp = await mkdtemp(path.join(os.tmpdir(), 'eelarve-bench-records-'));
  await chmod(tmp, 0o755);
  let adminUrl = process.env.DATABASE_URL;
  let server: Awaited<ReturnType<typeof startEmbeddedPostgres>> | null = null;
  let postmasterPid: number | null = null;
  if (!adminUrl) {
    console.log(`starting an embedded PostgreSQL in ${tmp} (durable defaults)`);
    server = await startEmbeddedPostgres({ dataDir: path.join(tmp, 'data') });
    adminUrl = server.adminUrl;
    postmasterPid = postmasterPidOf(path.join(tmp, 'data'));
  }
  const databaseName = `bench_records_${randomUUID().slice(0, 8)}`;
  const databaseUrl = await createDatabase(adminUrl, databaseName);
  const db = new pg.Pool({ connectionString: databaseUrl, max: 2 });
  let product: Product | null = null;
  try {
    console.log('seeding: an organisation, 16 editors, a document with 100 activities, 50 expense types, a scheme of 100 sub-budgets and a budget');
    const world = await seedWorld(databaseUrl);
    product = await startProduct(databaseUrl, path.join(tmp, 'app'));
    const client = await signIn(world.editors[0]!.email);
    console.log(`load average ${os.loadavg()[0]?.toFixed(2)} on ${os.cpus().length} cores`);
    if (ONLY === 'edit' || ONLY === 'list') {
      await importBudget(client, db, world);
      if (ONLY === 'edit') await measureEditing(world, cpuMeter(product, postmasterPid));
      else await measureList(db, world);
      reportMemory(product, postmasterPid);
    } else {
      await measureFileImport(client, db, world, tmp);
      reportMemory(product, postmasterPid);
      if (ONLY !== 'import') {
        await measureMillion(client, db, world);
        await measureList(db, world);
        await measureEditing(world, cpuMeter(product, postmasterPid));
        reportMemory(product, postmasterPid);
      }
    }
  } finally {
    await product?.stop();
    await db.end();
    if (keepDatabase) console.log(`kept the database: ${databaseUrl}`);
    else await dropDatabase(adminUrl, databaseName).catch(() => undefined);
    await server?.stop();
    await rm(tmp, { recursive: true, force: true });
  }
  console.log('\n| measurement | target | measured | |\n|---|---|---|---|');
  for (const row of results)
    console.log(
      `| ${row.name} | ${row.target} | ${row.value} | ${row.met === null ? (row.target === 'informational' ? '' : '?') : row.met ? 'met' : 'MISSED'} |`,
    );
  if (assertTargets && results.some((row) => row.met === false)) process.exitCode = 1;
}

await main();
