import { comparePositions, type GlobalPosition } from '@eelarve/eventstore';
import { type Kysely, sql } from 'kysely';
import { loadActivePositions } from './checkpoints';
import { productProjectors } from './registry';
import { sleep } from './signal';

export interface CheckpointWaiter {
  /** Resolves true once each named projector's active generation has applied everything up to `position` (false after the timeout or the abort). */
  waitForPosition(projectors: readonly string[], position: GlobalPosition, timeoutMs: number, abort?: AbortSignal): Promise<boolean>;
}

/** The event types each projector handles; another projector's events never hold it back. */
export type EventTypesOf = (projector: string) => readonly string[] | undefined;

const productEventTypes = new Map(productProjectors.map((projector) => [projector.name, projector.eventTypes]));

/**
 * Read-your-writes for a process that runs no projectors (the worker, an API-only gateway): it
 * watches the projectors' checkpoints until they pass a position. A projector whose checkpoint
 * is behind also counts once no event of its types lies between its checkpoint and the position
 * (and every transaction up to the position has ended, so none can still add one): the engine
 * stores progress over other features' events only once the log is quiet, up to a second late.
 */
export function checkpointWaiter(db: Kysely<unknown>, pollMs = 25, eventTypesOf: EventTypesOf = (name) => productEventTypes.get(name)): CheckpointWaiter {
  const reached = async (projectors: readonly string[], position: GlobalPosition) => {
    const positions = await loadActivePositions(db, projectors);
    for (const name of projectors) {
      const at = positions.get(name);
      if (at === undefined) return false;
      if (comparePositions(at, position) >= 0) continue;
      const types = eventTypesOf(name);
      if (!types || !(await noneBetween(db, at, position, types))) return false;
    }
    return true;
  };
  return {
    async waitForPosition(projectors, position, timeoutMs, abort) {
      const deadline = Date.now() + timeoutMs;
      while (Date.now() < deadline && !abort?.aborted) {
        if (await reached(projectors, position)) return true;
        await sleep(pollMs, abort);
      }
      return false;
    },
  };
}

/**
 * Whether the log holds no event of `types` in (from, to], with every transaction up to `to`
 * ended. Reads the PostgreSQL store's table (its primary key orders the log); with another store
 * the query fails and the answer is no (the checkpoint alone decides).
 */
async function noneBetween(db: Kysely<unknown>, from: GlobalPosition, to: GlobalPosition, types: readonly string[]): Promise<boolean> {
  // A checkpoint at START (-1) holds nothing yet: as xid8 '-1' reads as 2^64 - 1, above every event.
  if (from.commit < 0n) from = { commit: 0n, prepare: -1n };
  try {
    const { rows } = await sql<{ clear: boolean }>`
      select ${to.commit.toString()}::xid8 < pg_snapshot_xmin(pg_current_snapshot())
        and not exists (
          select 1 from eventstore.events e
          where (e.transaction_id, e.position) > (${from.commit.toString()}::xid8, ${from.prepare.toString()}::bigint)
            and (e.transaction_id, e.position) <= (${to.commit.toString()}::xid8, ${to.prepare.toString()}::bigint)
            and e.type = any(${[...types]}::text[])) as clear`.execute(db);
    return rows[0]?.clear === true;
  } catch {
    return false;
  }
}
