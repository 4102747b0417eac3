import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type ProjectionEngine, startProjections } from '../src/engine';
import type { Projector } from '../src/projector';
import { BULK_PAGE_CHARS } from '../src/runner';
import { ledgerProjector } from './ledger';
import { createHarness, type Harness, newEvent, sleep, waitFor } from './support';

/**
 * A projector that yields to others (Projector.yieldsTo: the report and the documents to the
 * records) applies a bulk page, an import's chunk events, only once they have applied it, so on
 * two cores the read model an import's user waits for gets the CPU first. Small pages (a user's
 * edit) are never held back, and a leader that does not run is not waited for.
 */
let harness: Harness;
let engine: ProjectionEngine | undefined;

beforeEach(async () => {
  harness = await createHarness();
});

afterEach(async () => {
  await engine?.stop();
  engine = undefined;
  await harness.close();
});

/** A leader whose batches take a while, and a follower that yields to `leaderName`; both note when they apply. */
function projectors(marks: string[], leaderName = 'leader'): Projector[] {
  const leader = ledgerProjector({
    name: 'leader',
    between: async () => {
      marks.push('leader starts');
      await sleep(500);
      marks.push('leader ends');
    },
  });
  const follower: Projector = {
    ...ledgerProjector({
      name: 'follower',
      between: async () => {
        marks.push('follower applies');
      },
    }),
    yieldsTo: [leaderName],
  };
  return [follower, leader];
}

async function start(list: Projector[]): Promise<void> {
  engine = await startProjections({ pool: harness.pool, store: harness.store, projectors: list, onError: () => {} });
  await waitFor(async () => (await engine!.status()).every((row) => row.state === 'live'), 'live state');
}

const deposit = (memo: string) => harness.store.append('account-1', [newEvent('Deposited', { amount: '1.00', memo })], { expectedRevision: 'any' });

async function followerEntries(): Promise<number> {
  const { rows } = await harness.pool.query<{ n: number }>('select count(*)::int as n from read.follower_entries');
  return rows[0]?.n ?? 0;
}

describe('a projector that yields to another', () => {
  it('applies a bulk page only after its leader has applied and committed it', async () => {
    const marks: string[] = [];
    await start(projectors(marks));
    await deposit('x'.repeat(BULK_PAGE_CHARS + 1_000));
    await waitFor(async () => (await followerEntries()) === 1, 'the follower applies the page');
    expect(marks).toEqual(['leader starts', 'leader ends', 'follower applies']);
  });

  it('applies a small page at once, while its leader is still at it', async () => {
    const marks: string[] = [];
    await start(projectors(marks));
    await deposit('a small edit');
    await waitFor(async () => (await followerEntries()) === 1 && marks.includes('leader ends'), 'both apply the page');
    expect(marks.indexOf('follower applies')).toBeLessThan(marks.indexOf('leader ends'));
  });

  it('does not wait for a leader that does not run', async () => {
    const marks: string[] = [];
    const [follower] = projectors(marks, 'absent');
    await start([follower!]);
    const appended = Date.now();
    await deposit('x'.repeat(BULK_PAGE_CHARS + 1_000));
    await waitFor(async () => (await followerEntries()) === 1, 'the follower applies the page');
    // The bound on a wait is 30 s; no wait at all is well under a few seconds even on a busy machine.
    expect(Date.now() - appended).toBeLessThan(5_000);
  });
});
