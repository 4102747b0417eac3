/**
 * The task worker for tests that run task types of their own, or a worker with other settings
 * beside the test server's (gateway tests cannot depend on @eelarve/workers, which builds on the gateway).
 */
export { startWorker, type Worker, type WorkerOptions } from '@eelarve/workers/worker';
