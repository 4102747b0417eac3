import { comparePositions, type EventStore, type GlobalPosition, type ReadAllResult } from '@eelarve/eventstore';
import type { Kysely } from 'kysely';
import {
  advanceCheckpoint,
  type Checkpoint,
  type GenerationKey,
  type GenerationStatus,
  loadCheckpoint,
  recordError,
  setStatus,
} from './checkpoints';
import { scopeToSchema } from './generations';
import type { Projector } from './projector';
import { backoffDelay, type Signal, sleep } from './signal';

export interface RunnerOptions {
  db: Kysely<unknown>;
  store: EventStore;
  projector: Projector;
  checkpoint: Checkpoint;
  batchSize: number;
  /** Notified when new events may be readable (the engine's live wake-up). */
  wake: Signal;
  /** Fallback read interval when no wake-up comes (e.g. the wake-up subscription is down). */
  idleReadMs: number;
  onProgress(runner: GenerationRunner): void;
  /** Called each time the runner reaches the end of the log. */
  onCaughtUp(runner: GenerationRunner): void;
  onError(error: unknown, runner: GenerationRunner): void;
}

/** A generation whose checkpoint row disappeared (dropped by a switch-over elsewhere). */
class GenerationGoneError extends Error {}

/**
 * Runs one generation of one projector: reads $all from its checkpoint in batches, applies each
 * batch and advances the checkpoint in one transaction, and once at the end of the log waits for
 * a wake-up. Errors restart it from the stored checkpoint after a backoff.
 */
export class GenerationRunner {
  readonly key: GenerationKey;
  readonly schema: string;
  position: GlobalPosition;
  status: GenerationStatus;
  /** Consecutive failures, for the backoff; a committed batch resets it. */
  private failures = 0;
  private readonly abort = new AbortController();
  private readonly done: Promise<void>;

  constructor(private readonly options: RunnerOptions) {
    const { checkpoint } = options;
    this.key = { projector: checkpoint.projector, generation: checkpoint.generation };
    this.schema = checkpoint.schemaName;
    this.position = checkpoint.position;
    this.status = checkpoint.status;
    this.done = this.run();
  }

  get stopped(): boolean {
    return this.abort.signal.aborted;
  }

  /** Stops after the batch in flight (committed or rolled back) and resolves when idle. */
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
        if (this.stopped || error instanceof GenerationGoneError) return;
        this.options.onError(error, this);
        await recordError(this.options.db, this.key, String(error)).catch(() => {});
        await sleep(backoffDelay(this.failures++), this.abort.signal);
      }
    }
  }

  /** Resumes from the committed checkpoint: in-memory state may be ahead of a rolled-back batch. */
  private async restart(): Promise<void> {
    const checkpoint = await loadCheckpoint(this.options.db, this.key);
    if (!checkpoint) throw new GenerationGoneError();
    this.position = checkpoint.position;
    this.status = checkpoint.status;
    await this.setStatus('catching-up');
  }

  private async consume(): Promise<void> {
    const { wake, idleReadMs } = this.options;
    let seen = wake.current;
    let next: Promise<ReadAllResult> | undefined;
    while (!this.stopped) {
      const batch = await (next ?? this.read(this.position));
      // Read ahead while the batch is being written: reading and writing overlap.
      next = batch.isEnd ? undefined : this.read(batch.nextPosition);
      await this.apply(batch);
      if (batch.isEnd) {
        await this.setStatus('live');
        this.options.onCaughtUp(this);
        await wake.wait(seen, idleReadMs, this.abort.signal);
        seen = wake.current;
      }
    }
  }

  private read(from: GlobalPosition): Promise<ReadAllResult> {
    const { store, batchSize, projector } = this.options;
    const reading = store.readAll({ fromPosition: from, maxCount: batchSize, eventTypes: projector.eventTypes });
    // A read-ahead that is never awaited (the batch before it failed) must not crash the process.
    reading.catch(() => {});
    return reading;
  }

  private async apply(batch: ReadAllResult): Promise<void> {
    const { db, projector } = this.options;
    const to = batch.nextPosition;
    if (batch.events.length === 0) {
      if (comparePositions(to, this.position) <= 0) return;
      // Nothing to handle: still record the progress, so lag and read-your-writes see it.
      await advanceCheckpoint(db, this.key, this.position, to, 0);
    } else {
      await db.transaction().execute(async (trx) => {
        // The checkpoint goes first: a competing writer blocks on the row, then finds it moved.
        await advanceCheckpoint(trx, this.key, this.position, to, batch.events.length);
        await projector.handle(batch.events, await scopeToSchema(trx, this.schema));
      });
    }
    this.position = to;
    this.failures = 0;
    this.options.onProgress(this);
  }

  private async setStatus(status: GenerationStatus): Promise<void> {
    if (this.status === status) return;
    await setStatus(this.options.db, this.key, status);
    this.status = status;
  }
}
