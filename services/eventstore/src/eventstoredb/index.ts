export { createEventStoreDbEventStore, type EventStoreDbConfig, EventStoreDbEventStore } from './eventstoredb-event-store';
