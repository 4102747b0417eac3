import { createEventStoreDbEventStore } from './eventstoredb';
import { createPostgresEventStore } from './postgres';
import type { EventStore } from './types';

export interface EventStoreConfig {
  /** The PostgreSQL database, used when no EventStoreDB is configured. */
  databaseUrl: string;
  /** An `esdb://` connection string: EventStoreDB holds the events instead. */
  eventStoreConnectionString?: string;
}

/**
 * EventStoreDB in production, the PostgreSQL store as the embedded default. The PostgreSQL
 * schema is not migrated here: run migrateEventStore(pool) at startup.
 */
export function createEventStore(config: EventStoreConfig): EventStore {
  if (config.eventStoreConnectionString) {
    return createEventStoreDbEventStore({ connectionString: config.eventStoreConnectionString });
  }
  return createPostgresEventStore({ connectionString: config.databaseUrl });
}
