import {
  importedVersion,
  type RecordImported,
  type RecordEvent,
  type RecordOrigin,
  type RecordsImported,
  type RecordVersion,
  type RecordVersionEvent,
  recordOrigin,
  recordStreamName,
} from '@eelarve/domain';
import type { StoredEvent } from '@eelarve/eventstore';
import { actorNames, type RecordApiRow } from '@eelarve/projections/records/api-queries';
import { DomainError } from '@eelarve/shared';
import type { FastifyInstance } from 'fastify';
import { readModels } from '../../infrastructure/database';

/**
 * A record's versions read from the event log (issue 11, point 3): an imported record's row of
 * its import chunk (named by the read model's origin_stream and origin_revision), then the events
 * of its own stream `record-<id>`. History, revert and the auditors' raw events all start here.
 */
export interface StoredVersion {
  stored: StoredEvent;
  event: RecordVersionEvent;
}

export interface RecordVersions {
  versions: StoredVersion[];
  /** The chunk row an imported record's commands carry (null for a record made on a screen). */
  origin: RecordOrigin | null;
}

const IMPORT_STREAM_PREFIX = 'record-import-';

type OriginRow = Pick<RecordApiRow, 'id' | 'origin_stream' | 'origin_revision'>;

/** Import chunks kept per store (recentChunks): some 150 KB of JSON each. */
const RECENT_CHUNKS = 16;
const recentChunksOf = new WeakMap<FastifyInstance['store'], Map<string, Promise<StoredEvent | undefined>>>();

function recentChunksOfStore(store: FastifyInstance['store']): Map<string, Promise<StoredEvent | undefined>> {
  let recentChunks = recentChunksOf.get(store);
  if (!recentChunks) {
    recentChunks = new Map();
    recentChunksOf.set(store, recentChunks);
  }
  return recentChunks;
}

/**
 * An import chunk, read once while it is among the last RECENT_CHUNKS read: a stored event never
 * changes, and people work on the records of one import together, so an edit of an imported
 * record (which carries its chunk row) mostly finds its chunk here instead of reading its 150 KB
 * from PostgreSQL and parsing them again. A chunk not found, or a failed read, is not kept.
 */
function readChunk(app: FastifyInstance, row: OriginRow): Promise<StoredEvent | undefined> {
  const recentChunks = recentChunksOfStore(app.store);
  const key = `${row.origin_stream}@${row.origin_revision}`;
  const kept = recentChunks.get(key);
  // Taken out and put back: the map's order is that of use, the least recently used first.
  recentChunks.delete(key);
  const chunk = kept ?? app.store.readStream(row.origin_stream, { fromRevision: BigInt(row.origin_revision), maxCount: 1 }).then((events) => events[0]);
  recentChunks.set(key, chunk);
  if (!kept) {
    const forget = () => recentChunks.get(key) === chunk && recentChunks.delete(key);
    chunk.then((event) => event ?? forget(), forget);
    for (const oldest of recentChunks.keys()) {
      if (recentChunks.size <= RECENT_CHUNKS) break;
      recentChunks.delete(oldest);
    }
  }
  return chunk;
}

/** The record's row of its import chunk, as a version of the record. */
function rowOfChunk(chunk: StoredEvent | undefined, recordId: string): RecordImported {
  const version = chunk?.type === 'RecordsImported' ? importedVersion((chunk as StoredEvent<'RecordsImported', RecordsImported['data']>).data, recordId) : null;
  if (!version) throw new DomainError('INTERNAL_ERROR', `the import chunk of record ${recordId} is missing`);
  return version;
}

/** The chunk event an imported record was born in, narrowed to the record's own row. */
async function importedOrigin(app: FastifyInstance, row: OriginRow): Promise<StoredVersion | null> {
  if (!row.origin_stream.startsWith(IMPORT_STREAM_PREFIX)) return null;
  const chunk = await readChunk(app, row);
  return { stored: chunk as StoredEvent, event: rowOfChunk(chunk, row.id) };
}

/**
 * The record's versions, oldest first. `row` is the read model's row (null when the read model no
 * longer holds the record, e.g. deleted): then only a record made on a screen can be read.
 */
export async function recordVersions(app: FastifyInstance, recordId: string, row: OriginRow | null): Promise<RecordVersions> {
  const [origin, own] = await Promise.all([row ? importedOrigin(app, row) : null, app.store.readStream(recordStreamName(recordId))]);
  const versions: StoredVersion[] = [...(origin ? [origin] : []), ...own.map((stored) => ({ stored, event: stored as unknown as RecordEvent }))];
  const first = versions[0]?.event.type;
  if (first !== 'RecordCreated' && first !== 'RecordImported') throw new DomainError('RECORD_NOT_FOUND');
  return { versions, origin: origin ? recordOrigin(origin.event as RecordImported) : null };
}

/**
 * The origins of many records (bulk commands): each import chunk is read once, however many of
 * its up to 500 records are named (and however many chunks, more than readChunk keeps). A record
 * made on a screen has none.
 */
export async function recordOrigins(app: FastifyInstance, rows: readonly OriginRow[]): Promise<(RecordOrigin | null)[]> {
  const chunks = new Map<string, Promise<StoredEvent | undefined>>();
  const chunkOf = (row: OriginRow) => {
    const key = `${row.origin_stream}@${row.origin_revision}`;
    const chunk = chunks.get(key) ?? readChunk(app, row);
    chunks.set(key, chunk);
    return chunk;
  };
  return Promise.all(
    rows.map(async (row) => (row.origin_stream.startsWith(IMPORT_STREAM_PREFIX) ? recordOrigin(rowOfChunk(await chunkOf(row), row.id)) : null)),
  );
}

/** The versions with who made them and when, as the domain's `recordHistory` takes them. */
export async function namedVersions(app: FastifyInstance, versions: readonly StoredVersion[]): Promise<RecordVersion[]> {
  const names = await actorNamesOf(
    app,
    versions.map((version) => version.stored),
  );
  return versions.map(({ stored, event }) => ({
    eventId: stored.id,
    event,
    changedBy: {
      userId: stored.metadata.userId,
      userName: (stored.metadata.userId && names.users.get(stored.metadata.userId)) || '',
      occupationId: stored.metadata.occupationId,
      occupationName: (stored.metadata.occupationId && names.occupations.get(stored.metadata.occupationId)) || null,
    },
    changedAt: stored.metadata.occurredAt,
  }));
}

export function actorNamesOf(app: FastifyInstance, events: readonly StoredEvent[]) {
  const present = (ids: (string | null)[]) => ids.filter((id): id is string => id !== null);
  return actorNames(readModels(app.db), present(events.map((event) => event.metadata.userId)), present(events.map((event) => event.metadata.occupationId)));
}
