import { foldEvents, normaliseEmail, type UserEvent, userDecider, userStream } from '@eelarve/domain';
import type { EventStore } from '@eelarve/eventstore';
import { DomainError } from '@eelarve/shared';
import type { FastifyInstance } from 'fastify';
import type { CommandActor } from '../../infrastructure/commands';
import { readModels } from '../../infrastructure/database';
import { release, reservationStream, reserve } from './reservations';

/**
 * E-mail uniqueness among users (case-insensitive, spec 1 section 5), safe under concurrent
 * requests. Use it around every command that gives a user an e-mail:
 *
 *   await reserveEmail(app, { email: newEmail, userId, actor });      // EMAIL_IN_USE if taken
 *   try { await runCommand(...ChangeEmail...) } catch (e) { await releaseEmail(app, { email: newEmail, userId, actor }); throw e; }
 *   await releaseEmail(app, { email: oldEmail, userId, actor });
 */
export interface EmailClaim {
  email: string;
  userId: string;
  actor: CommandActor;
}

export const emailReservationStream = (email: string) => reservationStream('useremail', normaliseEmail(email));

async function userHoldsEmail(store: EventStore, userId: string, email: string): Promise<boolean> {
  const state = foldEvents(userDecider, (await store.readStream(userStream(userId))) as unknown as UserEvent[]);
  return state.status === 'active' && state.email === normaliseEmail(email);
}

/**
 * Users registered before reservations existed (the bootstrap administrator) have no claim; the
 * read model finds them, and their own stream confirms they still hold the address.
 */
async function assertNoUnclaimedHolder(app: FastifyInstance, claim: EmailClaim): Promise<void> {
  const rows = await readModels(app.db)
    .selectFrom('users')
    .select('id')
    .where((eb) => eb(eb.fn('lower', ['email']), '=', normaliseEmail(claim.email)))
    .where('id', '!=', claim.userId)
    .execute();
  for (const row of rows) {
    if (await userHoldsEmail(app.store, row.id, claim.email)) throw new DomainError('EMAIL_IN_USE');
  }
}

/** Claims the e-mail for the user, or throws EMAIL_IN_USE. A no-op if the user already holds it. */
export async function reserveEmail(app: FastifyInstance, claim: EmailClaim): Promise<void> {
  await assertNoUnclaimedHolder(app, claim);
  await reserve(app.store, {
    stream: emailReservationStream(claim.email),
    ownerId: claim.userId,
    actor: claim.actor,
    conflict: 'EMAIL_IN_USE',
    holds: (ownerId) => userHoldsEmail(app.store, ownerId, claim.email),
  });
}

/** Frees the e-mail after the user changed it or was deleted (or a command failed after reserving). */
export async function releaseEmail(app: FastifyInstance, claim: EmailClaim): Promise<void> {
  await release(app.store, { stream: emailReservationStream(claim.email), ownerId: claim.userId, actor: claim.actor });
}
