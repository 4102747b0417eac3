import type { ReadModels } from '@eelarve/projections/read-models';
import type { Kysely } from 'kysely';
import type { OperationalTables } from './operational-migrations';

/** Read models (through the `read` schema's views) and operational tables. */
export type AppDatabase = Kysely<ReadModels & OperationalTables>;
/** Queries read only read models; `read` views always point at the active generation. */
export type ReadDatabase = Kysely<ReadModels>;

export function readModels(db: AppDatabase): ReadDatabase {
  return db.withSchema('read') as unknown as ReadDatabase;
}

export { isDatabaseUnavailable } from '@eelarve/postgres/failures';
