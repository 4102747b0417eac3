import type { UserOccupationRow, UserRow } from '@eelarve/projections/accounts/queries';
import type { User } from '@eelarve/shared';
import type { SignInFacts } from './sign-in-facts';

const iso = (value: Date | null | undefined) => (value ? new Date(value).toISOString() : null);

/** A row of the users screen: the user, their occupations in this organisation and their sign-in bookkeeping. */
export function toUser(user: UserRow, organizationId: string, occupations: readonly UserOccupationRow[], facts: SignInFacts): User {
  const held = occupations.filter((occupation) => occupation.user_id === user.id);
  const signIn = facts.signIns.get(user.id);
  return {
    id: user.id,
    organizationId: user.organization_id,
    name: user.name,
    email: user.email,
    occupations: held.filter((occupation) => occupation.organization_id === organizationId).map(({ id, name, type }) => ({ id, name, type })),
    isAdmin: held.some((occupation) => occupation.type === 'ADMIN'),
    hasPassword: facts.hasPassword.has(user.id),
    mfaAdded: user.mfa_added,
    hasPersonalCode: user.has_personal_code,
    createdAt: user.registered_at.toISOString(),
    updatedAt: user.updated_at.toISOString(),
    confirmationSentAt: iso(facts.confirmations.get(user.id)),
    confirmedAt: iso(user.confirmed_at),
    signInCount: signIn?.sign_in_count ?? 0,
    currentSignInAt: iso(signIn?.current_sign_in_at),
    lastSignInAt: iso(signIn?.last_sign_in_at),
    lastSeen: iso(facts.lastSeen.get(user.id)),
  };
}
