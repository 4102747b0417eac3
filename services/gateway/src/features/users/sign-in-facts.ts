import type { AppDatabase } from '../../infrastructure/database';
import { confirmationSentAt } from '../registration/confirmation';

/** What the users list shows of each user's sign-in bookkeeping (operational tables, not read models). */
export interface SignInFacts {
  hasPassword: Set<string>;
  signIns: Map<string, { sign_in_count: number; current_sign_in_at: Date | null; last_sign_in_at: Date | null }>;
  lastSeen: Map<string, Date>;
  confirmations: Map<string, Date>;
}

/** Passwords, sign-in counts, last activity and confirmation mails of the users, by user id. */
export async function signInFacts(db: AppDatabase, userIds: string[]): Promise<SignInFacts> {
  if (userIds.length === 0) return { hasPassword: new Set(), signIns: new Map(), lastSeen: new Map(), confirmations: new Map() };
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
