import { comparePositions, type GlobalPosition } from '@eelarve/eventstore';
import { type Generated, type Kysely, sql } from 'kysely';
import { CONTROL_CHANNEL } from './schema';
import { sleep } from './signal';

export type GenerationRole = 'active' | 'building';
/** 'stopped' marks an active generation of an older version, serving frozen until replaced. */
export type GenerationStatus = 'catching-up' | 'live' | 'stopped';

interface CheckpointTable {
  projector: string;
  generation: number;
  schema_name: string;
  version: number;
  tables: string[];
  role: GenerationRole;
  status: Generated<GenerationStatus>;
  // numeric(20, 0) comes back as a string: positions exceed 2^53.
  position_commit: Generated<string>;
  position_prepare: Generated<string>;
  events_applied: Generated<string>;
  rebuild_requested: Generated<boolean>;
  last_error: string | null;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
}

export interface ControlTables {
  'projections.checkpoints': CheckpointTable;
}

export interface Checkpoint {
  projector: string;
  generation: number;
  schemaName: string;
  version: number;
  tables: string[];
  role: GenerationRole;
  status: GenerationStatus;
  position: GlobalPosition;
  eventsApplied: number;
  rebuildRequested: boolean;
  lastError: string | null;
  updatedAt: Date;
}

/** Identifies one generation's checkpoint row. */
export interface GenerationKey {
  projector: string;
  generation: number;
}

/** Another writer moved the checkpoint: this process no longer owns the generation. */
export class CheckpointMovedError extends Error {
  constructor(key: GenerationKey) {
    super(`checkpoint of ${key.projector} generation ${key.generation} moved under us (or the generation is gone)`);
    this.name = 'CheckpointMovedError';
  }
}

export function control(db: Kysely<unknown>): Kysely<ControlTables> {
  return db as unknown as Kysely<ControlTables>;
}

type CheckpointRow = Awaited<ReturnType<typeof selectCheckpoints>>[number];

function selectCheckpoints(db: Kysely<unknown>, projector?: string, forUpdate = false) {
  return control(db)
    .selectFrom('projections.checkpoints')
    .selectAll()
    .$if(projector !== undefined, (query) => query.where('projector', '=', projector!))
    .$if(forUpdate, (query) => query.forUpdate())
    .orderBy('projector')
    .orderBy('generation')
    .execute();
}

function toCheckpoint(row: CheckpointRow): Checkpoint {
  return {
    projector: row.projector,
    generation: row.generation,
    schemaName: row.schema_name,
    version: row.version,
    tables: row.tables,
    role: row.role,
    status: row.status,
    position: { commit: BigInt(row.position_commit), prepare: BigInt(row.position_prepare) },
    eventsApplied: Number(row.events_applied),
    rebuildRequested: row.rebuild_requested,
    lastError: row.last_error,
    updatedAt: row.updated_at,
  };
}

/** Checkpoint rows, of one projector or all; `forUpdate` locks them until the transaction ends. */
export async function loadCheckpoints(db: Kysely<unknown>, projector?: string, forUpdate = false): Promise<Checkpoint[]> {
  const rows = await selectCheckpoints(db, projector, forUpdate);
  return rows.map(toCheckpoint);
}

export async function loadCheckpoint(db: Kysely<unknown>, key: GenerationKey): Promise<Checkpoint | undefined> {
  const row = await control(db)
    .selectFrom('projections.checkpoints')
    .selectAll()
    .where('projector', '=', key.projector)
    .where('generation', '=', key.generation)
    .executeTakeFirst();
  return row && toCheckpoint(row);
}

/** Positions of the active generations of the named projectors. */
export async function loadActivePositions(db: Kysely<unknown>, projectors: readonly string[]): Promise<Map<string, GlobalPosition>> {
  if (projectors.length === 0) return new Map();
  const rows = await control(db)
    .selectFrom('projections.checkpoints')
    .select(['projector', 'position_commit', 'position_prepare'])
    .where('role', '=', 'active')
    .where('projector', 'in', projectors)
    .execute();
  return new Map(rows.map((row) => [row.projector, { commit: BigInt(row.position_commit), prepare: BigInt(row.position_prepare) }]));
}

/**
 * Read-your-writes for a process that runs no projectors itself: polls the active checkpoints
 * until every named projector has reached `position`. False after `timeoutMs`; never throws.
 */
export async function waitForCheckpoints(
  db: Kysely<unknown>,
  projectors: readonly string[],
  position: GlobalPosition,
  timeoutMs: number,
  pollMs = 25,
): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const positions = await loadActivePositions(db, projectors).catch(() => new Map<string, GlobalPosition>());
    const reached = projectors.every((name) => {
      const at = positions.get(name);
      return at !== undefined && comparePositions(at, position) >= 0;
    });
    if (reached) return true;
    const remaining = deadline - Date.now();
    if (remaining <= 0) return false;
    await sleep(Math.min(pollMs, remaining));
  }
}

/**
 * Moves the checkpoint from `from` to `to`. The `from` condition makes it a compare-and-set:
 * if another process advanced the same generation (it took over after we lost our lock), the
 * update matches nothing and the caller's transaction is rolled back instead of applying twice.
 */
export async function advanceCheckpoint(db: Kysely<unknown>, key: GenerationKey, from: GlobalPosition, to: GlobalPosition, applied: number): Promise<void> {
  const result = await control(db)
    .updateTable('projections.checkpoints')
    .set({
      position_commit: to.commit.toString(),
      position_prepare: to.prepare.toString(),
      events_applied: sql<string>`events_applied + ${applied}`,
      last_error: null,
      updated_at: sql<Date>`now()`,
    })
    .where('projector', '=', key.projector)
    .where('generation', '=', key.generation)
    .where('position_commit', '=', from.commit.toString())
    .where('position_prepare', '=', from.prepare.toString())
    .executeTakeFirst();
  if (result.numUpdatedRows !== 1n) throw new CheckpointMovedError(key);
}

/** A generation's checkpoint moving from `from` to `to` over events it does not handle. */
export interface CheckpointMove {
  key: GenerationKey;
  from: GlobalPosition;
  to: GlobalPosition;
}

const keyText = (key: GenerationKey) => `${key.projector}\u0000${key.generation}`;

/**
 * Moves several checkpoints in one statement (compare-and-set on each `from`, as advanceCheckpoint)
 * and answers the keys that moved. Committed asynchronously: this progress passes only events the
 * projectors do not handle, so a crash that loses it costs a re-read, never a change.
 */
export async function advanceCheckpoints(db: Kysely<unknown>, moves: readonly CheckpointMove[]): Promise<Set<string>> {
  const column = (pick: (move: CheckpointMove) => string | number) => moves.map(pick);
  const { rows } = await sql<{ projector: string; generation: number }>`
    with moves as (
      select * from unnest(
        ${column((move) => move.key.projector)}::text[], ${column((move) => move.key.generation)}::int[],
        ${column((move) => move.from.commit.toString())}::numeric[], ${column((move) => move.from.prepare.toString())}::numeric[],
        ${column((move) => move.to.commit.toString())}::numeric[], ${column((move) => move.to.prepare.toString())}::numeric[]
      ) as m(projector, generation, from_commit, from_prepare, to_commit, to_prepare)),
    moved as (
      update projections.checkpoints c
      set position_commit = m.to_commit, position_prepare = m.to_prepare, last_error = null, updated_at = now()
      from moves m
      where c.projector = m.projector and c.generation = m.generation
        and c.position_commit = m.from_commit and c.position_prepare = m.from_prepare
      returning c.projector, c.generation)
    select projector, generation, set_config('synchronous_commit', 'off', true) from moved`.execute(db);
  return new Set(rows.map((row) => keyText(row)));
}

/** How long a save waits for others to join its statement: runners fall quiet within a millisecond or two of each other. */
const GATHER_MS = 5;

/**
 * The engine's idle runners store their progress through this: the saves asked within GATHER_MS
 * go out as one statement (advanceCheckpoints). Each runner used to commit its own, so ~30 of
 * them, falling quiet together, took ~30 pooled connections and ~30 WAL flushes at once, and the
 * commands arriving then waited behind them.
 */
export class CheckpointBatcher {
  private pending: { move: CheckpointMove; settle: (error?: unknown) => void }[] = [];
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly db: Kysely<unknown>) {}

  /** Resolves once stored; CheckpointMovedError when another writer moved the checkpoint. */
  advance(move: CheckpointMove): Promise<void> {
    return new Promise((resolve, reject) => {
      this.pending.push({ move, settle: (error) => (error === undefined ? resolve() : reject(error)) });
      this.timer ??= setTimeout(() => void this.flush(), GATHER_MS);
    });
  }

  private async flush(): Promise<void> {
    const batch = this.pending;
    this.pending = [];
    this.timer = undefined;
    try {
      const moved = await advanceCheckpoints(
        this.db,
        batch.map((entry) => entry.move),
      );
      for (const { move, settle } of batch) settle(moved.has(keyText(move.key)) ? undefined : new CheckpointMovedError(move.key));
    } catch (error) {
      for (const { settle } of batch) settle(error);
    }
  }
}

/** Adds to a generation's applied-events count, when it is only known after the checkpoint moved. */
export async function countApplied(db: Kysely<unknown>, key: GenerationKey, applied: number): Promise<void> {
  await control(db)
    .updateTable('projections.checkpoints')
    .set({ events_applied: sql<string>`events_applied + ${applied}` })
    .where('projector', '=', key.projector)
    .where('generation', '=', key.generation)
    .execute();
}

export async function setStatus(db: Kysely<unknown>, key: GenerationKey, status: GenerationStatus): Promise<void> {
  await control(db)
    .updateTable('projections.checkpoints')
    .set({ status, updated_at: sql<Date>`now()` })
    .where('projector', '=', key.projector)
    .where('generation', '=', key.generation)
    .execute();
}

export async function recordError(db: Kysely<unknown>, key: GenerationKey, message: string): Promise<void> {
  await control(db)
    .updateTable('projections.checkpoints')
    .set({ last_error: message.slice(0, 2000), updated_at: sql<Date>`now()` })
    .where('projector', '=', key.projector)
    .where('generation', '=', key.generation)
    .execute();
}

/**
 * Asks whichever process runs the projector to rebuild it (a flag on the active row plus a
 * NOTIFY for promptness; the owner also polls the flag). Returns the active generation at the
 * time of the request, or undefined when the projector has never run.
 */
export async function requestRebuild(db: Kysely<unknown>, projector: string): Promise<number | undefined> {
  return db.transaction().execute(async (trx) => {
    const row = await control(trx)
      .updateTable('projections.checkpoints')
      .set({ rebuild_requested: true, updated_at: sql<Date>`now()` })
      .where('projector', '=', projector)
      .where('role', '=', 'active')
      .returning('generation')
      .executeTakeFirst();
    await sql`select pg_notify(${CONTROL_CHANNEL}, ${projector})`.execute(trx);
    return row?.generation;
  });
}
