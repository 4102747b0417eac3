import type { Task } from '@eelarve/shared';
import { QueryClient } from '@tanstack/react-query';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { copyTaskState, dismissCopyTask, watchCopyTask } from './copy-task';

const fetchTask = vi.hoisted(() => vi.fn());
vi.mock('./api/tasks', async (original) => ({ ...(await original<typeof import('./api/tasks')>()), fetchTask }));

const task = (status: Task['status']): Task => ({
  id: 't1',
  type: 'DOCUMENT_COPY',
  status,
  organizationId: 'o',
  documentId: 'd',
  params: {},
  steps: [],
  error: null,
  createdAt: '',
  updatedAt: '',
});

describe('document copy task', () => {
  beforeEach(() => {
    fetchTask.mockReset();
    dismissCopyTask();
  });

  it('polls every 2 s until the task is final, then refreshes the lists', async () => {
    fetchTask.mockResolvedValueOnce(task('PROCESSING')).mockRejectedValueOnce(new Error('offline')).mockResolvedValueOnce(task('SUCCESS'));
    const queryClient = new QueryClient();
    const invalidate = vi.spyOn(queryClient, 'invalidateQueries');
    const sleeps: number[] = [];
    const done = watchCopyTask('t1', queryClient, async (ms) => {
      sleeps.push(ms);
    });
    expect(copyTaskState()).toEqual({ status: 'running', taskId: 't1' });
    await done;
    expect(sleeps).toEqual([2000, 2000, 2000]);
    expect(invalidate).toHaveBeenCalledWith({ queryKey: ['documents'] });
    expect(copyTaskState()).toMatchObject({ status: 'done', task: { status: 'SUCCESS' } });
  });

  it('gives up after 60 s', async () => {
    fetchTask.mockResolvedValue(task('PROCESSING'));
    let now = 0;
    const clock = vi.spyOn(Date, 'now').mockImplementation(() => now);
    await watchCopyTask('t1', new QueryClient(), async (ms) => {
      now += ms;
    });
    clock.mockRestore();
    expect(fetchTask).toHaveBeenCalledTimes(30);
    expect(copyTaskState()).toEqual({ status: 'failed', taskId: 't1' });
  });
});
