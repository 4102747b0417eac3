import { sql } from 'kysely';
import type { AuthenticationType, Me } from '@eelarve/shared';
import type { AppDatabase } from '../../infrastructure/database';
import { readModels } from '../../infrastructure/database';
import { hasElectronicId } from '../electronic-id/bindings';

export interface UserOccupation {
  id: string;
  name: string;
  type: 'ADMIN' | 'DEFAULT';
  organizationId: string;
  organizationName: string;
  allowedAuthenticationTypes: AuthenticationType[];
  roleIds: string[];
  sessionLengthMs: number;
}

export async function findUserByEmail(db: AppDatabase, email: string) {
  return readModels(db)
    .selectFrom('users')
    .selectAll()
    .where((eb) => eb(eb.fn('lower', ['email']), '=', email.trim().toLowerCase()))
    .executeTakeFirst();
}

export async function findUser(db: AppDatabase, userId: string) {
  return readModels(db).selectFrom('users').selectAll().where('id', '=', userId).executeTakeFirst();
}

export async function userOccupations(db: AppDatabase, userId: string): Promise<UserOccupation[]> {
  const rows = await readModels(db)
    .selectFrom('occupations as o')
    .innerJoin('organizations as org', 'org.id', 'o.organization_id')
    .select([
      'o.id',
      'o.name',
      'o.type',
      'o.organization_id',
      'o.role_ids',
      'org.name as organization_name',
      'org.allowed_authentication_types',
      'org.session_length',
      'org.session_length_multiplier',
    ])
    .where('o.user_id', '=', userId)
    .execute();
  return rows.map((row) => ({
    id: row.id,
    name: row.name,
    type: row.type,
    organizationId: row.organization_id,
    organizationName: row.organization_name,
    allowedAuthenticationTypes: row.allowed_authentication_types as AuthenticationType[],
    roleIds: row.role_ids,
    sessionLengthMs: row.session_length * Number(row.session_length_multiplier),
  }));
}

/**
 * Occupation selection order (spec 1, section 2): last used first, then those usable with the
 * current authentication type, then alphabetical.
 */
export function orderOccupations(occupations: UserOccupation[], lastOccupationId: string | null, authenticationType: string): UserOccupation[] {
  const rank = (occupation: UserOccupation) =>
    occupation.id === lastOccupationId ? 0 : occupation.allowedAuthenticationTypes.includes(authenticationType as AuthenticationType) ? 1 : 2;
  return [...occupations].sort((a, b) => rank(a) - rank(b) || a.name.localeCompare(b.name, 'et'));
}

/** Every privilege the roles carry, as stored (what assigning them hands out). */
export async function privilegesOf(db: AppDatabase, roleIds: string[]): Promise<string[]> {
  if (roleIds.length === 0) return [];
  const roles = await readModels(db).selectFrom('roles').select('privilege_ids').where('id', 'in', roleIds).execute();
  return [...new Set(roles.flatMap((role) => role.privilege_ids))].sort();
}

/**
 * The privileges the user's occupation grants, in one query (every authenticated request asks),
 * or null when the occupation is no longer the user's. Only roles of the occupation's own
 * organisation count, and IS_ADMIN only in the platform organisation: a role elsewhere that
 * carries it (made before that was refused) never makes anyone a platform administrator.
 */
export async function occupationPrivileges(db: AppDatabase, userId: string, occupationId: string): Promise<string[] | null> {
  const { rows } = await sql<{ privileges: string[] }>`
    select coalesce(array(
      select distinct p
      from read.roles r, unnest(r.privilege_ids) as p
      where r.id = any(o.role_ids) and r.organization_id = o.organization_id and (p <> 'IS_ADMIN' or org.is_platform is true)
      order by p
    ), '{}') as privileges
    from read.occupations o
    left join read.organizations org on org.id = o.organization_id
    where o.id = ${occupationId} and o.user_id = ${userId}`.execute(db);
  return rows[0]?.privileges ?? null;
}

export async function lastOccupationOf(db: AppDatabase, userId: string): Promise<string | null> {
  const row = await db.selectFrom('operational.sign_ins').select('last_occupation_id').where('user_id', '=', userId).executeTakeFirst();
  return row?.last_occupation_id ?? null;
}

export async function organizationSettings(db: AppDatabase, organizationId: string) {
  return readModels(db)
    .selectFrom('organizations')
    .select(['locale_settings', 'enable_resource_statuses'])
    .where('id', '=', organizationId)
    .executeTakeFirst();
}

export interface MeInput {
  userId: string;
  occupationId: string | null;
  authenticationType: string;
  activeSessionCount: number;
}

/** GET api/auth/me: the user, the occupation in use, and what it may do. */
export async function loadMe(db: AppDatabase, input: MeInput): Promise<Me | null> {
  const user = await findUser(db, input.userId);
  if (!user) return null;
  const [occupations, lastOccupationId, hasPassword, mfa, personalCode] = await Promise.all([
    userOccupations(db, user.id),
    lastOccupationOf(db, user.id),
    db.selectFrom('operational.credentials').select('user_id').where('user_id', '=', user.id).executeTakeFirst(),
    db.selectFrom('operational.mfa_secrets').select('secret').where('user_id', '=', user.id).executeTakeFirst(),
    hasElectronicId(db, user.id),
  ]);
  const current = occupations.find((occupation) => occupation.id === input.occupationId) ?? null;
  const organization = current ? await organizationSettings(db, current.organizationId) : undefined;
  return {
    id: user.id,
    name: user.name,
    email: user.email,
    organizationId: current?.organizationId ?? null,
    organizationName: current?.organizationName ?? null,
    occupationId: current?.id ?? null,
    lastOccupationId,
    occupations: orderOccupations(occupations, lastOccupationId, input.authenticationType).map(({ roleIds: _r, sessionLengthMs: _s, ...occupation }) => occupation),
    privileges: current ? ((await occupationPrivileges(db, user.id, current.id)) ?? []) : [],
    authenticationType: input.authenticationType as Me['authenticationType'],
    organizationEnableResourceStatuses: organization?.enable_resource_statuses ?? false,
    organizationLocaleSettings: organization?.locale_settings ?? null,
    userLanguage: user.language,
    hasPersonalCode: personalCode,
    mfaAdded: Boolean(mfa?.secret),
    hasPassword: Boolean(hasPassword),
    activeSessionCount: input.activeSessionCount,
  };
}
