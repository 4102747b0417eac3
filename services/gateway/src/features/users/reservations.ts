import { createHash, randomUUID } from 'node:crypto';
import { type EventStore, type StoredEvent, WrongExpectedRevisionError } from '@eelarve/eventstore';
import { DomainError, type ErrorCode } from '@eelarve/shared';
import { type Decider, type DomainEvent, foldEvents } from '@eelarve/domain';
import { type CommandActor, eventMetadata } from '../../infrastructure/commands';

/**
 * A value that must be unique (a user's e-mail, a role name within an organisation) is claimed
 * by appending to a stream named after the value, at the revision just read: of two concurrent
 * claims only one append succeeds, which a check against the (lagging) read models cannot give.
 *
 * A claim made by a request that then crashed before its own command would block the value
 * forever, so a claim older than STALE_AFTER_MS whose owner does not hold the value in its own
 * stream (the source of truth) is taken over.
 */
const RESERVED = 'UniqueValueReserved';
const RELEASED = 'UniqueValueReleased';
const STALE_AFTER_MS = 5 * 60_000;
const MAX_ATTEMPTS = 4;

interface Holder {
  ownerId: string;
  reservedAt: number;
}

/** Stream names stay short and free of user text: the value is hashed. */
export function reservationStream(prefix: string, value: string): string {
  return `${prefix}-${createHash('sha256').update(value, 'utf8').digest('hex')}`;
}

function holderOf(events: readonly StoredEvent[]): Holder | null {
  let holder: Holder | null = null;
  for (const event of events) {
    const data = event.data as { ownerId: string; reservedAt?: string };
    if (event.type === RESERVED) holder = { ownerId: data.ownerId, reservedAt: Date.parse(data.reservedAt ?? '') };
    else if (event.type === RELEASED && holder?.ownerId === data.ownerId) holder = null;
  }
  return holder;
}

export interface ReserveInput {
  stream: string;
  ownerId: string;
  actor: CommandActor;
  /** The error a taken value answers with. */
  conflict: ErrorCode;
  /** Whether `ownerId` really holds the value according to its own stream. */
  holds(ownerId: string): Promise<boolean>;
  now?: Date;
}

/** Claims the value for `ownerId`; a no-op when it already holds it. */
export async function reserve(store: EventStore, input: ReserveInput): Promise<void> {
  const now = input.now ?? new Date();
  for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
    const events = await store.readStream(input.stream);
    const holder = holderOf(events);
    if (holder?.ownerId === input.ownerId) return;
    if (holder && !(await isStale(holder, input, now))) throw new DomainError(input.conflict);
    const last = events.at(-1);
    const event = { id: randomUUID(), type: RESERVED, data: { ownerId: input.ownerId, reservedAt: now.toISOString() }, metadata: eventMetadata(input.actor, now) };
    try {
      await store.append(input.stream, [event], { expectedRevision: last ? last.revision : 'no_stream' });
      return;
    } catch (error) {
      // Someone else wrote in between: read again and decide on what is stored now.
      if (!(error instanceof WrongExpectedRevisionError)) throw error;
    }
  }
  throw new DomainError('CONCURRENT_MODIFICATION');
}

async function isStale(holder: Holder, input: ReserveInput, now: Date): Promise<boolean> {
  if (!(now.getTime() - holder.reservedAt > STALE_AFTER_MS)) return false;
  return !(await input.holds(holder.ownerId));
}

/** Gives the value up if `ownerId` holds it; otherwise nothing happens. */
export async function release(store: EventStore, input: { stream: string; ownerId: string; actor: CommandActor }): Promise<void> {
  for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
    const events = await store.readStream(input.stream);
    if (holderOf(events)?.ownerId !== input.ownerId) return;
    const event = { id: randomUUID(), type: RELEASED, data: { ownerId: input.ownerId }, metadata: eventMetadata(input.actor, new Date()) };
    try {
      await store.append(input.stream, [event], { expectedRevision: events.at(-1)!.revision });
      return;
    } catch (error) {
      if (!(error instanceof WrongExpectedRevisionError)) throw error;
    }
  }
}

/**
 * Decides a command on the stored state without appending. Run before claiming a unique value,
 * so a command that breaks another rule answers with that rule's code (not "name taken") and no
 * claim is made for nothing. The real command still decides again after the claim.
 */
export async function dryRun<Command, Event extends DomainEvent, State>(store: EventStore, decider: Decider<Command, Event, State>, command: Command): Promise<Event[]> {
  const stored = await store.readStream(decider.streamName(command));
  return decider.decide(command, foldEvents(decider, stored as unknown as Event[]));
}
