import type { User } from '@eelarve/shared';
import type { ExpressionBuilder } from 'kysely';
import type { ReadModels } from '@eelarve/projections/read-models';
import { type AppDatabase, readModels } from '../../infrastructure/database';
import { confirmationSentAt } from '../registration/confirmation';

/**
 * A user belongs to an organisation if they were registered there or hold an occupation there
 * (a platform administrator's ADMIN occupation, say). Only the organisation that registered a
 * user may edit or delete them: another organisation's user administrators must not be able to
 * rename them or redirect their e-mail.
 */
function memberOf(organizationId: string) {
  return (eb: ExpressionBuilder<ReadModels, 'users'>) =>
    eb.or([eb('users.organization_id', '=', organizationId), eb('users.id', 'in', eb.selectFrom('occupations').select('occupations.user_id').where('occupations.organization_id', '=', organizationId))]);
}

export async function findMember(db: AppDatabase, organizationId: string, userId: string) {
  return readModels(db).selectFrom('users').selectAll().where('users.id', '=', userId).where(memberOf(organizationId)).executeTakeFirst();
}

export async function isMember(db: AppDatabase, organizationId: string, userId: string): Promise<boolean> {
  return Boolean(await findMember(db, organizationId, userId));
}

/** Occupations the user holds in any organisation: the delete and edit rules look at all of them. */
export async function heldOccupations(db: AppDatabase, userId: string): Promise<{ any: boolean; admin: boolean }> {
  const rows = await readModels(db).selectFrom('occupations').select('type').where('user_id', '=', userId).execute();
  return { any: rows.length > 0, admin: rows.some((row) => row.type === 'ADMIN') };
}

export async function listUserNames(db: AppDatabase, organizationId: string): Promise<Array<{ id: string; name: string }>> {
  return readModels(db).selectFrom('users').select(['users.id', 'users.name']).where(memberOf(organizationId)).orderBy('users.name').orderBy('users.id').execute();
}

/** Sign-in bookkeeping of the users (operational tables), by user id. */
async function signInFacts(db: AppDatabase, userIds: string[]) {
  const [credentials, signIns, sessions, confirmations] = await Promise.all([
    db.selectFrom('operational.credentials').select('user_id').where('user_id', 'in', userIds).execute(),
    db.selectFrom('operational.sign_ins').selectAll().where('user_id', 'in', userIds).execute(),
    db
      .selectFrom('operational.sessions')
      .select(['user_id', (eb) => eb.fn.max('last_seen_at').as('last_seen')])
      .where('user_id', 'in', userIds)
      .groupBy('user_id')
      .execute(),
    confirmationSentAt(db, userIds),
  ]);
  return {
    hasPassword: new Set(credentials.map((row) => row.user_id)),
    signIns: new Map(signIns.map((row) => [row.user_id, row])),
    lastSeen: new Map(sessions.map((row) => [row.user_id, row.last_seen as Date])),
    confirmations,
  };
}

const iso = (value: Date | null | undefined) => (value ? new Date(value).toISOString() : null);

/** GET api/organization/{id}/users: the users list with each user's occupations in this organisation. */
export async function listUsers(db: AppDatabase, organizationId: string): Promise<User[]> {
  const users = await readModels(db).selectFrom('users').selectAll().where(memberOf(organizationId)).orderBy('users.name').orderBy('users.id').execute();
  if (users.length === 0) return [];
  const ids = users.map((user) => user.id);
  const [occupations, facts] = await Promise.all([
    readModels(db).selectFrom('occupations').select(['id', 'name', 'type', 'user_id', 'organization_id']).where('user_id', 'in', ids).orderBy('name').execute(),
    signInFacts(db, ids),
  ]);
  return users.map((user) => {
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
  });
}
