import type { RecordHistoryEntry } from '@eelarve/shared';
import type { DomainEvent } from '../decider';
import type { ImportedRecord, RecordEvent, RecordRef, RecordsImported, RecordValues } from './events';

/**
 * A record's versions, oldest first: the event that made it (its RecordCreated, or its row of an
 * import's RecordsImported chunk, seen here as a `RecordImported` version) and then the events of
 * its own stream. The history screen and the revert command both read a record this way.
 */

/** What an imported record's first own command carries: its row of the chunk event. */
export type RecordOrigin = ImportedRecord & RecordRef;

/** An imported record's row of its chunk, as a version of that record. */
export type RecordImported = DomainEvent<'RecordImported', RecordOrigin & { importId: string; originResourceName: string }>;

export type RecordVersionEvent = RecordEvent | RecordImported;

/** The row of one record in an import chunk (null when the chunk does not hold it). */
export function importedVersion(chunk: RecordsImported['data'], recordId: string): RecordImported | null {
  const row = chunk.records.find((candidate) => candidate.recordId === recordId);
  if (!row) return null;
  const { importId, budgetId, documentId, organizationId, originResourceName } = chunk;
  return { type: 'RecordImported', data: { ...row, budgetId, documentId, organizationId, importId, originResourceName } };
}

/** The origin an imported record's commands carry, from its chunk row. */
export function recordOrigin(version: RecordImported): RecordOrigin {
  const { recordId, budgetId, documentId, organizationId, name, amount, months, classifiers } = version.data;
  return { recordId, budgetId, documentId, organizationId, name, amount, months, classifiers };
}

/** A record as it stood after one version. */
export interface RecordSnapshot {
  ref: RecordRef;
  values: RecordValues;
  promoted: boolean;
  deleted: boolean;
}

export const refOf = ({ recordId, budgetId, documentId, organizationId }: RecordRef): RecordRef => ({ recordId, budgetId, documentId, organizationId });
export const valuesOf = ({ name, amount, months, classifiers }: RecordValues): RecordValues => ({ name, amount, months, classifiers });

function following(previous: RecordSnapshot | null, event: RecordVersionEvent): RecordSnapshot {
  if (!previous) throw new Error(`a record's history begins with its creation or import, not ${event.type}`);
  return previous;
}

/** The snapshot after one more version. */
export function nextSnapshot(previous: RecordSnapshot | null, event: RecordVersionEvent): RecordSnapshot {
  switch (event.type) {
    case 'RecordCreated':
      return { ref: refOf(event.data), values: valuesOf(event.data), promoted: event.data.promoted, deleted: false };
    case 'RecordImported':
      return { ref: refOf(event.data), values: valuesOf(event.data), promoted: false, deleted: false };
    case 'RecordUpdated':
      return { ...following(previous, event), values: valuesOf(event.data), deleted: false };
    case 'RecordPromotionSet':
      return { ...following(previous, event), promoted: event.data.promoted };
    case 'RecordDeleted':
      return { ...following(previous, event), deleted: true };
    case 'RecordRestored':
      return { ref: refOf(event.data), values: valuesOf(event.data), promoted: event.data.promoted, deleted: false };
  }
}

export function snapshotAfter(events: readonly RecordVersionEvent[]): RecordSnapshot | null {
  return events.reduce<RecordSnapshot | null>(nextSnapshot, null);
}

const sameMonths = (a: readonly string[] | null, b: readonly string[] | null) =>
  a === b || (a !== null && b !== null && a.length === b.length && a.every((month, index) => month === b[index]));

/**
 * The fields that differ between two versions: 'name', 'amount', 'factors', 'extra.promoted' and
 * 'classifiers.<id>'. Against no version (a creation) every field that holds something.
 */
export function changedFields(before: RecordSnapshot | null, after: RecordSnapshot): string[] {
  const empty: RecordSnapshot = { ref: after.ref, values: { name: '', amount: '', months: null, classifiers: {} }, promoted: false, deleted: false };
  const from = before ?? empty;
  const fields: string[] = [];
  if (from.values.name !== after.values.name) fields.push('name');
  if (from.values.amount !== after.values.amount) fields.push('amount');
  if (!sameMonths(from.values.months, after.values.months)) fields.push('factors');
  if (from.promoted !== after.promoted) fields.push('extra.promoted');
  const ids = new Set([...Object.keys(from.values.classifiers), ...Object.keys(after.values.classifiers)]);
  for (const id of [...ids].sort()) {
    if (from.values.classifiers[id] !== after.values.classifiers[id]) fields.push(`classifiers.${id}`);
  }
  return fields;
}

/** One version as the gateway read it: the event, its id, and who made it when (names resolved). */
export interface RecordVersion {
  eventId: string;
  event: RecordVersionEvent;
  changedBy: RecordHistoryEntry['changedBy'];
  /** ISO time the event occurred. */
  changedAt: string;
}

function kindOf(event: RecordVersionEvent): RecordHistoryEntry['kind'] {
  switch (event.type) {
    case 'RecordCreated':
      return 'CREATED';
    case 'RecordImported':
      return 'IMPORTED';
    case 'RecordUpdated':
      return event.data.revertedEventId ? 'REVERTED' : 'UPDATED';
    case 'RecordPromotionSet':
      return event.data.revertedEventId ? 'REVERTED' : 'PROMOTED';
    case 'RecordDeleted':
      return 'DELETED';
    case 'RecordRestored':
      return 'RESTORED';
  }
}

const revertedEventIdOf = (event: RecordVersionEvent): string | null =>
  event.type === 'RecordUpdated' || event.type === 'RecordPromotionSet' || event.type === 'RecordRestored' ? event.data.revertedEventId : null;

function recordAt(snapshot: RecordSnapshot, createdAt: string, version: RecordVersion): NonNullable<RecordHistoryEntry['record']> {
  const { ref, values, promoted } = snapshot;
  return {
    id: ref.recordId,
    budgetId: ref.budgetId,
    documentId: ref.documentId,
    name: values.name,
    amount: values.amount,
    classifiers: values.classifiers,
    factors: { months: values.months },
    extra: { promoted },
    createdAt,
    updated_at: version.changedAt,
    user_name: version.changedBy.userName,
  };
}

/**
 * A record's history (GET .../record/{id}/history): each version with the fields it changed, who
 * changed it and when. A deletion's version has no record; a restoration is compared with the
 * record as it was deleted.
 */
export function recordHistory(versions: readonly RecordVersion[]): RecordHistoryEntry[] {
  const createdAt = versions[0]?.changedAt ?? '';
  let previous: RecordSnapshot | null = null;
  return versions.map((version, index) => {
    const snapshot = nextSnapshot(previous, version.event);
    const entry: RecordHistoryEntry = {
      eventId: version.eventId,
      version: index + 1,
      kind: kindOf(version.event),
      changedFields: snapshot.deleted ? [] : changedFields(previous, snapshot),
      record: snapshot.deleted ? null : recordAt(snapshot, createdAt, version),
      changedBy: version.changedBy,
      changedAt: version.changedAt,
      revertedEventId: revertedEventIdOf(version.event),
    };
    previous = snapshot;
    return entry;
  });
}
