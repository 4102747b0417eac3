/**
 * The projections thread (thread.ts starts it): an engine on a pool and event store of its own,
 * answering its parent's waits, rebuilds and status questions by message.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { createEventStore } from '@eelarve/eventstore';
import { createPool } from '@eelarve/postgres';
import { type ProjectionEngine, startProjections } from './engine';
import type { Projector } from './projector';
import type { ProjectorStatus } from './status';
import { errorText, type ThreadMessage, type ThreadRequest, type ThreadSetup } from './thread';

/** How often the parent hears which projectors the thread runs (for `runs`; locks change hands rarely). */
const RUNNING_REPORT_MS = 1_000;

const setup = workerData as ThreadSetup;
const parent = (() => {
  if (!parentPort) throw new Error('thread-entry.ts runs only as a worker thread (startProjectionsThread)');
  return parentPort;
})();
const post = (message: ThreadMessage) => parent.postMessage(message);

async function loadProjectors(): Promise<readonly Projector[]> {
  const module = (await import(setup.projectors.module)) as Record<string, readonly Projector[]>;
  return module[setup.projectors.exportName] ?? [];
}

async function answer(id: number, work: () => Promise<unknown>): Promise<void> {
  try {
    post({ type: 'answer', id, value: await work() });
  } catch (error) {
    post({ type: 'answer', id, error: errorText(error) });
  }
}

function serve(engine: ProjectionEngine, request: ThreadRequest): void {
  switch (request.type) {
    case 'wait':
      void answer(request.id, () => engine.waitForPosition(request.projectors, request.position, request.timeoutMs));
      break;
    case 'rebuild': {
      const onProgress = request.reportProgress ? (status: ProjectorStatus[]) => post({ type: 'progress', id: request.id, status }) : undefined;
      void answer(request.id, () => engine.rebuildProjector(request.name, { onProgress, progressIntervalMs: request.progressIntervalMs }));
      break;
    }
    case 'status':
      void answer(request.id, () => engine.status());
      break;
    case 'stop':
      break;
  }
}

async function main(): Promise<void> {
  const projectors = await loadProjectors();
  const pool = createPool(setup.databaseUrl, { max: setup.poolSize ?? 4, applicationName: setup.applicationName ?? 'eelarve-projections' });
  const store = createEventStore({ databaseUrl: setup.databaseUrl, eventStoreConnectionString: setup.eventStoreConnectionString });
  const engine = await startProjections({
    ...setup.engine,
    pool,
    store,
    projectors,
    onError: (error, context) => post({ type: 'error', context, error: errorText(error) }),
  });
  const runningNames = () => projectors.filter((projector) => engine.runs(projector.name)).map((projector) => projector.name);
  let reported = runningNames();
  const timer = setInterval(() => {
    const now = runningNames();
    if (now.join() !== reported.join()) post({ type: 'running', names: now });
    reported = now;
  }, RUNNING_REPORT_MS);
  parent.on('message', (request: ThreadRequest) => {
    if (request.type !== 'stop') return serve(engine, request);
    clearInterval(timer);
    void (async () => {
      await engine.stop();
      await store.close();
      await pool.end();
      // Ends the thread even if a socket or timer of a library would keep it alive; the parent waits for the exit.
      process.exit(0);
    })();
  });
  post({ type: 'started', running: reported });
}

main().catch((error) => post({ type: 'failed', error: errorText(error) }));
