export {
  createPostgresEventStore,
  PostgresEventStore,
  type PostgresEventStoreConfig,
  type PostgresEventStoreOptions,
} from './postgres-event-store';
export { migrateEventStore } from './schema';
