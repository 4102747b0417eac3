import type { Task } from '@eelarve/shared';
import { FINAL_TASK_STATUSES } from '@eelarve/shared';
import { api } from '../../../api';

/** A long task (a document copy) as the server reports it. */
export const fetchTask = (taskId: string) => api.get<Task>(`/api/task/${encodeURIComponent(taskId)}`);

export const isFinalTask = (task: Task) => FINAL_TASK_STATUSES.includes(task.status);
