import { IdempotencyConflictError, WrongExpectedRevisionError } from '../errors';
import type { ExpectedRevision } from '../types';
import { GROUP_REFUSED } from './sql';

interface PgError {
  code?: unknown;
  constraint?: unknown;
}

/** What append_events reports for each append of a group. */
export type AppendOutcome = 'appended' | 'retried' | 'wrong_expected_revision' | 'idempotency_conflict';

/** The typed error for a failed outcome (null when the append went through). */
export function outcomeError(outcome: AppendOutcome, stream: string, expected: ExpectedRevision, lastRevision: bigint): Error | null {
  if (outcome === 'wrong_expected_revision') {
    return new WrongExpectedRevisionError(stream, expected, lastRevision < 0n ? 'no_stream' : lastRevision);
  }
  if (outcome === 'idempotency_conflict') return new IdempotencyConflictError(stream);
  return null;
}

/**
 * An event id the unique index refused. append_events skips stored ids and answers for them
 * itself, so this is a safety net for a statement that did not.
 */
export function mapAppendError(error: unknown, stream: string): unknown {
  const { code, constraint } = (error ?? {}) as PgError;
  return code === '23505' && constraint === 'events_event_id_key' ? new IdempotencyConflictError(stream) : error;
}

/**
 * The fast append statement gave up on its group: an expected revision that does not hold
 * (eventstore.refuse_group), or an event id stored before (a retry or a reuse).
 */
export function needsAppendEvents(error: unknown): boolean {
  const { code } = (error ?? {}) as PgError;
  return code === GROUP_REFUSED || code === '23505';
}

const TRANSIENT_SQLSTATE = /^(08|53|57P0|58|40001|40P01)/;
const TRANSIENT_MESSAGE = /connection|terminat|timeout|ECONN|EPIPE|socket/i;

/**
 * True for failures that a new connection can cure: the server restarting or unreachable, a
 * dropped socket, a serialization failure. Bugs and bad SQL are not retried.
 */
export function isTransientError(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = (error as PgError).code;
  if (typeof code !== 'string') return TRANSIENT_MESSAGE.test(error.message);
  if (/^E[A-Z]+$/.test(code)) return true; // a Node socket errno such as ECONNRESET
  return TRANSIENT_SQLSTATE.test(code);
}
