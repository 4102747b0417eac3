import { BroadcastChannel } from 'node:worker_threads';
import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { type ProjectionEngine, startProjections } from '../src/engine';
import { combineEngines, startProjectionsThread } from '../src/thread';
import { ledgerProjector } from './ledger';
import { THREAD_FIXTURE_CHANNEL } from './fixtures/thread-projectors';
import { appendDeposits, createHarness, type Harness, sleep, waitFor } from './support';

/**
 * Projectors on a worker thread (the gateway runs the report's there): the thread takes the
 * projector's lock like a process, answers waits and rebuilds by message, and a combined engine
 * sends each wait to the engine that runs the projector.
 */
let harness: Harness;
const engines: ProjectionEngine[] = [];
/** What the threads reported through onError; a test that expects some empties it. */
let errors: string[] = [];
const FIXTURES = new URL('./fixtures/thread-projectors.ts', import.meta.url).href;

beforeEach(async () => {
  harness = await createHarness();
  errors = [];
});

afterEach(async () => {
  await Promise.all(engines.splice(0).map((engine) => engine.stop()));
  await harness.close();
  expect(errors).toEqual([]);
});

/** The ledger's total as PostgreSQL adds it (exact decimals). */
async function ledgerTotal(): Promise<string> {
  const { rows } = await sql<{ total: string }>`select sum(balance)::text as total from read.ledger_balances`.execute(harness.db);
  return rows[0]!.total;
}

async function startThread(exportName = 'ledgerProjectors', options: { module?: string; startTimeoutMs?: number } = {}): Promise<ProjectionEngine> {
  const engine = await startProjectionsThread({
    databaseUrl: harness.database.url,
    pool: harness.pool,
    projectors: { module: options.module ?? FIXTURES, exportName },
    startTimeoutMs: options.startTimeoutMs,
    engine: { pollIntervalMs: 200 },
    onError: (error, context) => errors.push(`${context}: ${String(error)}`),
  });
  engines.push(engine);
  return engine;
}

/** Ends every fixture thread as a fatal error would (process.exit in the thread). */
function killThreads(): void {
  const channel = new BroadcastChannel(THREAD_FIXTURE_CHANNEL);
  channel.postMessage('exit');
  channel.close();
}

/** An engine on this thread over the ledger: it runs the projector only if no thread holds its lock. */
async function startLocalLedger(): Promise<ProjectionEngine> {
  const local = await startProjections({ pool: harness.pool, store: harness.store, projectors: [ledgerProjector()], pollIntervalMs: 200, onError: () => {} });
  engines.push(local);
  return local;
}

/** Takes the errors the test expected, so afterEach finds none left. */
function takeErrors(): string[] {
  return errors.splice(0);
}

describe('projections thread', () => {
  it('runs its projectors off this thread: a wait answers once the read model holds the write', async () => {
    const engine = await startThread();
    expect(engine.projectors.map((projector) => projector.name)).toEqual(['ledger']);
    expect(engine.runs('ledger')).toBe(true);
    const position = await appendDeposits(harness.store, 20);
    expect(await engine.waitForPosition(['ledger'], position, 5_000)).toBe(true);
    expect(await ledgerTotal()).toBe('22.00');
    const status = await engine.status();
    expect(status.find((row) => row.name === 'ledger')?.state).toBe('live');
  });

  it('holds the projector lock: an engine on this thread leaves the projector to it', async () => {
    const thread = await startThread();
    const local = await startProjections({ pool: harness.pool, store: harness.store, projectors: [ledgerProjector()], pollIntervalMs: 200, onError: () => {} });
    engines.push(local);
    expect(thread.runs('ledger')).toBe(true);
    expect(local.runs('ledger')).toBe(false);
    // The local engine waits on the thread's checkpoint for a projector it does not run.
    const position = await appendDeposits(harness.store, 3);
    expect(await local.waitForPosition(['ledger'], position, 5_000)).toBe(true);
  });

  it('rebuilds a projector it runs, reporting progress across the thread', async () => {
    const engine = await startThread();
    await engine.waitForPosition(['ledger'], await appendDeposits(harness.store, 10), 5_000);
    const progress: number[] = [];
    const { generation } = await engine.rebuildProjector('ledger', { onProgress: (rows) => progress.push(rows.length), progressIntervalMs: 20 });
    expect(generation).toBe(2);
    expect(progress.length).toBeGreaterThan(0);
    expect(await ledgerTotal()).toBe('11.00');
  });

  it('refuses to start on a module without the projector list named', async () => {
    await expect(startThread('notProjectors')).rejects.toThrow(/no projector list notProjectors/);
  });

  it('fails the start when the engine in the thread fails, and leaves no thread behind', async () => {
    await expect(startThread('clashingProjectors')).rejects.toThrow(/projector ledger is registered twice/);
    // The failed thread was ended: its lock session is gone, so this thread's engine runs the ledger.
    const local = await startLocalLedger();
    expect(local.runs('ledger')).toBe(true);
  });

  it('ends a thread that does not start in time: it never takes the lock later', async () => {
    const late = `${FIXTURES}?startDelayMs=1500`;
    await expect(startThread('ledgerProjectors', { module: late, startTimeoutMs: 300 })).rejects.toThrow(/did not start within 300 ms/);
    // Past the moment the late thread would have started and taken the projector's lock.
    await sleep(3_000);
    const local = await startLocalLedger();
    expect(local.runs('ledger')).toBe(true);
  });

  it('starts a thread again after it dies; a wait meanwhile answers true once the position is reached', async () => {
    const engine = await startThread();
    await engine.waitForPosition(['ledger'], await appendDeposits(harness.store, 2), 5_000);
    killThreads();
    await waitFor(async () => !engine.runs('ledger'), 'the thread to die');
    // Down now (backoff, then a fresh thread's start): the wait reads the checkpoints.
    const position = await appendDeposits(harness.store, 3, 5, 10);
    expect(await engine.waitForPosition(['ledger'], position, 20_000)).toBe(true);
    expect(await ledgerTotal()).toBe('5.50');
    await waitFor(async () => engine.runs('ledger'), 'the restarted thread to run the ledger', 20_000);
    expect(await engine.waitForPosition(['ledger'], await appendDeposits(harness.store, 1, 5, 20), 5_000)).toBe(true);
    expect(takeErrors().some((error) => /stopped \(exit code 3\); starting it again/.test(error))).toBe(true);
  });

  it('stopped during a restart backoff, keeps no timer and starts no thread', async () => {
    // The report of the death comes just before the restart arms its backoff: the timers created
    // from then until the stop (a microtask later) are the backoff's.
    const timers: NodeJS.Timeout[] = [];
    let stopped: Promise<void> | undefined;
    const engine = await startProjectionsThread({
      databaseUrl: harness.database.url,
      pool: harness.pool,
      projectors: { module: FIXTURES, exportName: 'ledgerProjectors' },
      onError: (error) => {
        if (!/starting it again/.test(String(error))) return errors.push(String(error));
        const original = globalThis.setTimeout;
        const spy = vi.spyOn(globalThis, 'setTimeout').mockImplementation(((...args: Parameters<typeof setTimeout>) => {
          const timer = original(...args);
          timers.push(timer);
          return timer;
        }) as typeof setTimeout);
        queueMicrotask(() => {
          spy.mockRestore();
          stopped = engine.stop();
        });
      },
    });
    killThreads();
    await waitFor(async () => stopped !== undefined, 'the stop during the backoff');
    await stopped;
    expect(timers.length).toBeGreaterThan(0);
    // Node marks a timer destroyed once it fired or was cleared: the stop cleared the backoff's.
    expect(timers.map((timer) => (timer as unknown as { _destroyed: boolean })._destroyed)).toEqual(timers.map(() => true));
    // Well past the backoff (at most 100 ms) and a thread's start: no thread came to take the lock.
    await sleep(3_000);
    const local = await startLocalLedger();
    expect(local.runs('ledger')).toBe(true);
  });

  it('stopped, answers a wait false at once instead of reading the checkpoints', async () => {
    const engine = await startThread();
    await engine.stop();
    const position = await appendDeposits(harness.store, 1);
    const started = performance.now();
    expect(await engine.waitForPosition(['ledger'], position, 5_000)).toBe(false);
    expect(performance.now() - started).toBeLessThan(1_000);
  });

  it('combined with an engine on this thread, sends each wait to the engine that runs the projector', async () => {
    const thread = await startThread();
    const local = await startProjections({
      pool: harness.pool,
      store: harness.store,
      projectors: [ledgerProjector({ name: 'other' })],
      pollIntervalMs: 200,
      onError: () => {},
    });
    const combined = combineEngines([local, thread]);
    engines.push(local);
    expect(combined.projectors.map((projector) => projector.name).sort()).toEqual(['ledger', 'other']);
    expect(combined.runs('ledger') && combined.runs('other')).toBe(true);
    const position = await appendDeposits(harness.store, 5);
    expect(await combined.waitForPosition(['ledger', 'other'], position, 5_000)).toBe(true);
    await waitFor(async () => (await combined.status()).every((row) => row.state === 'live'), 'both projectors live');
  });
});
