import { sql } from 'kysely';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { loadCheckpoints } from '../src/checkpoints';
import { type ProjectionEngine, startProjections } from '../src/engine';
import { ledgerProjector } from './ledger';
import { createHarness, type Harness, newEvent, sleep, terminateBackends, waitFor } from './support';

let harness: Harness;
let engine: ProjectionEngine | undefined;

beforeEach(async () => {
  harness = await createHarness();
});

afterEach(async () => {
  await engine?.stop();
  await harness.close();
});

/** Appends deposits one by one; a failed append is retried with the same event ids (a no-op if it had landed). */
async function appendThroughOutages(count: number): Promise<void> {
  for (let index = 0; index < count; index++) {
    const events = [newEvent('Deposited', { amount: '0.01', index })];
    for (let attempt = 0; ; attempt++) {
      try {
        await harness.store.append(`account-${index % 3}`, events, { expectedRevision: 'any' });
        break;
      } catch (error) {
        if (attempt > 50) throw error;
        await sleep(50);
      }
    }
  }
}

it('resumes after every connection to the database was cut, losing and repeating nothing', async () => {
  const errors: string[] = [];
  engine = await startProjections({
    pool: harness.pool,
    store: harness.store,
    projectors: [ledgerProjector()],
    batchSize: 20,
    pollIntervalMs: 100,
    onError: (_error, context) => errors.push(context),
  });
  const writing = appendThroughOutages(600);
  for (let outage = 0; outage < 3; outage++) {
    await sleep(300);
    expect(await terminateBackends(harness.database.name)).toBeGreaterThan(0);
  }
  await writing;

  // The test's own pool lost its connections in the outages too: a query on one it has not yet
  // noticed is gone fails once, and is asked again.
  await waitFor(async () => (await loadCheckpoints(harness.db, 'ledger').catch(() => []))[0]?.eventsApplied === 600, 'catch-up after the outages');
  const { rows } = await sql<{ entries: string; distinct_ids: string; total: string }>`
    select count(*) as entries, count(distinct event_id) as distinct_ids, sum(amount) as total from read.ledger_entries`.execute(harness.db);
  expect(rows[0]).toEqual({ entries: '600', distinct_ids: '600', total: '6.00' });
  const balances = await sql<{ total: string }>`select sum(balance) as total from read.ledger_balances`.execute(harness.db);
  expect(balances.rows[0]?.total).toBe('6.00');
  expect(errors).toContain('advisory lock connection lost');

  // The owner again, and live.
  await waitFor(() => engine!.runs('ledger'), 'the lock to be taken again', 10_000);
  const { position } = await harness.store.append('account-0', [newEvent('Deposited', { amount: '1', index: 600 })], { expectedRevision: 'any' });
  expect(await engine.waitForPosition(['ledger'], position, 2_000)).toBe(true);
});
