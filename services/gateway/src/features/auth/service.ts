import { findUserByEmail } from '@eelarve/projections/accounts/queries';
import { DomainError, type loginRequestSchema, type Me } from '@eelarve/shared';
import type { FastifyInstance } from 'fastify';
import type { z } from 'zod';
import { readModels } from '../../infrastructure/database';
import type { Caller } from '../../types';
import { attemptSucceeded, beginAttempt } from '../throttle/throttle';
import { signInAttempt } from './attempts';
import { passwordMatches } from './credentials';
import { chooseOccupation, enterOccupationById, recordSignIn, SignInStepRequired } from './login-flow';
import { meOf } from './me';
import type { SessionReply } from './session-reply';
import { countActiveSessions, createSession, deleteSession, deleteUserSessions, liveSessions, PRE_OCCUPATION_SESSION_MS, type SessionRecord } from './sessions';

type LoginRequest = z.output<typeof loginRequestSchema>;

/**
 * Runs a sign-in step that may end in a refusal telling the web where to go next (403
 * ENTER_MFA_CODE, MFA_NOT_SET_UP, ORGANIZATION_UNSUITABLE): the session cookie is set either way,
 * because the next step (code entry, setup) continues this session.
 */
export async function withSessionCookie(
  http: SessionReply,
  token: string,
  session: SessionRecord,
  step: (session: SessionRecord) => Promise<SessionRecord>,
): Promise<SessionRecord> {
  try {
    const next = await step(session);
    http.setCookie(token, next);
    return next;
  } catch (error) {
    if (error instanceof SignInStepRequired) http.setCookie(token, session);
    throw error;
  }
}

/** Signing in with a password, and the session afterwards (spec 1, sections 2 and 4). */
export function signInService(app: FastifyInstance) {
  return {
    /** Password sign-in: throttled, then a session that enters the requested (or only usable) occupation. */
    async signIn(http: SessionReply, input: LoginRequest): Promise<Me> {
      const candidate = await findUserByEmail(readModels(app.db), input.username);
      const keys = await signInAttempt(app.db, input.username, candidate?.id, http.ip);
      await beginAttempt(app.db, http, keys);
      // The same time whether or not the address exists.
      const valid = await passwordMatches(app.db, candidate?.id, input.password);
      if (!candidate || !valid) throw new DomainError('INVALID_USERNAME_OR_PASSWORD');
      await attemptSucceeded(app.db, keys);
      if (!candidate.confirmed_at) throw new DomainError('EMAIL_NOT_CONFIRMED');
      const { token, session } = await createSession(app.db, {
        userId: candidate.id,
        authenticationType: 'LOGIN',
        rememberMe: input.rememberMe,
        ip: http.ip,
        userAgent: http.userAgent,
        lifetimeMs: PRE_OCCUPATION_SESSION_MS,
      });
      await recordSignIn(app, candidate.id, http.ip);
      return meOf(app, await withSessionCookie(http, token, session, (s) => chooseOccupation(app, s, input.occupationId)));
    },

    me: (caller: Caller) => meOf(app, caller.auth.session),

    sessionCount: async (caller: Caller) => ({ activeSessionCount: await countActiveSessions(app.db, caller.auth.userId) }),

    async switchOccupation(caller: Caller, http: SessionReply, occupationId: string): Promise<Me> {
      const current = await enterOccupationById(app, caller.auth.session, occupationId);
      http.setCookie(http.token(), current);
      return meOf(app, current);
    },

    async signOut(caller: Caller, http: SessionReply, everywhere: boolean): Promise<void> {
      const { session } = caller.auth;
      if (everywhere) await deleteUserSessions(app.db, session.userId);
      else await deleteSession(app.db, session.tokenHash);
      http.clearCookie();
    },

    async activeSessions(caller: Caller) {
      const { session } = caller.auth;
      return (await liveSessions(app.db, session.userId)).map((row) => ({
        createdAt: row.created_at.toISOString(),
        lastSeenAt: row.last_seen_at.toISOString(),
        ip: row.ip,
        userAgent: row.user_agent,
        current: row.token_hash.equals(session.tokenHash),
      }));
    },
  };
}
