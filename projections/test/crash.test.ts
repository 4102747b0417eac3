import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { Kysely } from 'kysely';
import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadCheckpoints } from '../src/checkpoints';
import { type ProjectionEngine, startProjections } from '../src/engine';
import type { Projector } from '../src/projector';
import { ledgerProjector } from './ledger';
import { appendDeposits, createHarness, type Harness, tableContents, waitFor } from './support';

const DEPOSITS = 400;
let harness: Harness;
let engine: ProjectionEngine | undefined;

beforeEach(async () => {
  harness = await createHarness();
  await appendDeposits(harness.store, DEPOSITS, 7);
});

afterEach(async () => {
  await engine?.stop();
  engine = undefined;
  await harness.close();
});

async function run(projector: Projector): Promise<ProjectionEngine> {
  engine = await startProjections({ pool: harness.pool, store: harness.store, projectors: [projector], batchSize: 40, pollIntervalMs: 100, onError: () => {} });
  return engine;
}

async function readModel(db: Kysely<unknown>) {
  return { entries: await tableContents(db, 'read', 'ledger_entries'), balances: await tableContents(db, 'read', 'ledger_balances') };
}

/** Catches up, then compares every table with a rebuild from position zero. */
async function expectSameAsRebuild(running: ProjectionEngine): Promise<void> {
  await waitFor(async () => (await loadCheckpoints(harness.db, 'ledger'))[0]?.eventsApplied === DEPOSITS, 'catch-up');
  const resumed = await readModel(harness.db);
  expect(resumed.entries).toHaveLength(DEPOSITS);
  const { generation } = await running.rebuildProjector('ledger');
  expect(generation).toBe(2);
  expect(await readModel(harness.db)).toEqual(resumed);
}

/** A ledger projector that sabotages its third batch once, after writing that batch's entries. */
function sabotaged(sabotage: (db: Kysely<unknown>) => Promise<void>): { projector: Projector; fired: () => boolean } {
  let batches = 0;
  let fired = false;
  const projector = ledgerProjector({
    async between(_events, db) {
      if (++batches !== 3) return;
      fired = true;
      await sabotage(db);
    },
  });
  return { projector, fired: () => fired };
}

describe('a projector that crashes in the middle of a batch', () => {
  it('resumes after its handler threw, equal to a rebuild', async () => {
    const { projector, fired } = sabotaged(async () => {
      throw new Error('crash after half a batch');
    });
    await expectSameAsRebuild(await run(projector));
    expect(fired()).toBe(true);
  });

  it('resumes after its connection was killed, equal to a rebuild', async () => {
    const { projector, fired } = sabotaged(async (db) => {
      await sql`select pg_terminate_backend(pg_backend_pid())`.execute(db);
    });
    await expectSameAsRebuild(await run(projector));
    expect(fired()).toBe(true);
  });

  it('resumes after its process was killed, equal to a rebuild', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', fileURLToPath(new URL('./fixtures/crash-child.ts', import.meta.url)), harness.database.url], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const exited = new Promise((resolve) => child.once('exit', resolve));
    let batches = 0;
    await new Promise<void>((resolve, reject) => {
      child.once('exit', () => reject(new Error('the child exited before it was killed')));
      child.stdout.on('data', (chunk: Buffer) => {
        batches += chunk.toString().split('mid-batch').length - 1;
        if (batches >= 3) resolve();
      });
    });
    child.kill('SIGKILL');
    await exited;

    // The killed batch's entries were never committed: entries and checkpoint still agree.
    const [checkpoint] = await loadCheckpoints(harness.db, 'ledger');
    const { rows } = await sql<{ count: string }>`select count(*) as count from read.ledger_entries`.execute(harness.db);
    expect(Number(rows[0]?.count)).toBe(checkpoint?.eventsApplied);
    expect(checkpoint!.eventsApplied).toBeLessThan(DEPOSITS);

    await expectSameAsRebuild(await run(ledgerProjector()));
  });
});
