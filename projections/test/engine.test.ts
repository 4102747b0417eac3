import { comparePositions, createPostgresEventStore } from '@eelarve/eventstore';
import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadCheckpoints } from '../src/checkpoints';
import { type ProjectionEngine, type ProjectionEngineOptions, startProjections } from '../src/engine';
import { projectionStatus } from '../src/status';
import { ledgerProjector } from './ledger';
import { appendDeposits, createHarness, type Harness, newEvent, sleep, tableContents, waitFor } from './support';

let harness: Harness;
const engines: ProjectionEngine[] = [];

beforeEach(async () => {
  harness = await createHarness();
});

afterEach(async () => {
  await Promise.all(engines.splice(0).map((engine) => engine.stop()));
  await harness.close();
});

async function start(projector = ledgerProjector(), batchSize = 50, retry?: ProjectionEngineOptions['retry']) {
  const engine = await startProjections({
    pool: harness.pool,
    store: harness.store,
    projectors: [projector],
    batchSize,
    pollIntervalMs: 200,
    retry,
    onError: () => {},
  });
  engines.push(engine);
  return engine;
}

async function handledEvents(): Promise<number> {
  const { rows } = await sql<{ events: string | null }>`select sum(events) as events from read.ledger_balances`.execute(harness.db);
  return Number(rows[0]?.events ?? 0);
}

describe('projection engine', () => {
  it('catches up from the start in batches, then stays live', async () => {
    await appendDeposits(harness.store, 300);
    await start();
    await waitFor(async () => (await handledEvents()) === 300, 'catch-up');

    // Another process's append reaches this one through the store's NOTIFY.
    const writer = createPostgresEventStore({ connectionString: harness.database.url });
    try {
      const appendedAt = Date.now();
      await appendDeposits(writer, 1, 5, 300);
      await waitFor(async () => (await handledEvents()) === 301, 'the live event', 2_000);
      expect(Date.now() - appendedAt).toBeLessThan(500);
    } finally {
      await writer.close();
    }
    const balances = await tableContents(harness.db, 'read', 'ledger_balances');
    expect(balances).toEqual(
      [0, 1, 2, 3, 4].map((account) => ({ stream: `account-${account}`, balance: account === 0 ? '67.10' : '66.00', events: account === 0 ? 61 : 60 })),
    );
  });

  it('applies only the projector event types and checkpoints past the others', async () => {
    await appendDeposits(harness.store, 20);
    // The append's own position, not the visible head: a writer in another database of the test cluster may hide the tail for a moment.
    const { position: end } = await harness.store.append('noise-1', [newEvent('Noise', {}), newEvent('Noise', {})], { expectedRevision: 'any' });
    await start();
    await waitFor(async () => {
      const [checkpoint] = await loadCheckpoints(harness.db, 'ledger');
      return checkpoint !== undefined && comparePositions(checkpoint.position, end) === 0;
    }, 'the checkpoint to reach the trailing noise');
    const [checkpoint] = await loadCheckpoints(harness.db, 'ledger');
    expect(checkpoint?.eventsApplied).toBe(20);
    expect(await handledEvents()).toBe(20);
  });

  it('keeps progress over events it does not handle in memory while they stream in, and stores it once the log is quiet and when stopped', async () => {
    await appendDeposits(harness.store, 5);
    const engine = await start();
    await waitFor(async () => (await handledEvents()) === 5, 'catch-up');
    await sql`create table checkpoint_writes (at timestamptz)`.execute(harness.db);
    await sql`create function count_checkpoint_write() returns trigger language plpgsql as $$ begin insert into checkpoint_writes values (now()); return new; end $$`.execute(
      harness.db,
    );
    await sql`create trigger count_writes after update on projections.checkpoints for each row execute function count_checkpoint_write()`.execute(harness.db);
    const storedPosition = async () => (await loadCheckpoints(harness.db, 'ledger'))[0]!.position;
    const writes = async () => Number((await sql<{ n: string }>`select count(*) as n from checkpoint_writes`.execute(harness.db)).rows[0]!.n);

    // Another feature's commands, one after another, each waiting for its read-your-writes answer.
    const appends = 40;
    let position = await harness.store.headPosition();
    for (let index = 0; index < appends; index++) {
      position = (await harness.store.append(`noise-${index}`, [newEvent('Noise', {})], { expectedRevision: 'any' })).position;
      expect(await engine.waitForPosition(['ledger'], position, 2_000)).toBe(true);
    }
    // Written at most once a second while the appends go on, not once per append.
    expect(await writes()).toBeLessThan(appends / 2);
    await waitFor(async () => comparePositions(await storedPosition(), position) === 0, 'the quiet log to store the progress', 2_000);

    const last = (await harness.store.append('noise-last', [newEvent('Noise', {})], { expectedRevision: 'any' })).position;
    expect(await engine.waitForPosition(['ledger'], last, 2_000)).toBe(true);
    await engine.stop();
    expect(comparePositions(await storedPosition(), last)).toBe(0);
    expect(await handledEvents()).toBe(5);
  });

  it('reads once per append, though the append is announced twice (the live subscription and the waiting command)', async () => {
    const engine = await start();
    await waitFor(async () => (await engine.status())[0]?.state === 'live', 'live state');
    const readAll = harness.store.readAll.bind(harness.store);
    let reads = 0;
    harness.store.readAll = (options) => {
      reads++;
      return readAll(options);
    };
    const appends = 30;
    for (let index = 0; index < appends; index++) {
      const position = await appendDeposits(harness.store, 1, 5, index);
      expect(await engine.waitForPosition(['ledger'], position, 2_000)).toBe(true);
    }
    await sleep(300);
    expect(await handledEvents()).toBe(appends);
    // Before: a read per announcement, two per append. Each vitest worker has its own PostgreSQL, but a
    // checkpoint store of this file's engine can still hide an append for a moment and cost a second read.
    expect(reads).toBeLessThanOrEqual(appends * 1.5);
  });

  it('moves past appends of events it does not handle without reading them', async () => {
    const engine = await start();
    await waitFor(async () => (await engine.status())[0]?.state === 'live', 'live state');
    const readAll = harness.store.readAll.bind(harness.store);
    let reads = 0;
    harness.store.readAll = (options) => {
      reads++;
      return readAll(options);
    };
    let last = await harness.store.headPosition();
    for (let index = 0; index < 30; index++) {
      last = (await harness.store.append(`noise-${index}`, [newEvent('Noise', {})], { expectedRevision: 'any' })).position;
      await sleep(10);
    }
    await waitFor(() => engine.waitForPosition(['ledger'], last, 0), 'the runner to pass the noise', 2_000);
    // Before: a read per append.
    expect(reads).toBeLessThan(5);
    const position = await appendDeposits(harness.store, 1);
    expect(await engine.waitForPosition(['ledger'], position, 2_000)).toBe(true);
    expect(await handledEvents()).toBe(1);
  });

  it('never commits a batch without its checkpoint, nor a checkpoint without its batch', async () => {
    await appendDeposits(harness.store, 100);
    let poisoned = true;
    const projector = ledgerProjector({
      async between(events) {
        if (poisoned && events.some((event) => (event.data as { index: number }).index === 60)) throw new Error('poison');
      },
    });
    // A failure that heals before the retries run out (parking is parking.test.ts's subject).
    await start(projector, 25, { attempts: 1_000 });
    await waitFor(async () => (await loadCheckpoints(harness.db, 'ledger'))[0]?.lastError?.includes('poison') ?? false, 'the failure');

    // Stuck before the failing batch: entries and checkpoint agree, nothing of that batch is visible.
    const [stuck] = await loadCheckpoints(harness.db, 'ledger');
    const entries = await tableContents(harness.db, 'read', 'ledger_entries');
    expect(entries.length).toBe(stuck?.eventsApplied);
    expect(entries.length).toBeLessThanOrEqual(60);

    poisoned = false;
    await waitFor(async () => (await handledEvents()) === 100, 'recovery');
    expect((await tableContents(harness.db, 'read', 'ledger_entries')).length).toBe(100);
    expect((await loadCheckpoints(harness.db, 'ledger'))[0]?.lastError).toBeNull();
  });

  it('reports position, lag and state', async () => {
    await appendDeposits(harness.store, 30);
    const engine = await start();
    await waitFor(async () => (await engine.status())[0]?.state === 'live', 'live state');
    const [live] = await projectionStatus(harness.db, harness.store);
    expect(live).toMatchObject({ name: 'ledger', version: 1, generation: 1, role: 'active', state: 'live', eventsBehind: 0, eventsApplied: 30 });
    expect(comparePositions(live!.position, live!.head)).toBe(0);

    await engine.stop();
    await appendDeposits(harness.store, 10);
    // 10 deposits and the 2 Noise events among them, once no writer in another database of the test cluster hides them.
    await waitFor(async () => (await projectionStatus(harness.db, harness.store))[0]?.eventsBehind === 12, 'the appends to show', 5_000);
    const [stopped] = await projectionStatus(harness.db, harness.store);
    expect(stopped).toMatchObject({ state: 'stopped', eventsBehind: 12 });
  });

  it('waits for a position, locally and for projectors that run elsewhere', async () => {
    const runner = await start();
    const observer = await startProjections({ pool: harness.pool, store: harness.store, projectors: [], onError: () => {} });
    engines.push(observer);

    const position = await appendDeposits(harness.store, 3);
    expect(await runner.waitForPosition(['ledger'], position, 2_000)).toBe(true);
    expect(await handledEvents()).toBe(3);
    const next = await appendDeposits(harness.store, 1, 5, 3);
    expect(await observer.waitForPosition(['ledger'], next, 2_000)).toBe(true);
    expect(await handledEvents()).toBe(4);

    expect(await observer.waitForPosition(['ledger', 'unknown'], next, 100)).toBe(false);
    await runner.stop();
    const unseen = await appendDeposits(harness.store, 1, 5, 4);
    expect(await observer.waitForPosition(['ledger'], unseen, 200)).toBe(false);
  });
});
