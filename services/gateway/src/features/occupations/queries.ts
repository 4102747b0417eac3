import type { OccupationUse, RoleFact } from '@eelarve/domain';
import type { Occupation } from '@eelarve/shared';
import { type AppDatabase, readModels } from '../../infrastructure/database';
import type { AuthContext } from '../../types';

/**
 * A session is someone at work in its occupation only while it is used: one idle for longer
 * (a remembered session left open for weeks) does not block the occupation's removal. When
 * its user comes back, the auth hook finds the occupation gone and asks for another one.
 */
export const ACTIVE_SESSION_WINDOW_MS = 30 * 60_000;

/** GET api/organization/{id}/occupations, with each occupation's user name and role names. */
export async function listOccupations(db: AppDatabase, organizationId: string): Promise<Occupation[]> {
  const [occupations, roles] = await Promise.all([
    readModels(db)
      .selectFrom('occupations as o')
      .leftJoin('users as u', 'u.id', 'o.user_id')
      .select(['o.id', 'o.organization_id', 'o.user_id', 'o.name', 'o.description', 'o.type', 'o.role_ids', 'u.name as user_name'])
      .where('o.organization_id', '=', organizationId)
      .orderBy('o.name')
      .orderBy('o.id')
      .execute(),
    readModels(db).selectFrom('roles').select(['id', 'name']).where('organization_id', '=', organizationId).execute(),
  ]);
  const roleNames = new Map(roles.map((role) => [role.id, role.name]));
  return occupations.map((row) => ({
    id: row.id,
    organizationId: row.organization_id,
    userId: row.user_id,
    userName: row.user_name ?? '',
    name: row.name,
    description: row.description,
    type: row.type,
    roles: row.role_ids.filter((id) => roleNames.has(id)).map((id) => ({ id, name: roleNames.get(id)! })),
  }));
}

export async function findOccupation(db: AppDatabase, occupationId: string) {
  return readModels(db).selectFrom('occupations').selectAll().where('id', '=', occupationId).executeTakeFirst();
}

/** The requested roles as the read models know them, for the decider's checks. */
export async function roleFacts(db: AppDatabase, roleIds: readonly string[]): Promise<RoleFact[]> {
  if (roleIds.length === 0) return [];
  const rows = await readModels(db).selectFrom('roles').select(['id', 'organization_id', 'type']).where('id', 'in', [...roleIds]).execute();
  return roleIds.map((roleId) => {
    const row = rows.find((candidate) => candidate.id === roleId);
    return { roleId, role: row ? { organizationId: row.organization_id, type: row.type } : null };
  });
}

/** Whether the caller's session, or another live session, acts in the occupation right now. */
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
