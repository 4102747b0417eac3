import type { AppDatabase } from '../../infrastructure/database';
import { type AttemptKeys, isKnownAddress, type ThrottleKey, throttleKeys } from '../throttle/throttle';

/**
 * What a failed sign-in or MFA code counts against: the account from this address, the address,
 * and (unless the account signed in from this address before) the account from anywhere.
 */
async function attemptKeys(
  db: AppDatabase,
  account: ThrottleKey,
  accountFromAddress: ThrottleKey,
  userId: string | undefined,
  ip: string,
): Promise<AttemptKeys> {
  const known = await isKnownAddress(db, userId, ip);
  return { account: accountFromAddress, ip: throttleKeys.ip(ip), ...(known ? {} : { ceiling: account }) };
}

export const signInAttempt = (db: AppDatabase, username: string, userId: string | undefined, ip: string) =>
  attemptKeys(db, throttleKeys.login(username), throttleKeys.loginFrom(username, ip), userId, ip);

export const mfaAttempt = (db: AppDatabase, userId: string, ip: string) =>
  attemptKeys(db, throttleKeys.mfa(userId), throttleKeys.mfaFrom(userId, ip), userId, ip);
