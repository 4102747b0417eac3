/**
 * SQLSTATEs that say nothing about the event being applied: connection exceptions, insufficient
 * resources, shutdown and crash recovery, system errors, serialization failures, deadlocks and
 * lock timeouts. A handler failing with one of them is retried for ever, never parked.
 */
const TRANSIENT_SQLSTATE = /^(08...|53...|57P0[1-5]|58...|40001|40P01|55P03)$/;
/** Socket failures reaching the server (Node errno codes). */
const TRANSIENT_ERRNO = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN']);
/** node-postgres reports a dropped connection, a pool wait that timed out and a closed pool without a code. */
const TRANSIENT_MESSAGE = /^(Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|Client was closed and is not queryable|Cannot use a pool after calling end)/;

/**
 * True when a failure comes from the database's state rather than from the event (the same list
 * as the gateway's isDatabaseUnavailable, plus concurrency aborts): such a failure must never
 * park an event, or a database restart would empty the read models. Looks through `cause`.
 */
export function isTransientFailure(error: unknown, depth = 0): boolean {
  if (!(error instanceof Error) || depth > 5) return false;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string' && (TRANSIENT_SQLSTATE.test(code) || TRANSIENT_ERRNO.has(code))) return true;
  if (TRANSIENT_MESSAGE.test(error.message)) return true;
  if (error instanceof AggregateError && error.errors.some((inner) => isTransientFailure(inner, depth + 1))) return true;
  return isTransientFailure(error.cause, depth + 1);
}

/** A projector's `handle` threw: the batch, or an event in it, may be one the handler cannot apply. */
export class HandlerFailure extends Error {
  constructor(readonly failure: unknown) {
    super(failure instanceof Error ? failure.message : String(failure), { cause: failure });
    this.name = 'HandlerFailure';
  }
}
