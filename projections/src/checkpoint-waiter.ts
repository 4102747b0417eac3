import { comparePositions, type GlobalPosition } from '@eelarve/eventstore';
import type { Kysely } from 'kysely';
import { loadActivePositions } from './checkpoints';

export interface CheckpointWaiter {
  /** Resolves true once each named projector's active generation has applied everything up to `position`. */
  waitForPosition(projectors: readonly string[], position: GlobalPosition, timeoutMs: number): Promise<boolean>;
}

/**
 * Read-your-writes for a process that runs no projectors (the worker, an API-only gateway): it
 * watches the projectors' checkpoints until they pass a position.
 */
export function checkpointWaiter(db: Kysely<unknown>, pollMs = 25): CheckpointWaiter {
  const reached = async (projectors: readonly string[], position: GlobalPosition) => {
    const positions = await loadActivePositions(db, projectors);
    return projectors.every((name) => {
      const at = positions.get(name);
      return at !== undefined && comparePositions(at, position) >= 0;
    });
  };
  return {
    async waitForPosition(projectors, position, timeoutMs) {
      const deadline = Date.now() + timeoutMs;
      while (Date.now() < deadline) {
        if (await reached(projectors, position)) return true;
        await new Promise((resolve) => setTimeout(resolve, pollMs));
      }
      return false;
    },
  };
}
