import type { StoredEvent } from '@eelarve/eventstore';
import type { Kysely } from 'kysely';

// biome-ignore lint/suspicious/noExplicitAny: read-model tables are typed by each projector's own code, not by the engine.
export type AnyDb = any;

export interface Projector<DB = AnyDb> {
  /** Lower-case identifier, unique in the product: it names the lock, checkpoint and schemas. */
  readonly name: string;
  /** Bump it whenever `migrate` or `handle` changes meaning: the engine then rebuilds from zero. */
  readonly version: number;
  readonly eventTypes: readonly string[];
  /**
   * Every table `migrate` creates. Each one is served to queries as the view `read.<table>`,
   * so table names must be unique across all projectors.
   */
  readonly tables: readonly string[];
  /**
   * Creates the tables of one fresh generation. `db` is a transaction scoped (withSchema and
   * search_path) to that generation's schema; there is no migration history because a changed
   * shape is a new version, built from scratch.
   */
  migrate(db: Kysely<DB>): Promise<void>;
  /**
   * Applies a batch of events (already filtered to `eventTypes`, in global order) inside the
   * transaction that also advances the checkpoint. Prefer set-based writes (one statement per
   * batch with unnest) over one statement per event.
   */
  handle(events: StoredEvent[], db: Kysely<DB>): Promise<void>;
  /**
   * Projectors that go first on bulk pages (an import's chunk events): before applying such a
   * page the runner waits, for a bounded time, until each of them that is active has applied it.
   * On two cores a read model no command waits on would otherwise take half the CPU from the one
   * an import's user waits on, and both would finish late.
   */
  readonly yieldsTo?: readonly string[];
}

const NAME = /^[a-z][a-z0-9_]{0,39}$/;
const TABLE = /^[a-z][a-z0-9_]{0,62}$/;

export function defineProjector<DB = AnyDb>(projector: Projector<DB>): Projector<DB> {
  if (!NAME.test(projector.name)) throw new Error(`projector name ${projector.name} must match ${NAME}`);
  if (!Number.isInteger(projector.version) || projector.version < 1) {
    throw new Error(`projector ${projector.name}: version must be a positive integer`);
  }
  if (projector.eventTypes.length === 0) throw new Error(`projector ${projector.name} handles no event types`);
  if (projector.tables.length === 0) throw new Error(`projector ${projector.name} declares no tables`);
  for (const table of projector.tables) {
    if (!TABLE.test(table)) throw new Error(`projector ${projector.name}: table name ${table} must match ${TABLE}`);
  }
  return projector;
}

/** The `read` views form one namespace, so two projectors may not declare the same table. */
export function assertDistinctTables(projectors: readonly Projector[]): void {
  const owners = new Map<string, string>();
  const names = new Set<string>();
  for (const projector of projectors) {
    if (names.has(projector.name)) throw new Error(`projector ${projector.name} is registered twice`);
    names.add(projector.name);
    for (const table of projector.tables) {
      const owner = owners.get(table);
      if (owner) throw new Error(`table ${table} is declared by both ${owner} and ${projector.name}`);
      owners.set(table, projector.name);
    }
  }
}
