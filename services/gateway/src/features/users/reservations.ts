import { createHash, randomUUID } from 'node:crypto';
import { type Decider, type DomainEvent, foldEvents } from '@eelarve/domain';
import type { EventStore, StoredEvent } from '@eelarve/eventstore';
import { DomainError, type ErrorCode } from '@eelarve/shared';
import { type CommandActor, eventMetadata, retryOnConflict } from '../../infrastructure/commands';

/**
 * A value that must be unique (a user's e-mail, a role name within an organisation, a classifier's
 * field name within a document) is claimed by appending to a stream named after the value, at
 * the revision just read: of two concurrent claims only one append succeeds, which a check
 * against the (lagging) read models cannot give.
 *
 * The owner's own stream (role, user, classifier) and the reservation stream cannot be written
 * in one append, so the reservation records every request that is about to give the owner the
 * value as a pending claim (with its own claim id), and that request settles its claim when its
 * command is done, whether it succeeded or not. A release is decided on the reservation stream at
 * the revision read, and only when
 *   - the owner asking is the holder,
 *   - no other request of that owner has a pending claim on the value (it may be committing the
 *     value into the owner's stream right now), and
 *   - the owner's own stream, read after the reservation stream, no longer carries the value.
 * A request that claims after that read moves the revision, so the release append fails and is
 * decided again. So a stale request can no longer free a name that its owner was given back in
 * the meantime, nor a failed request a name that a sibling request of the same owner committed.
 *
 * A claim made by a request that then crashed would block the value, so a holder whose last claim
 * is older than STALE_AFTER_MS and who does not carry the value in its own stream is taken over,
 * and pending claims older than that no longer hold a release back.
 */
const RESERVED = 'UniqueValueReserved';
const SETTLED = 'UniqueValueClaimSettled';
const RELEASED = 'UniqueValueReleased';
export const STALE_AFTER_MS = 5 * 60_000;

interface Holder {
  ownerId: string;
  lastClaimAt: number;
  /** Claims of requests still running: claim id -> when it was made. */
  pending: Map<string, number>;
}

/** Stream names stay short and free of user text: the value is hashed. */
export function reservationStream(prefix: string, value: string): string {
  return `${prefix}-${createHash('sha256').update(value, 'utf8').digest('hex')}`;
}

/** Claims from before claim ids existed have none: they count as settled. */
function holderOf(events: readonly StoredEvent[]): Holder | null {
  let holder: Holder | null = null;
  for (const event of events) {
    const data = event.data as { ownerId: string; reservedAt?: string; claimId?: string };
    const mine = holder?.ownerId === data.ownerId;
    if (event.type === RESERVED) {
      const at = Date.parse(data.reservedAt ?? '');
      if (!holder || !mine) holder = { ownerId: data.ownerId, lastClaimAt: at, pending: new Map() };
      holder.lastClaimAt = at;
      if (data.claimId) holder.pending.set(data.claimId, at);
    } else if (event.type === SETTLED && holder && mine && data.claimId) holder.pending.delete(data.claimId);
    else if (event.type === RELEASED && mine) holder = null;
  }
  return holder;
}

/** A kind of unique value: how its reservation stream is named and how an owner carries it. */
export interface UniqueValueKind {
  stream(value: string): string;
  /** The error a taken value answers with. */
  conflict: ErrorCode;
  /** Whether `ownerId` carries the value according to its own stream (the source of truth). */
  carries(ownerId: string, value: string): Promise<boolean>;
  /** Throws `conflict` when another owner carries the value without a claim (made before claims existed). */
  assertNoUnclaimedHolder?(value: string, ownerId: string): Promise<void>;
}

export interface Claim {
  value: string;
  ownerId: string;
  claimId: string;
  actor: CommandActor;
}

interface ClaimInput {
  value: string;
  ownerId: string;
  actor: CommandActor;
  now?: Date;
}

const appendOne = (
  store: EventStore,
  stream: string,
  events: readonly StoredEvent[],
  type: string,
  data: Record<string, unknown>,
  actor: CommandActor,
  now: Date,
) =>
  store.append(stream, [{ id: randomUUID(), type, data, metadata: eventMetadata(actor, now) }], { expectedRevision: events.at(-1)?.revision ?? 'no_stream' });

/**
 * Claims the value for the owner (a pending claim, also when the owner holds it already), or
 * throws the kind's conflict. The caller must `settle` the claim when its command is done.
 */
export async function claim(store: EventStore, kind: UniqueValueKind, input: ClaimInput): Promise<Claim> {
  await kind.assertNoUnclaimedHolder?.(input.value, input.ownerId);
  const stream = kind.stream(input.value);
  const claimId = randomUUID();
  await retryOnConflict(async () => {
    const now = input.now ?? new Date();
    const events = await store.readStream(stream);
    const holder = holderOf(events);
    if (holder && holder.ownerId !== input.ownerId && !(await isAbandoned(kind, holder, input.value, now))) throw new DomainError(kind.conflict);
    await appendOne(store, stream, events, RESERVED, { ownerId: input.ownerId, claimId, reservedAt: now.toISOString() }, input.actor, now);
  });
  return { value: input.value, ownerId: input.ownerId, claimId, actor: input.actor };
}

async function isAbandoned(kind: UniqueValueKind, holder: Holder, value: string, now: Date): Promise<boolean> {
  if (now.getTime() - holder.lastClaimAt <= STALE_AFTER_MS) return false;
  return !(await kind.carries(holder.ownerId, value));
}

/**
 * Ends the owner's claim `claimId` (if given) and releases the value when the owner no longer
 * carries it and no other claim of the owner is pending; otherwise only the claim is settled.
 * Without a claim id it releases a value the owner used to carry (after a rename or a delete).
 */
export async function settle(
  store: EventStore,
  kind: UniqueValueKind,
  input: { value: string; ownerId: string; actor: CommandActor; claimId?: string },
): Promise<void> {
  const stream = kind.stream(input.value);
  await retryOnConflict(async () => {
    const now = new Date();
    const events = await store.readStream(stream);
    const holder = holderOf(events);
    if (holder?.ownerId !== input.ownerId) return;
    const ownClaim = input.claimId !== undefined && holder.pending.has(input.claimId);
    if (ownClaim) holder.pending.delete(input.claimId as string);
    const othersPending = [...holder.pending.values()].some((at) => now.getTime() - at <= STALE_AFTER_MS);
    // Read after the reservation stream: a claim made since moves its revision and fails this append.
    const release = !othersPending && !(await kind.carries(input.ownerId, input.value));
    if (release) await appendOne(store, stream, events, RELEASED, { ownerId: input.ownerId }, input.actor, now);
    else if (ownClaim) await appendOne(store, stream, events, SETTLED, { ownerId: input.ownerId, claimId: input.claimId }, input.actor, now);
  });
}

/** The values compare equal for the kind (same reservation stream), e.g. a change of case. */
export const sameValue = (kind: UniqueValueKind, a: string, b: string) => kind.stream(a) === kind.stream(b);

/**
 * Gives the owner `value` by running `work` (its command, through the command runner) under a claim: claims, runs, settles the
 * claim whatever happened, and after success releases the value the owner carried before (taken
 * from the state the command was decided on, not from a possibly stale read model).
 */
export async function withClaim<State, Outcome extends { before?: State }>(
  store: EventStore,
  kind: UniqueValueKind,
  input: ClaimInput & { formerValue?: (before: State | undefined) => string | null },
  work: () => Promise<Outcome>,
): Promise<Outcome> {
  const claimed = await claim(store, kind, input);
  let outcome: Outcome;
  try {
    outcome = await work();
  } catch (error) {
    // The command's own error is the answer; a claim left pending expires (STALE_AFTER_MS).
    await settle(store, kind, claimed).catch(() => undefined);
    throw error;
  }
  await settle(store, kind, claimed);
  const former = input.formerValue?.(outcome.before) ?? null;
  if (former !== null && !sameValue(kind, former, input.value)) await settle(store, kind, { value: former, ownerId: input.ownerId, actor: input.actor });
  return outcome;
}

/**
 * Decides a command on the stored state without appending. Run before claiming a unique value,
 * so a command that breaks another rule answers with that rule's code (not "name taken") and no
 * claim is made for nothing. The real command still decides again after the claim.
 */
export async function dryRun<Command, Event extends DomainEvent, State>(
  store: EventStore,
  decider: Decider<Command, Event, State>,
  command: Command,
): Promise<Event[]> {
  const stored = await store.readStream(decider.streamName(command));
  return decider.decide(command, foldEvents(decider, stored as unknown as Event[]));
}
