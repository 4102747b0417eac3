import type { AppDatabase } from '../../infrastructure/database';
import { verifyAgainstNothing, verifyPassword } from './passwords';

/** Passwords live only in the operational credentials table, as scrypt hashes (passwords.ts). */

export async function passwordHashOf(db: AppDatabase, userId: string): Promise<string | null> {
  const row = await db.selectFrom('operational.credentials').select('password_hash').where('user_id', '=', userId).executeTakeFirst();
  return row?.password_hash ?? null;
}

export async function hasPassword(db: AppDatabase, userId: string): Promise<boolean> {
  return (await passwordHashOf(db, userId)) !== null;
}

/** Whether `password` is the user's; spends the same time when the user has none (or is unknown: `userId` undefined). */
export async function passwordMatches(db: AppDatabase, userId: string | undefined, password: string): Promise<boolean> {
  const hash = userId ? await passwordHashOf(db, userId) : null;
  return hash ? verifyPassword(password, hash) : verifyAgainstNothing(password);
}

export async function storePasswordHash(db: AppDatabase, userId: string, passwordHash: string): Promise<void> {
  await db
    .insertInto('operational.credentials')
    .values({ user_id: userId, password_hash: passwordHash })
    .onConflict((oc) => oc.column('user_id').doUpdateSet({ password_hash: passwordHash, updated_at: new Date() }))
    .execute();
}
