import { createHash, randomBytes } from 'node:crypto';
import { MS_PER_DAY } from '@eelarve/shared';
import type { AppDatabase } from '../../infrastructure/database';

export type TokenPurpose = 'REGISTRATION' | 'RESET';

export const TOKEN_LIFETIME_MS: Record<TokenPurpose, number> = { REGISTRATION: 7 * MS_PER_DAY, RESET: MS_PER_DAY };

/** Only the SHA-256 of a token is stored and looked up: a leaked table opens no account. */
export function hashAccountToken(token: string): Buffer {
  return createHash('sha256').update(token, 'utf8').digest();
}

/**
 * A new random token (32 bytes) for the user; earlier tokens of the same purpose stop working,
 * so only the newest mailed link is valid.
 */
export async function issueToken(db: AppDatabase, userId: string, purpose: TokenPurpose, now = new Date()): Promise<string> {
  const token = randomBytes(32).toString('base64url');
  await db.transaction().execute(async (trx) => {
    // Earlier tokens of this purpose, used or not, go: a used or unknown token is refused alike.
    await trx.deleteFrom('operational.account_tokens').where('user_id', '=', userId).where('purpose', '=', purpose).execute();
    await trx
      .insertInto('operational.account_tokens')
      .values({
        token_hash: hashAccountToken(token),
        user_id: userId,
        purpose,
        created_at: now,
        expires_at: new Date(now.getTime() + TOKEN_LIFETIME_MS[purpose]),
      })
      .execute();
  });
  return token;
}

export interface ValidToken {
  userId: string;
  purpose: TokenPurpose;
  expiresAt: Date;
}

/** The token's user and purpose if it is unused and unexpired; it stays usable. */
export async function findValidToken(db: AppDatabase, token: string, purpose?: TokenPurpose): Promise<ValidToken | null> {
  let query = db
    .selectFrom('operational.account_tokens')
    .select(['user_id', 'purpose', 'expires_at'])
    .where('token_hash', '=', hashAccountToken(token))
    .where('used_at', 'is', null)
    .where('expires_at', '>', new Date());
  if (purpose) query = query.where('purpose', '=', purpose);
  const row = await query.executeTakeFirst();
  return row ? { userId: row.user_id, purpose: row.purpose, expiresAt: row.expires_at } : null;
}

/**
 * Marks the token used and returns its user, or null if it was not valid. One statement, so of
 * two concurrent uses only one succeeds.
 */
export async function consumeToken(db: AppDatabase, token: string, purpose: TokenPurpose): Promise<string | null> {
  const row = await db
    .updateTable('operational.account_tokens')
    .set({ used_at: new Date() })
    .where('token_hash', '=', hashAccountToken(token))
    .where('purpose', '=', purpose)
    .where('used_at', 'is', null)
    .where('expires_at', '>', new Date())
    .returning('user_id')
    .executeTakeFirst();
  return row?.user_id ?? null;
}

/** Every unused token of the user stops working (authentication methods removed, user deleted). */
export async function revokeTokens(db: AppDatabase, userId: string): Promise<void> {
  await db.deleteFrom('operational.account_tokens').where('user_id', '=', userId).where('used_at', 'is', null).execute();
}
