/**
 * Event store throughput on a durable PostgreSQL (fsync and synchronous_commit on, as in
 * production): `pnpm bench:eventstore`. Starts an embedded server in a temporary directory unless
 * DATABASE_URL names one; either way the figures come from a fresh database of their own.
 * Client and server share the machine, so other busy processes lower every rate: the load
 * average is printed, and for the embedded server the CPU time each event cost, which they
 * do not change much.
 */
import { randomUUID } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { createPostgresEventStore, type EventStore, type NewEvent, START } from '@eelarve/eventstore';
import { createDatabase, dropDatabase, startEmbeddedPostgres } from '@eelarve/postgres';
import { benchProjectorCatchUp } from '@eelarve/projections/bench';

const SINGLE_WRITERS = 16;
const SINGLE_EVENTS = 20_000;
const BATCHES = 200;
const BATCH_SIZE = 1_000;
const BATCH_WRITERS = 4;
const CATCH_UP_EVENTS = 1_000_000;

interface Result {
  name: string;
  events: number;
  seconds: number;
  target?: number;
  /** CPU seconds spent by this process and by the database server, when known. */
  cpu?: { client: number; server: number };
}

/** The PostgreSQL server's postmaster, when this script started it (Linux /proc only). */
let postmasterPid: number | null = null;

/** utime, stime, cutime, cstime and ppid of a process, from /proc/<pid>/stat. */
function procStat(pid: string): { ppid: number; own: number; children: number } | null {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    const ticks = (index: number) => Number(fields[index]);
    return { ppid: ticks(1), own: ticks(11) + ticks(12), children: ticks(13) + ticks(14) };
  } catch {
    return null;
  }
}

/** CPU seconds of the server: the postmaster, its live backends and the ones that have exited. */
function serverCpu(): number | null {
  const postmaster = postmasterPid && procStat(String(postmasterPid));
  if (!postmaster) return null;
  let ticks = postmaster.own + postmaster.children;
  for (const entry of readdirSync('/proc')) {
    const stat = /^\d+$/.test(entry) ? procStat(entry) : null;
    if (stat?.ppid === postmasterPid) ticks += stat.own;
  }
  return ticks / 100; // USER_HZ
}

function clientCpu(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1e6;
}

function benchEvent(index: number): NewEvent {
  return {
    id: randomUUID(),
    type: 'RecordAmountSet',
    data: { recordId: randomUUID(), month: (index % 12) + 1, amount: '1234.56', classifiers: { account: '4000', project: 'P-17' } },
    metadata: {
      correlationId: randomUUID(),
      causationId: null,
      userId: randomUUID(),
      occupationId: null,
      organizationId: null,
      occurredAt: new Date().toISOString(),
      schemaVersion: 1,
    },
  };
}

/** Times `run`, which resolves to the number of events it handled. */
async function timed(name: string, target: number | undefined, run: () => Promise<number>): Promise<void> {
  const [client, server, started] = [clientCpu(), serverCpu(), performance.now()];
  const events = await run();
  const seconds = (performance.now() - started) / 1000;
  const serverAfter = serverCpu();
  const cpu = server === null || serverAfter === null ? undefined : { client: clientCpu() - client, server: serverAfter - server };
  report({ name, events, seconds, target, cpu });
}

function report({ name, events, seconds, target, cpu }: Result): void {
  const rate = Math.round(events / seconds);
  const verdict = target === undefined ? '' : rate >= target ? `, target ${target} met` : `, target ${target} MISSED`;
  const perEvent = (cpuSeconds: number) => ((cpuSeconds / events) * 1e6).toFixed(0);
  const cost = cpu ? `, CPU per event ${perEvent(cpu.client)} µs client + ${perEvent(cpu.server)} µs server` : '';
  console.log(`${name.padEnd(44)} ${String(events).padStart(9)} events ${seconds.toFixed(2).padStart(7)} s ${String(rate).padStart(7)} ev/s${verdict}${cost}`);
}

/** (a) Each writer appends one event at a time to its own streams, as command handlers do. */
function singleAppends(store: EventStore): Promise<void> {
  const perWriter = SINGLE_EVENTS / SINGLE_WRITERS;
  return timed(`(a) single-event appends, ${SINGLE_WRITERS} writers`, 5_000, async () => {
    await Promise.all(
      Array.from({ length: SINGLE_WRITERS }, async (_, writer) => {
        const stream = `bench-${writer}-${randomUUID()}`;
        for (let index = 0; index < perWriter; index++) {
          await store.append(stream, [benchEvent(index)], { expectedRevision: index === 0 ? 'no_stream' : BigInt(index - 1) });
        }
      }),
    );
    return SINGLE_EVENTS;
  });
}

/** (b) Imports append big batches, each writer one after another. */
function batchAppends(store: EventStore, writers: number): Promise<void> {
  const name = `(b) ${BATCH_SIZE}-event batch appends, ${writers} writer${writers > 1 ? 's' : ''}`;
  return timed(name, 50_000, async () => {
    await Promise.all(
      Array.from({ length: writers }, async () => {
        for (let batch = 0; batch < BATCHES / writers; batch++) {
          const events = Array.from({ length: BATCH_SIZE }, (_, index) => benchEvent(index));
          await store.append(`import-${randomUUID()}`, events, { expectedRevision: 'no_stream' });
        }
      }),
    );
    return BATCHES * BATCH_SIZE;
  });
}

/** (c) A consumer reading the whole log from the start, page by page. */
function readAllFromStart(store: EventStore): Promise<void> {
  return timed('(c) readAll from the start, pages of 1000', undefined, async () => {
    let events = 0;
    let position = START;
    for (;;) {
      const page = await store.readAll({ fromPosition: position, maxCount: 1_000 });
      events += page.events.length;
      position = page.nextPosition;
      if (page.isEnd) return events;
    }
  });
}

/** (d) A projector rebuilding from position zero, driven by the projections package (which tops the log up first). */
async function projectorCatchUp(connectionString: string): Promise<void> {
  console.log(`    (d) seeds the log up to ${CATCH_UP_EVENTS} events first, untimed...`);
  const { events, seconds } = await benchProjectorCatchUp(connectionString, CATCH_UP_EVENTS);
  // Its own figure: the seeding it does first would blur CPU costs measured around the call.
  report({ name: '(d) projector catch-up from position zero', events, seconds, target: 50_000 });
}

async function withServer<T>(run: (adminUrl: string) => Promise<T>): Promise<T> {
  if (process.env.DATABASE_URL) return run(process.env.DATABASE_URL);
  const dir = await mkdtemp(path.join(os.tmpdir(), 'eelarve-bench-pg-'));
  // Run as root, the server runs as the user postgres, which must be able to enter the directory.
  await chmod(dir, 0o755);
  console.log(`starting an embedded PostgreSQL in ${dir} (durable defaults)`);
  const dataDir = path.join(dir, 'data');
  const server = await startEmbeddedPostgres({ dataDir });
  postmasterPid = Number(readFileSync(path.join(dataDir, 'postmaster.pid'), 'utf8').split('\n')[0]);
  try {
    return await run(server.adminUrl);
  } finally {
    await server.stop();
    await rm(dir, { recursive: true, force: true });
  }
}

function reportLoad(when: string): void {
  const [oneMinute] = os.loadavg();
  console.log(`    load average ${when}: ${oneMinute!.toFixed(2)} on ${os.availableParallelism()} cores`);
}

async function main(): Promise<void> {
  await withServer(async (adminUrl) => {
    const database = `bench_eventstore_${randomUUID().slice(0, 8)}`;
    const connectionString = await createDatabase(adminUrl, database);
    const store = createPostgresEventStore({ connectionString });
    try {
      await store.migrate();
      reportLoad('before');
      await singleAppends(store);
      await batchAppends(store, 1);
      await batchAppends(store, BATCH_WRITERS);
      await readAllFromStart(store);
      reportLoad('after (a)-(c)');
      await projectorCatchUp(connectionString);
    } finally {
      await store.close();
      await dropDatabase(adminUrl, database);
    }
  });
}

await main();
