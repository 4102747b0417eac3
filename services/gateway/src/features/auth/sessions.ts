import { createHash, randomBytes } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { type OccupationRow, occupationPrivilegesSql } from '@eelarve/projections/accounts/queries';
import { sql } from 'kysely';
import type { AppConfig } from '../../config';
import type { AppDatabase } from '../../infrastructure/database';

/** Until an occupation (and so an organisation with its session length) is chosen. */
export const PRE_OCCUPATION_SESSION_MS = 24 * 60 * 60 * 1000;
/** The cookie's name on plain http (local development, tests). */
export const SESSION_COOKIE = 'eelarve_session';

/** Whether the session cookie is Secure: served over HTTPS, or production (behind a TLS proxy). */
export function usesSecureCookies(config: Pick<AppConfig, 'environment' | 'publicUrl'>): boolean {
  return config.environment === 'production' || new URL(config.publicUrl).protocol === 'https:';
}

/**
 * Over HTTPS the cookie is `__Host-` prefixed: browsers accept it only Secure, with Path=/ and no
 * Domain, so neither a sibling subdomain nor a plain-http page can plant or overwrite it.
 */
export function sessionCookieName(config: Pick<AppConfig, 'environment' | 'publicUrl'>): string {
  return usesSecureCookies(config) ? `__Host-${SESSION_COOKIE}` : SESSION_COOKIE;
}

/** The session token the request carries, if any. */
export function sessionToken(app: FastifyInstance, request: FastifyRequest): string | undefined {
  return request.cookies[sessionCookieName(app.config)];
}

export interface SessionRecord {
  tokenHash: Buffer;
  userId: string;
  occupationId: string | null;
  organizationId: string | null;
  authenticationType: string;
  rememberMe: boolean;
  expiresAt: Date;
}

type Db = AppDatabase;

/** Only a hash of the token is stored: a leaked sessions table does not let anyone in. */
export function hashToken(token: string): Buffer {
  return createHash('sha256').update(token).digest();
}

export async function createSession(
  db: Db,
  input: { userId: string; authenticationType: string; rememberMe: boolean; ip: string | null; userAgent: string | null; lifetimeMs: number },
): Promise<{ token: string; session: SessionRecord }> {
  const token = randomBytes(32).toString('base64url');
  const expiresAt = new Date(Date.now() + input.lifetimeMs);
  const session: SessionRecord = {
    tokenHash: hashToken(token),
    userId: input.userId,
    occupationId: null,
    organizationId: null,
    authenticationType: input.authenticationType,
    rememberMe: input.rememberMe,
    expiresAt,
  };
  await db
    .insertInto('operational.sessions')
    .values({
      token_hash: session.tokenHash,
      user_id: input.userId,
      occupation_id: null,
      organization_id: null,
      authentication_type: input.authenticationType,
      remember_me: input.rememberMe,
      expires_at: expiresAt,
      ip: input.ip,
      user_agent: input.userAgent,
    })
    .execute();
  return { token, session };
}

/** Activity is recorded at most once a minute, so an ordinary request only reads its session. */
const LAST_SEEN_RESOLUTION_MS = 60_000;

/** A live session and what its occupation grants now. */
export interface SessionWithPrivileges {
  session: SessionRecord;
  /** The occupation's privileges; null when the session has no occupation or it is no longer the user's. */
  privileges: string[] | null;
  /** The occupation's type and roles (access checks ask them on most commands); null as for privileges. */
  occupation: SessionOccupation | null;
}

/** What access checks need of the session's occupation (permissions/authorize.ts). */
export type SessionOccupation = Pick<OccupationRow, 'type' | 'role_ids'>;

/**
 * The live session of the token, with its occupation's privileges, type and roles read in the same
 * query (every authenticated request asks: one round trip, all fresh; the request's access checks
 * then take the occupation from it instead of reading it again). A session without remember-me also
 * ends after `idleTimeoutMs` without a request (measured from last_seen_at, so to within
 * LAST_SEEN_RESOLUTION_MS).
 */
export async function findSession(db: Db, token: string, idleTimeoutMs: number): Promise<SessionWithPrivileges | null> {
  const tokenHash = hashToken(token);
  const row = await db
    .selectFrom('operational.sessions')
    .selectAll()
    .select(occupationPrivilegesSql(sql.ref('operational.sessions.user_id'), sql.ref('operational.sessions.occupation_id')).as('privileges'))
    .select(
      sql<SessionOccupation | null>`(
        select json_build_object('type', o.type, 'role_ids', o.role_ids) from read.occupations o
         where o.id = operational.sessions.occupation_id and o.user_id = operational.sessions.user_id)`.as('occupation'),
    )
    .where('token_hash', '=', tokenHash)
    .where('expires_at', '>', new Date())
    .executeTakeFirst();
  if (!row) return null;
  if (!row.remember_me && Date.now() - row.last_seen_at.getTime() > idleTimeoutMs) {
    await deleteSession(db, tokenHash);
    return null;
  }
  if (Date.now() - row.last_seen_at.getTime() > LAST_SEEN_RESOLUTION_MS) await touchSession(db, tokenHash);
  const session: SessionRecord = {
    tokenHash: row.token_hash,
    userId: row.user_id,
    occupationId: row.occupation_id,
    organizationId: row.organization_id,
    authenticationType: row.authentication_type,
    rememberMe: row.remember_me,
    expiresAt: row.expires_at,
  };
  return { session, privileges: row.occupation_id ? row.privileges : null, occupation: row.occupation_id ? row.occupation : null };
}

/**
 * Records activity, committed asynchronously: a crash may lose the last minute's touch, which
 * only makes the idle timeout count from a minute earlier. A synchronous commit waited for a WAL
 * flush inside the request, and sessions signed in together touch together once a minute: the
 * edits of 16 users stalled at once (command trace, issue 11 point 9).
 */
async function touchSession(db: Db, tokenHash: Buffer): Promise<void> {
  await sql`
    update operational.sessions set last_seen_at = ${new Date()} where token_hash = ${tokenHash}
    returning set_config('synchronous_commit', 'off', true)`.execute(db);
}

export async function selectSessionOccupation(
  db: Db,
  tokenHash: Buffer,
  occupation: { occupationId: string; organizationId: string; expiresAt: Date },
): Promise<void> {
  await db
    .updateTable('operational.sessions')
    .set({ occupation_id: occupation.occupationId, organization_id: occupation.organizationId, expires_at: occupation.expiresAt })
    .where('token_hash', '=', tokenHash)
    .execute();
}

export async function deleteSession(db: Db, tokenHash: Buffer): Promise<void> {
  await db.deleteFrom('operational.sessions').where('token_hash', '=', tokenHash).execute();
}

export async function deleteUserSessions(db: Db, userId: string): Promise<void> {
  await db.deleteFrom('operational.sessions').where('user_id', '=', userId).execute();
}

export async function countActiveSessions(db: Db, userId: string): Promise<number> {
  const row = await db
    .selectFrom('operational.sessions')
    .select((eb) => eb.fn.countAll<string>().as('count'))
    .where('user_id', '=', userId)
    .where('expires_at', '>', new Date())
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

/**
 * Raises the session's authentication type (a password session that proved an MFA code) and
 * gives it a new token: a token seen before the upgrade does not carry the stronger session.
 */
export async function upgradeSession(db: Db, session: SessionRecord, authenticationType: string): Promise<{ token: string; session: SessionRecord }> {
  const token = randomBytes(32).toString('base64url');
  const tokenHash = hashToken(token);
  await db
    .updateTable('operational.sessions')
    .set({ token_hash: tokenHash, authentication_type: authenticationType })
    .where('token_hash', '=', session.tokenHash)
    .execute();
  return { token, session: { ...session, tokenHash, authenticationType } };
}

/** Every session of the user but one (after a password change, the others must sign in again). */
export async function deleteOtherSessions(db: Db, userId: string, keep: Buffer): Promise<void> {
  await db.deleteFrom('operational.sessions').where('user_id', '=', userId).where('token_hash', '!=', keep).execute();
}

/** The user's unexpired sessions, most recently used first (the account settings' session list). */
export async function liveSessions(db: Db, userId: string) {
  return db
    .selectFrom('operational.sessions')
    .select(['token_hash', 'created_at', 'last_seen_at', 'ip', 'user_agent'])
    .where('user_id', '=', userId)
    .where('expires_at', '>', new Date())
    .orderBy('last_seen_at', 'desc')
    .execute();
}

/** Every session of the user acting in the occupation (an occupation taken back ends them). */
export async function deleteSessionsIn(db: Db, userId: string, occupationId: string): Promise<void> {
  await db.deleteFrom('operational.sessions').where('user_id', '=', userId).where('occupation_id', '=', occupationId).execute();
}
