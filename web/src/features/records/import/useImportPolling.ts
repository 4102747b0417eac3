import type { ImportStatusAnswer } from '@eelarve/shared';
import { useCallback, useEffect, useRef, useState } from 'react';
import { fetchImportStatus, type ImportStarted, type ImportTarget } from './api';

/** Spec 3, section 9: the import status is asked every 5 s, and no more after 5 minutes. */
export const IMPORT_POLL_MS = 5_000;
export const IMPORT_POLL_LIMIT_MS = 300_000;

/** Where an import is: the server's statuses, and TIMEOUT when polling gave up before a final one. */
export type ImportPhase = 'UNPROCESSED' | 'PROCESSING' | 'SUCCESS' | 'ERROR' | 'TIMEOUT';

export interface ImportRun {
  id: string;
  phase: ImportPhase;
  result: ImportStatusAnswer['result'];
  startedAt: number;
  /** When the status was last asked: each answer is a new run, so the next tick is scheduled. */
  checkedAt: number;
}

export const isFinal = (phase: ImportPhase) => phase === 'SUCCESS' || phase === 'ERROR' || phase === 'TIMEOUT';

/** The run after one status answer (null when the poll failed): another import's status is not this one's yet. */
export function nextRun(run: ImportRun, answer: ImportStatusAnswer | null, now: number): ImportRun {
  const mine = answer !== null && answer.id === run.id;
  const phase: ImportPhase = mine ? answer.status : run.phase;
  const result = mine ? answer.result : run.result;
  if (!isFinal(phase) && now - run.startedAt >= IMPORT_POLL_LIMIT_MS) return { ...run, phase: 'TIMEOUT', result, checkedAt: now };
  return { ...run, phase, result, checkedAt: now };
}

/**
 * Polls the import's status after it started (spec 3, section 4) until SUCCESS or ERROR or five
 * minutes; `onEnd` runs once when polling ends. It lives with the import menu, not the modal, so
 * closing the modal does not stop it.
 */
export function useImportPolling(target: ImportTarget, onEnd: (run: ImportRun) => void) {
  const [run, setRun] = useState<ImportRun | null>(null);
  const onEndRef = useRef(onEnd);
  onEndRef.current = onEnd;
  const targetRef = useRef(target);
  targetRef.current = target;

  const start = useCallback((started: ImportStarted) => {
    const now = Date.now();
    setRun({ id: started.id, phase: started.status, result: null, startedAt: now, checkedAt: now });
  }, []);

  useEffect(() => {
    if (!run) return;
    if (isFinal(run.phase)) {
      onEndRef.current(run);
      return;
    }
    let cancelled = false;
    const timer = window.setTimeout(async () => {
      // A failed poll (network, a restart) is asked again at the next tick, within the five minutes.
      const answer = await fetchImportStatus(targetRef.current).catch(() => null);
      if (!cancelled) setRun((current) => (current && current.id === run.id ? nextRun(current, answer, Date.now()) : current));
    }, IMPORT_POLL_MS);
    return () => {
      cancelled = true;
      window.clearTimeout(timer);
    };
  }, [run]);

  return { run, start };
}
