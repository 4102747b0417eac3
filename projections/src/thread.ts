import { Worker } from 'node:worker_threads';
import type { GlobalPosition } from '@eelarve/eventstore';
import { createKysely } from '@eelarve/postgres';
import type pg from 'pg';
import { type CheckpointWaiter, checkpointWaiter } from './checkpoint-waiter';
import type { ProjectionEngine, ProjectionEngineOptions, RebuildOptions } from './engine';
import type { Projector } from './projector';
import { backoffDelay, sleep } from './signal';
import type { ProjectorStatus } from './status';

/**
 * What the thread needs to run its engine: where the database and events are, and which module
 * exports its projectors (a thread shares no objects with its parent, so it imports them itself).
 */
export interface ThreadSetup {
  databaseUrl: string;
  eventStoreConnectionString?: string;
  /** A module URL and the name of its export holding `readonly Projector[]`. */
  projectors: { module: string; exportName: string };
  /** Connections of the thread's own pool (its lock session, batches, reads). */
  poolSize?: number;
  applicationName?: string;
  engine?: Pick<ProjectionEngineOptions, 'batchSize' | 'pollIntervalMs' | 'idleReadMs' | 'gatherMs' | 'retry'>;
}

export interface ThreadOptions extends ThreadSetup {
  /** A pool of this thread: while the projections thread is down (restarting), waits read the checkpoints through it. */
  pool: pg.Pool;
  /** How long the thread may take to start before it is ended (default 2 minutes). */
  startTimeoutMs?: number;
  onError?: (error: unknown, context: string) => void;
}

/** An error as it crosses the thread boundary: its class does not survive, its text does. */
export interface ErrorText {
  name: string;
  message: string;
  stack?: string;
}

export type ThreadRequest =
  | { type: 'wait'; id: number; projectors: readonly string[]; position: GlobalPosition; timeoutMs: number }
  | { type: 'rebuild'; id: number; name: string; progressIntervalMs?: number; reportProgress: boolean }
  | { type: 'status'; id: number }
  | { type: 'stop' };

export type ThreadMessage =
  | { type: 'started'; running: string[] }
  | { type: 'failed'; error: ErrorText }
  | { type: 'answer'; id: number; value?: unknown; error?: ErrorText }
  | { type: 'progress'; id: number; status: ProjectorStatus[] }
  | { type: 'running'; names: string[] }
  | { type: 'error'; context: string; error: ErrorText };

export function errorText(error: unknown): ErrorText {
  return error instanceof Error ? { name: error.name, message: error.message, stack: error.stack } : { name: 'Error', message: String(error) };
}

export function errorFromText(text: ErrorText): Error {
  const error = new Error(text.message);
  error.name = text.name;
  if (text.stack) error.stack = text.stack;
  return error;
}

/** Registers the TypeScript loader in the thread, then imports thread-entry.ts. */
const THREAD_BOOTSTRAP = new URL('./thread-bootstrap.mjs', import.meta.url);
const START_TIMEOUT_MS = 120_000;
/** How often a wait reads the checkpoints while the thread is down. */
const DOWN_POLL_MS = 25;

interface Pending {
  resolve(value: unknown): void;
  reject(error: Error): void;
  onProgress?: (status: ProjectorStatus[]) => void;
}

/**
 * Runs a projection engine on a worker thread of this process, so the projectors' JavaScript
 * (parsing events, building a batch's parameters) and their garbage collections stay off the
 * event loop that answers requests. The thread has its own pool and event store; it takes its
 * projectors' advisory locks like any process, so each projector still runs in one place. A
 * thread that dies is started again (with backoff); meanwhile waits read the checkpoints.
 */
export async function startProjectionsThread(options: ThreadOptions): Promise<ProjectionEngine> {
  const module = (await import(options.projectors.module)) as Record<string, unknown>;
  const projectors = module[options.projectors.exportName] as readonly Projector[] | undefined;
  if (!Array.isArray(projectors)) throw new Error(`${options.projectors.module} exports no projector list ${options.projectors.exportName}`);
  const engine = new ThreadEngine(options, projectors);
  await engine.start();
  return engine;
}

class ThreadEngine implements ProjectionEngine {
  /** The thread starting or running now; messages and exits of any other (one abandoned) are ignored. */
  private worker: Worker | undefined;
  /** Whether `worker` has started: only a started thread is sent requests. */
  private live = false;
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;
  private running = new Set<string>();
  private readonly stopping = new AbortController();
  private restarts = 0;
  /** Answers waits from the checkpoints while the thread is down, as a process without projectors does. */
  private readonly checkpoints: CheckpointWaiter;

  constructor(
    private readonly options: ThreadOptions,
    readonly projectors: readonly Projector[],
  ) {
    const eventTypes = new Map(projectors.map((projector) => [projector.name, projector.eventTypes]));
    this.checkpoints = checkpointWaiter(createKysely<unknown>(options.pool), DOWN_POLL_MS, (name) => eventTypes.get(name));
  }

  /** Resolves once the thread's engine has started (taken the locks it could), rejects when it cannot. */
  start(): Promise<void> {
    const { onError: _onError, pool: _pool, startTimeoutMs = START_TIMEOUT_MS, ...setup } = this.options;
    // None of the parent's flags (a test runner's): the bootstrap brings the loader.
    const worker = new Worker(THREAD_BOOTSTRAP, { workerData: setup satisfies ThreadSetup, execArgv: [], name: 'projections' });
    this.worker = worker;
    this.live = false;
    return new Promise<void>((resolve, reject) => {
      // A thread that failed or is late is ended: its pool or store may keep it alive, and a late
      // one would take its projectors' locks beside the thread started after it.
      const abandon = (error: Error) => {
        clearTimeout(timer);
        if (this.worker === worker) this.worker = undefined;
        void worker.terminate();
        reject(error);
      };
      const timer = setTimeout(() => abandon(new Error(`the projections thread did not start within ${startTimeoutMs} ms`)), startTimeoutMs);
      worker.on('message', (message: ThreadMessage) => {
        if (this.worker !== worker) return;
        if (message.type === 'started') {
          clearTimeout(timer);
          this.live = true;
          this.running = new Set(message.running);
          this.restarts = 0;
          resolve();
        } else if (message.type === 'failed') abandon(errorFromText(message.error));
        else this.receive(message);
      });
      worker.on('error', (error) => {
        if (this.worker === worker) this.report(error, 'projections thread');
      });
      worker.on('exit', (code) => {
        if (this.worker !== worker) return;
        if (this.live) return this.exited(code);
        abandon(new Error(`the projections thread stopped (exit code ${code}) before it started`));
      });
    });
  }

  runs(name: string): boolean {
    return this.running.has(name);
  }

  /**
   * The thread answers while it runs; while it is down (restarting) or when it dies during the
   * wait, the checkpoints answer for the rest of the time: a report's `after` and the live hub
   * rely on the wait, and the restarted thread catches up.
   */
  async waitForPosition(projectors: readonly string[], position: GlobalPosition, timeoutMs: number): Promise<boolean> {
    const deadline = Date.now() + timeoutMs;
    if (this.live) {
      const answer = await this.request<boolean>({ type: 'wait', projectors, position, timeoutMs }).catch(() => undefined);
      if (answer !== undefined) return answer;
    }
    if (this.stopping.signal.aborted) return false;
    // Like the thread's answer, never an error: a database that fails the read answers false.
    return this.checkpoints.waitForPosition(projectors, position, Math.max(0, deadline - Date.now())).catch(() => false);
  }

  rebuildProjector(name: string, options: RebuildOptions = {}): Promise<{ generation: number }> {
    const request = { type: 'rebuild' as const, name, progressIntervalMs: options.progressIntervalMs, reportProgress: options.onProgress !== undefined };
    return this.request<{ generation: number }>(request, options.onProgress);
  }

  status(): Promise<ProjectorStatus[]> {
    return this.request<ProjectorStatus[]>({ type: 'status' });
  }

  async stop(): Promise<void> {
    // Also ends a restart's backoff: a stopped gateway keeps no timer.
    this.stopping.abort();
    const worker = this.worker;
    if (!worker) return;
    const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
    worker.postMessage({ type: 'stop' } satisfies ThreadRequest);
    // The thread stops its runners and closes its connections, then ends; a hung one is ended for it.
    const forced = setTimeout(() => void worker.terminate(), 30_000);
    await exited;
    clearTimeout(forced);
  }

  private request<T>(request: DistributiveOmit<Exclude<ThreadRequest, { type: 'stop' }>, 'id'>, onProgress?: Pending['onProgress']): Promise<T> {
    const worker = this.worker;
    if (!worker || !this.live || this.stopping.signal.aborted) return Promise.reject(new Error('the projections thread is not running'));
    const id = this.nextId++;
    return new Promise<T>((resolve, reject) => {
      this.pending.set(id, { resolve: resolve as (value: unknown) => void, reject, onProgress });
      worker.postMessage({ ...request, id } as ThreadRequest);
    });
  }

  private receive(message: ThreadMessage): void {
    switch (message.type) {
      case 'answer': {
        const pending = this.pending.get(message.id);
        this.pending.delete(message.id);
        if (message.error) pending?.reject(errorFromText(message.error));
        else pending?.resolve(message.value);
        break;
      }
      case 'progress':
        this.pending.get(message.id)?.onProgress?.(message.status);
        break;
      case 'running':
        this.running = new Set(message.names);
        break;
      case 'error':
        this.report(errorFromText(message.error), message.context);
        break;
    }
  }

  /** A thread that ended unasked is started again: its projectors' locks went with its connections. */
  private exited(code: number): void {
    this.worker = undefined;
    this.live = false;
    this.running = new Set();
    for (const pending of this.pending.values()) pending.reject(new Error(`the projections thread stopped (exit code ${code})`));
    this.pending.clear();
    if (this.stopping.signal.aborted) return;
    this.report(new Error(`the projections thread stopped (exit code ${code}); starting it again`), 'projections thread');
    void this.restart();
  }

  private async restart(): Promise<void> {
    const { signal } = this.stopping;
    while (!signal.aborted) {
      await sleep(backoffDelay(this.restarts++), signal);
      if (signal.aborted) return;
      try {
        await this.start();
        return;
      } catch (error) {
        if (!signal.aborted) this.report(error, 'restarting the projections thread');
      }
    }
  }

  private report(error: unknown, context: string): void {
    if (this.options.onError) this.options.onError(error, context);
    else console.error(`[projections] ${context}:`, error);
  }
}

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

/**
 * One engine made of several, each running its own projectors (one on this event loop, one on a
 * thread): a wait goes to the engines that run the projectors named, status is the database's.
 */
export function combineEngines(engines: readonly ProjectionEngine[]): ProjectionEngine {
  const [first] = engines;
  if (!first) throw new Error('combineEngines needs at least one engine');
  const ownerOf = (name: string) => engines.find((engine) => engine.projectors.some((projector) => projector.name === name)) ?? first;
  return {
    projectors: engines.flatMap((engine) => engine.projectors),
    async waitForPosition(projectors, position, timeoutMs) {
      const byEngine = new Map<ProjectionEngine, string[]>();
      for (const name of projectors) {
        const owner = ownerOf(name);
        byEngine.set(owner, [...(byEngine.get(owner) ?? []), name]);
      }
      const answers = await Promise.all([...byEngine].map(([engine, names]) => engine.waitForPosition(names, position, timeoutMs)));
      return answers.every(Boolean);
    },
    rebuildProjector: (name, options) => ownerOf(name).rebuildProjector(name, options),
    // Every engine reads the same table of checkpoints: any one answers for all projectors.
    status: () => first.status(),
    runs: (name) => engines.some((engine) => engine.runs(name)),
    async stop() {
      await Promise.all(engines.map((engine) => engine.stop()));
    },
  };
}
