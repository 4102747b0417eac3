import { userDecider } from '@eelarve/domain';
import { findUserById } from '@eelarve/projections/accounts/queries';
import { DomainError, type Me, type mfaCodeRequestSchema } from '@eelarve/shared';
import type { FastifyInstance } from 'fastify';
import type { z } from 'zod';
import { readModels } from '../../infrastructure/database';
import type { Caller } from '../../types';
import { notifyOwner } from '../mail/notify-owner';
import { mfaRemovedMail } from '../mail/templates';
import { attemptSucceeded, beginAttempt } from '../throttle/throttle';
import { mfaAttempt } from './attempts';
import { chooseOccupation, enterOccupationById, SignInStepRequired } from './login-flow';
import { meOf } from './me';
import { confirmPendingSecret, createPendingSecret, hasMfa, removeMfa, verifyMfaCode } from './mfa';
import { withSessionCookie } from './service';
import type { SessionReply } from './session-reply';
import { upgradeSession } from './sessions';

type MfaCodeRequest = z.output<typeof mfaCodeRequestSchema>;

/** The read models the screens after these calls read (Me: users, occupations, organisations). */
const READ_MODELS = ['accounts'] as const;

/** Sessions that proved more than a password: they may edit or remove MFA. */
const STRONG_SESSION_TYPES = new Set(['LOGIN_WITH_MFA', 'PASS']);

/** The second factor (TOTP, spec 1 section 4): setting it up, proving it, removing it. */
export function mfaService(app: FastifyInstance) {
  /**
   * After a valid MFA code: a password session becomes LOGIN_WITH_MFA (with a new token), then
   * enters the requested occupation, or the only usable one if it has none yet.
   */
  async function afterMfaCode(caller: Caller, http: SessionReply, occupationId: string | null | undefined): Promise<Me> {
    const { session } = caller.auth;
    const upgraded = session.authenticationType === 'LOGIN' ? await upgradeSession(app.db, session, 'LOGIN_WITH_MFA') : { token: http.token(), session };
    http.setCookie(upgraded.token, upgraded.session);
    const current = await withSessionCookie(http, upgraded.token, upgraded.session, (s) =>
      occupationId ? enterOccupationById(app, s, occupationId) : s.occupationId ? Promise.resolve(s) : chooseOccupation(app, s),
    );
    return meOf(app, current);
  }

  /** Throttled like a password: a code counts against the user from this address and the address. */
  async function checkedCode(
    caller: Caller,
    http: SessionReply,
    check: () => Promise<'valid' | 'invalid' | 'not-set-up'>,
    notSetUp: 'MFA_NOT_INITIALIZED' | 'MFA_NOT_SET_UP',
  ) {
    const keys = await mfaAttempt(app.db, caller.auth.userId, http.ip);
    await beginAttempt(app.db, http, keys);
    const result = await check();
    if (result === 'not-set-up') throw new DomainError(notSetUp);
    if (result === 'invalid') throw new DomainError('INVALID_MFA_CODE');
    await attemptSucceeded(app.db, keys);
  }

  return {
    /** A new secret to scan. Re-running the setup replaces the secret: only a session that proved it holds the current one (or an electronic ID). */
    async secret(caller: Caller, edit: boolean) {
      const { session, userId } = caller.auth;
      const user = await findUserById(readModels(app.db), userId);
      if (!user) throw new DomainError('UNAUTHORIZED');
      if (await hasMfa(app.db, userId)) {
        if (!edit) throw new DomainError('MFA_ALREADY_SET_UP');
        if (!STRONG_SESSION_TYPES.has(session.authenticationType))
          throw new SignInStepRequired('ENTER_MFA_CODE', 'editing MFA needs an MFA-authenticated session', {});
      }
      return createPendingSecret(app.db, userId, user.email);
    },

    /** The first code of a new secret: the secret becomes the active one, and the session an MFA one. */
    async confirmSecret(caller: Caller, http: SessionReply, input: MfaCodeRequest): Promise<Me> {
      const { userId } = caller.auth;
      await checkedCode(caller, http, () => confirmPendingSecret(app.db, userId, input.code), 'MFA_NOT_INITIALIZED');
      await app.commands.run({ decider: userDecider, command: { type: 'EnableMfa', userId }, actor: caller.actor, readModels: READ_MODELS });
      return afterMfaCode(caller, http, input.occupationId);
    },

    /** A code of the active secret raises a password session to an MFA one. */
    async upgradeSession(caller: Caller, http: SessionReply, input: MfaCodeRequest): Promise<Me> {
      await checkedCode(caller, http, () => verifyMfaCode(app.db, caller.auth.userId, input.code), 'MFA_NOT_SET_UP');
      return afterMfaCode(caller, http, input.occupationId);
    },

    async disable(caller: Caller): Promise<Me> {
      const { session, userId } = caller.auth;
      if (!(await hasMfa(app.db, userId))) throw new DomainError('MFA_NOT_SET_UP');
      // A stolen password alone must not strip the second factor.
      if (!STRONG_SESSION_TYPES.has(session.authenticationType))
        throw new SignInStepRequired('ENTER_MFA_CODE', 'removing MFA needs an MFA-authenticated session', {});
      await removeMfa(app.db, userId);
      await app.commands.run({ decider: userDecider, command: { type: 'DisableMfa', userId }, actor: caller.actor, readModels: READ_MODELS });
      await notifyOwner(app, userId, mfaRemovedMail);
      return meOf(app, session);
    },
  };
}
