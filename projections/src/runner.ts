import { comparePositions, type EventStore, type GlobalPosition, type ReadAllResult, START, type StoredEvent } from '@eelarve/eventstore';
import { type Kysely, sql, type Transaction } from 'kysely';
import {
  advanceCheckpoint,
  type Checkpoint,
  type CheckpointMove,
  countApplied,
  type GenerationKey,
  type GenerationStatus,
  loadCheckpoint,
  recordError,
  setStatus,
} from './checkpoints';
import { HandlerFailure, isTransientFailure } from './failures';
import { openBatch } from './generations';
import { type ParkedEvent, parkEvent } from './parked';
import type { Projector } from './projector';
import { backoffDelay, Signal, sleep } from './signal';
import type { LogGrowth } from './waker';

/** When a handler keeps failing on a batch: how often to try it before parking the events it fails on. */
export interface RetryPolicy {
  /** Failed attempts of a batch (not counting database outages) before its failing events are isolated and parked. */
  attempts: number;
  /** Pause before the first retry; each further one doubles it (with jitter), at most 10 s. */
  firstDelayMs: number;
}

/** Five attempts over about 1.5 s: an event is parked well within a command's read-your-writes wait (5 s). */
export const DEFAULT_RETRY_POLICY: RetryPolicy = { attempts: 5, firstDelayMs: 100 };

export interface RunnerOptions {
  db: Kysely<unknown>;
  store: EventStore;
  projector: Projector;
  checkpoint: Checkpoint;
  batchSize: number;
  /** The event text to hold in one page (nextPageSize). */
  pageTargetChars: number;
  /** Notified when new events may be readable (the engine's live wake-up), with how far the log reaches. */
  growth: LogGrowth;
  /** Fallback read interval when no wake-up comes (e.g. the wake-up subscription is down). */
  idleReadMs: number;
  /**
   * How long to let the log grow after a wake-up before reading, unless a command waits (0: read
   * at once). A projector no command waits on then applies a run of appends in one batch.
   */
  gatherMs?: number;
  retry: RetryPolicy;
  /**
   * Waits, before a bulk page (BULK_PAGE_CHARS) is applied, until the projectors this one yields
   * to have applied the page's last event (Projector.yieldsTo); bounded, and cut short by `abort`.
   */
  yieldBefore?: (position: GlobalPosition, abort: AbortSignal) => Promise<void>;
  /** Stores progress over unhandled events (the engine gathers its runners' saves into one statement); default: alone. */
  saveProgress?: (move: CheckpointMove) => Promise<void>;
  onProgress(runner: GenerationRunner): void;
  /** An event was parked (its checkpoint already moved past it). */
  onParked(event: ParkedEvent, runner: GenerationRunner): void;
  /** Called each time the runner reaches the end of the log. */
  onCaughtUp(runner: GenerationRunner): void;
  onError(error: unknown, runner: GenerationRunner): void;
}

/**
 * Progress over events the projector does not handle (another feature's appends) is kept in
 * memory and written once the log has been quiet this long, or once it is this old: writing it
 * on every append cost each idle projector a commit per command. Read-your-writes in this process
 * reads the runner's position; a process watching the checkpoints sees such progress this late.
 */
const QUIET_BEFORE_SAVING_MS = 200;
const UNSAVED_MAX_AGE_MS = 1_000;
/** The longest pause between looks at the head for a wanted position hidden by a running transaction (awaitHidden). */
const HIDDEN_READ_MAX_MS = 20;
/** How long after a command asked for a position the runner keeps looking for it (the read-your-writes bound). */
const HIDDEN_READ_WINDOW_MS = 5_000;

/**
 * The event text a runner aims to hold in one page: pages are `batchSize` events unless their
 * events are big. An import's chunk events are about 150 KB each, and a projector behind a
 * 1,000,000-record build read 5,000 of them (with the page read ahead) at once: gigabytes once
 * parsed, in the gateway that also answers requests.
 */
export const PAGE_TARGET_CHARS = 32_000_000;
/** A page holding this much event text is bulk (an import's chunks): a projector with `yieldsTo` lets its leaders apply it first. */
export const BULK_PAGE_CHARS = 1_000_000;
/** Pages never shrink below this, however big the events: the per-batch cost stays small beside them. */
const MIN_PAGE_SIZE = 10;

/** The next page's size: `batchSize`, or fewer when the last page's events were big. */
export function nextPageSize(batchSize: number, targetChars: number, last: ReadAllResult): number {
  if (last.payloadChars === undefined || last.events.length === 0) return batchSize;
  const perEvent = last.payloadChars / last.events.length;
  return Math.max(Math.min(MIN_PAGE_SIZE, batchSize), Math.min(batchSize, Math.floor(targetChars / Math.max(1, perEvent))));
}

/** A generation whose checkpoint row disappeared (dropped by a switch-over elsewhere). */
class GenerationGoneError extends Error {}

/**
 * Runs one generation of one projector: reads $all from its checkpoint in batches, applies each
 * batch and advances the checkpoint in one transaction, and once at the end of the log waits for
 * a wake-up. Errors restart it from the stored checkpoint after a backoff. When the handler keeps
 * failing on a batch (not the database: see isTransientFailure), after `retry.attempts` the batch
 * is applied event by event and the events that still fail are parked, so one bad event cannot
 * stop the read model.
 */
export class GenerationRunner {
  readonly key: GenerationKey;
  readonly schema: string;
  /** How far the generation has applied the log (ahead of the stored checkpoint while progress is unsaved). */
  position: GlobalPosition;
  status: GenerationStatus;
  /** The checkpoint as stored. */
  private saved: GlobalPosition;
  /** A position a command waits for: read up to it at the next wake-up, whatever the live subscription says. */
  private wanted: GlobalPosition = START;
  /** When progress over unhandled events was first left unsaved; undefined when all is saved. */
  private unsavedSince: number | undefined;
  /**
   * Whether progress over unhandled events may wait (see UNSAVED_MAX_AGE_MS). A generation being
   * built writes every step: the switch-over compares the stored checkpoints.
   */
  private deferProgress: boolean;
  /** Until when a command waits for `wanted` (awaitHidden looks for it only then: a report's `after` comes from the client). */
  private wantedUntil = 0;
  /**
   * Notified when a command starts waiting: cuts the pause before a read short (gather). A Signal,
   * not an AbortSignal.any over the runner's abort: on Node 20 every signal `any` makes stays in
   * its long-lived source's dependants for good (nodejs/node#55351), one per wake-up.
   */
  private readonly urged = new Signal();
  /** Looks in a row that did not find `wanted` visible (awaitHidden's backoff). */
  private hiddenReads = 0;
  /** Consecutive failures, for the backoff; a committed batch resets it. */
  private failures = 0;
  /** The handler's consecutive failures on the batch at `failingAt`, and when the first came. */
  private handlerFailures = 0;
  private failingAt: GlobalPosition | undefined;
  private firstFailedAt: Date | undefined;
  /** Events to read in the next page (nextPageSize). */
  private pageSize: number;
  private readonly abort = new AbortController();
  private readonly done: Promise<void>;

  constructor(private readonly options: RunnerOptions) {
    const { checkpoint } = options;
    this.key = { projector: checkpoint.projector, generation: checkpoint.generation };
    this.schema = checkpoint.schemaName;
    this.position = checkpoint.position;
    this.saved = checkpoint.position;
    this.pageSize = options.batchSize;
    this.status = checkpoint.status;
    this.deferProgress = checkpoint.role === 'active';
    this.done = this.run();
  }

  /** Asks the runner to read up to `position` at its next wake-up (a command waits for it). */
  readUpTo(position: GlobalPosition): void {
    if (comparePositions(position, this.wanted) > 0) this.wanted = position;
    this.wantedUntil = Date.now() + HIDDEN_READ_WINDOW_MS;
    this.urged.notify();
  }

  /** The generation now serves reads (a switch-over made it active): its idle progress may wait. */
  serveReads(): void {
    this.deferProgress = true;
  }

  get stopped(): boolean {
    return this.abort.signal.aborted;
  }

  /** Stops after the batch in flight (committed or rolled back), saves its progress and resolves when idle. */
  async stop(): Promise<void> {
    this.abort.abort();
    await this.done;
  }

  private async run(): Promise<void> {
    while (!this.stopped) {
      try {
        await this.restart();
        await this.consume();
      } catch (error) {
        if (error instanceof GenerationGoneError) return;
        if (this.stopped) break;
        const handlerFailure = error instanceof HandlerFailure && !isTransientFailure(error.failure);
        const failure = error instanceof HandlerFailure ? error.failure : error;
        this.options.onError(failure, this);
        await recordError(this.options.db, this.key, String(failure)).catch(() => {});
        await sleep(handlerFailure ? this.retryDelay() : backoffDelay(this.failures++), this.abort.signal);
      }
    }
    // Best effort: whoever runs the generation next starts from the stored checkpoint anyway.
    await this.saveProgress().catch(() => {});
  }

  /** Resumes from the committed checkpoint: in-memory state may be ahead of a rolled-back batch. */
  private async restart(): Promise<void> {
    const checkpoint = await loadCheckpoint(this.options.db, this.key);
    if (!checkpoint) throw new GenerationGoneError();
    this.position = checkpoint.position;
    this.saved = checkpoint.position;
    this.unsavedSince = undefined;
    this.status = checkpoint.status;
    // The failing batch is behind us (another process got past it): its count no longer applies.
    if (this.failingAt && comparePositions(this.failingAt, this.position) !== 0) this.clearHandlerFailures();
    await this.setStatus('catching-up');
  }

  /** Counts a handler failure at the current position; the pause before the next attempt. */
  private retryDelay(): number {
    const { attempts, firstDelayMs } = this.options.retry;
    this.failingAt = this.position;
    this.firstFailedAt ??= new Date();
    this.handlerFailures++;
    // The last failure leads straight to the event-by-event attempt.
    return this.handlerFailures >= attempts ? 0 : backoffDelay(this.handlerFailures - 1, 10_000, firstDelayMs);
  }

  private clearHandlerFailures(): void {
    this.handlerFailures = 0;
    this.failingAt = undefined;
    this.firstFailedAt = undefined;
  }

  private async consume(): Promise<void> {
    const { growth } = this.options;
    let seen = growth.signal.current;
    let mark = growth.mark();
    let next: Promise<ReadAllResult> | undefined;
    while (!this.stopped) {
      const batch = await (next ?? this.read(this.position));
      this.pageSize = nextPageSize(this.options.batchSize, this.options.pageTargetChars, batch);
      // Read ahead while the batch is being written: reading and writing overlap.
      next = batch.isEnd ? undefined : this.read(batch.nextPosition);
      await this.yieldOnBulk(batch);
      await this.apply(batch);
      if (this.unsavedSince !== undefined && Date.now() - this.unsavedSince >= UNSAVED_MAX_AGE_MS) await this.saveProgress();
      if (batch.isEnd) {
        await this.setStatus('live');
        this.options.onCaughtUp(this);
        seen = await this.idle(seen, mark);
        mark = growth.mark();
      }
    }
  }

  private async yieldOnBulk(batch: ReadAllResult): Promise<void> {
    const last = batch.events.at(-1);
    if (!this.options.yieldBefore || !last || (batch.payloadChars ?? 0) < BULK_PAGE_CHARS) return;
    await this.options.yieldBefore(last.position, this.abort.signal);
  }

  /**
   * Waits until the log may hold more than the runner has read (or for the fallback read), and
   * answers the wake-up version it saw last. Unsaved progress is saved once the log is quiet.
   */
  private async idle(seen: number, mark: number): Promise<number> {
    const { growth, idleReadMs } = this.options;
    const fallbackAt = Date.now() + idleReadMs;
    if (comparePositions(this.wanted, this.position) > 0 && Date.now() < this.wantedUntil) return this.awaitHidden(seen);
    // Past its window nobody waits for it any more (a report's `after` may name a position that never
    // comes): forget it, or every later wake-up would read instead of skipping unhandled stretches.
    if (comparePositions(this.wanted, this.position) > 0) this.wanted = this.position;
    this.hiddenReads = 0;
    for (;;) {
      await this.saveWhenQuiet(seen);
      await growth.signal.wait(seen, Math.max(0, fallbackAt - Date.now()), this.abort.signal);
      if (growth.signal.current === seen) return seen;
      seen = growth.signal.current;
      this.skipUnhandled();
      if (comparePositions(this.wanted, this.position) > 0) return seen;
      if (growth.beyond(this.position, mark)) {
        await this.gather();
        return growth.signal.current;
      }
    }
  }

  /**
   * Lets further appends arrive before reading (options.gatherMs), so they share a batch: one
   * transaction and one read for a run of edits instead of one each. A command that starts
   * waiting ends the pause (readUpTo).
   */
  private async gather(): Promise<void> {
    const { gatherMs } = this.options;
    if (!gatherMs) return;
    await this.urged.wait(this.urged.current, gatherMs, this.abort.signal);
  }

  /**
   * A position a command waits for exists (its append answered), yet the last read ended before
   * it: a transaction older than the append's is still running (in any database of the cluster:
   * transaction ids are shared), and $all shows only what lies below the oldest running one. When
   * that transaction ends (a checkpoint save, a session touch, a job fetch) no append announces
   * it, so the next wake-up was the subscription's poll, 500 ms later: the stalls of edits under
   * light load. Instead the runner asks for the visible head after a short pause (1 ms, doubling,
   * at most HIDDEN_READ_MAX_MS; an index probe, not a page read) and reads once it covers the
   * position, or at once when woken.
   */
  private async awaitHidden(seen: number): Promise<number> {
    const { growth, store } = this.options;
    for (;;) {
      const pause = Math.min(HIDDEN_READ_MAX_MS, 2 ** this.hiddenReads++);
      await growth.signal.wait(seen, pause, this.abort.signal);
      if (growth.signal.current !== seen || this.stopped || Date.now() >= this.wantedUntil) return growth.signal.current;
      const head = await store.headPosition().catch(() => null);
      if (!head || comparePositions(head, this.wanted) >= 0) return growth.signal.current;
    }
  }

  /** Moves past announced stretches of the log that hold none of the projector's events, without reading them. */
  private skipUnhandled(): void {
    if (!this.deferProgress) return;
    const to = this.options.growth.skippable(this.position, this.options.projector.eventTypes);
    if (comparePositions(to, this.position) <= 0) return;
    this.position = to;
    this.unsavedSince ??= Date.now();
    this.options.onProgress(this);
  }

  /** Saves unsaved progress once no wake-up came for a while, or once it is old. */
  private async saveWhenQuiet(seen: number): Promise<void> {
    const since = this.unsavedSince;
    if (since === undefined) return;
    const { signal } = this.options.growth;
    const old = () => Date.now() - since >= UNSAVED_MAX_AGE_MS;
    // Quiet counts from the last wake-up, the same moment for every runner: their saves meet in one statement.
    if (!old()) await signal.wait(seen, Math.max(0, signal.notifiedAt + QUIET_BEFORE_SAVING_MS - Date.now()), this.abort.signal);
    if ((signal.current === seen || old()) && !this.stopped) await this.saveProgress();
  }

  /** Stores the position reached over events the projector does not handle. */
  private async saveProgress(): Promise<void> {
    if (this.unsavedSince === undefined) return;
    const to = this.position;
    const move = { key: this.key, from: this.saved, to };
    await (this.options.saveProgress ? this.options.saveProgress(move) : advanceCheckpoint(this.options.db, this.key, move.from, to, 0));
    this.saved = to;
    this.unsavedSince = undefined;
  }

  private read(from: GlobalPosition): Promise<ReadAllResult> {
    const { store, projector } = this.options;
    const reading = store.readAll({ fromPosition: from, maxCount: this.pageSize, eventTypes: projector.eventTypes });
    // A read-ahead that is never awaited (the batch before it failed) must not crash the process.
    reading.catch(() => {});
    return reading;
  }

  private async apply(batch: ReadAllResult): Promise<void> {
    const { db, projector } = this.options;
    const to = batch.nextPosition;
    let parked: ParkedEvent[] = [];
    let stored = true;
    if (batch.events.length === 0) {
      if (comparePositions(to, this.position) <= 0) return;
      // Nothing to handle: the progress still counts (lag, read-your-writes); stored now or soon.
      stored = !this.deferProgress;
      if (stored) await advanceCheckpoint(db, this.key, this.saved, to, 0);
      else this.unsavedSince ??= Date.now();
    } else if (this.handlerFailures >= this.options.retry.attempts) {
      parked = await this.applyParkingFailures(batch);
    } else {
      await db.transaction().execute(async (trx) => {
        const scoped = await openBatch(trx, this.key, this.schema, this.saved, to, batch.events.length);
        await projector.handle(batch.events, scoped).catch((error) => {
          throw new HandlerFailure(error);
        });
      });
    }
    if (stored) {
      this.saved = to;
      this.unsavedSince = undefined;
    }
    this.position = to;
    this.failures = 0;
    this.clearHandlerFailures();
    for (const event of parked) this.options.onParked(event, this);
    this.options.onProgress(this);
  }

  /**
   * Applies a batch the handler kept failing on one event at a time, each behind a savepoint:
   * the events it still fails on are parked, the others applied, and the checkpoint moves past
   * all of them, in one transaction. A database failure rolls it all back (retried as usual).
   */
  private async applyParkingFailures(batch: ReadAllResult): Promise<ParkedEvent[]> {
    return this.options.db.transaction().execute(async (trx) => {
      const scoped = await openBatch(trx, this.key, this.schema, this.saved, batch.nextPosition, 0);
      const parked: ParkedEvent[] = [];
      for (const event of batch.events) {
        const failure = await this.applyAlone(trx, scoped, event);
        if (failure === undefined) continue;
        const attempts = this.handlerFailures + 1;
        parked.push(await parkEvent(trx, this.key, event, { error: failure, attempts, firstFailedAt: this.firstFailedAt ?? new Date() }));
      }
      await countApplied(trx, this.key, batch.events.length - parked.length);
      return parked;
    });
  }

  /** Handles one event behind a savepoint; returns the handler's failure (rolled back), if any. */
  private async applyAlone(trx: Transaction<unknown>, scoped: Kysely<unknown>, event: StoredEvent): Promise<unknown> {
    await sql`savepoint park_probe`.execute(trx);
    try {
      await this.options.projector.handle([event], scoped);
    } catch (error) {
      if (isTransientFailure(error)) throw error;
      await sql`rollback to savepoint park_probe`.execute(trx);
      return error ?? new Error('the handler failed without an error');
    }
    await sql`release savepoint park_probe`.execute(trx);
    return undefined;
  }

  private async setStatus(status: GenerationStatus): Promise<void> {
    if (this.status === status) return;
    await setStatus(this.options.db, this.key, status);
    this.status = status;
  }
}
