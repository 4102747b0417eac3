import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { checkpointWaiter } from '../src/checkpoint-waiter';
import { startProjections } from '../src/engine';
import { ledgerProjector } from './ledger';
import { appendDeposits, createHarness, type Harness } from './support';

/** The waiter of processes that run no projectors (the worker; the gateway while its projections thread is down). */
let harness: Harness;

beforeEach(async () => {
  harness = await createHarness();
});

afterEach(async () => {
  await harness.close();
});

describe('checkpoint waiter', () => {
  it('does not count a projector whose checkpoint is still at the start as past events of its types', async () => {
    const ledger = ledgerProjector();
    // Registers the ledger's checkpoint at the start of the log, then leaves it there.
    const engine = await startProjections({ pool: harness.pool, store: harness.store, projectors: [ledger], onError: () => {} });
    await engine.stop();
    const position = await appendDeposits(harness.store, 1);
    const waiter = checkpointWaiter(harness.db, 10, () => ledger.eventTypes);
    expect(await waiter.waitForPosition(['ledger'], position, 300)).toBe(false);
  });
});
