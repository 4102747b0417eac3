import { createPostgresEventStore, type PostgresEventStore } from '@eelarve/eventstore';
import { sql } from 'kysely';
import pg from 'pg';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { checkpointWaiter } from '../src/checkpoint-waiter';
import { loadCheckpoints } from '../src/checkpoints';
import { type ProjectionEngine, startProjections } from '../src/engine';
import type { Projector } from '../src/projector';
import { ledgerProjector } from './ledger';
import { appendDeposits, createHarness, type Harness, newEvent, sleep, waitFor } from './support';

/**
 * Read-your-writes under the conditions that stalled record edits (issue 11, point 9): a write
 * hidden for a while behind an older transaction, idle projectors storing their progress
 * together, and a process that only watches checkpoints.
 */
let harness: Harness;
let quietStore: PostgresEventStore;
const engines: ProjectionEngine[] = [];

beforeEach(async () => {
  harness = await createHarness();
  // Polls once a minute: a wake-up that comes only from the poll would miss every deadline below.
  quietStore = createPostgresEventStore({ connectionString: harness.database.url, pollIntervalMs: 60_000 });
});

afterEach(async () => {
  await Promise.all(engines.splice(0).map((engine) => engine.stop()));
  await quietStore.close();
  await harness.close();
});

async function start(projectors: Projector[]): Promise<ProjectionEngine> {
  const engine = await startProjections({ pool: harness.pool, store: quietStore, projectors, pollIntervalMs: 200, idleReadMs: 60_000, onError: () => {} });
  engines.push(engine);
  await waitFor(async () => (await engine.status()).every((row) => row.state === 'live'), 'live state');
  return engine;
}

/** A transaction that has its id (it wrote) and stays open: $all shows nothing committed after it began. */
async function holdOlderTransaction(): Promise<{ end(): Promise<void> }> {
  const client = new pg.Client({ connectionString: harness.database.url });
  await client.connect();
  await client.query('begin');
  await client.query('select pg_current_xact_id()');
  return {
    async end() {
      await client.query('commit');
      await client.end();
    },
  };
}

describe('read-your-writes', () => {
  it('answers a write hidden behind an older transaction soon after that transaction ends, though no append announces it', async () => {
    const engine = await start([ledgerProjector()]);
    const older = await holdOlderTransaction();
    const position = await appendDeposits(quietStore, 1);
    const waiting = engine.waitForPosition(['ledger'], position, 5_000);
    let answered = false;
    void waiting.then(() => {
      answered = true;
    });
    await sleep(150);
    expect(answered).toBe(false);

    const ended = Date.now();
    await older.end();
    expect(await waiting).toBe(true);
    // Before: the next wake-up was the subscription's poll (here a minute; 500 ms in the product).
    expect(Date.now() - ended).toBeLessThan(4_000);
  });

  it('stops looking for a position that never comes (a report asks for the client’s `after`) once no command waits for it', async () => {
    const engine = await start([ledgerProjector()]);
    const head = await appendDeposits(quietStore, 1);
    expect(await engine.waitForPosition(['ledger'], head, 2_000)).toBe(true);
    const headPosition = quietStore.headPosition.bind(quietStore);
    let looks = 0;
    quietStore.headPosition = () => {
      looks++;
      return headPosition();
    };
    const beyond = { commit: head.commit + 1_000_000n, prepare: head.prepare + 1_000_000n };
    expect(await engine.waitForPosition(['ledger'], beyond, 300)).toBe(false);
    // While a command may still wait (5 s), the runner looks at the head often; after that, never.
    expect(looks).toBeGreaterThan(5);
    await sleep(5_000);
    const before = looks;
    await sleep(500);
    expect(looks - before).toBe(0);
    // Nor does the forgotten position make it read stretches it would skip: another feature's append is passed in memory.
    const readAll = quietStore.readAll.bind(quietStore);
    let reads = 0;
    quietStore.readAll = (options) => {
      reads++;
      return readAll(options);
    };
    await quietStore.append('noise-1', [newEvent('Noise', {})], { expectedRevision: 'any' });
    await sleep(500);
    expect(reads).toBe(0);
  });

  it('stores the progress of projectors falling quiet together in one statement', async () => {
    const names = ['ledger_a', 'ledger_b', 'ledger_c', 'ledger_d'];
    const engine = await start(names.map((name) => ledgerProjector({ name })));
    // The engine made the control schema: now count the statements that update checkpoints.
    await sql`create table checkpoint_statements (at timestamptz)`.execute(harness.db);
    await sql`create function count_checkpoint_statement() returns trigger language plpgsql as $$ begin insert into checkpoint_statements values (now()); return null; end $$`.execute(
      harness.db,
    );
    await sql`create trigger count_statements after update on projections.checkpoints for each statement execute function count_checkpoint_statement()`.execute(
      harness.db,
    );
    const statements = async () => Number((await sql<{ n: string }>`select count(*) as n from checkpoint_statements`.execute(harness.db)).rows[0]!.n);
    const before = await statements();

    // Another feature's append: every projector moves past it in memory, then stores that once the log is quiet.
    const { position } = await quietStore.append('noise-1', [newEvent('Noise', {})], { expectedRevision: 'any' });
    expect(await engine.waitForPosition(names, position, 2_000)).toBe(true);
    await waitFor(async () => (await loadCheckpoints(harness.db)).every((row) => BigInt(row.position.prepare) >= position.prepare), 'stored progress', 3_000);
    expect(await statements()).toBe(before + 1);
  });

  it('lets a process that runs no projectors count a projector whose events are not between its checkpoint and the position', async () => {
    const deposits = ledgerProjector();
    const engine = await start([deposits]);
    const handled = await appendDeposits(quietStore, 1);
    expect(await engine.waitForPosition(['ledger'], handled, 2_000)).toBe(true);
    // Stopped, the runner has stored where it is: from here on the checkpoint stays behind.
    await engine.stop();
    engines.splice(0);
    const watcher = checkpointWaiter(harness.db, 10, (name) => (name === 'ledger' ? deposits.eventTypes : undefined));

    const { position: noise } = await quietStore.append('noise-1', [newEvent('Noise', {})], { expectedRevision: 'any' });
    expect(await watcher.waitForPosition(['ledger'], noise, 1_000)).toBe(true);

    const deposit = await appendDeposits(quietStore, 1, 5, 1);
    expect(await watcher.waitForPosition(['ledger'], deposit, 300)).toBe(false);
    // A projector it knows nothing of is judged by its checkpoint alone.
    expect(await checkpointWaiter(harness.db, 10, () => undefined).waitForPosition(['ledger'], noise, 300)).toBe(false);
  });
});
