import { createEventStore, type EventStore, migrateEventStore } from '@eelarve/eventstore';
import { createKysely, createPool, migrate, openConnections, type Pool } from '@eelarve/postgres';
import { type ProjectionEngine, startProjections } from '@eelarve/projections/engine';
import { foregroundProjectors, REGISTRY_MODULE } from '@eelarve/projections/registry';
import { combineEngines, startProjectionsThread } from '@eelarve/projections/thread';
import type { Kysely } from 'kysely';
import type { AppConfig } from '../config';
import type { AppDatabase } from './database';
import { operationalMigrations } from './operational-migrations';

/** The long-lived parts a gateway process runs on: pool, event store, projection engine. */
export interface Runtime {
  pool: Pool;
  db: AppDatabase;
  /** The records lists' cursors only (listsPool below). */
  listsDb: AppDatabase;
  store: EventStore;
  engine: ProjectionEngine | null;
  close(): Promise<void>;
}

/**
 * Connections of the gateway's pool opened at the start and kept: a record command reads with up
 * to three at once, and a burst of edits opening them one handshake at a time was slow.
 */
const WARM_CONNECTIONS = 10;

export async function startRuntime(config: AppConfig, onError: (error: unknown, context: string) => void): Promise<Runtime> {
  const pool = createPool(config.databaseUrl, { max: 20, min: WARM_CONNECTIONS, applicationName: 'eelarve-gateway' });
  await openConnections(pool, WARM_CONNECTIONS);
  const db = createKysely<unknown>(pool);
  // A streamed records list holds its connection until the client has read it all: lists get
  // their own few, so slow or stalled readers can never take the main pool's from sign-in,
  // commands and projections. A list finding them all busy waits the pool's connection timeout (503).
  const listsPool = createPool(config.databaseUrl, { max: 4, applicationName: 'eelarve-gateway-lists' });
  if (!config.eventStoreConnectionString) await migrateEventStore(pool);
  await migrate(db as Kysely<unknown>, 'operational', operationalMigrations);
  const store = createEventStore({ databaseUrl: config.databaseUrl, eventStoreConnectionString: config.eventStoreConnectionString });
  const engine = config.runProjections ? await startEngines(config, pool, store, onError) : null;
  return {
    pool,
    db: db as unknown as AppDatabase,
    listsDb: createKysely<unknown>(listsPool) as unknown as AppDatabase,
    store,
    engine,
    async close() {
      await engine?.stop();
      await store.close();
      await Promise.all([pool.end(), listsPool.end()]);
    },
  };
}

/**
 * How long the report projector lets edits gather before it reads them (see gatherMs). Whoever
 * waits for the report (a report asked `after` a write, the live hub) ends the pause at once, so
 * only a report asked without `after` may miss the last half second of edits. 500 against 100 ms,
 * bench:records at 10,000 records: 182 against 147 edits/s without pauses, 4.5 against 5.6 ms of
 * PostgreSQL CPU per edit; with pauses (16 editors, ~13 edits/s) 12.7 against 14.9 ms.
 */
const BACKGROUND_GATHER_MS = 500;

/**
 * The projectors commands wait on run on this event loop (a wait is then a look at memory); the
 * others (the report) on a thread of their own, whose batches and collections cannot stall
 * requests: each record edit is a report batch too, and the slowest edits overlapped event-loop
 * stalls (issue 11, point 9).
 */
async function startEngines(config: AppConfig, pool: Pool, store: EventStore, onError: (error: unknown, context: string) => void): Promise<ProjectionEngine> {
  // Side by side: the thread's start (its own TypeScript loader and pool) need not wait for this loop's.
  const started = await Promise.allSettled([
    startProjections({ pool, store, projectors: foregroundProjectors, onError }),
    startProjectionsThread({
      databaseUrl: config.databaseUrl,
      eventStoreConnectionString: config.eventStoreConnectionString,
      pool,
      projectors: { module: REGISTRY_MODULE, exportName: 'backgroundProjectors' },
      applicationName: 'eelarve-gateway-projections',
      // A report batch per edit cost more CPU than the edit's other work at saturation: a run of
      // edits makes one batch (BACKGROUND_GATHER_MS).
      engine: { gatherMs: BACKGROUND_GATHER_MS },
      onError,
    }),
  ]);
  const engines = started.flatMap((result) => (result.status === 'fulfilled' ? [result.value] : []));
  const failure = started.find((result) => result.status === 'rejected');
  if (!failure) return combineEngines(engines);
  await Promise.all(engines.map((engine) => engine.stop()));
  throw failure.reason;
}
