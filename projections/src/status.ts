import { type EventStore, type GlobalPosition, PostgresEventStore } from '@eelarve/eventstore';
import { type Kysely, sql } from 'kysely';
import { type Checkpoint, type GenerationRole, loadCheckpoints } from './checkpoints';
import { generationKeyOf, loadParkedSummaries, type ParkedEvent } from './parked';
import { CONTROL_SCHEMA, LOCK_PREFIX } from './schema';
import { sleep } from './signal';

export type ProjectorState = 'catching-up' | 'live' | 'rebuilding' | 'stopped';

export interface ProjectorStatus {
  name: string;
  version: number;
  generation: number;
  /** 'active' serves the read views; 'building' is a rebuild in progress. */
  role: GenerationRole;
  /** 'stopped' when no process holds the projector's lock. */
  state: ProjectorState;
  position: GlobalPosition;
  head: GlobalPosition;
  /** Events in the log after `position` (of any type), or null when the store cannot count them cheaply. */
  eventsBehind: number | null;
  eventsApplied: number;
  lastError: string | null;
  /** Events this generation's handler failed on, skipped so the rest was applied; 0 when healthy. */
  parkedCount: number;
  /** The first parked events (at most PARKED_LISTED), in log order. */
  parkedEvents: ParkedEvent[];
  updatedAt: Date;
}

export interface StatusOptions {
  /** Counts the events in (from, to]; the PostgreSQL store can, see `countPostgresEvents`. */
  countEvents?: (from: GlobalPosition, to: GlobalPosition) => Promise<number>;
}

/** Every generation of every projector that has run against this database. */
export async function projectionStatus(db: Kysely<unknown>, store: EventStore, options: StatusOptions = {}): Promise<ProjectorStatus[]> {
  const [rows, running, head, parked] = await Promise.all([loadCheckpoints(db), runningProjectors(db), store.headPosition(), loadParkedSummaries(db)]);
  const countEvents = options.countEvents ?? (store instanceof PostgresEventStore ? countPostgresEvents(db) : undefined);
  return Promise.all(
    rows.map(async (row) => ({
      name: row.projector,
      version: row.version,
      generation: row.generation,
      role: row.role,
      state: stateOf(row, running.has(row.projector)),
      position: row.position,
      head,
      eventsBehind: countEvents ? await countEvents(row.position, head).catch(() => null) : null,
      eventsApplied: row.eventsApplied,
      lastError: row.lastError,
      parkedCount: parked.get(generationKeyOf(row))?.count ?? 0,
      parkedEvents: parked.get(generationKeyOf(row))?.events ?? [],
      updatedAt: row.updatedAt,
    })),
  );
}

/**
 * Counts the PostgreSQL store's events in (from, to] over its (transaction_id, position) primary
 * key, for a store that lives in the same database as the read models.
 */
export function countPostgresEvents(db: Kysely<unknown>) {
  const xid = (position: GlobalPosition) => (position.commit < 0n ? 0n : position.commit).toString();
  return async (from: GlobalPosition, to: GlobalPosition): Promise<number> => {
    const { rows } = await sql<{ count: string }>`
      select count(*) as count from eventstore.events
      where (transaction_id, position) > (${xid(from)}::xid8, ${from.prepare.toString()}::bigint)
        and (transaction_id, position) <= (${xid(to)}::xid8, ${to.prepare.toString()}::bigint)`.execute(db);
    return Number(rows[0]?.count ?? 0);
  };
}

function stateOf(row: Checkpoint, running: boolean): ProjectorState {
  if (!running) return 'stopped';
  return row.role === 'building' ? 'rebuilding' : row.status;
}

/** Projectors whose advisory lock some session holds, i.e. that some process runs. */
async function runningProjectors(db: Kysely<unknown>): Promise<Set<string>> {
  // A bigint advisory key shows in pg_locks split into classid (high half) and objid (low half).
  const { rows } = await sql<{ projector: string }>`
    select distinct c.projector from ${sql.id(CONTROL_SCHEMA, 'checkpoints')} c
    join pg_locks l on l.locktype = 'advisory' and l.objsubid = 1 and l.granted
      and l.database = (select oid from pg_database where datname = current_database())
      and ((l.classid::bigint << 32) | l.objid::bigint) = hashtextextended(${LOCK_PREFIX} || c.projector, 0)`.execute(db);
  return new Set(rows.map((row) => row.projector));
}

/**
 * Waits until the projector's active generation is newer than `before` (a rebuild requested at
 * that generation has switched over), reporting progress on the way.
 */
export async function watchRebuild(
  db: Kysely<unknown>,
  store: EventStore,
  name: string,
  before: number,
  options: { onProgress?: (status: ProjectorStatus[]) => void; progressIntervalMs?: number; signal?: AbortSignal } = {},
): Promise<{ generation: number }> {
  for (;;) {
    options.signal?.throwIfAborted();
    const status = (await projectionStatus(db, store)).filter((row) => row.name === name);
    options.onProgress?.(status);
    const active = status.find((row) => row.role === 'active');
    if (active && active.generation > before) return { generation: active.generation };
    await sleep(options.progressIntervalMs ?? 250, options.signal);
  }
}
