import type { ExpectedRevision } from './types';

/** The stream's revision was not the one the writer expected: someone else wrote first. */
export class WrongExpectedRevisionError extends Error {
  readonly stream: string;
  readonly expected: ExpectedRevision;
  readonly actual: bigint | 'no_stream';
  constructor(stream: string, expected: ExpectedRevision, actual: bigint | 'no_stream') {
    super(`stream ${stream}: expected revision ${String(expected)}, actual ${String(actual)}`);
    this.name = 'WrongExpectedRevisionError';
    this.stream = stream;
    this.expected = expected;
    this.actual = actual;
  }
}

/** Some, but not all, of the event ids of an append are already stored (or stored elsewhere). */
export class IdempotencyConflictError extends Error {
  constructor(stream: string) {
    super(`stream ${stream}: the append reuses event ids of a different append`);
    this.name = 'IdempotencyConflictError';
  }
}
