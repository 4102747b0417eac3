import { isTransientDatabaseFailure } from '@eelarve/postgres/failures';

/**
 * True when a failure comes from the database's state rather than from the event: such a failure
 * must never park an event, or a database restart would empty the read models.
 */
export const isTransientFailure = isTransientDatabaseFailure;

/** A projector's `handle` threw: the batch, or an event in it, may be one the handler cannot apply. */
export class HandlerFailure extends Error {
  constructor(readonly failure: unknown) {
    super(failure instanceof Error ? failure.message : String(failure), { cause: failure });
    this.name = 'HandlerFailure';
  }
}
