import { randomUUID } from 'node:crypto';
import { type Decider, type DomainEvent, foldEvents } from '@eelarve/domain';
import { type EventMetadata, type EventStore, type GlobalPosition, WrongExpectedRevisionError } from '@eelarve/eventstore';
import { DomainError } from '@eelarve/shared';

/** Who runs a command and why: copied into every event's metadata. */
export interface CommandActor {
  correlationId: string;
  causationId?: string | null;
  userId: string | null;
  occupationId: string | null;
  organizationId: string | null;
}

export interface CommandOutcome<Event, State = unknown> {
  events: Event[];
  /** Global position of the last event written; null when the command changed nothing. */
  position: GlobalPosition | null;
  /** The state the command was decided on (what the aggregate held just before its events). */
  before?: State;
}

const SCHEMA_VERSION = 1;

/**
 * A write that lost a race (another append got to the stream first) is decided again on the
 * fresh state until this much time has passed; only then does it answer CONCURRENT_MODIFICATION.
 * A real conflict of intent is the decider refusing on the fresh state, with its own code.
 */
export const CONFLICT_RETRY_DEADLINE_MS = 5_000;
const BACKOFF_BASE_MS = 4;
const BACKOFF_CAP_MS = 250;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Runs `attempt` until it does not lose a race (WrongExpectedRevisionError), pausing
 * between attempts with exponential backoff and full jitter, so that many writers of one stream
 * spread out instead of colliding again in step. Past the deadline: CONCURRENT_MODIFICATION.
 */
export async function retryOnConflict<T>(attempt: () => Promise<T>, deadlineMs = CONFLICT_RETRY_DEADLINE_MS): Promise<T> {
  const deadline = Date.now() + deadlineMs;
  for (let round = 0; ; round++) {
    try {
      return await attempt();
    } catch (error) {
      if (!(error instanceof WrongExpectedRevisionError)) throw error;
      const pause = Math.random() * Math.min(BACKOFF_CAP_MS, BACKOFF_BASE_MS * 2 ** round);
      if (Date.now() + pause >= deadline) throw new DomainError('CONCURRENT_MODIFICATION');
      await sleep(pause);
    }
  }
}

export function eventMetadata(actor: CommandActor, now: Date): EventMetadata {
  return {
    correlationId: actor.correlationId,
    causationId: actor.causationId ?? null,
    userId: actor.userId,
    occupationId: actor.occupationId,
    organizationId: actor.organizationId,
    occurredAt: now.toISOString(),
    schemaVersion: SCHEMA_VERSION,
  };
}

/**
 * Loads the aggregate's stream, lets the decider decide, and appends at the revision it read.
 * When another writer got there first the command is decided again on the fresh state (after a
 * jittered pause, until the deadline), so a rule is always checked against what is really stored.
 */
export async function executeCommand<Command, Event extends DomainEvent, State>(
  store: EventStore,
  decider: Decider<Command, Event, State>,
  command: Command,
  actor: CommandActor,
  options: { eventIds?: string[]; now?: Date } = {},
): Promise<CommandOutcome<Event, State>> {
  const stream = decider.streamName(command);
  return retryOnConflict(async () => {
    const stored = await store.readStream(stream);
    const state = foldEvents(decider, stored as unknown as Event[]);
    const events = decider.decide(command, state);
    if (events.length === 0) return { events, position: null, before: state };
    const metadata = eventMetadata(actor, options.now ?? new Date());
    const toAppend = events.map((event, index) => ({ id: options.eventIds?.[index] ?? randomUUID(), type: event.type, data: event.data, metadata }));
    const last = stored.at(-1);
    const result = await store.append(stream, toAppend, { expectedRevision: last ? last.revision : 'no_stream' });
    return { events, position: result.position, before: state };
  });
}
