import { DomainError, loginRequestSchema, logoutRequestSchema, meSchema } from '@eelarve/shared';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireAuth } from '../../plugins/auth';
import { findUserByEmail, loadMe, type UserOccupation, userOccupations } from './account-queries';
import { verifyAgainstNothing, verifyPassword } from './passwords';
import {
  countActiveSessions,
  createSession,
  deleteSession,
  deleteUserSessions,
  PRE_OCCUPATION_SESSION_MS,
  SESSION_COOKIE,
  type SessionRecord,
  selectSessionOccupation,
} from './sessions';

const occupationChoiceSchema = z.union([
  z.object({ occupationId: z.uuid({ message: 'validation.format' }) }),
  z.object({ user: z.object({ occupationId: z.uuid({ message: 'validation.format' }) }) }),
]);

const activeSessionSchema = z.object({ createdAt: z.string(), lastSeenAt: z.string(), ip: z.string().nullable(), userAgent: z.string().nullable(), current: z.boolean() });

function setSessionCookie(app: FastifyInstance, reply: FastifyReply, token: string, session: SessionRecord): void {
  reply.setCookie(SESSION_COOKIE, token, {
    path: '/',
    httpOnly: true,
    sameSite: 'lax',
    secure: app.config.environment === 'production',
    // Without remember-me the cookie ends with the browser session; the server expiry still applies.
    ...(session.rememberMe ? { expires: session.expiresAt } : {}),
  });
}

async function checkPassword(app: FastifyInstance, email: string, password: string) {
  const user = await findUserByEmail(app.db, email);
  const credential = user
    ? await app.db.selectFrom('operational.credentials').select('password_hash').where('user_id', '=', user.id).executeTakeFirst()
    : undefined;
  const valid = credential ? await verifyPassword(password, credential.password_hash) : await verifyAgainstNothing(password);
  if (!user || !valid) throw new DomainError('INVALID_USERNAME_OR_PASSWORD');
  if (!user.confirmed_at) throw new DomainError('EMAIL_NOT_CONFIRMED');
  return user;
}

/** A single occupation usable with the session's authentication type is chosen for the user. */
function automaticOccupation(occupations: UserOccupation[], authenticationType: string, requested?: string | null): UserOccupation | undefined {
  if (requested) return occupations.find((occupation) => occupation.id === requested);
  const usable = occupations.filter((occupation) => occupation.allowedAuthenticationTypes.includes(authenticationType as never));
  return usable.length === 1 ? usable[0] : undefined;
}

async function enterOccupation(app: FastifyInstance, session: SessionRecord, occupation: UserOccupation): Promise<SessionRecord> {
  if (!occupation.allowedAuthenticationTypes.includes(session.authenticationType as never)) {
    throw new DomainError('ORGANIZATION_UNSUITABLE', 'the organisation does not allow this authentication type');
  }
  const expiresAt = new Date(Date.now() + occupation.sessionLengthMs);
  await selectSessionOccupation(app.db, session.tokenHash, { occupationId: occupation.id, organizationId: occupation.organizationId, expiresAt });
  await app.db
    .insertInto('operational.sign_ins')
    .values({ user_id: session.userId, last_occupation_id: occupation.id })
    .onConflict((oc) => oc.column('user_id').doUpdateSet({ last_occupation_id: occupation.id }))
    .execute();
  return { ...session, occupationId: occupation.id, organizationId: occupation.organizationId, expiresAt };
}

async function recordSignIn(app: FastifyInstance, userId: string, ip: string): Promise<void> {
  const now = new Date();
  await app.db
    .insertInto('operational.sign_ins')
    .values({ user_id: userId, sign_in_count: 1, current_sign_in_at: now, current_sign_in_ip: ip })
    .onConflict((oc) =>
      oc.column('user_id').doUpdateSet((eb) => ({
        sign_in_count: eb('operational.sign_ins.sign_in_count', '+', 1),
        last_sign_in_at: eb.ref('operational.sign_ins.current_sign_in_at'),
        last_sign_in_ip: eb.ref('operational.sign_ins.current_sign_in_ip'),
        current_sign_in_at: now,
        current_sign_in_ip: ip,
      })),
    )
    .execute();
}

async function respondWithMe(app: FastifyInstance, session: SessionRecord) {
  const me = await loadMe(app.db, {
    userId: session.userId,
    occupationId: session.occupationId,
    authenticationType: session.authenticationType,
    activeSessionCount: await countActiveSessions(app.db, session.userId),
  });
  if (!me) throw new DomainError('UNAUTHORIZED');
  return me;
}

export async function authRoutes(app: FastifyInstance): Promise<void> {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['auth'];

  api.post(
    '/initial/auth/login',
    { config: { access: 'public' }, schema: { tags, body: loginRequestSchema, response: { 200: meSchema } } },
    async (request, reply) => {
      const user = await checkPassword(app, request.body.username, request.body.password);
      const { token, session } = await createSession(app.db, {
        userId: user.id,
        authenticationType: 'LOGIN',
        rememberMe: request.body.rememberMe,
        ip: request.ip,
        userAgent: request.headers['user-agent'] ?? null,
        lifetimeMs: PRE_OCCUPATION_SESSION_MS,
      });
      await recordSignIn(app, user.id, request.ip);
      const occupation = automaticOccupation(await userOccupations(app.db, user.id), session.authenticationType, request.body.occupationId);
      const current = occupation ? await enterOccupation(app, session, occupation) : session;
      setSessionCookie(app, reply, token, current);
      return respondWithMe(app, current);
    },
  );

  for (const url of ['/api/auth/me', '/initial/auth/me']) {
    api.get(url, { config: { access: 'user' }, schema: { tags, response: { 200: meSchema } } }, async (request) => respondWithMe(app, requireAuth(request).session));
  }

  for (const url of ['/api/auth/switch', '/initial/auth/select-occupation']) {
    api.post(url, { config: { access: 'user' }, schema: { tags, body: occupationChoiceSchema, response: { 200: meSchema } } }, async (request, reply) => {
      const { session } = requireAuth(request);
      const occupationId = 'occupationId' in request.body ? request.body.occupationId : request.body.user.occupationId;
      const occupation = (await userOccupations(app.db, session.userId)).find((candidate) => candidate.id === occupationId);
      if (!occupation) throw new DomainError('OCCUPATION_NOT_FOUND');
      const current = await enterOccupation(app, session, occupation);
      const token = request.cookies[SESSION_COOKIE]!;
      setSessionCookie(app, reply, token, current);
      return respondWithMe(app, current);
    });
  }

  for (const url of ['/api/auth/logout', '/initial/auth/logout']) {
    api.post(url, { config: { access: 'user' }, schema: { tags, body: logoutRequestSchema } }, async (request: FastifyRequest<{ Body: z.infer<typeof logoutRequestSchema> }>, reply) => {
      const { session } = requireAuth(request);
      if (request.body?.logoutAllSessions) await deleteUserSessions(app.db, session.userId);
      else await deleteSession(app.db, session.tokenHash);
      reply.clearCookie(SESSION_COOKIE, { path: '/' });
      return reply.status(204).send();
    });
  }

  api.get('/api/auth/active-sessions', { config: { access: 'user' }, schema: { tags, response: { 200: z.array(activeSessionSchema) } } }, async (request) => {
    const { session } = requireAuth(request);
    const rows = await app.db
      .selectFrom('operational.sessions')
      .select(['token_hash', 'created_at', 'last_seen_at', 'ip', 'user_agent'])
      .where('user_id', '=', session.userId)
      .where('expires_at', '>', new Date())
      .orderBy('last_seen_at', 'desc')
      .execute();
    return rows.map((row) => ({
      createdAt: row.created_at.toISOString(),
      lastSeenAt: row.last_seen_at.toISOString(),
      ip: row.ip,
      userAgent: row.user_agent,
      current: row.token_hash.equals(session.tokenHash),
    }));
  });
}
