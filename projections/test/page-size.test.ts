import type { ReadAllOptions, ReadAllResult } from '@eelarve/eventstore';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { type ProjectionEngine, startProjections } from '../src/engine';
import { nextPageSize } from '../src/runner';
import { ledgerProjector } from './ledger';
import { createHarness, type Harness, newEvent, waitFor } from './support';

/**
 * A runner reads pages of `batchSize` events unless the events are big: then it reads as many as
 * make about `pageTargetChars` of event text, so a projector behind a run of imports (chunk events
 * of ~150 KB) does not hold gigabytes at once.
 */
const page = (events: number, payloadChars: number | undefined): ReadAllResult =>
  ({ events: Array.from({ length: events }), nextPosition: { commit: 0n, prepare: 0n }, isEnd: false, payloadChars }) as unknown as ReadAllResult;

describe('nextPageSize', () => {
  it('keeps batchSize for small events, and where the store does not count characters', () => {
    expect(nextPageSize(5_000, 32_000_000, page(5_000, 5_000 * 300))).toBe(5_000);
    expect(nextPageSize(5_000, 32_000_000, page(5_000, undefined))).toBe(5_000);
    expect(nextPageSize(5_000, 32_000_000, page(0, 0))).toBe(5_000);
  });

  it('reads as many big events as make the target, never fewer than 10', () => {
    expect(nextPageSize(5_000, 32_000_000, page(200, 200 * 160_000))).toBe(200);
    expect(nextPageSize(5_000, 32_000_000, page(3, 3 * 50_000_000))).toBe(10);
    expect(nextPageSize(4, 32_000_000, page(3, 3 * 50_000_000))).toBe(4);
  });
});

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

describe('a runner behind big events', () => {
  it('reads smaller pages once it has seen them, and still applies every event once', async () => {
    const memo = 'x'.repeat(2_000);
    for (let index = 0; index < 60; index++)
      await harness.store.append(`account-${index % 3}`, [newEvent('Deposited', { amount: '1.00', index, memo })], { expectedRevision: 'any' });
    const asked: number[] = [];
    const readAll = harness.store.readAll.bind(harness.store);
    vi.spyOn(harness.store, 'readAll').mockImplementation((options?: ReadAllOptions) => {
      asked.push(options?.maxCount ?? -1);
      return readAll(options);
    });
    engine = await startProjections({
      pool: harness.pool,
      store: harness.store,
      projectors: [ledgerProjector()],
      batchSize: 50,
      pageTargetChars: 20_000,
      onError: () => {},
    });
    await waitFor(async () => (await engine!.status()).every((row) => row.state === 'live'), 'live state');
    const { rows } = await harness.pool.query<{ n: number; total: string }>('select count(*)::int as n, sum(amount)::text as total from read.ledger_entries');
    expect(rows[0]).toEqual({ n: 60, total: '60.00' });
    // The first page is batchSize; after it, about 20,000 characters of ~2,050-character events.
    expect(asked[0]).toBe(50);
    expect(asked.slice(1).every((count) => count <= 10)).toBe(true);
  });
});
