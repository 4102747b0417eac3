import type { AppDatabase } from '../../infrastructure/database';
import { ElectronicIdError } from './oidc-client';

const UNIQUE_VIOLATION = '23505';

/** The user a personal code (given as its keyed hash, see hashPersonalCode) is bound to, if any. */
export async function findBoundUser(db: AppDatabase, hash: Buffer): Promise<string | null> {
  const row = await db.selectFrom('operational.electronic_ids').select('user_id').where('personal_code_hash', '=', hash).executeTakeFirst();
  return row?.user_id ?? null;
}

/** Whether the user has an electronic ID bound (GET api/auth/me: hasPersonalCode). */
export async function hasElectronicId(db: AppDatabase, userId: string): Promise<boolean> {
  const row = await db.selectFrom('operational.electronic_ids').select('user_id').where('user_id', '=', userId).executeTakeFirst();
  return Boolean(row);
}

/**
 * Binds the personal code (its keyed hash) to the user, replacing the user's earlier one. Answers false when the
 * user already had exactly this code (nothing changed); PERSONAL_CODE_IN_USE when another user has it.
 */
export async function bindPersonalCode(db: AppDatabase, userId: string, hash: Buffer): Promise<boolean> {
  const holder = await db.selectFrom('operational.electronic_ids').select('user_id').where('personal_code_hash', '=', hash).executeTakeFirst();
  if (holder?.user_id === userId) return false;
  if (holder) throw new ElectronicIdError('PERSONAL_CODE_IN_USE', 'personal code is bound to another user');
  try {
    await db
      .insertInto('operational.electronic_ids')
      .values({ user_id: userId, personal_code_hash: hash })
      .onConflict((oc) => oc.column('user_id').doUpdateSet({ personal_code_hash: hash, bound_at: new Date() }))
      .execute();
  } catch (error) {
    // Another request bound the same code to someone else in between.
    if ((error as { code?: string }).code === UNIQUE_VIOLATION) throw new ElectronicIdError('PERSONAL_CODE_IN_USE', 'personal code is bound to another user');
    throw error;
  }
  return true;
}

/**
 * Removes the user's binding; true if there was one. Also for whoever removes a user's
 * authentication methods (RemoveAuthMethods) or deletes a user.
 */
export async function removeElectronicId(db: AppDatabase, userId: string): Promise<boolean> {
  const result = await db.deleteFrom('operational.electronic_ids').where('user_id', '=', userId).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}
