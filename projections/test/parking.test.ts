import { comparePositions, type GlobalPosition, type StoredEvent } from '@eelarve/eventstore';
import { type Kysely, sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadCheckpoints } from '../src/checkpoints';
import { type ProjectionEngine, type ProjectionEngineOptions, startProjections } from '../src/engine';
import { EventParkedError } from '../src/parked';
import { statusLines } from '../src/report';
import { projectionStatus } from '../src/status';
import { ledgerProjector } from './ledger';
import { createHarness, type Harness, newEvent, tableContents, waitFor } from './support';

let harness: Harness;
const engines: ProjectionEngine[] = [];

beforeEach(async () => {
  harness = await createHarness();
});

afterEach(async () => {
  await Promise.all(engines.splice(0).map((engine) => engine.stop()));
  await harness.close();
});

/** Whether the ledger's handler fails on poisoned deposits, as a projector with a bug would. */
let broken = true;

/**
 * A ledger whose handler, while `broken`, fails on a poisoned deposit the way the schemes
 * projector failed on a display order of 2^53 - 1: PostgreSQL refuses the number for an integer
 * column ("out of range for type integer"), after the batch's entries were already written.
 */
const fragileLedger = () =>
  ledgerProjector({
    async between(events: StoredEvent[], db: Kysely<unknown>) {
      for (const event of events) {
        if (broken && (event.data as { poison?: boolean }).poison) await sql`select ${'9007199254740991'}::integer`.execute(db);
      }
    },
  });

async function start(overrides: Partial<ProjectionEngineOptions> = {}): Promise<ProjectionEngine> {
  const engine = await startProjections({
    pool: harness.pool,
    store: harness.store,
    projectors: [fragileLedger()],
    batchSize: 50,
    pollIntervalMs: 100,
    retry: { attempts: 3, firstDelayMs: 10 },
    onError: () => {},
    ...overrides,
  });
  engines.push(engine);
  return engine;
}

/** Appends one deposit per stream-spread index; returns each event's id and position. */
async function deposit(indexes: number[], poisoned: number[] = []): Promise<{ id: string; position: GlobalPosition }[]> {
  const appended = [];
  for (const index of indexes) {
    const event = newEvent('Deposited', { amount: '1.00', index, ...(poisoned.includes(index) ? { poison: true } : {}) });
    const { position } = await harness.store.append(`account-${index % 5}`, [event], { expectedRevision: 'any' });
    appended.push({ id: event.id, position });
  }
  return appended;
}

async function entryIds(): Promise<string[]> {
  return (await tableContents(harness.db, 'read', 'ledger_entries')).map((row) => (row as { event_id: string }).event_id);
}

async function activeStatus() {
  const rows = await projectionStatus(harness.db, harness.store);
  return rows.find((row) => row.name === 'ledger' && row.role === 'active')!;
}

const range = (from: number, to: number) => Array.from({ length: to - from }, (_, index) => from + index);

describe('an event the projector cannot apply', () => {
  beforeEach(() => {
    broken = true;
  });

  it('is parked after the retries, while the events around it are applied and the read model goes on', async () => {
    const events = await deposit(range(0, 30), [13]);
    const poison = events[13]!;
    const errors: unknown[] = [];
    const engine = await start({ onError: (error) => errors.push(error) });

    await waitFor(async () => (await activeStatus()).parkedCount === 1, 'the event to be parked', 10_000);
    const ids = await entryIds();
    expect(ids).toHaveLength(29);
    expect(ids).not.toContain(poison.id);
    // Nothing of the poisoned event's half-applied batch is left: the balances count 29 events.
    const { rows } = await sql<{ events: string }>`select sum(events) as events from read.ledger_balances`.execute(harness.db);
    expect(Number(rows[0]?.events)).toBe(29);

    const status = await activeStatus();
    expect(status).toMatchObject({ name: 'ledger', generation: 1, eventsApplied: 29, parkedCount: 1, lastError: null });
    expect(comparePositions(status.position, status.head)).toBe(0);
    const [parked] = status.parkedEvents;
    expect(parked).toMatchObject({ projector: 'ledger', generation: 1, eventId: poison.id, eventType: 'Deposited', streamName: 'account-3', attempts: 4 });
    expect(comparePositions(parked!.position, poison.position)).toBe(0);
    expect(parked!.error).toContain('out of range for type integer');
    expect(parked!.firstFailedAt.getTime()).toBeLessThanOrEqual(parked!.parkedAt.getTime());

    // Logged once, with the whole record.
    const parkings = errors.filter((error) => error instanceof EventParkedError);
    expect(parkings).toHaveLength(1);
    expect((parkings[0] as EventParkedError).parked.eventId).toBe(poison.id);

    const report = statusLines(await projectionStatus(harness.db, harness.store)).join('\n');
    expect(report).toContain('ledger v1 g1 active live: 29 events applied, DEGRADED: 1 parked events');
    expect(report).toContain(`parked Deposited ${poison.id} in account-3`);
    expect(report).toContain('out of range for type integer');
    expect(report).toContain('pnpm projections rebuild ledger');

    // Read-your-writes treats a parked position as passed, and later events still arrive.
    const [again, after] = await deposit([30, 31], [30]);
    const waited = Date.now();
    expect(await engine.waitForPosition(['ledger'], again!.position, 5_000)).toBe(true);
    expect(await engine.waitForPosition(['ledger'], after!.position, 5_000)).toBe(true);
    expect(Date.now() - waited).toBeLessThan(3_000);
    expect(await entryIds()).toContain(after!.id);
    expect((await activeStatus()).parkedEvents.map((event) => event.eventId)).toEqual([poison.id, again!.id]);
  });

  it('is parked within the default retries, before a command stops waiting for read-your-writes', async () => {
    const [poison] = await deposit([0], [0]);
    const engine = await start({ retry: undefined });
    const waited = Date.now();
    expect(await engine.waitForPosition(['ledger'], poison!.position, 5_000)).toBe(true);
    expect(Date.now() - waited).toBeLessThan(4_000);
    expect((await activeStatus()).parkedCount).toBe(1);
  });

  it('is replayed by a rebuild: parked again while the handler still fails, applied once it is fixed', async () => {
    const events = await deposit(range(0, 10), [4]);
    const poison = events[4]!;
    const engine = await start();
    await waitFor(async () => (await activeStatus()).parkedCount === 1, 'the event to be parked', 10_000);

    // Still broken: the new generation replays the log, parks the event again and says so.
    expect((await engine.rebuildProjector('ledger')).generation).toBe(2);
    const rebuiltBroken = await activeStatus();
    expect(rebuiltBroken).toMatchObject({ generation: 2, parkedCount: 1, eventsApplied: 9 });
    expect(rebuiltBroken.parkedEvents[0]).toMatchObject({ generation: 2, eventId: poison.id });

    broken = false;
    expect((await engine.rebuildProjector('ledger')).generation).toBe(3);
    const fixed = await activeStatus();
    expect(fixed).toMatchObject({ generation: 3, parkedCount: 0, parkedEvents: [], eventsApplied: 10 });
    expect(await entryIds()).toContain(poison.id);
    expect(statusLines([fixed]).join('\n')).not.toContain('parked');

    // The replaced generations' dead letters stay as history, marked replayed.
    const { rows } = await sql<{ generation: number; replayed: boolean }>`
      select generation, replayed_at is not null as replayed from projections.parked_events order by generation`.execute(harness.db);
    expect(rows).toEqual([
      { generation: 1, replayed: true },
      { generation: 2, replayed: true },
    ]);
  });

  it('is never parked for a database failure, however often it repeats', async () => {
    await deposit(range(0, 5));
    let kills = 0;
    const projector = ledgerProjector({
      async between(_events, db) {
        // The connection dies mid-batch more often than the retry policy's attempts.
        if (kills++ < 4) await sql`select pg_terminate_backend(pg_backend_pid())`.execute(db);
      },
    });
    await start({ projectors: [projector], retry: { attempts: 2, firstDelayMs: 10 } });
    await waitFor(async () => (await loadCheckpoints(harness.db, 'ledger'))[0]?.eventsApplied === 5, 'catch-up after the failures', 20_000);
    expect(kills).toBeGreaterThan(4);
    expect((await activeStatus()).parkedCount).toBe(0);
    expect(await entryIds()).toHaveLength(5);
  });
});
