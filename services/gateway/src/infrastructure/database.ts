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

/** SQLSTATE classes of "the server is not there for us": connection exceptions, shutdown, starting up, too many connections. */
const UNAVAILABLE_SQLSTATE = /^(08...|57P0[1-4]|53300)$/;
/** Socket failures reaching the server (Node errno codes). */
const UNAVAILABLE_ERRNO = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN']);
/** node-postgres reports a dropped connection, a pool wait that timed out and a closed pool without a code. */
const UNAVAILABLE_MESSAGE = /^(Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|Client was closed and is not queryable|Cannot use a pool after calling end)/;

/**
 * True when an error means the database is away (restarting, stopped, unreachable) rather than
 * that the request or the code is wrong: the gateway answers 503 and the client retries.
 * Looks through `cause` and AggregateError (a connect attempt to several addresses).
 */
export function isDatabaseUnavailable(error: unknown, depth = 0): boolean {
  if (!(error instanceof Error) || depth > 5) return false;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string' && (UNAVAILABLE_SQLSTATE.test(code) || UNAVAILABLE_ERRNO.has(code))) return true;
  if (UNAVAILABLE_MESSAGE.test(error.message)) return true;
  if (error instanceof AggregateError && error.errors.some((inner) => isDatabaseUnavailable(inner, depth + 1))) return true;
  return isDatabaseUnavailable(error.cause, depth + 1);
}
