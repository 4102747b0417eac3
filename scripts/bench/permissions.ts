/**
 * Resource permissions at the size of a real organisation: `pnpm bench:permissions`
 * (issue 10, point 8). Seeds one organisation with 200 occupations (ordinary roles, no ADMIN
 * occupation), one document with 50 budgets and a scheme of 10,000 sub-budgets, and grants of
 * mixed kinds (permissions-world.ts). Then, through the HTTP API (Fastify inject, the routes the
 * web calls), signed in as an occupation with no organisation or document grant, read on some
 * budgets, update on others and ~500 sub-budget grants on budgets it cannot read as a whole:
 * - the document's budget list, 200 requests;
 * - the sub-budgets of a budget read only through sub-budget grants, and of one read as a whole,
 *   200 requests each;
 * - a bulk change over the whole document (update on the document, every budget and sub-budgets,
 *   5,000 grants in one PUT, as the header toggle sends) until GET api/occupation/{id}/permissions
 *   shows it, and its removal likewise, 20 times each.
 * Targets: list p95 <= 50 ms, a bulk change visible within 2 s. Prints a table and exits 1 when a
 * target is missed, unless run with --no-assert (`pnpm bench:permissions --no-assert`). Beside
 * the wall-clock figures, the CPU time each request cost this process (the whole gateway runs in
 * it) and the embedded PostgreSQL server: a crowded machine stretches the first, hardly the second.
 *
 * Starts an embedded PostgreSQL (durable defaults) in a temporary directory unless DATABASE_URL
 * names a server; either way it works in a fresh database of its own. BENCH_OCCUPATIONS,
 * BENCH_BUDGETS and BENCH_SUB_BUDGETS change the size.
 */
import { randomUUID } from 'node:crypto';
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { buildApp } from '@eelarve/gateway/app';
import { createDatabase, dropDatabase, startEmbeddedPostgres } from '@eelarve/postgres';
import { testConfig } from '@eelarve/testing/server';
import { type CpuSeconds, cpuNow, cpuSince, postmasterPidOf } from './cpu';
import { type Client, expectStatus, type PermissionInput, putPermissions, seedWorld, type World } from './permissions-world';

const SIZE = {
  occupations: Number(process.env.BENCH_OCCUPATIONS ?? 200),
  budgets: Number(process.env.BENCH_BUDGETS ?? 50),
  subBudgets: Number(process.env.BENCH_SUB_BUDGETS ?? 10_000),
  measuredSubBudgetGrants: 500,
};
const LIST_REQUESTS = 200;
const WARM_UP_REQUESTS = 10;
const BULK_REPETITIONS = 20;
const BULK_GRANTS = 5_000;
const LIST_TARGET_P95_MS = 50;
const BULK_TARGET_MS = 2_000;
const POLL_INTERVAL_MS = 10;

interface Measurement {
  name: string;
  /** Rows and size of the (last) answer: whether grants filtered it, and how much there was to send. */
  rows: string;
  durationsMs: number[];
  /** CPU milliseconds per request (or per change) of this process and of the database server. */
  cpuMs: CpuSeconds | null;
  /** Printed under the table. */
  note?: string;
  /** p95 for lists, max for bulk changes. */
  target: { statistic: 'p95' | 'max'; ms: number } | null;
}

const percentile = (sorted: readonly number[], fraction: number) => sorted[Math.min(sorted.length - 1, Math.ceil(fraction * sorted.length) - 1)] ?? Number.NaN;

function statistics(durations: readonly number[]) {
  const sorted = [...durations].sort((a, b) => a - b);
  return { p50: percentile(sorted, 0.5), p95: percentile(sorted, 0.95), max: sorted.at(-1) ?? Number.NaN };
}

/** The embedded server's postmaster, whose CPU time is counted; null for a DATABASE_URL server. */
let postmasterPid: number | null = null;

/** CPU seconds spent on `count` requests as milliseconds per request. */
const perRequest = (cpu: CpuSeconds, count: number): CpuSeconds => ({
  client: (cpu.client * 1000) / count,
  server: cpu.server === null ? null : (cpu.server * 1000) / count,
});

const missed = (measurement: Measurement) =>
  measurement.target !== null && statistics(measurement.durationsMs)[measurement.target.statistic] > measurement.target.ms;

async function withServer<T>(run: (adminUrl: string) => Promise<T>): Promise<T> {
  if (process.env.DATABASE_URL) return run(process.env.DATABASE_URL);
  const dir = await mkdtemp(path.join(os.tmpdir(), 'eelarve-bench-pg-'));
  await chmod(dir, 0o755);
  console.log(`starting an embedded PostgreSQL in ${dir} (durable defaults)`);
  const server = await startEmbeddedPostgres({ dataDir: path.join(dir, 'data') });
  postmasterPid = postmasterPidOf(path.join(dir, 'data'));
  try {
    return await run(server.adminUrl);
  } finally {
    await server.stop();
    await rm(dir, { recursive: true, force: true });
  }
}

/** A GET list answered LIST_REQUESTS times in a row, after a few unmeasured ones. */
async function measureList(name: string, client: Client, url: string, total: number): Promise<Measurement> {
  let rows = 0;
  let bytes = 0;
  const get = async () => {
    const response = expectStatus(await client.request({ method: 'GET', url }), 200, name);
    rows = (response.json() as unknown[]).length;
    bytes = response.rawPayload.length;
  };
  for (let index = 0; index < WARM_UP_REQUESTS; index++) await get();
  const durationsMs: number[] = [];
  const cpuStart = cpuNow(postmasterPid);
  for (let index = 0; index < LIST_REQUESTS; index++) {
    const started = performance.now();
    await get();
    durationsMs.push(performance.now() - started);
  }
  const cpuMs = perRequest(cpuSince(cpuStart, postmasterPid), LIST_REQUESTS);
  return { name, rows: `${rows} of ${total}, ${Math.ceil(bytes / 1024)} KiB`, durationsMs, cpuMs, target: { statistic: 'p95', ms: LIST_TARGET_P95_MS } };
}

/** Update on the document, every budget and as many sub-budgets (spread over the budgets) as make BULK_GRANTS. */
function headerToggle(world: World, granted: boolean): PermissionInput[] {
  const { documentId, budgetIds, subBudgetIds } = world;
  const flags = { read: granted, update: granted };
  const perBudget = Math.min(subBudgetIds.length, Math.floor((BULK_GRANTS - 1 - budgetIds.length) / budgetIds.length));
  // Each budget gets its own run of sub-budgets, so the change touches many of them.
  const subBudgetsOf = (budgetIndex: number) =>
    Array.from({ length: perBudget }, (_, index) => subBudgetIds[(budgetIndex * perBudget + index) % subBudgetIds.length] as string);
  return [
    { documentId, ...flags },
    ...budgetIds.flatMap((budgetId, budgetIndex) => [
      { documentId, budgetId, ...flags },
      ...subBudgetsOf(budgetIndex).map((subBudgetId) => ({ documentId, budgetId, subBudgetId, ...flags })),
    ]),
  ];
}

type PermissionRow = { budgetId: string | null; subBudgetId: string | null; read: boolean; update: boolean };

/** Whether the occupation's effective permissions in the document show the change in full. */
function shows(rows: readonly PermissionRow[], change: readonly PermissionInput[], granted: boolean): boolean {
  // The target holds no grant in the document but the header toggle's, so a removal leaves none.
  if (!granted) return rows.every((row) => !row.read && !row.update);
  const updated = new Set(rows.filter((row) => row.update).map((row) => `${row.budgetId}/${row.subBudgetId}`));
  return change.every((input) => updated.has(`${input.budgetId ?? null}/${input.subBudgetId ?? null}`));
}

interface BulkTiming {
  /** Until the PUT answered (it waits for the permissions read model: read-your-writes). */
  answeredMs: number;
  /** Until GET api/occupation/{id}/permissions?documentId= showed the whole change. */
  visibleMs: number;
  /** CPU seconds from the PUT until visible. */
  cpu: CpuSeconds;
}

/** A bulk change's times from the PUT until it answered and until the effective read model (through its GET) shows it. */
async function bulkChange(world: World, granted: boolean): Promise<BulkTiming> {
  const change = headerToggle(world, granted);
  const url = `/api/occupation/${world.bulkTargetOccupationId}/permissions?documentId=${world.documentId}`;
  const started = performance.now();
  const cpuStart = cpuNow(postmasterPid);
  expectStatus(await putPermissions(world.userAdmin, world.bulkTargetOccupationId, change), 200, 'bulk change');
  const answeredMs = performance.now() - started;
  for (;;) {
    const response = expectStatus(await world.userAdmin.request({ method: 'GET', url }), 200, 'effective permissions');
    if (shows(response.json() as PermissionRow[], change, granted))
      return { answeredMs, visibleMs: performance.now() - started, cpu: cpuSince(cpuStart, postmasterPid) };
    if (performance.now() - started > 30_000) throw new Error('a bulk change was not visible within 30 s');
    await new Promise((resolve) => setTimeout(resolve, POLL_INTERVAL_MS));
  }
}

function totalCpu(timings: readonly BulkTiming[]): CpuSeconds {
  const servers = timings.map((timing) => timing.cpu.server);
  const server = servers.includes(null) ? null : (servers as number[]).reduce((sum, value) => sum + value, 0);
  return { client: timings.reduce((sum, timing) => sum + timing.cpu.client, 0), server };
}

const mean = (values: readonly number[]) => values.reduce((sum, value) => sum + value, 0) / values.length;

/** Whether later changes took longer than the first ones (each is decided on its stream's whole history). */
function trend(name: string, timings: readonly BulkTiming[]): string {
  const visible = timings.map((timing) => timing.visibleMs);
  const [first, last] = [mean(visible.slice(0, 5)), mean(visible.slice(-5))];
  return `${name}: the first five took ${first.toFixed(0)} ms on average, the last five ${last.toFixed(0)} ms`;
}

/** The header toggle on and off again, BULK_REPETITIONS times. */
async function measureBulkChanges(world: World): Promise<Measurement[]> {
  const grants: BulkTiming[] = [];
  const removals: BulkTiming[] = [];
  for (let index = 0; index < BULK_REPETITIONS; index++) {
    grants.push(await bulkChange(world, true));
    removals.push(await bulkChange(world, false));
  }
  const size = headerToggle(world, true).length;
  const target = { statistic: 'max' as const, ms: BULK_TARGET_MS };
  const rows = (name: string, timings: readonly BulkTiming[]): Measurement[] => [
    { name: `${name}, PUT answered`, rows: '', durationsMs: timings.map((timing) => timing.answeredMs), cpuMs: null, target: null },
    {
      name: `${name}, until visible`,
      rows: '',
      durationsMs: timings.map((timing) => timing.visibleMs),
      cpuMs: perRequest(totalCpu(timings), timings.length),
      target,
      note: trend(name, timings),
    },
  ];
  return [...rows(`bulk grant of update, ${size} grants`, grants), ...rows('bulk removal of the same', removals)];
}

async function measure(world: World): Promise<Measurement[]> {
  const { measured, documentId, schemeId, budgetIds, subBudgetIds, budgetReadThroughSubBudgets, budgetReadAsWhole } = world;
  const subBudgetsOf = (budgetId: string) => `/api/budget/${budgetId}/schema/${schemeId}/sub-budgets`;
  return [
    await measureList('budget list (GET api/document/{id}/budgets)', measured.client, `/api/document/${documentId}/budgets`, budgetIds.length),
    await measureList(
      `sub-budgets of a budget read through ${budgetReadThroughSubBudgets.grantedSubBudgets} sub-budget grants`,
      measured.client,
      subBudgetsOf(budgetReadThroughSubBudgets.budgetId),
      subBudgetIds.length,
    ),
    await measureList('sub-budgets of a budget read as a whole', measured.client, subBudgetsOf(budgetReadAsWhole), subBudgetIds.length),
    ...(await measureBulkChanges(world)),
  ];
}

function printTable(measurements: readonly Measurement[]): void {
  const header = `${'measurement'.padEnd(62)} ${'n'.padStart(4)} ${'rows, size'.padStart(26)} ${'p50 ms'.padStart(8)} ${'p95 ms'.padStart(8)} ${'max ms'.padStart(8)} ${'CPU ms node+pg'.padStart(15)}  target`;
  console.log(`\n${header}\n${'-'.repeat(header.length + 12)}`);
  for (const measurement of measurements) {
    const { p50, p95, max } = statistics(measurement.durationsMs);
    const target = measurement.target ? `${measurement.target.statistic} <= ${measurement.target.ms} ms ${missed(measurement) ? 'MISSED' : 'met'}` : '';
    const cells = [p50, p95, max].map((value) => value.toFixed(1).padStart(8)).join(' ');
    const cpu = measurement.cpuMs ? `${measurement.cpuMs.client.toFixed(1)}+${measurement.cpuMs.server?.toFixed(1) ?? '?'}` : '';
    console.log(
      `${measurement.name.padEnd(62)} ${String(measurement.durationsMs.length).padStart(4)} ${measurement.rows.padStart(26)} ${cells} ${cpu.padStart(15)}  ${target}`,
    );
  }
  console.log('');
  for (const { note } of measurements) if (note) console.log(note);
}

async function main(): Promise<void> {
  const assert = !process.argv.includes('--no-assert');
  await withServer(async (adminUrl) => {
    const database = `bench_permissions_${randomUUID().slice(0, 8)}`;
    const databaseUrl = await createDatabase(adminUrl, database);
    const app = await buildApp(testConfig(databaseUrl, { logLevel: 'warn', readYourWritesTimeoutMs: 30_000 }));
    try {
      const started = performance.now();
      const world = await seedWorld(app, SIZE, (line) => console.log(`seeded ${line}`));
      const load = os.loadavg().map((average) => average.toFixed(2));
      console.log(`seeding took ${((performance.now() - started) / 1000).toFixed(1)} s (not measured); load average ${load.join(' ')}`);
      const measurements = await measure(world);
      printTable(measurements);
      console.log(
        `load average after measuring ${os
          .loadavg()
          .map((average) => average.toFixed(2))
          .join(' ')} (other processes on the machine slow every figure)`,
      );
      const failed = measurements.filter(missed);
      if (failed.length > 0 && assert) {
        console.log(`\n${failed.length} target(s) missed (run with --no-assert to only measure)`);
        process.exitCode = 1;
      }
    } finally {
      await app.close();
      await dropDatabase(adminUrl, database);
    }
  });
}

await main();
