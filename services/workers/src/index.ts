export { type WorkerContext, createWorkerContext } from './context';
export { type ScheduledJob, scheduledJobs, taskTypes } from './handlers';
export { AttemptLost, endFailedTask, runTaskJob } from './run-task';
export { startWorker, type Worker, type WorkerOptions } from './worker';
