export {
  type Checkpoint,
  type GenerationRole,
  type GenerationStatus,
  loadActivePositions,
  loadCheckpoints,
  requestRebuild,
  waitForCheckpoints,
} from './checkpoints';
export { connectProductDatabase, type ProductDatabase } from './connection';
export { type ProjectionEngine, type ProjectionEngineOptions, type RebuildOptions, startProjections } from './engine';
export { dropProjector } from './generations';
export { EventParkedError, type ParkedEvent } from './parked';
export { DEFAULT_RETRY_POLICY, type RetryPolicy } from './runner';
export { type AnyDb, defineProjector, type Projector } from './projector';
export { productProjectors, resolveProjectors } from './registry';
export { CONTROL_SCHEMA, generationSchema, migrateControlSchema, READ_SCHEMA } from './schema';
export { countPostgresEvents, type ProjectorState, type ProjectorStatus, projectionStatus, type StatusOptions, watchRebuild } from './status';
