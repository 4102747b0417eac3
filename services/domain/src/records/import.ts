import { createHash } from 'node:crypto';
import type { Decider } from '../decider';
import { type ImportedRecord, RECORDS_PER_IMPORT_CHUNK, type RecordsImported, type RecordValues, recordImportStreamName } from './events';

/**
 * An import of records (issue 11, point 4): the valid rows of one import become `RecordsImported`
 * chunk events of the import's own stream, appended at once (all or nothing). Every id is fixed
 * by the import id and the row's place in the file, so a job retried after a crash builds the
 * very same events, and the stream already holding them decides nothing new: exactly once.
 */

/** A name-based UUID (version 5 layout: SHA-1 of the namespace and the name). */
export function nameBasedId(namespace: string, name: string): string {
  const hash = createHash('sha1').update(`${namespace}:${name}`).digest();
  hash[6] = (hash[6]! & 0x0f) | 0x50;
  hash[8] = (hash[8]! & 0x3f) | 0x80;
  const hex = hash.subarray(0, 16).toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** The id of the record born from row `rowIndex` (0-based, in the file's order) of an import. */
export const importedRecordId = (importId: string, rowIndex: number): string => nameBasedId(importId, `record:${rowIndex}`);

/** The id of an import's chunk event: the event store takes the same id twice as one event. */
export const importChunkEventId = (importId: string, chunk: number): string => nameBasedId(importId, `chunk:${chunk}`);

export interface ImportRowToAppend {
  /** The row's place among all rows sent (skipped rows keep their numbers). */
  rowIndex: number;
  values: RecordValues;
}

export interface ImportRecordsCommand {
  type: 'ImportRecords';
  data: {
    importId: string;
    budgetId: string;
    documentId: string;
    organizationId: string;
    originResourceName: string;
    rows: readonly ImportRowToAppend[];
  };
}

export interface RecordImportState {
  imported: boolean;
  chunks: number;
  records: number;
}

/** The chunk events of an import, RECORDS_PER_IMPORT_CHUNK rows each, in row order. */
export function importChunks(command: ImportRecordsCommand): RecordsImported[] {
  const { rows, ...header } = command.data;
  const events: RecordsImported[] = [];
  for (let start = 0, chunk = 0; start < rows.length; start += RECORDS_PER_IMPORT_CHUNK, chunk++) {
    const records: ImportedRecord[] = rows
      .slice(start, start + RECORDS_PER_IMPORT_CHUNK)
      .map((row) => ({ recordId: importedRecordId(header.importId, row.rowIndex), ...row.values }));
    events.push({ type: 'RecordsImported', data: { ...header, chunk, records } });
  }
  return events;
}

/** The fixed ids of the events `importChunks` builds, in the same order. */
export function importEventIds(command: ImportRecordsCommand): string[] {
  const count = Math.ceil(command.data.rows.length / RECORDS_PER_IMPORT_CHUNK);
  return Array.from({ length: count }, (_, chunk) => importChunkEventId(command.data.importId, chunk));
}

/** One import, one stream: a stream that holds the import decides nothing again. */
export const recordImportDecider: Decider<ImportRecordsCommand, RecordsImported, RecordImportState> = {
  streamName: (command) => recordImportStreamName(command.data.importId),
  initialState: () => ({ imported: false, chunks: 0, records: 0 }),
  evolve: (state, event) => ({ imported: true, chunks: state.chunks + 1, records: state.records + event.data.records.length }),
  decide: (command, state) => (state.imported ? [] : importChunks(command)),
};
