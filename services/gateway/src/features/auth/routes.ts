import { userDecider } from '@eelarve/domain';
import {
  activeSessionCountSchema,
  changePasswordSchema,
  DomainError,
  loginRequestSchema,
  logoutRequestSchema,
  meSchema,
  mfaCodeRequestSchema,
  mfaSecretQuerySchema,
  mfaSecretSchema,
} from '@eelarve/shared';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { notifyOwner } from '../mail/notify-owner';
import { mfaRemovedMail, passwordChangedMail } from '../mail/templates';
import { actorOf, runCommand } from '../../plugins/commands';
import { type AttemptKeys, attemptSucceeded, beginAttempt, isKnownAddress, type ThrottleKey, throttleKeys } from '../throttle/throttle';
import { findUser, findUserByEmail } from './account-queries';
import { chooseOccupation, clearSessionCookie, enterOccupationById, meOf, recordSignIn, SignInStepRequired, setSessionCookie } from './login-flow';
import { assertCurrentPassword } from './current-password';
import { confirmPendingSecret, createPendingSecret, hasMfa, removeMfa, verifyMfaCode } from './mfa';
import { assertPasswordAcceptable, hashPassword, verifyAgainstNothing, verifyPassword } from './passwords';
import {
  countActiveSessions,
  createSession,
  deleteOtherSessions,
  deleteSession,
  deleteUserSessions,
  PRE_OCCUPATION_SESSION_MS,
  type SessionRecord,
  sessionToken,
  upgradeSession,
} from './sessions';

const occupationChoiceSchema = z.union([
  z.object({ occupationId: z.uuid({ message: 'validation.format' }) }),
  z.object({ user: z.object({ occupationId: z.uuid({ message: 'validation.format' }) }) }),
]);

const activeSessionSchema = z.object({ createdAt: z.string(), lastSeenAt: z.string(), ip: z.string().nullable(), userAgent: z.string().nullable(), current: z.boolean() });

/** The read models the screens after these calls read (Me: users, occupations, organisations). */
const READ_MODELS = ['accounts'] as const;

/** Sessions that proved more than a password: they may edit or remove MFA. */
const STRONG_SESSION_TYPES = new Set(['LOGIN_WITH_MFA', 'PASS']);

/** Password check that takes the same time whether or not the address exists. */
async function checkPassword(app: FastifyInstance, user: Awaited<ReturnType<typeof findUserByEmail>>, password: string) {
  const credential = user
    ? await app.db.selectFrom('operational.credentials').select('password_hash').where('user_id', '=', user.id).executeTakeFirst()
    : undefined;
  const valid = credential ? await verifyPassword(password, credential.password_hash) : await verifyAgainstNothing(password);
  return user && valid ? user : null;
}

/**
 * What a failed sign-in or MFA code counts against: the account from this address, the address,
 * and (unless the account signed in from this address before) the account from anywhere.
 */
async function attemptKeys(app: FastifyInstance, account: ThrottleKey, accountFromAddress: ThrottleKey, userId: string | undefined, ip: string): Promise<AttemptKeys> {
  const known = await isKnownAddress(app.db, userId, ip);
  return { account: accountFromAddress, ip: throttleKeys.ip(ip), ...(known ? {} : { ceiling: account }) };
}

/**
 * Runs a sign-in step that may end in a refusal telling the web where to go next (403
 * ENTER_MFA_CODE, MFA_NOT_SET_UP, ORGANIZATION_UNSUITABLE): the session cookie is set either way,
 * because the next step (code entry, setup) continues this session.
 */
async function withSessionCookie(
  app: FastifyInstance,
  reply: FastifyReply,
  token: string,
  session: SessionRecord,
  step: (session: SessionRecord) => Promise<SessionRecord>,
): Promise<SessionRecord> {
  try {
    const next = await step(session);
    setSessionCookie(app, reply, token, next);
    return next;
  } catch (error) {
    if (error instanceof SignInStepRequired) setSessionCookie(app, reply, token, session);
    throw error;
  }
}

function currentToken(app: FastifyInstance, request: FastifyRequest): string {
  const token = sessionToken(app, request);
  if (!token) throw new DomainError('UNAUTHORIZED');
  return token;
}

/**
 * After a valid MFA code: a password session becomes LOGIN_WITH_MFA (with a new token), then
 * enters the requested occupation, or the only usable one if it has none yet.
 */
async function afterMfaCode(app: FastifyInstance, request: FastifyRequest, reply: FastifyReply, occupationId: string | null | undefined) {
  const { session } = request.auth;
  const upgraded = session.authenticationType === 'LOGIN' ? await upgradeSession(app.db, session, 'LOGIN_WITH_MFA') : { token: currentToken(app, request), session };
  setSessionCookie(app, reply, upgraded.token, upgraded.session);
  const current = await withSessionCookie(app, reply, upgraded.token, upgraded.session, (s) =>
    occupationId ? enterOccupationById(app, s, occupationId) : s.occupationId ? Promise.resolve(s) : chooseOccupation(app, s),
  );
  return meOf(app, current);
}

export async function authRoutes(app: FastifyInstance): Promise<void> {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['auth'];

  api.post(
    '/initial/auth/login',
    { config: { access: 'public' }, schema: { tags, body: loginRequestSchema, response: { 200: meSchema } } },
    async (request, reply) => {
      const { username } = request.body;
      const candidate = await findUserByEmail(app.db, username);
      const keys = await attemptKeys(app, throttleKeys.login(username), throttleKeys.loginFrom(username, request.ip), candidate?.id, request.ip);
      await beginAttempt(app.db, reply, keys);
      const user = await checkPassword(app, candidate, request.body.password);
      if (!user) throw new DomainError('INVALID_USERNAME_OR_PASSWORD');
      await attemptSucceeded(app.db, keys);
      if (!user.confirmed_at) throw new DomainError('EMAIL_NOT_CONFIRMED');
      const { token, session } = await createSession(app.db, {
        userId: user.id,
        authenticationType: 'LOGIN',
        rememberMe: request.body.rememberMe,
        ip: request.ip,
        userAgent: request.headers['user-agent'] ?? null,
        lifetimeMs: PRE_OCCUPATION_SESSION_MS,
      });
      await recordSignIn(app, user.id, request.ip);
      const current = await withSessionCookie(app, reply, token, session, (s) => chooseOccupation(app, s, request.body.occupationId));
      return meOf(app, current);
    },
  );

  for (const url of ['/api/auth/me', '/initial/auth/me']) {
    api.get(url, { config: { access: 'user' }, schema: { tags, response: { 200: meSchema } } }, async (request) => meOf(app, request.auth.session));
  }

  api.get('/api/auth/session-count', { config: { access: 'user' }, schema: { tags, response: { 200: activeSessionCountSchema } } }, async (request) => ({
    activeSessionCount: await countActiveSessions(app.db, request.auth.userId),
  }));

  for (const url of ['/api/auth/switch', '/initial/auth/select-occupation']) {
    api.post(url, { config: { access: 'user' }, schema: { tags, body: occupationChoiceSchema, response: { 200: meSchema } } }, async (request, reply) => {
      const { session } = request.auth;
      const occupationId = 'occupationId' in request.body ? request.body.occupationId : request.body.user.occupationId;
      const current = await enterOccupationById(app, session, occupationId);
      setSessionCookie(app, reply, currentToken(app, request), current);
      return meOf(app, current);
    });
  }

  for (const url of ['/api/auth/logout', '/initial/auth/logout']) {
    api.post(url, { config: { access: 'user' }, schema: { tags, body: logoutRequestSchema } }, async (request: FastifyRequest<{ Body: z.infer<typeof logoutRequestSchema> }>, reply) => {
      const { session } = request.auth;
      if (request.body?.logoutAllSessions) await deleteUserSessions(app.db, session.userId);
      else await deleteSession(app.db, session.tokenHash);
      clearSessionCookie(app, reply);
      return reply.status(204).send();
    });
  }

  api.get('/api/auth/active-sessions', { config: { access: 'user' }, schema: { tags, response: { 200: z.array(activeSessionSchema) } } }, async (request) => {
    const { session } = request.auth;
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

  // ---- MFA ------------------------------------------------------------------

  for (const url of ['/api/auth/mfa-secret', '/initial/auth/mfa-secret']) {
    api.get(url, { config: { access: 'user' }, schema: { tags, querystring: mfaSecretQuerySchema, response: { 200: mfaSecretSchema } } }, async (request) => {
      const { session, userId } = request.auth;
      const user = await findUser(app.db, userId);
      if (!user) throw new DomainError('UNAUTHORIZED');
      if (await hasMfa(app.db, userId)) {
        // Re-running the setup replaces the secret: only a session that proved it holds the current one (or an electronic ID).
        if (request.query.edit !== 'true') throw new DomainError('MFA_ALREADY_SET_UP');
        if (!STRONG_SESSION_TYPES.has(session.authenticationType)) throw new SignInStepRequired('ENTER_MFA_CODE', 'editing MFA needs an MFA-authenticated session', {});
      }
      return createPendingSecret(app.db, userId, user.email);
    });
  }

  for (const url of ['/api/auth/confirm-mfa-code', '/initial/auth/confirm-mfa-code']) {
    api.post(url, { config: { access: 'user' }, schema: { tags, body: mfaCodeRequestSchema, response: { 200: meSchema } } }, async (request, reply) => {
      const { userId } = request.auth;
      const keys = await attemptKeys(app, throttleKeys.mfa(userId), throttleKeys.mfaFrom(userId, request.ip), userId, request.ip);
      await beginAttempt(app.db, reply, keys);
      const result = await confirmPendingSecret(app.db, userId, request.body.code);
      if (result === 'not-set-up') throw new DomainError('MFA_NOT_INITIALIZED');
      if (result === 'invalid') throw new DomainError('INVALID_MFA_CODE');
      await attemptSucceeded(app.db, keys);
      await runCommand(app, userDecider, { type: 'EnableMfa', userId }, actorOf(request), READ_MODELS);
      return afterMfaCode(app, request, reply, request.body.occupationId);
    });
  }

  api.post(
    '/initial/auth/upgrade-session-to-mfa',
    { config: { access: 'user' }, schema: { tags, body: mfaCodeRequestSchema, response: { 200: meSchema } } },
    async (request, reply) => {
      const { userId } = request.auth;
      const keys = await attemptKeys(app, throttleKeys.mfa(userId), throttleKeys.mfaFrom(userId, request.ip), userId, request.ip);
      await beginAttempt(app.db, reply, keys);
      const result = await verifyMfaCode(app.db, userId, request.body.code);
      if (result === 'not-set-up') throw new DomainError('MFA_NOT_SET_UP');
      if (result === 'invalid') throw new DomainError('INVALID_MFA_CODE');
      await attemptSucceeded(app.db, keys);
      return afterMfaCode(app, request, reply, request.body.occupationId);
    },
  );

  api.post('/api/auth/disable-mfa', { config: { access: 'user' }, schema: { tags, response: { 200: meSchema } } }, async (request) => {
    const { session, userId } = request.auth;
    if (!(await hasMfa(app.db, userId))) throw new DomainError('MFA_NOT_SET_UP');
    // A stolen password alone must not strip the second factor.
    if (!STRONG_SESSION_TYPES.has(session.authenticationType)) throw new SignInStepRequired('ENTER_MFA_CODE', 'removing MFA needs an MFA-authenticated session', {});
    await removeMfa(app.db, userId);
    await runCommand(app, userDecider, { type: 'DisableMfa', userId }, actorOf(request), READ_MODELS);
    await notifyOwner(app, userId, mfaRemovedMail);
    return meOf(app, session);
  });

  // ---- password -------------------------------------------------------------

  api.post('/api/auth/change-password', { config: { access: 'user' }, schema: { tags, body: changePasswordSchema } }, async (request, reply) => {
    const { session, userId } = request.auth;
    await assertCurrentPassword(app, reply, { userId, ip: request.ip, password: request.body.currentPassword });
    const user = await findUser(app.db, userId);
    if (!user) throw new DomainError('USER_NOT_FOUND');
    assertPasswordAcceptable(request.body.newPassword, user.email, 'newPassword');
    const passwordHash = await hashPassword(request.body.newPassword);
    await runCommand(app, userDecider, { type: 'SetPassword', userId }, actorOf(request), READ_MODELS);
    await app.db
      .insertInto('operational.credentials')
      .values({ user_id: userId, password_hash: passwordHash })
      .onConflict((oc) => oc.column('user_id').doUpdateSet({ password_hash: passwordHash, updated_at: new Date() }))
      .execute();
    // Whoever knew the old password is signed out everywhere but here.
    await deleteOtherSessions(app.db, userId, session.tokenHash);
    await notifyOwner(app, userId, passwordChangedMail);
    return reply.status(204).send();
  });
}
