import type { ImportStatusAnswer } from '@eelarve/shared';
import { describe, expect, it } from 'vitest';
import { IMPORT_POLL_LIMIT_MS, type ImportRun, isFinal, nextRun } from './useImportPolling';

const run: ImportRun = { id: 'mine', phase: 'UNPROCESSED', result: null, startedAt: 1_000, checkedAt: 1_000 };
const answer = (overrides: Partial<ImportStatusAnswer>): ImportStatusAnswer => ({
  id: 'mine',
  status: 'PROCESSING',
  result: null,
  extra: { originResourceName: 'x.xlsx' },
  createdAt: '',
  updatedAt: '',
  ...overrides,
});

describe('import status polling', () => {
  it('follows this import’s status and stops on SUCCESS or ERROR', () => {
    const processing = nextRun(run, answer({}), 6_000);
    expect(processing.phase).toBe('PROCESSING');
    expect(isFinal(processing.phase)).toBe(false);
    const result = { recordsInserted: 3, totalErrorsCount: 1, criticalErrorsCount: 0 };
    const done = nextRun(processing, answer({ status: 'SUCCESS', result }), 11_000);
    expect(done).toMatchObject({ phase: 'SUCCESS', result });
    expect(isFinal(done.phase)).toBe(true);
    expect(isFinal(nextRun(run, answer({ status: 'ERROR' }), 6_000).phase)).toBe(true);
  });

  it('takes another (older) import’s status or a failed poll as no news, and asks again', () => {
    const other = nextRun(run, answer({ id: 'older', status: 'SUCCESS' }), 6_000);
    expect(other.phase).toBe('UNPROCESSED');
    expect(other).not.toBe(run);
    expect(nextRun(run, null, 6_000).phase).toBe('UNPROCESSED');
  });

  it('gives up after five minutes without a final status', () => {
    expect(nextRun(run, answer({}), run.startedAt + IMPORT_POLL_LIMIT_MS - 1).phase).toBe('PROCESSING');
    expect(nextRun(run, answer({}), run.startedAt + IMPORT_POLL_LIMIT_MS).phase).toBe('TIMEOUT');
    expect(nextRun(run, answer({ status: 'SUCCESS' }), run.startedAt + IMPORT_POLL_LIMIT_MS).phase).toBe('SUCCESS');
  });
});
