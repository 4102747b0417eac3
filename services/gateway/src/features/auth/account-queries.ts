import { findUserById, type UserRow } from '@eelarve/projections/accounts/queries';
import { type AppDatabase, readModels } from '../../infrastructure/database';

/**
 * @deprecated Transitional (issue 9): the accounts queries live in
 * '@eelarve/projections/accounts/queries'. Kept only for features/electronic-id and tests that
 * still import it; delete once they call `findUserById(readModels(db), id)`.
 */
export function findUser(db: AppDatabase, userId: string): Promise<UserRow | undefined> {
  return findUserById(readModels(db), userId);
}
