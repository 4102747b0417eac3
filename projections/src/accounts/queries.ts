import { type ExpressionBuilder, type RawBuilder, type Selectable, sql } from 'kysely';
import type { ReadDatabase, ReadModels } from '../read-models';
import type { OccupationsTable, RolesTable, UsersTable } from './tables';

/** Rows of the accounts read model as queries return them (the one definition: tables.ts). */
export type UserRow = Selectable<UsersTable>;
export type RoleRow = Selectable<RolesTable>;
export type OccupationRow = Selectable<OccupationsTable>;

// ---- users ------------------------------------------------------------------

export function findUserById(read: ReadDatabase, userId: string): Promise<UserRow | undefined> {
  return read.selectFrom('users').selectAll().where('id', '=', userId).executeTakeFirst();
}

/** The user signing in with this address (e-mails compare case-insensitively, spec 1 section 5). */
export function findUserByEmail(read: ReadDatabase, email: string): Promise<UserRow | undefined> {
  return read
    .selectFrom('users')
    .selectAll()
    .where((eb) => eb(eb.fn('lower', ['email']), '=', email.trim().toLowerCase()))
    .executeTakeFirst();
}

/** Ids of other users whose address is `normalisedEmail` (the e-mail reservation confirms each in its stream). */
export async function otherUsersWithEmail(read: ReadDatabase, normalisedEmail: string, exceptUserId: string): Promise<string[]> {
  const rows = await read
    .selectFrom('users')
    .select('id')
    .where((eb) => eb(eb.fn('lower', ['email']), '=', normalisedEmail))
    .where('id', '!=', exceptUserId)
    .execute();
  return rows.map((row) => row.id);
}

/**
 * A user belongs to an organisation if they were registered there or hold an occupation there
 * (a platform administrator's ADMIN occupation, say). Only the organisation that registered a
 * user may edit or delete them (the gateway checks `organization_id`).
 */
function memberOf(organizationId: string) {
  return (eb: ExpressionBuilder<ReadModels, 'users'>) =>
    eb.or([
      eb('users.organization_id', '=', organizationId),
      eb('users.id', 'in', eb.selectFrom('occupations').select('occupations.user_id').where('occupations.organization_id', '=', organizationId)),
    ]);
}

export function findMember(read: ReadDatabase, organizationId: string, userId: string): Promise<UserRow | undefined> {
  return read.selectFrom('users').selectAll().where('users.id', '=', userId).where(memberOf(organizationId)).executeTakeFirst();
}

/** The organisation's members by name (the users screen). */
export function listMembers(read: ReadDatabase, organizationId: string): Promise<UserRow[]> {
  return read.selectFrom('users').selectAll().where(memberOf(organizationId)).orderBy('users.name').orderBy('users.id').execute();
}

/** The members' names only (pickers that must not see e-mails). */
export function listMemberNames(read: ReadDatabase, organizationId: string): Promise<Array<Pick<UserRow, 'id' | 'name'>>> {
  return read.selectFrom('users').select(['users.id', 'users.name']).where(memberOf(organizationId)).orderBy('users.name').orderBy('users.id').execute();
}

// ---- occupations ------------------------------------------------------------

export type UserOccupationRow = Pick<OccupationRow, 'id' | 'name' | 'type' | 'user_id' | 'organization_id'>;

/** Every occupation the users hold, in any organisation, by name. */
export async function occupationsOfUsers(read: ReadDatabase, userIds: readonly string[]): Promise<UserOccupationRow[]> {
  if (userIds.length === 0) return [];
  return read
    .selectFrom('occupations')
    .select(['id', 'name', 'type', 'user_id', 'organization_id'])
    .where('user_id', 'in', [...userIds])
    .orderBy('name')
    .execute();
}

/** Occupations the user holds in any organisation: the delete and edit rules look at all of them. */
export async function heldOccupations(read: ReadDatabase, userId: string): Promise<{ any: boolean; admin: boolean }> {
  const rows = await read.selectFrom('occupations').select('type').where('user_id', '=', userId).execute();
  return { any: rows.length > 0, admin: rows.some((row) => row.type === 'ADMIN') };
}

export function findOccupation(read: ReadDatabase, occupationId: string): Promise<OccupationRow | undefined> {
  return read.selectFrom('occupations').selectAll().where('id', '=', occupationId).executeTakeFirst();
}

export type OccupationListRow = OccupationRow & { user_name: string | null };

/** The organisation's occupations by name, each with its holder's name. */
export function listOccupations(read: ReadDatabase, organizationId: string): Promise<OccupationListRow[]> {
  return read
    .selectFrom('occupations as o')
    .leftJoin('users as u', 'u.id', 'o.user_id')
    .select(['o.id', 'o.organization_id', 'o.user_id', 'o.name', 'o.description', 'o.type', 'o.role_ids', 'u.name as user_name'])
    .where('o.organization_id', '=', organizationId)
    .orderBy('o.name')
    .orderBy('o.id')
    .execute();
}

/** The organisation's ADMIN occupations and their holders. */
export function adminOccupationsOf(read: ReadDatabase, organizationId: string): Promise<Array<Pick<OccupationRow, 'id' | 'user_id'>>> {
  return read.selectFrom('occupations').select(['id', 'user_id']).where('organization_id', '=', organizationId).where('type', '=', 'ADMIN').execute();
}

/**
 * Whether someone could still administer the platform without this occupation: another
 * occupation whose roles grant IS_ADMIN.
 */
export async function otherPlatformAdminExists(read: ReadDatabase, occupationId: string): Promise<boolean> {
  const row = await read
    .selectFrom('occupations as o')
    .innerJoin('roles as r', (join) => join.on(sql<boolean>`r.id = any(o.role_ids)`))
    .select('o.id')
    .where('o.id', '!=', occupationId)
    .where(sql<boolean>`'IS_ADMIN' = any(r.privilege_ids)`)
    .executeTakeFirst();
  return Boolean(row);
}

/** An occupation of the user with what its organisation says about signing in. */
export interface SignInOccupationRow {
  id: string;
  name: string;
  type: OccupationRow['type'];
  organization_id: string;
  role_ids: string[];
  organization_name: string;
  allowed_authentication_types: string[];
  session_length: number;
  session_length_multiplier: string;
}

/** The user's occupations, each with its organisation's name, sign-in types and session length. */
export function signInOccupations(read: ReadDatabase, userId: string): Promise<SignInOccupationRow[]> {
  return read
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
}

/**
 * The privileges the user's occupation grants, in one query (every authenticated request asks),
 * or null when the occupation is no longer the user's. Only roles of the occupation's own
 * organisation count, and IS_ADMIN only in the platform organisation: a role elsewhere that
 * carries it (made before that was refused) never makes anyone a platform administrator.
 */
export async function occupationPrivileges(read: ReadDatabase, userId: string, occupationId: string): Promise<string[] | null> {
  const privileges = occupationPrivilegesSql(sql`${userId}`, sql`${occupationId}`);
  const { rows } = await sql<{ privileges: string[] | null }>`select ${privileges} as privileges`.execute(read);
  return rows[0]?.privileges ?? null;
}

/**
 * occupationPrivileges as a scalar subquery of any expressions for the user and occupation (the
 * auth plugin joins it to the session's row: one round trip per request). Qualify column
 * references: a bare `user_id` would bind to `read.occupations` inside the subquery and match
 * every user.
 */
export function occupationPrivilegesSql(userId: RawBuilder<unknown>, occupationId: RawBuilder<unknown>): RawBuilder<string[] | null> {
  return sql<string[] | null>`(
    select coalesce(array(
      select distinct p
      from read.roles r, unnest(r.privilege_ids) as p
      where r.id = any(o.role_ids) and r.organization_id = o.organization_id and (p <> 'IS_ADMIN' or org.is_platform is true)
      order by p
    ), '{}')
    from read.occupations o
    left join read.organizations org on org.id = o.organization_id
    where o.id = ${occupationId} and o.user_id = ${userId})`;
}

// ---- roles ------------------------------------------------------------------

export type RoleListRow = RoleRow & { in_use: boolean };

/** The organisation's roles by name; `in_use`: carried by an occupation (then it cannot be deleted). */
export async function listRoles(read: ReadDatabase, organizationId: string): Promise<RoleListRow[]> {
  const rows = await read
    .selectFrom('roles')
    .selectAll('roles')
    .select((eb) => eb.exists(eb.selectFrom('occupations').select('occupations.id').where(sql<boolean>`roles.id = any(occupations.role_ids)`)).as('in_use'))
    .where('roles.organization_id', '=', organizationId)
    .orderBy('roles.name')
    .execute();
  return rows.map((row) => ({ ...row, in_use: Boolean(row.in_use) }));
}

export function findRole(read: ReadDatabase, roleId: string): Promise<RoleRow | undefined> {
  return read.selectFrom('roles').selectAll().where('id', '=', roleId).executeTakeFirst();
}

/** The roles with these ids that exist (any organisation). */
export async function findRoles(read: ReadDatabase, roleIds: readonly string[]): Promise<RoleRow[]> {
  if (roleIds.length === 0) return [];
  return read
    .selectFrom('roles')
    .selectAll()
    .where('id', 'in', [...roleIds])
    .execute();
}

/** Whether an occupation carries the role. */
export async function roleAttached(read: ReadDatabase, roleId: string): Promise<boolean> {
  const row = await read.selectFrom('occupations').select('id').where(sql<boolean>`${roleId}::uuid = any(role_ids)`).executeTakeFirst();
  return Boolean(row);
}

/** The organisation's admin role (type ADMIN), if it has one. */
export function adminRoleOf(read: ReadDatabase, organizationId: string): Promise<RoleRow | undefined> {
  return read.selectFrom('roles').selectAll().where('organization_id', '=', organizationId).where('type', '=', 'ADMIN').executeTakeFirst();
}

/** Ids of the organisation's other roles named `normalisedName` (trimmed, lower case), for the name reservation. */
export async function otherRolesNamed(read: ReadDatabase, organizationId: string, normalisedName: string, exceptRoleId: string): Promise<string[]> {
  const rows = await read
    .selectFrom('roles')
    .select('id')
    .where('organization_id', '=', organizationId)
    .where((eb) => eb(eb.fn('lower', [eb.fn('btrim', ['name'])]), '=', normalisedName))
    .where('id', '!=', exceptRoleId)
    .execute();
  return rows.map((row) => row.id);
}

/** Every privilege the roles carry, as stored (what assigning them hands out), sorted. */
export async function privilegesOf(read: ReadDatabase, roleIds: readonly string[]): Promise<string[]> {
  const roles = await findRoles(read, roleIds);
  return [...new Set(roles.flatMap((role) => role.privilege_ids))].sort();
}

/** Roles outside the platform organisation that carry IS_ADMIN (older versions allowed it). */
export function rolesWithIsAdminOutsidePlatform(read: ReadDatabase): Promise<RoleRow[]> {
  return read
    .selectFrom('roles as r')
    .innerJoin('organizations as org', 'org.id', 'r.organization_id')
    .select(['r.id', 'r.organization_id', 'r.name', 'r.description', 'r.type', 'r.privilege_ids'])
    .where('org.is_platform', '=', false)
    .where(sql<boolean>`'IS_ADMIN' = any(r.privilege_ids)`)
    .execute();
}

// ---- duplicates that older versions let through -----------------------------

export interface DuplicateGroup {
  /** The organisation (role names) or null (e-mails are unique everywhere). */
  scope: string | null;
  ids: string[];
}

/** Live roles of one organisation sharing a name (trimmed, case-insensitive). */
export async function duplicateRoleNames(read: ReadDatabase): Promise<DuplicateGroup[]> {
  const query = sql<DuplicateGroup>`
    select organization_id::text as scope, array_agg(id::text order by id) as ids
    from read.roles group by organization_id, lower(btrim(name)) having count(*) > 1`;
  return (await query.execute(read)).rows;
}

/** Users sharing an e-mail (case-insensitive). */
export async function duplicateEmails(read: ReadDatabase): Promise<DuplicateGroup[]> {
  const query = sql<DuplicateGroup>`select null as scope, array_agg(id::text order by id) as ids from read.users group by lower(email) having count(*) > 1`;
  return (await query.execute(read)).rows;
}
