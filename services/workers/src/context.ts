import { comparePositions, createEventStore, type GlobalPosition } from '@eelarve/eventstore';
import type { AppConfig } from '@eelarve/gateway/config';
import type { TaskContext } from '@eelarve/gateway/features/tasks/context';
import { createCommandRunner, type PositionWaiter } from '@eelarve/gateway/infrastructure/command-runner';
import type { AppDatabase } from '@eelarve/gateway/infrastructure/database';
import { createKysely, createPool } from '@eelarve/postgres';
import { loadActivePositions } from '@eelarve/projections/checkpoints';
import type { Kysely } from 'kysely';
import { pino } from 'pino';

/**
 * Read-your-writes for a process that runs no projectors: the gateway's engine projects, and the
 * worker watches the projectors' checkpoints until they pass a position (as an API-only gateway does).
 */
export function checkpointWaiter(db: Kysely<unknown>, pollMs = 25): PositionWaiter {
  const reached = async (projectors: readonly string[], position: GlobalPosition) => {
    const positions = await loadActivePositions(db, projectors);
    return projectors.every((name) => {
      const at = positions.get(name);
      return at !== undefined && comparePositions(at, position) >= 0;
    });
  };
  return {
    async waitForPosition(projectors, position, timeoutMs) {
      const deadline = Date.now() + timeoutMs;
      while (Date.now() < deadline) {
        if (await reached(projectors, position)) return true;
        await new Promise((resolve) => setTimeout(resolve, pollMs));
      }
      return false;
    },
  };
}

export interface WorkerContext {
  context: TaskContext;
  close(): Promise<void>;
}

/**
 * What task handlers need, built for the worker process: its own pool and event store on the
 * gateway's database, the one command runner (waiting on the checkpoints), config and a JSON log.
 */
export function createWorkerContext(config: AppConfig): WorkerContext {
  const pool = createPool(config.databaseUrl, { max: 10, applicationName: 'eelarve-worker' });
  const db = createKysely<unknown>(pool);
  const store = createEventStore({ databaseUrl: config.databaseUrl, eventStoreConnectionString: config.eventStoreConnectionString });
  const log = pino({ level: config.logLevel, base: { process: 'worker' } });
  const commands = createCommandRunner({ store, db, projections: checkpointWaiter(db), readYourWritesTimeoutMs: config.readYourWritesTimeoutMs });
  return {
    context: { db: db as unknown as AppDatabase, store, commands, config, log },
    async close() {
      await store.close();
      await pool.end();
    },
  };
}
