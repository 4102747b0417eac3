import type { AppDatabase } from '../../infrastructure/database';
import { removeMfa } from '../auth/mfa';
import { deleteUserSessions } from '../auth/sessions';
import { removeElectronicId } from '../electronic-id/bindings';
import { revokeTokens } from '../registration/tokens';

/**
 * Removes everything a user could sign in with (password, MFA secret, electronic-ID binding,
 * outstanding reset and registration links) and ends their sessions. The events recording it are appended by the caller first.
 */
export async function clearAuthMethods(db: AppDatabase, userId: string): Promise<void> {
  await db.deleteFrom('operational.credentials').where('user_id', '=', userId).execute();
  await removeMfa(db, userId);
  await removeElectronicId(db, userId);
  await revokeTokens(db, userId);
  await deleteUserSessions(db, userId);
}
