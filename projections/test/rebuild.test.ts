import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadCheckpoints } from '../src/checkpoints';
import { type ProjectionEngine, startProjections } from '../src/engine';
import type { Projector } from '../src/projector';
import { projectionStatus } from '../src/status';
import { ledgerProjector } from './ledger';
import { appendDeposits, createHarness, type Harness, sleep, tableContents, waitFor } from './support';

let harness: Harness;
const engines: ProjectionEngine[] = [];

beforeEach(async () => {
  harness = await createHarness();
});

afterEach(async () => {
  await Promise.all(engines.splice(0).map((engine) => engine.stop()));
  await harness.close();
});

async function start(projector: Projector, batchSize = 50): Promise<ProjectionEngine> {
  const engine = await startProjections({
    pool: harness.pool,
    store: harness.store,
    projectors: [projector],
    batchSize,
    pollIntervalMs: 100,
    onError: () => {},
  });
  engines.push(engine);
  return engine;
}

async function entryCount(): Promise<number> {
  const { rows } = await sql<{ count: string }>`select count(*) as count from read.ledger_entries`.execute(harness.db);
  return Number(rows[0]?.count);
}

async function schemas(): Promise<string[]> {
  const { rows } = await sql<{ nspname: string }>`select nspname from pg_namespace where nspname like 'rm_ledger_%' order by 1`.execute(harness.db);
  return rows.map((row) => row.nspname);
}

describe('rebuilding a projector', () => {
  it('keeps serving complete, live data from the old generation until the new one switches in', async () => {
    await appendDeposits(harness.store, 200);
    // Slow batches, so the rebuild takes long enough to watch.
    const engine = await start(
      ledgerProjector({
        async between() {
          await sleep(15);
        },
      }),
      10,
    );
    await waitFor(async () => (await entryCount()) === 200, 'first generation');

    // Both tables in one statement: a reader must see one generation, never one table of each.
    const readings: { entries: number; events: number }[] = [];
    let watching = true;
    const watcher = (async () => {
      while (watching) {
        const { rows } = await sql<{ entries: string; events: string }>`
          select (select count(*) from read.ledger_entries) as entries, (select sum(events) from read.ledger_balances) as events`.execute(harness.db);
        readings.push({ entries: Number(rows[0]?.entries), events: Number(rows[0]?.events) });
        await sleep(5);
      }
    })();
    const progress: string[] = [];
    const rebuilt = engine.rebuildProjector('ledger', {
      progressIntervalMs: 20,
      onProgress: (status) => progress.push(status.map((row) => `${row.role}:${row.state}`).join(',')),
    });
    await waitFor(() => progress.some((line) => line.includes('building:rebuilding')), 'the rebuild to start');
    // The old generation stays live during the rebuild.
    await appendDeposits(harness.store, 20, 5, 200);
    await waitFor(async () => (await entryCount()) === 220, 'live events in the old generation');
    expect((await rebuilt).generation).toBe(2);
    watching = false;
    await watcher;

    // Never a half-built table: every read saw at least the 200 of the start, and never went back.
    const counts = readings.map((reading) => reading.entries);
    expect(Math.min(...counts)).toBe(200);
    expect(counts).toEqual([...counts].sort((a, b) => a - b));
    expect(readings.every((reading) => reading.entries === reading.events)).toBe(true);
    expect(await entryCount()).toBe(220);
    await waitFor(async () => (await schemas()).join() === 'rm_ledger_g2', 'the old schema to go');
    const [active, ...others] = await projectionStatus(harness.db, harness.store);
    expect(others).toEqual([]);
    expect(active).toMatchObject({ generation: 2, role: 'active', state: 'live', eventsBehind: 0, eventsApplied: 220 });
  });

  it('rebuilds on start when the version changed, serving the old version until the switch', async () => {
    await appendDeposits(harness.store, 100);
    const old = await start(ledgerProjector({ label: 'v1' }));
    await waitFor(async () => (await entryCount()) === 100, 'version 1');
    await old.stop();

    let release!: () => void;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    await start(ledgerProjector({ version: 2, label: 'v2', between: () => gate }));
    await waitFor(async () => (await loadCheckpoints(harness.db, 'ledger')).some((row) => row.role === 'building'), 'the automatic rebuild');
    await sleep(100);
    const during = await tableContents(harness.db, 'read', 'ledger_entries');
    expect(during).toHaveLength(100);
    expect(new Set(during.map((row) => (row as { label: string }).label))).toEqual(new Set(['v1']));

    release();
    await waitFor(async () => (await loadCheckpoints(harness.db, 'ledger')).every((row) => row.role === 'active' && row.version === 2), 'the switch');
    const after = await tableContents(harness.db, 'read', 'ledger_entries');
    expect(after).toHaveLength(100);
    expect(new Set(after.map((row) => (row as { label: string }).label))).toEqual(new Set(['v2']));
    await waitFor(async () => (await schemas()).join() === 'rm_ledger_g2', 'the old schema to go');
  });

  it('does not let a long-running reader stall other queries during the switch', async () => {
    await appendDeposits(harness.store, 50);
    const engine = await start(ledgerProjector());
    await waitFor(async () => (await entryCount()) === 50, 'first generation');
    const reader = await harness.pool.connect();
    try {
      // A report in a long transaction holds the views until it ends.
      await reader.query('begin');
      await reader.query('select count(*) from read.ledger_entries');
      const rebuilt = engine.rebuildProjector('ledger');
      let slowest = 0;
      for (const until = Date.now() + 3_000; Date.now() < until; ) {
        const started = Date.now();
        expect(await entryCount()).toBe(50);
        slowest = Math.max(slowest, Date.now() - started);
        await sleep(20);
      }
      // The switch gives up its lock wait after a second and retries, so queries waited at most that.
      expect(slowest).toBeLessThan(2_000);
      expect(await loadCheckpoints(harness.db, 'ledger')).toHaveLength(2);
      await reader.query('commit');
      expect((await rebuilt).generation).toBe(2);
    } finally {
      reader.release();
    }
    expect(await entryCount()).toBe(50);
    await waitFor(async () => (await schemas()).join() === 'rm_ledger_g2', 'the old schema to go');
  });
});
