import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { type ProjectionEngine, startProjections } from '../src/engine';
import { ledgerProjector } from './ledger';
import { appendDeposits, createHarness, type Harness, sleep, waitFor } from './support';

/**
 * gatherMs: a projector no command waits on lets a run of appends arrive before it reads, so they
 * share a batch; a command that waits still gets its answer at once.
 */
let harness: Harness;
let engine: ProjectionEngine | undefined;

beforeEach(async () => {
  harness = await createHarness();
});

afterEach(async () => {
  vi.restoreAllMocks();
  await engine?.stop();
  engine = undefined;
  await harness.close();
});

/** Starts an engine on a ledger that counts its batches; live before it returns. */
async function startCounting(gatherMs: number): Promise<{ batches: () => number }> {
  let batches = 0;
  const projector = ledgerProjector({
    async between() {
      batches++;
    },
  });
  engine = await startProjections({ pool: harness.pool, store: harness.store, projectors: [projector], pollIntervalMs: 200, gatherMs, onError: () => {} });
  await waitFor(async () => (await engine!.status()).every((row) => row.state === 'live'), 'live state');
  return { batches: () => batches };
}

/** Ten appends 20 ms apart, then until the ledger holds them all. */
async function appendSpacedAndWait(): Promise<void> {
  let last = await appendDeposits(harness.store, 1);
  for (let index = 1; index < 10; index++) {
    await sleep(20);
    last = await appendDeposits(harness.store, 1, 5, index);
  }
  await waitFor(() => engine!.waitForPosition(['ledger'], last, 0), 'the ledger to hold the appends', 10_000);
}

describe('gathering appends before a read', () => {
  it('applies appends that come 20 ms apart in a few batches with gatherMs 500, in about one each without', async () => {
    const gathered = await startCounting(500);
    await appendSpacedAndWait();
    expect(gathered.batches()).toBeLessThanOrEqual(3);
    await engine!.stop();
    engine = undefined;

    const eager = await startCounting(0);
    await appendSpacedAndWait();
    expect(eager.batches()).toBeGreaterThanOrEqual(5);
  });

  it('answers a command that waits without the pause', async () => {
    await startCounting(5_000);
    const position = await appendDeposits(harness.store, 1);
    const started = performance.now();
    expect(await engine!.waitForPosition(['ledger'], position, 4_000)).toBe(true);
    expect(performance.now() - started).toBeLessThan(2_000);
  });

  it('makes no AbortSignal.any per pause: on Node 20 each would stay among the runner signal dependants for good', async () => {
    // nodejs/node#55351: a signal AbortSignal.any makes is never removed from its sources' sets
    // (50,000 calls leave 50,000 entries), and the report projector pauses at every wake-up.
    const any = vi.spyOn(AbortSignal, 'any');
    await startCounting(50);
    await appendSpacedAndWait();
    expect(any).not.toHaveBeenCalled();
  });
});
