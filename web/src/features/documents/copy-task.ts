import { DOCUMENT_LIMITS, type Task } from '@eelarve/shared';
import type { QueryClient } from '@tanstack/react-query';
import { useSyncExternalStore } from 'react';
import { refreshDocuments } from './api/mutations';
import { fetchTask, isFinalTask } from './api/tasks';

/** The state of the latest document copy task (spec 2, section 4). */
export type CopyTaskState = { status: 'idle' } | { status: 'running'; taskId: string } | { status: 'done'; task: Task } | { status: 'failed'; taskId: string };

let state: CopyTaskState = { status: 'idle' };
const listeners = new Set<() => void>();

function set(next: CopyTaskState) {
  state = next;
  for (const listener of listeners) listener();
}

const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => listeners.delete(listener);
};

export function useCopyTask(): CopyTaskState {
  return useSyncExternalStore(subscribe, () => state);
}

/** The current state (outside React). */
export function copyTaskState(): CopyTaskState {
  return state;
}

export function dismissCopyTask(): void {
  set({ status: 'idle' });
}

/**
 * Polls GET api/task/{taskId} every 2 s for up to 60 s until the task is final, then refreshes
 * the documents, budgets, classifiers and schemes and reports the outcome. It lives outside any
 * screen, so it survives the navigation to the new document.
 */
export function watchCopyTask(
  taskId: string,
  queryClient: QueryClient,
  sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms)),
): Promise<void> {
  set({ status: 'running', taskId });
  const deadline = Date.now() + DOCUMENT_LIMITS.taskPollTimeoutMs;
  const poll = async (): Promise<void> => {
    while (Date.now() < deadline) {
      await sleep(DOCUMENT_LIMITS.taskPollIntervalMs);
      try {
        const task = await fetchTask(taskId);
        if (isFinalTask(task)) {
          await refreshDocuments(queryClient);
          set({ status: 'done', task });
          return;
        }
      } catch {
        // A failed poll is retried until the deadline.
      }
    }
    await refreshDocuments(queryClient);
    set({ status: 'failed', taskId });
  };
  return poll();
}
