import { randomUUID } from 'node:crypto';
import type { Decider, DomainEvent } from '@eelarve/domain';
import { type EventStore, formatPosition, type GlobalPosition, parsePosition } from '@eelarve/eventstore';
import { DomainError } from '@eelarve/shared';
import { type Generated, type Kysely, type Migration, sql } from 'kysely';
import { withAdvisoryLock } from './advisory-lock';
import { commandTracing, traceCommand, traced } from './command-trace';
import { type CommandActor, executeCommand } from './commands';

/** What the runner gives a command as it is built: the clock and new ids (never read inside deciders). */
export interface CommandContext {
  now: Date;
  newId(): string;
}

/**
 * Writes whose rule spans several streams (no cycle among a document's sum budgets) run one at a
 * time under a named PostgreSQL advisory lock, and each is decided on read models that hold every
 * earlier write made under that lock: the last one's position is recorded and awaited first.
 */
export interface CommandLock {
  name: string;
}

export interface RunCommand<Command, Event extends DomainEvent, State> {
  decider: Decider<Command, Event, State>;
  /** The command, or a builder given the clock and new ids; under a lock it is built (its facts read) only once the lock is held. */
  command: Command | ((context: CommandContext) => Command | Promise<Command>);
  actor: CommandActor;
  /** The read models the caller's next screen reads: the answer waits (bounded) until they hold the change. */
  readModels: readonly string[];
  lock?: CommandLock;
  /** The id answered; by default the aggregate's id, taken from its stream name. */
  id?: string;
  /** Fixed ids for the events (the bootstrap's steps): appending them again is a no-op, not a duplicate. */
  eventIds?: string[];
}

export interface CommandResult<Event = DomainEvent, State = unknown> {
  id: string;
  /** Global position of the last event written, formatted for the API; null when nothing changed. */
  position: string | null;
  events: Event[];
  /** The state the command was decided on. */
  before: State;
}

/** What the runner needs of the projection engine (or of the checkpoints, where no engine runs). */
export interface PositionWaiter {
  waitForPosition(projectors: readonly string[], position: GlobalPosition, timeoutMs: number): Promise<boolean>;
}

export interface CommandRunner {
  run<Command, Event extends DomainEvent, State>(spec: RunCommand<Command, Event, State>): Promise<CommandResult<Event, State>>;
  /** Waits (bounded) until the read models hold `position`; for writes made outside `run` (claims, imports). */
  awaitReadModels(readModels: readonly string[], position: GlobalPosition | string | null, timeoutMs?: number): Promise<boolean>;
}

export interface CommandRunnerDependencies {
  store: EventStore;
  db: Kysely<unknown>;
  projections: PositionWaiter;
  readYourWritesTimeoutMs: number;
  clock?: () => Date;
  newId?: () => string;
}

/** The one place an API position is formatted. */
export const positionOf = (position: GlobalPosition | null): string | null => (position ? formatPosition(position) : null);

const UUID_AT_END = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function aggregateId(streamName: string): string {
  return UUID_AT_END.exec(streamName)?.[0] ?? streamName;
}

/**
 * The one way a command runs (emmett's `handle(store, id, state => decide(command, state))`):
 * build the command with the injected clock and ids, read the stream, decide, append at the
 * revision read, decide again on a lost race (jittered, bounded: commands.ts), and wait for the
 * read models the next screen reads. Routes reach it as `app.commands`; tasks and the worker
 * build their own with `createCommandRunner`.
 */
export function createCommandRunner(dependencies: CommandRunnerDependencies): CommandRunner {
  const { store, db, projections, readYourWritesTimeoutMs } = dependencies;
  const clock = dependencies.clock ?? (() => new Date());
  const newId = dependencies.newId ?? randomUUID;

  const awaitReadModels = async (readModels: readonly string[], position: GlobalPosition | string | null, timeoutMs = readYourWritesTimeoutMs) => {
    if (!position || readModels.length === 0) return true;
    const at = typeof position === 'string' ? parsePosition(position) : position;
    return at ? projections.waitForPosition(readModels, at, timeoutMs) : true;
  };

  async function decideAndAppend<Command, Event extends DomainEvent, State>(spec: RunCommand<Command, Event, State>) {
    const now = clock();
    const requestId = spec.actor.correlationId;
    const command =
      typeof spec.command === 'function'
        ? await traced(requestId, 'build', Promise.resolve((spec.command as (context: CommandContext) => Command | Promise<Command>)({ now, newId })))
        : spec.command;
    const outcome = await traced(
      requestId,
      'decideAndAppend',
      executeCommand(tracedStore(store, requestId), spec.decider, command, spec.actor, { now, eventIds: spec.eventIds }),
    );
    return { command, outcome };
  }

  /** Read-your-writes; traced, each read model is awaited as its own phase. */
  const awaitTraced = async (spec: { actor: CommandActor; readModels: readonly string[] }, position: GlobalPosition | null) => {
    const requestId = spec.actor.correlationId;
    if (!commandTracing || !position) return awaitReadModels(spec.readModels, position);
    const each = spec.readModels.map((name) => traced(requestId, `wait.${name}`, awaitReadModels([name], position)));
    return (await Promise.all(each)).every(Boolean);
  };

  async function underLock<Command, Event extends DomainEvent, State>(spec: RunCommand<Command, Event, State>, lock: CommandLock) {
    return withAdvisoryLock(db, `eelarve.commands:${lock.name}`, async (connection) => {
      const previous = await lastWriteUnder(connection, lock.name);
      if (previous && !(await projections.waitForPosition(spec.readModels, previous, readYourWritesTimeoutMs))) {
        throw new DomainError('SERVICE_UNAVAILABLE', 'the read models are behind; try again');
      }
      const decided = await decideAndAppend(spec);
      if (decided.outcome.position) await recordWriteUnder(connection, lock.name, decided.outcome.position);
      return decided;
    });
  }

  return {
    awaitReadModels,
    async run(spec) {
      traceCommand(spec.actor.correlationId);
      const { command, outcome } = spec.lock ? await underLock(spec, spec.lock) : await decideAndAppend(spec);
      await awaitTraced(spec, outcome.position);
      return {
        id: spec.id ?? aggregateId(spec.decider.streamName(command)),
        position: positionOf(outcome.position),
        events: outcome.events,
        before: outcome.before as never,
      };
    },
  };
}

/** The store with its stream reads and appends timed as phases of the request (when tracing). */
function tracedStore(store: EventStore, requestId: string): EventStore {
  if (!commandTracing) return store;
  return Object.assign(Object.create(store) as EventStore, {
    readStream: (...args: Parameters<EventStore['readStream']>) => traced(requestId, 'stream.read', store.readStream(...args)),
    append: (...args: Parameters<EventStore['append']>) => traced(requestId, 'stream.append', store.append(...args)),
  });
}

type LockTables = { 'operational.serialised_writes': SerialisedWritesTable };

async function lastWriteUnder(db: Kysely<unknown>, name: string): Promise<GlobalPosition | null> {
  const row = await (db as unknown as Kysely<LockTables>)
    .selectFrom('operational.serialised_writes')
    .select('position')
    .where('lock_name', '=', name)
    .executeTakeFirst();
  return row ? parsePosition(row.position) : null;
}

async function recordWriteUnder(db: Kysely<unknown>, name: string, position: GlobalPosition): Promise<void> {
  const formatted = formatPosition(position);
  await (db as unknown as Kysely<LockTables>)
    .insertInto('operational.serialised_writes')
    .values({ lock_name: name, position: formatted })
    .onConflict((conflict) => conflict.column('lock_name').doUpdateSet({ position: formatted, written_at: new Date() }))
    .execute();
}

export interface SerialisedWritesTable {
  lock_name: string;
  position: string;
  written_at: Generated<Date>;
}

export interface CommandRunnerTables {
  'operational.serialised_writes': SerialisedWritesTable;
}

export const commandRunnerMigrations: Record<string, Migration> = {
  // The global position of the latest write under each command lock (CommandLock).
  '2026-11-25-commands-001-serialised-writes': {
    async up(db: Kysely<unknown>) {
      await sql`
        create table operational.serialised_writes (
          lock_name text primary key,
          position text not null,
          written_at timestamptz not null default now()
        )`.execute(db);
      // Carries over the sum-budget lock's record, so the first write after the upgrade still waits.
      await sql`
        insert into operational.serialised_writes (lock_name, position, written_at)
        select 'budget-components:' || document_id, position, written_at from operational.budget_component_writes`.execute(db);
    },
  },
};
