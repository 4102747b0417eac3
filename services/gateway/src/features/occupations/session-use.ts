import type { OccupationUse } from '@eelarve/domain';
import type { AppDatabase } from '../../infrastructure/database';
import type { AuthContext } from '../../types';

/**
 * A session is someone at work in its occupation only while it is used: one idle for longer
 * (a remembered session left open for weeks) does not block the occupation's removal. When
 * its user comes back, the auth hook finds the occupation gone and asks for another one.
 */
export const ACTIVE_SESSION_WINDOW_MS = 30 * 60_000;

/** Whether the caller's session, or another live session, acts in the occupation right now (operational sessions). */
export async function occupationUse(db: AppDatabase, occupationId: string, caller: AuthContext): Promise<OccupationUse> {
  const now = Date.now();
  const others = await db
    .selectFrom('operational.sessions')
    .select('token_hash')
    .where('occupation_id', '=', occupationId)
    .where('token_hash', '!=', caller.session.tokenHash)
    .where('expires_at', '>', new Date(now))
    .where('last_seen_at', '>', new Date(now - ACTIVE_SESSION_WINDOW_MS))
    .executeTakeFirst();
  return { byCaller: caller.occupationId === occupationId, byOthers: Boolean(others) };
}
