import { createEventStore } from '@eelarve/eventstore';
import type { AppConfig } from '@eelarve/gateway/config';
import type { TaskContext } from '@eelarve/gateway/features/tasks/context';
import { createCommandRunner } from '@eelarve/gateway/infrastructure/command-runner';
import type { AppDatabase } from '@eelarve/gateway/infrastructure/database';
import { createKysely, createPool } from '@eelarve/postgres';
import { checkpointWaiter } from '@eelarve/projections/checkpoint-waiter';
import { pino } from 'pino';

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
