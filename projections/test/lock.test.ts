import { sql } from 'kysely';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { loadCheckpoints } from '../src/checkpoints';
import { type ProjectionEngine, startProjections } from '../src/engine';
import { ledgerProjector } from './ledger';
import { appendDeposits, createHarness, type Harness, waitFor } from './support';

let harness: Harness;
let engines: ProjectionEngine[] = [];

beforeEach(async () => {
  harness = await createHarness();
  engines = await Promise.all(
    [1, 2].map(() =>
      startProjections({
        pool: harness.pool,
        store: harness.store,
        projectors: [ledgerProjector()],
        batchSize: 20,
        pollIntervalMs: 100,
        onError: () => {},
      }),
    ),
  );
});

afterEach(async () => {
  await Promise.all(engines.map((engine) => engine.stop()));
  await harness.close();
});

function runners(): ProjectionEngine[] {
  return engines.filter((engine) => engine.runs('ledger'));
}

async function expectAppliedOnce(count: number): Promise<void> {
  await waitFor(async () => (await loadCheckpoints(harness.db, 'ledger'))[0]?.eventsApplied === count, `${count} events applied`);
  const { rows } = await sql<{ entries: string; distinct_ids: string }>`
    select count(*) as entries, count(distinct event_id) as distinct_ids from read.ledger_entries`.execute(harness.db);
  expect(rows[0]).toEqual({ entries: String(count), distinct_ids: String(count) });
}

it('runs a projector in one engine only, and the other takes over when it stops', async () => {
  expect(runners()).toHaveLength(1);
  await appendDeposits(harness.store, 100);
  await expectAppliedOnce(100);

  const [owner] = runners();
  await owner!.stop();
  engines = engines.filter((engine) => engine !== owner);
  await waitFor(() => runners().length === 1, 'the other engine to take over', 5_000);
  await appendDeposits(harness.store, 50, 5, 100);
  await expectAppliedOnce(150);
});

it('hands over safely when the owner loses its lock connection', async () => {
  await appendDeposits(harness.store, 100);
  await expectAppliedOnce(100);
  const appending = appendDeposits(harness.store, 200, 5, 100);
  // Kill only the session that holds the advisory lock: the owner's runners are still busy.
  await sql`select pg_terminate_backend(pid) from pg_locks where locktype = 'advisory' and granted and database =
    (select oid from pg_database where datname = current_database())`.execute(harness.db);
  await appending;
  await expectAppliedOnce(300);
  await waitFor(() => runners().length === 1, 'one owner again', 5_000);
  await appendDeposits(harness.store, 10, 5, 300);
  await expectAppliedOnce(310);
});

it('never overlaps queries on the lock connection, even when releasing several projectors at once', async () => {
  // node-postgres warns once per process when a client is given a query while busy (an error in pg 9).
  const warnings: string[] = [];
  const onWarning = (warning: Error) => warnings.push(warning.message);
  process.on('warning', onWarning);
  try {
    const engine = await startProjections({
      pool: harness.pool,
      store: harness.store,
      projectors: ['one', 'two', 'three'].map((name) => ledgerProjector({ name })),
      pollIntervalMs: 100,
      onError: () => {},
    });
    await waitFor(() => ['one', 'two', 'three'].every((name) => engine.runs(name)), 'all three projectors to run');
    await engine.stop(); // releases the three locks together
    await new Promise((resolve) => setImmediate(resolve)); // warnings are emitted on the next tick
  } finally {
    process.off('warning', onWarning);
  }
  expect(warnings.filter((message) => message.includes('already executing'))).toEqual([]);
});
