import { canonicalAmount, DomainError } from '@eelarve/shared';
import type { Decider } from '../decider';
import { type RecordEvent, type RecordRef, type RecordValues, recordStreamName } from './events';
import { changedFields, type RecordOrigin, type RecordSnapshot, type RecordVersionEvent, refOf, snapshotAfter, nextSnapshot, valuesOf } from './history';
import { checkRecordValues, type RecordFacts, type RecordValuesInput, resolveRecordClassifierKeys, withoutEmptyClassifiers } from './record-rules';

/**
 * One record (budget line) over its own stream `record-<id>` (see events.ts).
 *
 * A record born in an import has an empty own stream until its first change, so its commands
 * carry `origin` (its row of the import chunk). Its first own event may be a promotion or a
 * deletion, which do not repeat the values: the state then keeps `values: null`, meaning "still
 * the imported row's", and the commands of such a record carry `origin` too (the gateway knows a
 * record is imported from the read model's `origin_stream`).
 */
export type RecordState =
  | { status: 'none' }
  | { status: 'live'; ref: RecordRef; values: RecordValues | null; promoted: boolean }
  /** The values it had when deleted (null: the imported row's), so a revert can check what it restores. */
  | { status: 'deleted'; ref: RecordRef; values: RecordValues | null; promoted: boolean };

/** Fields of an edit; an omitted field keeps its value, a null classifier clears it. */
export interface RecordChanges {
  name?: string;
  /** Alone on a record with months: the months are kept if they add up to it, dropped otherwise. */
  amount?: string | null;
  /** An array sets the split (the amount becomes its sum unless given); null removes the split. */
  months?: readonly string[] | null;
  /** Classifier id or field name → code; merged over the record's values. */
  classifiers?: Readonly<Record<string, string | null>>;
}

export type RecordCommand =
  | {
      type: 'CreateRecord';
      recordId: string;
      budgetId: string;
      documentId: string;
      organizationId: string;
      values: RecordValuesInput;
      facts: RecordFacts;
      /** The record this one copies (duplicate). */
      duplicatedFrom?: string | null;
    }
  | { type: 'UpdateRecord'; recordId: string; changes: RecordChanges; facts: RecordFacts; origin?: RecordOrigin | null }
  | { type: 'SetRecordPromotion'; recordId: string; promoted: boolean; origin?: RecordOrigin | null }
  | { type: 'DeleteRecord'; recordId: string; origin?: RecordOrigin | null }
  | {
      /** Undo the change one past event made, as a new event (nothing is rewritten). */
      type: 'RevertRecordChange';
      recordId: string;
      /** The event to undo, with its id (the compensating event names it). */
      target: { eventId: string; event: RecordVersionEvent };
      /** The record's versions before the target, oldest first (an imported record's chunk row first). */
      before: readonly RecordVersionEvent[];
      facts: RecordFacts;
      origin?: RecordOrigin | null;
    };

type Cmd<T extends RecordCommand['type']> = Extract<RecordCommand, { type: T }>;

interface LiveRecord {
  ref: RecordRef;
  values: RecordValues;
  promoted: boolean;
}

/** The record as it stands now, its values null while they are still the imported row's and no origin came. */
function standingRecord(
  state: RecordState,
  recordId: string,
  origin: RecordOrigin | null | undefined,
): Omit<LiveRecord, 'values'> & { values: RecordValues | null } {
  if (origin && origin.recordId !== recordId) throw new DomainError('RECORD_ID_INVALID', 'the origin is another record');
  if (state.status === 'deleted') throw new DomainError('RECORD_NOT_FOUND');
  if (state.status === 'none') {
    if (!origin) throw new DomainError('RECORD_NOT_FOUND');
    return { ref: refOf(origin), values: valuesOf(origin), promoted: false };
  }
  return { ref: state.ref, values: state.values ?? (origin ? valuesOf(origin) : null), promoted: state.promoted };
}

/** The record as it stands now with its values: its own events, over the imported row when they do not say it all. */
function liveRecord(state: RecordState, recordId: string, origin: RecordOrigin | null | undefined): LiveRecord {
  const { values, ...record } = standingRecord(state, recordId, origin);
  if (!values) throw new DomainError('RECORD_NOT_FOUND', 'an imported record is decided with its origin');
  return { ...record, values };
}

function sameValues(a: RecordValues, b: RecordValues): boolean {
  const snapshot = (values: RecordValues): RecordSnapshot => ({
    ref: { recordId: '', budgetId: '', documentId: '', organizationId: '' },
    values,
    promoted: false,
    deleted: false,
  });
  return changedFields(snapshot(a), snapshot(b)).length === 0;
}

function createRecord(command: Cmd<'CreateRecord'>, state: RecordState): RecordEvent[] {
  if (state.status !== 'none') throw new DomainError('CONCURRENT_MODIFICATION', 'the record already exists');
  const { recordId, budgetId, documentId, organizationId } = command;
  const values = checkRecordValues(command.values, command.facts);
  return [
    {
      type: 'RecordCreated',
      data: { recordId, budgetId, documentId, organizationId, ...values, promoted: false, duplicatedFrom: command.duplicatedFrom ?? null },
    },
  ];
}

/** The amount and split an edit leaves (see RecordChanges). */
function mergedAmounts(current: RecordValues, changes: RecordChanges): Pick<RecordValuesInput, 'amount' | 'months'> {
  if (changes.months !== undefined) return { months: changes.months, amount: changes.amount ?? (changes.months ? null : current.amount) };
  if (changes.amount == null) return { amount: current.amount, months: current.months };
  // A new amount alone replaces a split that no longer adds up to it (bulk edit of the amount).
  const keepsSplit = current.months !== null && canonicalAmount(changes.amount) === current.amount;
  return { amount: changes.amount, months: keepsSplit ? current.months : null };
}

function mergedValues(current: RecordValues, changes: RecordChanges, facts: RecordFacts): RecordValuesInput {
  const classifierChanges = changes.classifiers ? resolveRecordClassifierKeys(changes.classifiers, facts) : {};
  return {
    name: changes.name ?? current.name,
    ...mergedAmounts(current, changes),
    classifiers: withoutEmptyClassifiers({ ...current.classifiers, ...classifierChanges }),
  };
}

function updateRecord(command: Cmd<'UpdateRecord'>, state: RecordState): RecordEvent[] {
  const record = liveRecord(state, command.recordId, command.origin);
  const values = checkRecordValues(mergedValues(record.values, command.changes, command.facts), command.facts);
  if (sameValues(values, record.values)) return [];
  return [{ type: 'RecordUpdated', data: { ...record.ref, ...values, revertedEventId: null } }];
}

function setPromotion(command: Cmd<'SetRecordPromotion'>, state: RecordState): RecordEvent[] {
  const record = standingRecord(state, command.recordId, command.origin);
  if (record.promoted === command.promoted) return [];
  return [{ type: 'RecordPromotionSet', data: { ...record.ref, promoted: command.promoted, revertedEventId: null } }];
}

function deleteRecord(command: Cmd<'DeleteRecord'>, state: RecordState): RecordEvent[] {
  const record = standingRecord(state, command.recordId, command.origin);
  return [{ type: 'RecordDeleted', data: record.ref }];
}

const notPossible = (why: string) => new DomainError('RECORD_REVERT_NOT_POSSIBLE', why);

/**
 * Undoes an edit field by field: the fields the target changed go back to what they were before
 * it; every other field keeps its current value. Refused when one of those fields has changed
 * again since (undoing would silently drop the later change; revert that one first) or the
 * record is deleted.
 */
function revertUpdate(command: Cmd<'RevertRecordChange'>, state: RecordState, before: RecordSnapshot, after: RecordSnapshot): RecordEvent[] {
  if (state.status === 'deleted') throw notPossible('the record is deleted');
  const record = liveRecord(state, command.recordId, command.origin);
  const fields = changedFields(before, after).filter((field) => field !== 'extra.promoted');
  const now: RecordSnapshot = { ...record, deleted: false };
  const changedSince = changedFields(after, now).filter((field) => fields.includes(field));
  if (fields.length === 0) throw notPossible('the change changed nothing');
  if (changedSince.length > 0) throw notPossible(`changed again since: ${changedSince.join(', ')}`);
  const reverted = { ...record.values, classifiers: { ...record.values.classifiers } };
  for (const field of fields) {
    if (field === 'name') reverted.name = before.values.name;
    else if (field === 'amount') reverted.amount = before.values.amount;
    else if (field === 'factors') reverted.months = before.values.months;
    else {
      const id = field.slice('classifiers.'.length);
      const code = before.values.classifiers[id];
      if (code === undefined) delete reverted.classifiers[id];
      else reverted.classifiers[id] = code;
    }
  }
  const values = checkRecordValues(reverted, command.facts);
  return [{ type: 'RecordUpdated', data: { ...record.ref, ...values, revertedEventId: command.target.eventId } }];
}

function revertPromotion(command: Cmd<'RevertRecordChange'>, state: RecordState, before: RecordSnapshot, after: RecordSnapshot): RecordEvent[] {
  if (state.status === 'deleted') throw notPossible('the record is deleted');
  const record = standingRecord(state, command.recordId, command.origin);
  if (record.promoted !== after.promoted || before.promoted === after.promoted) throw notPossible('the promotion has changed since');
  return [{ type: 'RecordPromotionSet', data: { ...record.ref, promoted: before.promoted, revertedEventId: command.target.eventId } }];
}

/** Brings a deleted record back as it was just before the target deletion (when that is the deletion in force). */
function revertDeletion(command: Cmd<'RevertRecordChange'>, state: RecordState, before: RecordSnapshot): RecordEvent[] {
  if (state.status !== 'deleted') throw notPossible('the record is not deleted');
  const deletedValues = state.values ?? (command.origin ? valuesOf(command.origin) : null);
  if (!deletedValues || !sameValues(deletedValues, before.values) || state.promoted !== before.promoted)
    throw notPossible('the record was deleted again with other values; undo that deletion');
  const values = checkRecordValues(before.values, command.facts);
  return [{ type: 'RecordRestored', data: { ...state.ref, ...values, promoted: before.promoted, revertedEventId: command.target.eventId } }];
}

/**
 * Which changes can be undone: an edit (RecordUpdated, including an earlier revert), a promotion
 * and a deletion. A creation, an import or a restoration is not reverted: undoing it means
 * deleting the record, which the delete command does (and which can itself be reverted).
 */
function revertChange(command: Cmd<'RevertRecordChange'>, state: RecordState): RecordEvent[] {
  const { event } = command.target;
  if (event.data.recordId !== command.recordId) throw notPossible('the event is not one of this record');
  const before = snapshotAfter(command.before);
  if (!before || event.type === 'RecordCreated' || event.type === 'RecordImported' || event.type === 'RecordRestored')
    throw notPossible(`${event.type} is undone by deleting the record`);
  const after = nextSnapshot(before, event);
  switch (event.type) {
    case 'RecordUpdated':
      return revertUpdate(command, state, before, after);
    case 'RecordPromotionSet':
      return revertPromotion(command, state, before, after);
    case 'RecordDeleted':
      return revertDeletion(command, state, before);
  }
}

function liveState(ref: RecordRef, values: RecordValues | null, promoted: boolean): RecordState {
  return { status: 'live', ref, values, promoted };
}

export const recordDecider: Decider<RecordCommand, RecordEvent, RecordState> = {
  streamName: (command) => recordStreamName(command.recordId),
  initialState: () => ({ status: 'none' }),
  evolve(state, event) {
    const known = state.status === 'none' ? { values: null, promoted: false } : state;
    switch (event.type) {
      case 'RecordCreated':
      case 'RecordRestored':
        return liveState(refOf(event.data), valuesOf(event.data), event.data.promoted);
      case 'RecordUpdated':
        return liveState(refOf(event.data), valuesOf(event.data), known.promoted);
      case 'RecordPromotionSet':
        return liveState(refOf(event.data), known.values, event.data.promoted);
      case 'RecordDeleted':
        return { status: 'deleted', ref: refOf(event.data), values: known.values, promoted: known.promoted };
    }
  },
  decide(command, state) {
    switch (command.type) {
      case 'CreateRecord':
        return createRecord(command, state);
      case 'UpdateRecord':
        return updateRecord(command, state);
      case 'SetRecordPromotion':
        return setPromotion(command, state);
      case 'DeleteRecord':
        return deleteRecord(command, state);
      case 'RevertRecordChange':
        return revertChange(command, state);
    }
  },
};
