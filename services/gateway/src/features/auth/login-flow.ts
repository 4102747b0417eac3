import { occupationPrivileges } from '@eelarve/projections/accounts/queries';
import { type AuthenticationType, DomainError, type ErrorCode } from '@eelarve/shared';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { readModels } from '../../infrastructure/database';
import { hasMfa } from './mfa';
import { type SessionRecord, selectSessionOccupation, sessionCookieName, usesSecureCookies } from './sessions';
import { type UserOccupation, userOccupations } from './sign-in-occupations';

/**
 * The sign-in flow of spec 1, section 4, server side. Exported for every way in (password here,
 * electronic ID in features/electronic-id): create a session, then `chooseOccupation`.
 */

/**
 * An occupation's organisation lists the authentication types that may enter it. A password +
 * MFA session is at least as strong as a password one, so it also enters LOGIN organisations.
 */
export function canEnter(authenticationType: string, allowed: readonly AuthenticationType[]): boolean {
  if (allowed.includes(authenticationType as AuthenticationType)) return true;
  return authenticationType === 'LOGIN_WITH_MFA' && allowed.includes('LOGIN');
}

/**
 * A refusal of the sign-in flow that tells the web client where to go next: 403 whatever the
 * catalogue's usual status for the code (ENTER_MFA_CODE, MFA_NOT_SET_UP, ORGANIZATION_UNSUITABLE).
 */
export class SignInStepRequired extends DomainError {
  constructor(code: ErrorCode, message: string, details: Record<string, unknown>) {
    super(code, message, details);
  }
  override get status(): number {
    return 403;
  }
}

/**
 * In production a platform administrator (an occupation holding IS_ADMIN, which only the platform
 * organisation's roles grant) must prove a second factor whatever the organisation allows: a
 * password alone then meets MFA_NOT_SET_UP or ENTER_MFA_CODE like an MFA organisation's user.
 */
async function withAdminMfa(app: FastifyInstance, userId: string, occupation: UserOccupation): Promise<UserOccupation> {
  if (app.config.environment !== 'production') return occupation;
  const privileges = await occupationPrivileges(readModels(app.db), userId, occupation.id);
  if (!privileges?.includes('IS_ADMIN')) return occupation;
  const strong = occupation.allowedAuthenticationTypes.filter((type) => type !== 'LOGIN' && type !== 'BASIC');
  return { ...occupation, allowedAuthenticationTypes: strong.includes('LOGIN_WITH_MFA') ? strong : [...strong, 'LOGIN_WITH_MFA'] };
}

/** The user's occupations with the authentication types that may enter each. */
async function enterableOccupations(app: FastifyInstance, userId: string): Promise<UserOccupation[]> {
  return Promise.all((await userOccupations(app.db, userId)).map((occupation) => withAdminMfa(app, userId, occupation)));
}

/**
 * Throws the step the session needs before it may enter `occupation`: a password session facing
 * an organisation that wants MFA gets ENTER_MFA_CODE (MFA added) or MFA_NOT_SET_UP; anything else
 * that does not fit gets ORGANIZATION_UNSUITABLE with the types the organisation requires.
 */
export async function assertCanEnter(app: FastifyInstance, session: SessionRecord, occupation: UserOccupation): Promise<void> {
  if (canEnter(session.authenticationType, occupation.allowedAuthenticationTypes)) return;
  const details = { occupationId: occupation.id };
  if (session.authenticationType === 'LOGIN' && occupation.allowedAuthenticationTypes.includes('LOGIN_WITH_MFA')) {
    if (await hasMfa(app.db, session.userId)) throw new SignInStepRequired('ENTER_MFA_CODE', 'the organisation requires an MFA code', details);
    throw new SignInStepRequired('MFA_NOT_SET_UP', 'the organisation requires MFA, which the user has not set up', details);
  }
  throw new SignInStepRequired('ORGANIZATION_UNSUITABLE', 'the organisation does not allow this authentication type', {
    ...details,
    requiredAuthenticationTypes: occupation.allowedAuthenticationTypes.filter((type) => type !== 'BASIC'),
  });
}

/**
 * Puts the session into the occupation: from now on it lasts the organisation's session length
 * (sessionLength x multiplier), and the occupation becomes the user's last used one.
 */
export async function enterOccupation(app: FastifyInstance, session: SessionRecord, occupation: UserOccupation): Promise<SessionRecord> {
  await assertCanEnter(app, session, occupation);
  const expiresAt = new Date(Date.now() + occupation.sessionLengthMs);
  await selectSessionOccupation(app.db, session.tokenHash, { occupationId: occupation.id, organizationId: occupation.organizationId, expiresAt });
  await app.db
    .insertInto('operational.sign_ins')
    .values({ user_id: session.userId, last_occupation_id: occupation.id })
    .onConflict((oc) => oc.column('user_id').doUpdateSet({ last_occupation_id: occupation.id }))
    .execute();
  return { ...session, occupationId: occupation.id, organizationId: occupation.organizationId, expiresAt };
}

/** Enters the user's occupation `occupationId` (OCCUPATION_NOT_FOUND if it is not theirs). */
export async function enterOccupationById(app: FastifyInstance, session: SessionRecord, occupationId: string): Promise<SessionRecord> {
  const occupation = (await enterableOccupations(app, session.userId)).find((candidate) => candidate.id === occupationId);
  if (!occupation) throw new DomainError('OCCUPATION_NOT_FOUND');
  return enterOccupation(app, session, occupation);
}

/**
 * After sign-in or an MFA step: enters the requested occupation (if it is still the user's), or else the only occupation
 * usable with the session's type. A password session whose occupations all want MFA is told so
 * (ENTER_MFA_CODE or MFA_NOT_SET_UP, with the occupation when there is just one) so the web goes
 * straight to code entry or setup. Otherwise the session stays without an occupation and the
 * user chooses one.
 */
export async function chooseOccupation(app: FastifyInstance, session: SessionRecord, requested?: string | null): Promise<SessionRecord> {
  const occupations = await enterableOccupations(app, session.userId);
  // A remembered occupation that is no longer the user's (removed since) is ignored, not an error.
  const wanted = requested ? occupations.find((occupation) => occupation.id === requested) : undefined;
  if (wanted) return enterOccupation(app, session, wanted);
  const usable = occupations.filter((occupation) => canEnter(session.authenticationType, occupation.allowedAuthenticationTypes));
  if (usable.length === 1) return enterOccupation(app, session, usable[0]!);
  if (usable.length === 0 && session.authenticationType === 'LOGIN') {
    const withMfa = occupations.filter((occupation) => occupation.allowedAuthenticationTypes.includes('LOGIN_WITH_MFA'));
    if (withMfa.length > 0) {
      const details = { occupationId: withMfa.length === 1 ? withMfa[0]!.id : null };
      if (await hasMfa(app.db, session.userId)) throw new SignInStepRequired('ENTER_MFA_CODE', 'the organisations require an MFA code', details);
      throw new SignInStepRequired('MFA_NOT_SET_UP', 'the organisations require MFA, which the user has not set up', details);
    }
  }
  return session;
}

export function setSessionCookie(app: FastifyInstance, reply: FastifyReply, token: string, session: SessionRecord): void {
  reply.setCookie(sessionCookieName(app.config), token, {
    // Path=/ with no Domain, as the __Host- prefix requires.
    path: '/',
    httpOnly: true,
    sameSite: 'lax',
    secure: usesSecureCookies(app.config),
    // Without remember-me the cookie ends with the browser session; the server expiry still applies.
    ...(session.rememberMe ? { expires: session.expiresAt } : {}),
  });
}

export function clearSessionCookie(app: FastifyInstance, reply: FastifyReply): void {
  reply.clearCookie(sessionCookieName(app.config), { path: '/', httpOnly: true, sameSite: 'lax', secure: usesSecureCookies(app.config) });
}

export async function recordSignIn(app: FastifyInstance, userId: string, ip: string): Promise<void> {
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
