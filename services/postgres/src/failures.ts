/**
 * How a failed query is classified: the gateway answers 503 while the database is away, and the
 * projection engine never parks an event over a failure that says nothing about the event.
 */

/** SQLSTATE classes of "the server is not there for us": connection exceptions, shutdown, starting up, too many connections. */
const UNAVAILABLE_SQLSTATE = /^(08...|57P0[1-4]|53300)$/;
/** Beyond unavailability, what a retry may cure: insufficient resources, crash recovery, system errors, serialization failures, deadlocks, lock timeouts. */
const TRANSIENT_SQLSTATE = /^(53...|57P05|58...|40001|40P01|55P03)$/;
/** Socket failures reaching the server (Node errno codes). */
const UNAVAILABLE_ERRNO = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN']);
/** node-postgres reports a dropped connection, a pool wait that timed out and a closed pool without a code. */
const UNAVAILABLE_MESSAGE =
  /^(Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|Client was closed and is not queryable|Cannot use a pool after calling end)/;

/** True when `matches` holds for the error, its `cause` chain or an AggregateError's members (a connect attempt to several addresses). */
function anyInChain(error: unknown, matches: (error: Error) => boolean, depth = 0): boolean {
  if (!(error instanceof Error) || depth > 5) return false;
  if (matches(error)) return true;
  if (error instanceof AggregateError && error.errors.some((inner) => anyInChain(inner, matches, depth + 1))) return true;
  return anyInChain(error.cause, matches, depth + 1);
}

function codeOf(error: Error): string | null {
  const code = (error as { code?: unknown }).code;
  return typeof code === 'string' ? code : null;
}

/** A Unix socket's file is gone while its server restarts: connect fails with ENOENT (a file error anywhere else is no sign of the database). */
const socketMissing = (error: Error) => codeOf(error) === 'ENOENT' && (error as { syscall?: unknown }).syscall === 'connect';

function unavailable(error: Error): boolean {
  const code = codeOf(error);
  if (code && (UNAVAILABLE_SQLSTATE.test(code) || UNAVAILABLE_ERRNO.has(code))) return true;
  if (socketMissing(error)) return true;
  return UNAVAILABLE_MESSAGE.test(error.message);
}

/**
 * True when an error means the database is away (restarting, stopped, unreachable) rather than
 * that the request or the code is wrong: the gateway answers 503 and the client retries.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  return anyInChain(error, unavailable);
}

/**
 * True when a failure comes from the database's state rather than from the work itself
 * (unavailability plus concurrency aborts and resource shortages): retried, never blamed on the data.
 */
export function isTransientDatabaseFailure(error: unknown): boolean {
  return anyInChain(error, (inner) => unavailable(inner) || TRANSIENT_SQLSTATE.test(codeOf(inner) ?? ''));
}
