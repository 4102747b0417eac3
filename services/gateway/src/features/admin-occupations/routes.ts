import { createHash } from 'node:crypto';
import { occupationDecider, roleDecider } from '@eelarve/domain';
import { ADMIN_ROLE_NAME, adminChangeResponseSchema, DomainError, idParamsSchema, PRIVILEGES } from '@eelarve/shared';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { sql } from 'kysely';
import { executeCommand } from '../../infrastructure/commands';
import { readModels } from '../../infrastructure/database';
import { actorOf, runCommand } from '../../plugins/commands';
import type { AuthContext } from '../../types';
import { loadMe } from '../auth/account-queries';
import { clearSessionCookie } from '../auth/login-flow';
import { countActiveSessions } from '../auth/sessions';
import { adminRoleOf } from '../roles/queries';

/**
 * POST/DELETE api/admin/{organizationId} (spec 1, sections 6 and 7): a platform administrator
 * gives themselves, or takes back, an ADMIN occupation in an organisation, carrying that
 * organisation's admin role (every privilege but IS_ADMIN, created on first use). The answer is
 * the caller's new `me`.
 */
const READ_MODELS = ['accounts'] as const;
const access = { privileges: ['IS_ADMIN' as const] };
const tags = ['administration'];
const ADMIN_OCCUPATION_NAME = 'Administrator';

/** A fixed id per name: concurrent requests address the same stream, so only one of them creates it. */
function derivedId(...parts: string[]): string {
  const hex = createHash('sha256').update(parts.join(':')).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-8${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

async function organizationOf(app: FastifyInstance, organizationId: string) {
  const organization = await readModels(app.db).selectFrom('organizations').select(['id', 'is_platform']).where('id', '=', organizationId).executeTakeFirst();
  if (!organization) throw new DomainError('ORGANIZATION_NOT_FOUND');
  return organization;
}

async function adminOccupations(app: FastifyInstance, organizationId: string) {
  return readModels(app.db).selectFrom('occupations').select(['id', 'user_id']).where('organization_id', '=', organizationId).where('type', '=', 'ADMIN').execute();
}

/**
 * Whether someone could still administer the platform without this occupation: another
 * occupation whose roles grant IS_ADMIN. (Checked on the read models: two administrators
 * removing theirs at the same moment could both pass.)
 */
async function otherPlatformAdminExists(app: FastifyInstance, occupationId: string): Promise<boolean> {
  const row = await readModels(app.db)
    .selectFrom('occupations as o')
    .innerJoin('roles as r', (join) => join.on(sql<boolean>`r.id = any(o.role_ids)`))
    .select('o.id')
    .where('o.id', '!=', occupationId)
    .where(sql<boolean>`'IS_ADMIN' = any(r.privilege_ids)`)
    .executeTakeFirst();
  return Boolean(row);
}

/** The organisation's admin role; created with every privilege except IS_ADMIN when it has none yet. */
async function ensureAdminRole(app: FastifyInstance, request: FastifyRequest, organizationId: string): Promise<string> {
  const existing = await adminRoleOf(app.db, organizationId);
  if (existing) return existing.id;
  const roleId = derivedId(organizationId, 'admin-role');
  const privilegeIds = PRIVILEGES.filter((privilege) => privilege !== 'IS_ADMIN');
  try {
    await executeCommand(app.store, roleDecider, { type: 'CreateRole', roleId, organizationId, name: ADMIN_ROLE_NAME, description: '', privilegeIds, roleType: 'ADMIN' }, actorOf(request));
  } catch (error) {
    // Created by a concurrent request (or earlier, not yet projected): the same role.
    if (!(error instanceof DomainError && error.code === 'CONCURRENT_MODIFICATION')) throw error;
  }
  return roleId;
}

async function meOf(app: FastifyInstance, auth: AuthContext, occupationId: string | null, reloginRequired: boolean) {
  const me = await loadMe(app.db, {
    userId: auth.userId,
    occupationId,
    authenticationType: auth.session.authenticationType,
    activeSessionCount: await countActiveSessions(app.db, auth.userId),
  });
  if (!me) throw new DomainError('UNAUTHORIZED');
  return { ...me, reloginRequired };
}

/**
 * Removing the admin occupation forces the caller to sign in again wherever they were using it;
 * when that includes this session the cookie goes too and the screens send them to /login.
 */
async function endSessionsIn(app: FastifyInstance, reply: FastifyReply, auth: AuthContext, occupationId: string): Promise<boolean> {
  await app.db.deleteFrom('operational.sessions').where('user_id', '=', auth.userId).where('occupation_id', '=', occupationId).execute();
  if (auth.occupationId !== occupationId) return false;
  clearSessionCookie(app, reply);
  return true;
}

export async function adminOccupationRoutes(app: FastifyInstance): Promise<void> {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const schema = { tags, params: idParamsSchema, response: { 200: adminChangeResponseSchema } };

  api.post('/api/admin/:id', { config: { access }, schema }, async (request) => {
    const auth = request.auth;
    const organization = await organizationOf(app, request.params.id);
    if ((await adminOccupations(app, organization.id)).some((occupation) => occupation.user_id === auth.userId)) throw new DomainError('ADMIN_ALREADY_SET');
    // "Not for organisation 1 if not already admin": the platform's administrators come from bootstrap and its roles.
    if (organization.is_platform) throw new DomainError('ORGANIZATION_UNSUITABLE', 'the platform organisation');
    const roleId = await ensureAdminRole(app, request, organization.id);
    const occupationId = derivedId(organization.id, auth.userId, 'admin-occupation');
    await runCommand(
      app,
      occupationDecider,
      { type: 'AssignAdmin', occupationId, organizationId: organization.id, userId: auth.userId, name: ADMIN_OCCUPATION_NAME, roleId },
      actorOf(request),
      READ_MODELS,
    );
    return meOf(app, auth, auth.occupationId, false);
  });

  api.delete('/api/admin/:id', { config: { access }, schema }, async (request, reply) => {
    const auth = request.auth;
    const organization = await organizationOf(app, request.params.id);
    const admins = await adminOccupations(app, organization.id);
    const mine = admins.find((occupation) => occupation.user_id === auth.userId);
    if (!mine) throw new DomainError('ADMIN_NOT_SET');
    const lastPlatformAdmin = organization.is_platform && !(await otherPlatformAdminExists(app, mine.id));
    await runCommand(app, occupationDecider, { type: 'RemoveAdmin', occupationId: mine.id, lastPlatformAdmin }, actorOf(request), READ_MODELS);
    const reloginRequired = await endSessionsIn(app, reply, auth, mine.id);
    return meOf(app, auth, reloginRequired ? null : auth.occupationId, reloginRequired);
  });
}
