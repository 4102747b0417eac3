import { describe, expect, it } from 'vitest';
import { foldEvents } from '../decider';
import { RECORDS_PER_IMPORT_CHUNK } from './events';
import { type ImportRecordsCommand, importChunks, importedRecordId, importEventIds, recordImportDecider } from './import';

const importId = '0b6f0c1e-8a51-4f4e-9d0a-2d6a1c7f2b11';

function command(rowCount: number, skipped: ReadonlySet<number> = new Set()): ImportRecordsCommand {
  const rows = Array.from({ length: rowCount }, (_, rowIndex) => rowIndex)
    .filter((rowIndex) => !skipped.has(rowIndex))
    .map((rowIndex) => ({ rowIndex, values: { name: `Rida ${rowIndex}`, amount: `${rowIndex}.5`, months: null, classifiers: { c: '01' } } }));
  return {
    type: 'ImportRecords',
    data: { importId, budgetId: 'b', documentId: 'd', organizationId: 'o', originResourceName: 'eelarve.xlsx', rows },
  };
}

describe('an import becomes chunk events of its own stream', () => {
  it('splits the rows into chunks in row order, each row keeping the id fixed by its place in the file', () => {
    const events = recordImportDecider.decide(command(RECORDS_PER_IMPORT_CHUNK * 2 + 3, new Set([1])), recordImportDecider.initialState());
    expect(events.map((event) => [event.data.chunk, event.data.records.length])).toEqual([
      [0, RECORDS_PER_IMPORT_CHUNK],
      [1, RECORDS_PER_IMPORT_CHUNK],
      [2, 2],
    ]);
    const first = events[0]!.data.records;
    expect(first[0]).toEqual({ recordId: importedRecordId(importId, 0), name: 'Rida 0', amount: '0.5', months: null, classifiers: { c: '01' } });
    // The skipped row 1 leaves a gap: row 2 keeps the id of its place.
    expect(first[1]!.recordId).toBe(importedRecordId(importId, 2));
    expect(events[0]!.data).toMatchObject({ importId, budgetId: 'b', documentId: 'd', organizationId: 'o', originResourceName: 'eelarve.xlsx' });
    expect(recordImportDecider.streamName(command(1))).toBe(`record-import-${importId}`);
  });

  it('builds the same events and event ids again (a retried job), and distinct ids per row and chunk', () => {
    const once = command(1200);
    expect(importChunks(command(1200))).toEqual(importChunks(once));
    expect(importEventIds(command(1200))).toEqual(importEventIds(once));
    expect(new Set(importEventIds(once)).size).toBe(3);
    const ids = importChunks(once).flatMap((event) => event.data.records.map((record) => record.recordId));
    expect(new Set(ids).size).toBe(1200);
    expect(ids[0]).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(importedRecordId('another-import', 0)).not.toBe(importedRecordId(importId, 0));
  });

  it('decides nothing once the stream holds the import: exactly once', () => {
    const events = recordImportDecider.decide(command(3), recordImportDecider.initialState());
    const state = foldEvents(recordImportDecider, events);
    expect(state).toEqual({ imported: true, chunks: 1, records: 3 });
    expect(recordImportDecider.decide(command(3), state)).toEqual([]);
  });

  it('an import without valid rows appends nothing', () => {
    expect(recordImportDecider.decide(command(0), recordImportDecider.initialState())).toEqual([]);
  });
});
