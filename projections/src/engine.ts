import { createKysely } from '@eelarve/postgres';
import { comparePositions, type EventStore, type GlobalPosition, START } from '@eelarve/eventstore';
import type { Kysely } from 'kysely';
import type pg from 'pg';
import { type Checkpoint, CheckpointBatcher, loadActivePositions, loadCheckpoint, loadCheckpoints, requestRebuild, setStatus } from './checkpoints';
import { createGeneration, dropGeneration, dropOrphanSchemas, switchOver } from './generations';
import { LockSession } from './lock';
import { assertDistinctTables, type Projector } from './projector';
import { EventParkedError } from './parked';
import { type CheckpointWaiter, checkpointWaiter } from './checkpoint-waiter';
import { DEFAULT_RETRY_POLICY, GenerationRunner, PAGE_TARGET_CHARS, type RetryPolicy, type RunnerOptions } from './runner';
import { migrateControlSchema } from './schema';
import { backoffDelay, Signal } from './signal';
import { type ProjectorStatus, projectionStatus, watchRebuild } from './status';
import { LogGrowth, Waker } from './waker';

export interface ProjectionEngineOptions {
  /** The engine checks one connection out of it for good, to hold its advisory locks. */
  pool: pg.Pool;
  /** Defaults to a kysely instance on `pool`. */
  db?: Kysely<unknown>;
  store: EventStore;
  projectors: readonly Projector[];
  /** Events read (and so at most handled) per transaction. */
  batchSize?: number;
  /** Event text a runner aims to hold in one page (runner.ts, PAGE_TARGET_CHARS): fewer events than batchSize when they are big. */
  pageTargetChars?: number;
  /** How often to retry projectors another process holds, check the lock connection and look for rebuild requests. */
  pollIntervalMs?: number;
  /** How often an idle runner reads anyway, in case a live wake-up was missed. */
  idleReadMs?: number;
  /**
   * How long runners let the log grow after a wake-up before they read, unless a command waits
   * (default 0). For projectors no command waits on: a run of appends then makes one batch.
   */
  gatherMs?: number;
  /**
   * How often a batch the handler fails on is tried before the events it fails on are parked
   * (DEFAULT_RETRY_POLICY: 5 attempts from 100 ms apart). Database outages never park.
   */
  retry?: Partial<RetryPolicy>;
  /** Also told about each parked event, once, with an EventParkedError (meant for the error log). */
  onError?: (error: unknown, context: string) => void;
}

export interface RebuildOptions {
  /** Called with the projector's generations (old and new) while the rebuild runs. */
  onProgress?: (status: ProjectorStatus[]) => void;
  progressIntervalMs?: number;
}

export interface ProjectionEngine {
  readonly projectors: readonly Projector[];
  /**
   * Resolves true once every named projector has applied the log up to `position` (a write's
   * position, for read-your-writes), false when `timeoutMs` passes first. Never throws. A parked
   * event counts as passed: its checkpoint moved past it when it was parked (within the retry
   * policy's 1.5 s by default), so a request whose event was parked does not hang.
   */
  waitForPosition(projectors: readonly string[], position: GlobalPosition, timeoutMs: number): Promise<boolean>;
  /**
   * Builds a new generation of the projector from position zero while the current one keeps
   * serving, then switches the read views over. Whichever process runs the projector does the
   * work; resolves with the new generation once it serves reads.
   */
  rebuildProjector(name: string, options?: RebuildOptions): Promise<{ generation: number }>;
  status(): Promise<ProjectorStatus[]>;
  /** Whether this process currently runs the projector (holds its lock). */
  runs(name: string): boolean;
  stop(): Promise<void>;
}

const DEFAULT_BATCH_SIZE = 5_000;
/** The longest a projector waits for its leaders on one bulk page (a leader that is stuck holds it back no longer). */
const LEADER_WAIT_MS = 30_000;
const REMOTE_POLL_MS = 25;
const SWITCH_CATCH_UP_MS = 30_000;

/** The generations of one projector that this process runs. */
interface Ownership {
  projector: Projector;
  active?: GenerationRunner;
  building?: GenerationRunner;
  switching: boolean;
  /** The schema of a replaced generation is still there (readers held it). */
  oldSchemaLeft: boolean;
}

export async function startProjections(options: ProjectionEngineOptions): Promise<ProjectionEngine> {
  assertDistinctTables(options.projectors);
  tolerateBrokenConnections(options.pool);
  const db = options.db ?? createKysely<unknown>(options.pool);
  await migrateControlSchema(db);
  const engine = new Engine(options, db);
  await engine.start();
  return engine;
}

class Engine implements ProjectionEngine {
  readonly projectors: readonly Projector[];
  private readonly owned = new Map<string, Ownership>();
  /** Notified whenever a runner advances or a generation switches: waitForPosition waits on it. */
  private readonly progress = new Signal();
  /** Notified when the log may have grown: idle runners wait on it. */
  private readonly growth = new LogGrowth();
  private readonly waker: Waker;
  /** Idle runners' progress, saved together (one statement, one asynchronous commit). */
  private readonly checkpoints: CheckpointBatcher;
  /** Watches the checkpoints of the projectors others yield to (yieldBefore); made when first needed. */
  private leaders: CheckpointWaiter | undefined;
  private session: LockSession | undefined;
  private queue: Promise<void> = Promise.resolve();
  private timer: NodeJS.Timeout | undefined;
  private failures = 0;
  private readonly stopping = new AbortController();

  constructor(
    private readonly options: ProjectionEngineOptions,
    private readonly db: Kysely<unknown>,
  ) {
    this.projectors = options.projectors;
    this.checkpoints = new CheckpointBatcher(db);
    this.waker = new Waker(options.store, this.growth, [...new Set(options.projectors.flatMap((projector) => projector.eventTypes))], (error) =>
      this.report(error, 'live subscription'),
    );
  }

  async start(): Promise<void> {
    await this.enqueue(() => this.maintain());
  }

  runs(name: string): boolean {
    return this.owned.has(name);
  }

  status(): Promise<ProjectorStatus[]> {
    return projectionStatus(this.db, this.options.store);
  }

  async waitForPosition(names: readonly string[], position: GlobalPosition, timeoutMs: number): Promise<boolean> {
    const deadline = Date.now() + timeoutMs;
    for (let first = true; ; first = false) {
      const seen = this.progress.current;
      const behind = await this.behind(names, position);
      if (behind.length === 0) return true;
      const remaining = deadline - Date.now();
      if (remaining <= 0) return false;
      // The write is probably readable already: its projectors read now rather than wait for the live wake-up.
      if (first) this.askToRead(behind, position);
      const remote = behind.some((name) => !this.owned.has(name));
      await this.progress.wait(seen, remote ? Math.min(REMOTE_POLL_MS, remaining) : remaining);
    }
  }

  async rebuildProjector(name: string, options: RebuildOptions = {}): Promise<{ generation: number }> {
    const before = await requestRebuild(this.db, name);
    if (before === undefined) throw new Error(`projector ${name} has not run yet: there is nothing to rebuild`);
    if (this.owned.has(name)) void this.enqueue(() => this.serveRebuildRequests());
    return watchRebuild(this.db, this.options.store, name, before, { ...options, signal: this.stopping.signal });
  }

  async stop(): Promise<void> {
    this.stopping.abort();
    clearTimeout(this.timer);
    await this.queue;
    await this.releaseAll();
    await this.waker.stop();
  }

  private askToRead(names: readonly string[], position: GlobalPosition): void {
    const runners = names.flatMap((name) => this.owned.get(name)?.active ?? []);
    for (const runner of runners) runner.readUpTo(position);
    if (runners.length > 0) this.growth.signal.notify();
  }

  /** Names of projectors whose active generation has not reached `position`. */
  private async behind(names: readonly string[], position: GlobalPosition): Promise<string[]> {
    const reached = (at: GlobalPosition | undefined) => at !== undefined && comparePositions(at, position) >= 0;
    const remote = names.filter((name) => !this.owned.has(name));
    const positions = await loadActivePositions(this.db, remote).catch(() => new Map<string, GlobalPosition>());
    return names.filter((name) => !reached(this.owned.get(name)?.active?.position ?? positions.get(name)));
  }

  /** Runs control work one step at a time, so ownership changes never interleave. */
  private enqueue(work: () => Promise<void>): Promise<void> {
    this.queue = this.queue.then(work).catch((error) => this.report(error, 'projection engine'));
    return this.queue;
  }

  private schedule(delayMs: number): void {
    if (this.stopping.signal.aborted) return;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.enqueue(() => this.maintain()), delayMs);
  }

  /** One round of upkeep: reconnect the lock session, take free projectors, serve rebuild requests. */
  private async maintain(): Promise<void> {
    if (this.stopping.signal.aborted) return;
    try {
      const session = await this.lockSession();
      if (this.owned.size > 0) await session.ping();
      for (const projector of this.projectors) {
        if (!this.owned.has(projector.name) && (await session.tryLock(projector.name))) await this.takeOver(projector);
      }
      await this.serveRebuildRequests();
      for (const ownership of [...this.owned.values()]) {
        if (ownership.oldSchemaLeft) await this.dropOldSchema(ownership);
        // Retries a switch-over that was refused, without waiting for the log to grow.
        if (ownership.building?.status === 'live' && !ownership.switching) {
          ownership.switching = true;
          await this.completeBuild(ownership);
        }
      }
      this.failures = 0;
      this.schedule(this.options.pollIntervalMs ?? 2_000);
    } catch (error) {
      this.report(error, 'projection engine upkeep');
      this.schedule(backoffDelay(this.failures++));
    }
  }

  private async lockSession(): Promise<LockSession> {
    if (this.session && !this.session.isLost) return this.session;
    this.session = await LockSession.open(
      this.options.pool,
      (error) => this.onLockLost(error),
      (projector) => {
        if (this.owned.has(projector)) void this.enqueue(() => this.serveRebuildRequests());
      },
    );
    return this.session;
  }

  /** Without the lock another process may start the same projectors: stop ours at once. */
  private onLockLost(error: unknown): void {
    if (this.stopping.signal.aborted) return;
    this.report(error, 'advisory lock connection lost');
    for (const ownership of this.owned.values()) void stopRunners(ownership);
    void this.enqueue(async () => {
      await this.releaseAll();
      this.schedule(backoffDelay(this.failures++));
    });
  }

  private async takeOver(projector: Projector): Promise<void> {
    const ownership: Ownership = { projector, switching: false, oldSchemaLeft: false };
    this.owned.set(projector.name, ownership);
    try {
      await dropOrphanSchemas(this.db, projector.name);
      const rows = await loadCheckpoints(this.db, projector.name);
      const active = rows.find((row) => row.role === 'active') ?? (await this.firstGeneration(projector, rows));
      // An older version's tables may not fit this code's handler: they keep serving, frozen,
      // until the new version's generation replaces them.
      if (active.version === projector.version) ownership.active = this.startRunner(ownership, active);
      else await setStatus(this.db, active, 'stopped');
      await this.ensureBuild(ownership);
    } catch (error) {
      this.report(error, `starting projector ${projector.name}`);
      await this.release(projector.name);
    }
  }

  /** A projector's first generation serves reads right away: there is nothing older to serve. */
  private async firstGeneration(projector: Projector, rows: Checkpoint[]): Promise<Checkpoint> {
    for (const row of rows) await dropGeneration(this.db, row.projector, row.generation);
    return createGeneration(this.db, projector, 'active');
  }

  /** Starts (or resumes) a build when the code's version differs from the active one or an admin asked. */
  private async ensureBuild(ownership: Ownership): Promise<void> {
    const { projector } = ownership;
    const rows = await loadCheckpoints(this.db, projector.name);
    const active = rows.find((row) => row.role === 'active');
    let building = rows.find((row) => row.role === 'building');
    if (!active) return;
    if (building && building.version !== projector.version) {
      await ownership.building?.stop();
      ownership.building = undefined;
      await dropGeneration(this.db, projector.name, building.generation);
      building = undefined;
    }
    const wanted = active.version !== projector.version || active.rebuildRequested;
    if (!building && wanted) building = await createGeneration(this.db, projector, 'building');
    if (building && !ownership.building) ownership.building = this.startRunner(ownership, building);
  }

  private async serveRebuildRequests(): Promise<void> {
    const requested = (await loadCheckpoints(this.db)).filter((row) => row.role === 'active' && row.rebuildRequested && this.owned.has(row.projector));
    for (const row of requested) {
      const ownership = this.owned.get(row.projector);
      if (ownership && !ownership.switching) await this.ensureBuild(ownership);
    }
  }

  /**
   * The wait before a bulk page of a projector that yields to others (Projector.yieldsTo): until
   * each of them with an active generation has applied the page, at most LEADER_WAIT_MS. A leader
   * with no active generation (not deployed, or only being built) is not waited for.
   */
  private yieldBefore(projector: Projector): RunnerOptions['yieldBefore'] {
    const leaders = projector.yieldsTo ?? [];
    if (leaders.length === 0) return undefined;
    this.leaders ??= checkpointWaiter(this.db);
    const waiter = this.leaders;
    return async (position, abort) => {
      const active = await loadActivePositions(this.db, leaders);
      const present = leaders.filter((name) => active.has(name));
      if (present.length > 0) await waiter.waitForPosition(present, position, LEADER_WAIT_MS, abort);
    };
  }

  private startRunner(ownership: Ownership, checkpoint: Checkpoint): GenerationRunner {
    return new GenerationRunner({
      db: this.db,
      store: this.options.store,
      projector: ownership.projector,
      checkpoint,
      batchSize: this.options.batchSize ?? DEFAULT_BATCH_SIZE,
      pageTargetChars: this.options.pageTargetChars ?? PAGE_TARGET_CHARS,
      growth: this.growth,
      idleReadMs: this.options.idleReadMs ?? 5_000,
      gatherMs: this.options.gatherMs ?? 0,
      retry: { ...DEFAULT_RETRY_POLICY, ...this.options.retry },
      yieldBefore: this.yieldBefore(ownership.projector),
      saveProgress: (move) => this.checkpoints.advance(move),
      onProgress: () => this.progress.notify(),
      onParked: (event) => this.report(new EventParkedError(event), `projector ${event.projector} generation ${event.generation} parked an event`),
      onCaughtUp: (runner) => {
        if (runner === ownership.building && !ownership.switching) {
          ownership.switching = true;
          void this.enqueue(() => this.completeBuild(ownership));
        }
      },
      onError: (error, runner) => this.report(error, `projector ${runner.key.projector} generation ${runner.key.generation}`),
    });
  }

  /**
   * Switch-over: freeze the old generation, let the new one pass it (it is live, so that takes
   * one read), then repoint the views in one transaction and drop the old generation. The
   * switch refuses a new generation that is behind; the old one then resumes and the next
   * catch-up tries again.
   */
  private async completeBuild(ownership: Ownership): Promise<void> {
    const { active, building, projector } = ownership;
    try {
      if (!building || this.owned.get(projector.name) !== ownership) return;
      await active?.stop();
      const passed = await this.waitForRunner(building, active?.position ?? START);
      if (passed && (await switchOver(this.db, projector.name, building.key.generation))) {
        ownership.active = building;
        building.serveReads();
        ownership.building = undefined;
        ownership.oldSchemaLeft = true;
        this.progress.notify();
        await this.dropOldSchema(ownership);
      } else if (active) {
        await this.resumeActive(ownership, active);
      }
    } catch (error) {
      this.report(error, `switching projector ${projector.name} to its new generation`);
      await this.restartOwnership(ownership);
    } finally {
      ownership.switching = false;
    }
  }

  /** Best effort: a reader still on the old tables may hold them; upkeep tries again. */
  private async dropOldSchema(ownership: Ownership): Promise<void> {
    try {
      await dropOrphanSchemas(this.db, ownership.projector.name);
      ownership.oldSchemaLeft = false;
    } catch (error) {
      this.report(error, `dropping the old generation of ${ownership.projector.name}`);
    }
  }

  private async waitForRunner(runner: GenerationRunner, position: GlobalPosition): Promise<boolean> {
    const deadline = Date.now() + SWITCH_CATCH_UP_MS;
    this.growth.grew();
    while (comparePositions(runner.position, position) < 0) {
      const remaining = deadline - Date.now();
      if (remaining <= 0 || runner.stopped) return false;
      const seen = this.progress.current;
      await this.progress.wait(seen, Math.min(remaining, 100));
    }
    return true;
  }

  private async resumeActive(ownership: Ownership, stopped: GenerationRunner): Promise<void> {
    const checkpoint = await loadCheckpoint(this.db, stopped.key);
    if (!checkpoint) throw new Error(`generation ${stopped.key.generation} of ${stopped.key.projector} vanished`);
    ownership.active = this.startRunner(ownership, checkpoint);
  }

  /** Recovers from an unclear state by stopping everything and reading it back from the database. */
  private async restartOwnership(ownership: Ownership): Promise<void> {
    await stopRunners(ownership);
    this.owned.delete(ownership.projector.name);
    await this.takeOver(ownership.projector);
  }

  private async release(name: string): Promise<void> {
    const ownership = this.owned.get(name);
    this.owned.delete(name);
    if (ownership) await stopRunners(ownership);
    await this.session?.unlock(name).catch(() => {});
  }

  private async releaseAll(): Promise<void> {
    await Promise.all([...this.owned.keys()].map((name) => this.release(name)));
    this.session?.close();
    this.session = undefined;
  }

  private report(error: unknown, context: string): void {
    if (this.options.onError) this.options.onError(error, context);
    else console.error(`[projections] ${context}:`, error);
  }
}

const guardedPools = new WeakSet<pg.Pool>();

/**
 * pg emits 'error' on a checked-out client whose connection dies (a database restart) and
 * kysely does not listen for it, which makes it an uncaught exception. The query in flight
 * fails anyway and pg-pool discards the broken client on release, so the event can be ignored.
 */
function tolerateBrokenConnections(pool: pg.Pool): void {
  if (guardedPools.has(pool)) return;
  guardedPools.add(pool);
  pool.on('connect', (client) => client.on('error', () => {}));
}

async function stopRunners(ownership: Ownership): Promise<void> {
  await Promise.all([ownership.active?.stop(), ownership.building?.stop()]);
}
