import { foldEvents, normaliseEmail, type UserEvent, type UserState, userDecider, userStream } from '@eelarve/domain';
import type { EventStore } from '@eelarve/eventstore';
import { otherUsersWithEmail } from '@eelarve/projections/accounts/queries';
import { DomainError } from '@eelarve/shared';
import type { FastifyInstance } from 'fastify';
import type { CommandActor } from '../../infrastructure/commands';
import { readModels } from '../../infrastructure/database';
import { reservationStream, settle, type UniqueValueKind, withClaim } from './reservations';

/**
 * E-mail uniqueness among users (case-insensitive, spec 1 section 5), safe under concurrent
 * requests. Run every command that gives a user an e-mail inside `withEmail`:
 *
 *   await withEmail(app, { email: newEmail, userId, actor }, () => app.commands.run(...ChangeEmail...));  // EMAIL_IN_USE if taken
 *
 * and after a user is deleted, `releaseEmailOf(app, result, { userId, actor })`.
 */
export interface EmailClaim {
  email: string;
  userId: string;
  actor: CommandActor;
}

export const emailReservationStream = (email: string) => reservationStream('useremail', normaliseEmail(email));

export async function userState(store: EventStore, userId: string): Promise<UserState> {
  return foldEvents(userDecider, (await store.readStream(userStream(userId))) as unknown as UserEvent[]);
}

const emailOf = (state: UserState | undefined) => (state?.status === 'active' ? state.email : null);

export function emails(app: FastifyInstance): UniqueValueKind {
  const carries = async (userId: string, email: string) => emailOf(await userState(app.store, userId)) === normaliseEmail(email);
  return {
    stream: emailReservationStream,
    conflict: 'EMAIL_IN_USE',
    carries,
    // Users registered before reservations existed (the bootstrap administrator) have no claim; the
    // read model finds them, and their own stream confirms they still hold the address.
    async assertNoUnclaimedHolder(email, userId) {
      for (const holder of await otherUsersWithEmail(readModels(app.db), normaliseEmail(email), userId)) {
        if (await carries(holder, email)) throw new DomainError('EMAIL_IN_USE');
      }
    },
  };
}

/** Runs the user's command with the e-mail claimed (EMAIL_IN_USE if taken); afterwards the former address is free. */
export function withEmail<Outcome extends { before?: UserState }>(app: FastifyInstance, claim: EmailClaim, work: () => Promise<Outcome>): Promise<Outcome> {
  return withClaim(app.store, emails(app), { value: claim.email, ownerId: claim.userId, actor: claim.actor, formerValue: emailOf }, work);
}

/** After a delete: frees the address the user had when the delete was decided. */
export async function releaseEmailOf(app: FastifyInstance, outcome: { before?: UserState }, owner: Omit<EmailClaim, 'email'>): Promise<void> {
  const email = emailOf(outcome.before);
  if (email !== null) await settle(app.store, emails(app), { value: email, ownerId: owner.userId, actor: owner.actor });
}
