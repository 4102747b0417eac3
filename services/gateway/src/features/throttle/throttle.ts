import { DomainError } from '@eelarve/shared';
import { sql } from 'kysely';
import type { AppDatabase } from '../../infrastructure/database';

/**
 * Counting failures (wrong password, wrong MFA code) in fixed windows, in a table so every
 * gateway replica sees the same counts. An account key is derived from what the caller typed
 * (the e-mail), so an unknown address is throttled exactly like a known one and reveals nothing.
 *
 * Who is counted, and why:
 * - the account from one address (5): guessing from one place stops there, and it cannot lock
 *   the owner out, who signs in from another address;
 * - one address whatever the account (20): one place guessing many accounts;
 * - the account from anywhere (100, the ceiling against distributed guessing): every address
 *   adds at most 5, so reaching it takes 20 addresses, and it never applies to an address the
 *   account has signed in from before (operational.sign_ins), so even then the owner at their
 *   usual place is not locked out; only a new place waits out the window.
 */
export const THROTTLE_WINDOW_MS = 15 * 60 * 1000;
export const ACCOUNT_FAILURE_LIMIT = 5;
export const IP_FAILURE_LIMIT = 20;
export const ACCOUNT_CEILING = 100;

export interface ThrottleKey {
  key: string;
  limit: number;
}

/** A key per account and address: the account's key with the address appended (cleared with it). */
const fromAddress = (account: ThrottleKey, ip: string): ThrottleKey => ({ key: `${account.key}|ip:${ip}`, limit: ACCOUNT_FAILURE_LIMIT });

export const throttleKeys = {
  /** Password sign-in, by the e-mail typed, from anywhere (the ceiling). */
  login: (email: string): ThrottleKey => ({ key: `login:${email.trim().toLowerCase()}`, limit: ACCOUNT_CEILING }),
  /** Password sign-in, by the e-mail typed, from one address. */
  loginFrom: (email: string, ip: string): ThrottleKey => fromAddress(throttleKeys.login(email), ip),
  /** MFA codes, by user, from anywhere (the ceiling). */
  mfa: (userId: string): ThrottleKey => ({ key: `mfa:${userId}`, limit: ACCOUNT_CEILING }),
  /** MFA codes, by user, from one address. */
  mfaFrom: (userId: string, ip: string): ThrottleKey => fromAddress(throttleKeys.mfa(userId), ip),
  /** The current password on change-password, by user (a signed-in session asks). */
  currentPassword: (userId: string): ThrottleKey => ({ key: `current-password:${userId}`, limit: ACCOUNT_FAILURE_LIMIT }),
  /** Every failure from one address, whatever the account. */
  ip: (ip: string): ThrottleKey => ({ key: `ip:${ip}`, limit: IP_FAILURE_LIMIT }),
  /** Links mailed to one address (reset, resend): beyond the limit nothing more is sent. */
  mailTo: (email: string): ThrottleKey => ({ key: `mail:${email.trim().toLowerCase()}`, limit: ACCOUNT_FAILURE_LIMIT }),
};

const windowInterval = sql`make_interval(secs => ${THROTTLE_WINDOW_MS / 1000})`;

/** Seconds until the first exhausted key's window ends, or null when none is exhausted. */
export async function retryAfterSeconds(db: AppDatabase, keys: ThrottleKey[]): Promise<number | null> {
  if (keys.length === 0) return null;
  const rows = await db
    .selectFrom('operational.auth_failures')
    .select(['key', 'failures', sql<number>`ceil(extract(epoch from (window_started_at + ${windowInterval} - now())))`.as('seconds_left')])
    .where(
      'key',
      'in',
      keys.map((candidate) => candidate.key),
    )
    .where(sql<boolean>`window_started_at > now() - ${windowInterval}`)
    .execute();
  let wait: number | null = null;
  for (const row of rows) {
    const limit = keys.find((candidate) => candidate.key === row.key)!.limit;
    if (row.failures >= limit) wait = Math.max(wait ?? 0, Math.max(1, Number(row.seconds_left)));
  }
  return wait;
}

const inWindow = sql`operational.auth_failures.window_started_at > now() - ${windowInterval}`;

/** Counts one against the key (a new window starts once the old one has passed); answers the count. */
async function count(db: AppDatabase, key: string): Promise<number> {
  const row = await db
    .insertInto('operational.auth_failures')
    .values({ key, failures: 1, window_started_at: sql<Date>`now()` })
    .onConflict((oc) =>
      oc.column('key').doUpdateSet({
        failures: sql<number>`case when ${inWindow} then operational.auth_failures.failures + 1 else 1 end`,
        window_started_at: sql<Date>`case when ${inWindow} then operational.auth_failures.window_started_at else now() end`,
      }),
    )
    .returning('failures')
    .executeTakeFirstOrThrow();
  return row.failures;
}

export interface AttemptKeys {
  /** The account (from this address, or a signed-in user's own check): a success clears it. */
  account: ThrottleKey;
  /** The address, whatever the account: a success takes its attempt back. */
  ip: ThrottleKey;
  /** The account from anywhere; left out for an address the account signed in from before. A success clears it. */
  ceiling?: ThrottleKey;
}

function keysOf(keys: AttemptKeys): ThrottleKey[] {
  return keys.ceiling ? [keys.account, keys.ip, keys.ceiling] : [keys.account, keys.ip];
}

/** Whether the user has signed in from this address (current or previous sign-in). */
export async function isKnownAddress(db: AppDatabase, userId: string | undefined, ip: string): Promise<boolean> {
  if (!userId) return false;
  const row = await db
    .selectFrom('operational.sign_ins')
    .select('user_id')
    .where('user_id', '=', userId)
    .where((eb) => eb.or([eb('current_sign_in_ip', '=', ip), eb('last_sign_in_ip', '=', ip)]))
    .executeTakeFirst();
  return row !== undefined;
}

/** Where a refusal says when to try again (the reply, or a service's port onto it). */
export interface RetryAfterHeader {
  header(name: 'retry-after', value: string): unknown;
}

/**
 * Counts the attempt before it is checked (so concurrent guesses cannot all slip past the limit)
 * and refuses with 429 TOO_MANY_ATTEMPTS and a Retry-After header when the account or the
 * address has used up its window. A failed attempt then needs nothing more; a success calls
 * `attemptSucceeded`.
 */
export async function beginAttempt(db: AppDatabase, reply: RetryAfterHeader, keys: AttemptKeys): Promise<void> {
  const over = [];
  for (const key of keysOf(keys)) {
    if ((await count(db, key.key)) > key.limit) over.push(key);
  }
  if (Math.random() < 0.02) await pruneFailures(db);
  if (over.length === 0) return;
  // A refused attempt was never checked: only the exhausted counts keep it.
  for (const key of keysOf(keys)) if (!over.includes(key)) await takeBack(db, key);
  const wait = (await retryAfterSeconds(db, over)) ?? Math.ceil(THROTTLE_WINDOW_MS / 1000);
  reply.header('retry-after', String(wait));
  throw new DomainError('TOO_MANY_ATTEMPTS', 'too many failed attempts; try again later', { retryAfterSeconds: wait });
}

/** The attempt succeeded: the account's counts start again, and the address's count takes this attempt back. */
export async function attemptSucceeded(db: AppDatabase, keys: AttemptKeys): Promise<void> {
  await clearFailures(db, keys.ceiling ? [keys.account, keys.ceiling] : [keys.account]);
  await takeBack(db, keys.ip);
}

async function takeBack(db: AppDatabase, key: ThrottleKey): Promise<void> {
  await db.updateTable('operational.auth_failures').set({ failures: sql<number>`greatest(failures - 1, 0)` }).where('key', '=', key.key).execute();
}

/** A success elsewhere (a new password): the account's counters start again, its per-address ones too. */
export async function clearFailures(db: AppDatabase, keys: ThrottleKey[]): Promise<void> {
  if (keys.length === 0) return;
  await db
    .deleteFrom('operational.auth_failures')
    .where((eb) =>
      eb.or([
        eb(
          'key',
          'in',
          keys.map((candidate) => candidate.key),
        ),
        ...keys.map((candidate) => eb('key', 'like', `${escapeLike(candidate.key)}|ip:%`)),
      ]),
    )
    .execute();
}

const escapeLike = (value: string) => value.replace(/[\\%_]/g, (char) => `\\${char}`);

/** Old windows are of no use; removed now and then so the table stays small. */
export async function pruneFailures(db: AppDatabase): Promise<void> {
  await db.deleteFrom('operational.auth_failures').where(sql<boolean>`window_started_at < now() - ${windowInterval}`).execute();
}

/** Counts one use of a key and answers whether it was still within its limit (mail caps); atomic. */
export async function takeAllowance(db: AppDatabase, key: ThrottleKey): Promise<boolean> {
  return (await count(db, key.key)) <= key.limit;
}
