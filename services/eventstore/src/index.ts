export * from './types';
export * from './errors';
export * from './postgres';
export * from './eventstoredb';
export { createEventStore, type EventStoreConfig } from './create-event-store';
