import { DomainError } from '@eelarve/shared';
import { findUserById } from '@eelarve/projections/accounts/queries';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { CommandActor } from '../../infrastructure/commands';
import { readModels } from '../../infrastructure/database';
import type { AuthContext, Caller } from '../../types';
import { chooseOccupation, recordSignIn } from '../auth/login-flow';
import { createSession, PRE_OCCUPATION_SESSION_MS, type SessionRecord } from '../auth/sessions';
import { consumeToken, findValidToken, type TokenPurpose } from '../registration/tokens';
import { electronicIdBinding } from './binding';
import { findBoundUser } from './bindings';
import { FLOW_LIFETIME_SECONDS, type Flow, openFlow, sealFlow } from './flow-cookie';
import { electronicIdKeys, hashPersonalCode } from './keys';
import { callbackUrl, type FlowStart, failureLocation, safeRedirect } from './locations';
import { authorizationRequest, discover, ElectronicIdError, exchangeCode, safeEqual, type VerifiedIdentity, verifyIdToken } from './oidc-client';

/** The authentication type of electronic-ID sessions. */
const PASS = 'PASS';
/** Browsers and proxies cope with cookies up to 4 KB. */
const MAX_COOKIE_LENGTH = 3_800;

/** What a flow needs of the browser's request (every flow is a whole-page round trip). */
export interface FlowVisit {
  requestId: string;
  protocol: string;
  host: string;
  ip: string;
  userAgent: string | null;
  log: FastifyBaseLogger;
  /** Who runs the flow's commands (request.actor). */
  actor: CommandActor;
  /** The session the browser came with, if any. */
  auth: AuthContext | null;
  /** The sealed flow cookie it came back with (callback only). */
  flowCookie: string | undefined;
}

/** Where to send the browser; with `flowCookie`, the sealed flow to set first (then the page must not be cached). */
export interface FlowRedirect {
  location: string;
  flowCookie?: string;
}

/** The end of a flow: where to send the browser and, after a sign-in, the session to set. */
export interface FlowOutcome {
  location: string;
  session?: { token: string; record: SessionRecord };
}

export interface CallbackQuery {
  code?: string;
  state?: string;
  error?: string;
  error_description?: string;
  iss?: string;
}

function asFailure(error: unknown): ElectronicIdError {
  if (error instanceof ElectronicIdError) return error;
  if (error instanceof DomainError && error.code === 'USER_NOT_FOUND') return new ElectronicIdError('USER_NOT_FOUND', error.message);
  return new ElectronicIdError('FAILED', error instanceof Error ? error.message : String(error));
}

/**
 * Electronic ID (authentication type PASS) through OpenID Connect (spec 1, sections 2, 4, 7, 8).
 *
 * A start sets a sealed, short-lived cookie (state, nonce, PKCE verifier, what the flow is for)
 * and redirects to the provider; the provider redirects back to the callback, which checks
 * everything and sends the browser to a page of the web client with flags in the query.
 */
export function electronicIdService(app: FastifyInstance) {
  const binding = electronicIdBinding(app);

  /**
   * Seals the flow and points the browser to the provider. Without a provider (not configured or
   * unreachable) it goes back to the page with the failure flag; a cookie that cannot be made
   * answers EXTERNAL_AUTH_COOKIE_FAILED.
   */
  async function startFlow(visit: FlowVisit, start: FlowStart): Promise<FlowRedirect> {
    const oidc = app.config.oidc;
    if (!oidc) {
      visit.log.warn({ mode: start.mode }, 'electronic ID is not configured (OIDC_ISSUER)');
      return { location: failureLocation(start, 'NOT_CONFIGURED') };
    }
    let authorization: ReturnType<typeof authorizationRequest>;
    try {
      const { metadata } = await discover(oidc.issuer);
      authorization = authorizationRequest(metadata, oidc, callbackUrl(app.config, visit));
    } catch (error) {
      visit.log.warn({ err: error, mode: start.mode }, 'electronic-ID provider unavailable');
      return { location: failureLocation(start, 'FAILED') };
    }
    let flowCookie: string;
    try {
      const flow: Flow = {
        ...start,
        issuer: oidc.issuer,
        state: authorization.state,
        nonce: authorization.nonce,
        codeVerifier: authorization.codeVerifier,
        redirectUri: authorization.redirectUri,
        expiresAt: Date.now() + FLOW_LIFETIME_SECONDS * 1000,
      };
      flowCookie = sealFlow(flow, (await electronicIdKeys(app.db)).flowCookie);
      if (flowCookie.length > MAX_COOKIE_LENGTH) throw new Error(`flow cookie of ${flowCookie.length} characters is too large`);
    } catch (error) {
      visit.log.error({ err: error, mode: start.mode }, 'could not set the electronic-ID flow cookie');
      throw new DomainError('EXTERNAL_AUTH_COOKIE_FAILED');
    }
    visit.log.info({ requestId: visit.requestId, mode: start.mode }, 'electronic-ID redirect to the provider');
    return { location: authorization.url, flowCookie };
  }

  /** Checks the provider's answer against the flow and returns the person it vouches for. */
  async function identify(flow: Flow, query: CallbackQuery): Promise<VerifiedIdentity> {
    const oidc = app.config.oidc;
    if (!oidc) throw new ElectronicIdError('NOT_CONFIGURED', 'OIDC_ISSUER is not set');
    if (flow.issuer !== oidc.issuer) throw new ElectronicIdError('FAILED', 'flow started with another provider');
    if (!query.state || !safeEqual(query.state, flow.state)) throw new ElectronicIdError('FAILED', 'state does not match the flow cookie');
    if (query.error) {
      throw new ElectronicIdError(
        query.error === 'access_denied' ? 'CANCELLED' : 'FAILED',
        `provider answered ${query.error}: ${query.error_description ?? ''}`,
      );
    }
    const { metadata, keys } = await discover(oidc.issuer);
    // RFC 9207: when the provider names itself in the response it must be the one asked.
    if (query.iss !== undefined ? query.iss !== oidc.issuer : metadata.authorization_response_iss_parameter_supported) {
      throw new ElectronicIdError('FAILED', 'authorization response iss does not match');
    }
    if (!query.code) throw new ElectronicIdError('FAILED', 'no authorization code');
    const idToken = await exchangeCode(metadata, oidc, { code: query.code, redirectUri: flow.redirectUri, codeVerifier: flow.codeVerifier });
    return verifyIdToken(keys, oidc, idToken, flow.nonce);
  }

  async function completeLogin(visit: FlowVisit, flow: Flow, identity: VerifiedIdentity): Promise<FlowOutcome> {
    const userId = await findBoundUser(app.db, await hashPersonalCode(app.db, identity.personalCode));
    if (!userId) throw new ElectronicIdError('USER_NOT_FOUND', 'no user has this personal code bound');
    const user = await findUserById(readModels(app.db), userId);
    if (!user) throw new ElectronicIdError('USER_NOT_FOUND', 'the bound user no longer exists');
    if (!user.confirmed_at) throw new ElectronicIdError('EMAIL_NOT_CONFIRMED', 'the bound user has not confirmed the e-mail');
    const { token, session } = await createSession(app.db, {
      userId,
      authenticationType: PASS,
      rememberMe: false,
      ip: visit.ip,
      userAgent: visit.userAgent,
      lifetimeMs: PRE_OCCUPATION_SESSION_MS,
    });
    await recordSignIn(app, userId, visit.ip);
    // The only occupation whose organisation allows PASS is entered; otherwise the user chooses.
    const current = await chooseOccupation(app, session);
    visit.log.info({ userId }, 'signed in with the electronic ID');
    return { location: current.occupationId ? (flow.redirect ?? '/') : '/select-occupation', session: { token, record: current } };
  }

  async function completeBind(visit: FlowVisit, flow: Flow, identity: VerifiedIdentity): Promise<FlowOutcome> {
    const { auth } = visit;
    if (!auth || !flow.userId || auth.userId !== flow.userId || auth.session.tokenHash.toString('base64url') !== flow.sessionHash) {
      throw new ElectronicIdError('SESSION_CHANGED', 'the callback did not come with the session that started the binding');
    }
    await binding.bind(flow.userId, identity.personalCode, visit.actor);
    visit.log.info({ userId: flow.userId }, 'electronic ID bound');
    return { location: '/account?eidBound=true' };
  }

  async function completeConfirm(visit: FlowVisit, flow: Flow, identity: VerifiedIdentity): Promise<FlowOutcome> {
    const purpose = flow.tokenType;
    const mailedToken = flow.token;
    if (!mailedToken || !purpose) throw new ElectronicIdError('INVALID_TOKEN', 'flow carries no token');
    const valid = await findValidToken(app.db, mailedToken, purpose);
    if (!valid) throw new ElectronicIdError('INVALID_TOKEN', 'token invalid, used or expired');
    const actor: CommandActor = { correlationId: visit.requestId, userId: valid.userId, occupationId: null, organizationId: null };
    await binding.bind(valid.userId, identity.personalCode, actor, {
      // Consumed in the same transaction as the binding: a refused binding leaves the token usable.
      consume: async (trx) => {
        if ((await consumeToken(trx, mailedToken, purpose)) !== valid.userId) throw new ElectronicIdError('INVALID_TOKEN', 'token was used meanwhile');
      },
      // Following a mailed link proves the address, for a reset as much as for a registration.
      confirmEmail: true,
    });
    visit.log.info({ userId: valid.userId, purpose }, 'electronic ID bound with a mailed token');
    return { location: purpose === 'REGISTRATION' ? '/login?registered=true' : '/login?reset=true' };
  }

  return {
    /** Sign-in: back at the callback it enters the only PASS occupation, or lets the user choose. */
    login: (visit: FlowVisit, redirect: string | undefined) => startFlow(visit, { mode: 'login', redirect: safeRedirect(redirect) }),

    /** Binding to the signed-in user; the callback must come back with the same session. */
    bind(caller: Caller, visit: FlowVisit): Promise<FlowRedirect> {
      const { userId, session } = caller.auth;
      return startFlow(visit, { mode: 'bind', userId, sessionHash: session.tokenHash.toString('base64url') });
    },

    /** Registration or password update with the electronic ID instead of a password: needs a valid mailed token. */
    async confirm(visit: FlowVisit, query: { token?: string; type?: string }): Promise<FlowRedirect> {
      const type = query.type === 'REGISTRATION' || query.type === 'RESET' ? (query.type as TokenPurpose) : undefined;
      const start: FlowStart = { mode: 'confirm', token: query.token, tokenType: type ?? 'REGISTRATION' };
      if (!query.token || !type || !(await findValidToken(app.db, query.token, type))) return { location: failureLocation(start, 'INVALID_TOKEN') };
      return startFlow(visit, start);
    },

    /** The provider's redirect back: every failure ends on the page the flow started from, with its reason. */
    async callback(visit: FlowVisit, query: CallbackQuery): Promise<FlowOutcome> {
      let flow: Flow | null = null;
      try {
        flow = openFlow(visit.flowCookie, (await electronicIdKeys(app.db)).flowCookie);
        if (!flow) throw new ElectronicIdError('FAILED', 'flow cookie missing, altered or expired');
        const identity = await identify(flow, query);
        switch (flow.mode) {
          case 'login':
            return await completeLogin(visit, flow, identity);
          case 'bind':
            return await completeBind(visit, flow, identity);
          case 'confirm':
            return await completeConfirm(visit, flow, identity);
        }
      } catch (error) {
        const failure = asFailure(error);
        visit.log.warn({ requestId: visit.requestId, mode: flow?.mode ?? null, reason: failure.reason, detail: failure.detail }, 'electronic-ID flow failed');
        return { location: failureLocation(flow, failure.reason) };
      }
    },

    async unbind(caller: Caller, log: FastifyBaseLogger): Promise<void> {
      await binding.unbind(caller);
      log.info({ userId: caller.auth.userId }, 'electronic ID unbound');
    },
  };
}
