import { randomUUID } from 'node:crypto';
import type { Decider, DomainEvent } from '@eelarve/domain';
import { createPostgresEventStore, formatPosition, type GlobalPosition, type PostgresEventStore } from '@eelarve/eventstore';
import { createKysely, createPool, migrate, type Pool } from '@eelarve/postgres';
import { createTestDatabase, type TestDatabase } from '@eelarve/postgres/testing/test-database';
import { DomainError } from '@eelarve/shared';
import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CommandRunner, createCommandRunner, type PositionWaiter } from '../src/infrastructure/command-runner';
import { operationalMigrations } from '../src/infrastructure/operational-migrations';

/** A counter: the smallest decider that shows what the runner does around any decider. */
type Increment = { type: 'Increment'; counterId: string; by: number; now: Date; eventId?: string };
type Incremented = DomainEvent<'Incremented', { counterId: string; by: number; at: string }>;
const counterDecider: Decider<Increment, Incremented, number> = {
  streamName: (command) => `counter-${command.counterId}`,
  initialState: () => 0,
  evolve: (total, event) => total + event.data.by,
  decide: (command) =>
    command.by === 0 ? [] : [{ type: 'Incremented', data: { counterId: command.counterId, by: command.by, at: command.now.toISOString() } }],
};

const actor = { correlationId: 'test', userId: null, occupationId: null, organizationId: null };

let database: TestDatabase;
let pool: Pool;
let db: Kysely<unknown>;
let store: PostgresEventStore;

/** A waiter that records what it was asked and answers as told. */
function recordingWaiter(answer = true): PositionWaiter & { asked: { projectors: readonly string[]; position: string }[] } {
  const asked: { projectors: readonly string[]; position: string }[] = [];
  return {
    asked,
    async waitForPosition(projectors, position: GlobalPosition) {
      asked.push({ projectors, position: formatPosition(position) });
      return answer;
    },
  };
}

const runnerWith = (projections: PositionWaiter, extra: Partial<Parameters<typeof createCommandRunner>[0]> = {}): CommandRunner =>
  createCommandRunner({ store, db, projections, readYourWritesTimeoutMs: 1_000, ...extra });

beforeAll(async () => {
  database = await createTestDatabase('runner');
  pool = createPool(database.url, { max: 10 });
  db = createKysely<unknown>(pool);
  store = createPostgresEventStore({ connectionString: database.url, pollIntervalMs: 200 });
  await store.migrate();
  await migrate(db, 'operational', operationalMigrations);
});

afterAll(async () => {
  await store.close();
  await db.destroy();
  await database.drop();
});

describe('the command runner', () => {
  it('builds the command with its injected clock and ids, appends, waits for the named read models and answers { id, position }', async () => {
    const waiter = recordingWaiter();
    const now = new Date('2026-11-25T10:00:00.000Z');
    const id = randomUUID();
    const runner = runnerWith(waiter, { clock: () => now, newId: () => id });
    const result = await runner.run({
      decider: counterDecider,
      actor,
      readModels: ['counters'],
      command: ({ now, newId }) => ({ type: 'Increment', counterId: newId(), by: 2, now }),
    });
    expect(result.id).toBe(id);
    expect(result.position).toMatch(/^\d+\/\d+$/);
    expect(result.events).toEqual([{ type: 'Incremented', data: { counterId: id, by: 2, at: '2026-11-25T10:00:00.000Z' } }]);
    expect(waiter.asked).toEqual([{ projectors: ['counters'], position: result.position }]);
    const [stored] = await store.readStream(`counter-${id}`);
    expect(stored?.metadata).toMatchObject({ correlationId: 'test', occurredAt: '2026-11-25T10:00:00.000Z' });
  });

  it('answers position null and waits for nothing when the decider decides nothing', async () => {
    const waiter = recordingWaiter();
    const result = await runnerWith(waiter).run({
      decider: counterDecider,
      actor,
      readModels: ['counters'],
      command: { type: 'Increment', counterId: randomUUID(), by: 0, now: new Date() },
    });
    expect(result.position).toBeNull();
    expect(waiter.asked).toEqual([]);
  });

  it('decides a lost race again on the fresh state: 20 concurrent writers of one stream all succeed', async () => {
    const runner = runnerWith(recordingWaiter());
    const counterId = randomUUID();
    const results = await Promise.all(
      Array.from({ length: 20 }, () =>
        runner.run({ decider: counterDecider, actor, readModels: [], command: ({ now }) => ({ type: 'Increment' as const, counterId, by: 1, now }) }),
      ),
    );
    expect(results.every((result) => result.position !== null)).toBe(true);
    const events = await store.readStream(`counter-${counterId}`);
    expect(events).toHaveLength(20);
    expect(new Set(results.map((result) => result.before)).size).toBe(20);
  });

  it('under a lock, builds one command at a time and only after the previous write under it reached the read models', async () => {
    const waiter = recordingWaiter();
    const runner = runnerWith(waiter);
    const lock = { name: `counters:${randomUUID()}` };
    let active = 0;
    let overlapped = false;
    const builds: { index: number; awaitedSoFar: string[] }[] = [];
    const results = await Promise.all(
      Array.from({ length: 6 }, (_, index) =>
        runner.run({
          decider: counterDecider,
          actor,
          readModels: ['counters'],
          lock,
          command: async ({ now }) => {
            active++;
            if (active > 1) overlapped = true;
            builds.push({ index, awaitedSoFar: waiter.asked.map((ask) => ask.position) });
            await new Promise((resolve) => setTimeout(resolve, 10));
            active--;
            return { type: 'Increment' as const, counterId: randomUUID(), by: index + 1, now };
          },
        }),
      ),
    );
    expect(overlapped).toBe(false);
    // Every write but the first awaited the previous write's position before its command was built.
    for (let turn = 1; turn < builds.length; turn++) {
      const previous = results[builds[turn - 1]!.index]!.position!;
      expect(builds[turn]!.awaitedSoFar).toContain(previous);
    }
  });

  it('under a lock, refuses with SERVICE_UNAVAILABLE when the previous write has not reached the read models', async () => {
    const lock = { name: `counters:${randomUUID()}` };
    await runnerWith(recordingWaiter()).run({
      decider: counterDecider,
      actor,
      readModels: ['counters'],
      lock,
      command: { type: 'Increment', counterId: randomUUID(), by: 1, now: new Date() },
    });
    const behind = runnerWith(recordingWaiter(false));
    const attempt = behind.run({
      decider: counterDecider,
      actor,
      readModels: ['counters'],
      lock,
      command: { type: 'Increment', counterId: randomUUID(), by: 1, now: new Date() },
    });
    await expect(attempt).rejects.toBeInstanceOf(DomainError);
    await expect(attempt).rejects.toMatchObject({ code: 'SERVICE_UNAVAILABLE' });
  });
});
