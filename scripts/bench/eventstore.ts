/**
 * Event store throughput on a durable PostgreSQL (fsync and synchronous_commit on, as in
 * production): `pnpm bench:eventstore`. Starts an embedded server in a temporary directory unless
 * DATABASE_URL names one; either way the figures come from a fresh database of their own.
 * Client and server share the machine, so other busy processes lower every figure: the load
 * average is printed alongside.
 */
import { randomUUID } from 'node:crypto';
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
  const started = performance.now();
  const events = await run();
  report({ name, events, seconds: (performance.now() - started) / 1000, target });
}

function report({ name, events, seconds, target }: Result): void {
  const rate = Math.round(events / seconds);
  const verdict = target === undefined ? '' : rate >= target ? `  (target ${target}: met)` : `  (target ${target}: MISSED)`;
  console.log(`${name.padEnd(44)} ${String(events).padStart(9)} events ${seconds.toFixed(2).padStart(7)} s ${String(rate).padStart(8)} ev/s${verdict}`);
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
  report({ name: '(d) projector catch-up from position zero', events, seconds, target: 50_000 });
}

async function withServer<T>(run: (adminUrl: string) => Promise<T>): Promise<T> {
  if (process.env.DATABASE_URL) return run(process.env.DATABASE_URL);
  const dir = await mkdtemp(path.join(os.tmpdir(), 'eelarve-bench-pg-'));
  // Run as root, the server runs as the user postgres, which must be able to enter the directory.
  await chmod(dir, 0o755);
  console.log(`starting an embedded PostgreSQL in ${dir} (durable defaults)`);
  const server = await startEmbeddedPostgres({ dataDir: path.join(dir, 'data') });
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
