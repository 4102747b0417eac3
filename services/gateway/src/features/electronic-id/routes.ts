import { userDecider } from '@eelarve/domain';
import type { GlobalPosition } from '@eelarve/eventstore';
import { DomainError } from '@eelarve/shared';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { type CommandActor, executeCommand } from '../../infrastructure/commands';
import type { AppConfig } from '../../config';
import type { AppDatabase } from '../../infrastructure/database';
import { actorOf } from '../../plugins/commands';
import { findUser } from '../auth/account-queries';
import { chooseOccupation, recordSignIn, setSessionCookie } from '../auth/login-flow';
import { createSession, PRE_OCCUPATION_SESSION_MS } from '../auth/sessions';
import { consumeToken, findValidToken, type TokenPurpose } from '../registration/tokens';
import { bindPersonalCode, findBoundUser, removeElectronicId } from './bindings';
import { FLOW_COOKIE, FLOW_COOKIE_PATH, FLOW_LIFETIME_SECONDS, type Flow, openFlow, sealFlow } from './flow-cookie';
import { electronicIdKeys, hashPersonalCode } from './keys';
import {
  authorizationRequest,
  discover,
  ElectronicIdError,
  type ElectronicIdFailure,
  exchangeCode,
  safeEqual,
  type VerifiedIdentity,
  verifyIdToken,
} from './oidc-client';

/**
 * Electronic ID (authentication type PASS) through OpenID Connect (spec 1, sections 2, 4, 7, 8).
 *
 * Every flow is a whole-page round trip: a start address sets a sealed, short-lived cookie
 * (state, nonce, PKCE verifier, what the flow is for) and redirects to the provider; the
 * provider redirects back to /public/auth/pass-callback, which checks everything and redirects
 * to a page of the web client with flags in the query.
 */

/** Read models the page after a binding or confirmation reads (me, users). */
const READ_MODELS = ['accounts'] as const;
const CALLBACK_PATH = '/public/auth/pass-callback';
/** The authentication type of electronic-ID sessions. */
const PASS = 'PASS';
/** Browsers and proxies cope with cookies up to 4 KB. */
const MAX_COOKIE_LENGTH = 3_800;
const MAX_QUERY_VALUE = 2_048;

type FlowStart = Pick<Flow, 'mode' | 'redirect' | 'userId' | 'sessionHash' | 'token' | 'tokenType'>;

const tags = ['electronic-id'];
const lenient = z.string().max(MAX_QUERY_VALUE).optional().catch(undefined);
const loginQuery = z.object({ redirect: lenient });
const confirmQuery = z.object({ token: lenient, type: lenient });
const callbackQuery = z.object({ code: lenient, state: lenient, error: lenient, error_description: lenient, iss: lenient });

/** Where the web client shows the outcome of a failed flow: the page it started from. */
export function failureLocation(flow: Pick<FlowStart, 'mode' | 'token' | 'tokenType'> | null, reason: ElectronicIdFailure): string {
  const flags = new URLSearchParams({ eidError: 'true', eidReason: reason });
  if (flow?.mode === 'bind') return `/account?${flags}`;
  if (flow?.mode === 'confirm' && flow.token) {
    const page = flow.tokenType === 'RESET' ? '/update-password' : '/confirm';
    return `${page}?${new URLSearchParams({ token: flow.token, ...(flow.tokenType ? { type: flow.tokenType } : {}) })}&${flags}`;
  }
  return `/login?${flags}`;
}

/** Only a path on this site: no scheme, no host, no protocol-relative `//`. */
export function safeRedirect(value: string | undefined): string | undefined {
  if (!value?.startsWith('/') || value.startsWith('//') || value.startsWith('/\\')) return undefined;
  // biome-ignore lint/suspicious/noControlCharactersInRegex: refusing control characters is the point
  if (/[\u0000-\u001f\u007f]/.test(value)) return undefined;
  const base = 'http://local.invalid';
  const url = new URL(value, base);
  return url.origin === base ? `${url.pathname}${url.search}${url.hash}` : undefined;
}

const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * The redirect URI registered with the provider: under PUBLIC_URL. Cookies are per host, so the
 * callback must reach the host the flow started on; outside production a loopback alias of
 * PUBLIC_URL (127.0.0.1 for localhost, same port) is used as it is, which is what the local
 * demo provider registers too.
 */
export function callbackUrl(config: Pick<AppConfig, 'publicUrl' | 'environment'>, request: { protocol: string; host: string }): string {
  const canonical = new URL(config.publicUrl);
  if (config.environment !== 'production' && canonical.pathname === '/') {
    const own = new URL(`${request.protocol}://${request.host}`);
    if (own.protocol === canonical.protocol && own.port === canonical.port && LOOPBACK.has(own.hostname) && LOOPBACK.has(canonical.hostname)) {
      return `${own.origin}${CALLBACK_PATH}`;
    }
  }
  return `${config.publicUrl.replace(/\/+$/, '')}${CALLBACK_PATH}`;
}

function asFailure(error: unknown): ElectronicIdError {
  if (error instanceof ElectronicIdError) return error;
  if (error instanceof DomainError && error.code === 'USER_NOT_FOUND') return new ElectronicIdError('USER_NOT_FOUND', error.message);
  return new ElectronicIdError('FAILED', error instanceof Error ? error.message : String(error));
}

async function waitForReadModels(app: FastifyInstance, position: GlobalPosition | null): Promise<void> {
  if (position) await app.projections.waitForPosition(READ_MODELS, position, app.config.readYourWritesTimeoutMs);
}

export async function electronicIdRoutes(app: FastifyInstance): Promise<void> {
  const api = app.withTypeProvider<ZodTypeProvider>();

  /**
   * Sets the flow cookie and sends the browser to the provider. Without a provider (not configured
   * or unreachable) it goes back to the page with the failure flag; a cookie that cannot be set
   * answers EXTERNAL_AUTH_COOKIE_FAILED.
   */
  async function startFlow(request: FastifyRequest, reply: FastifyReply, start: FlowStart) {
    const oidc = app.config.oidc;
    if (!oidc) {
      request.log.warn({ mode: start.mode }, 'electronic ID is not configured (OIDC_ISSUER)');
      return reply.redirect(failureLocation(start, 'NOT_CONFIGURED'));
    }
    let authorization: ReturnType<typeof authorizationRequest>;
    try {
      const { metadata } = await discover(oidc.issuer);
      authorization = authorizationRequest(metadata, oidc, callbackUrl(app.config, request));
    } catch (error) {
      request.log.warn({ err: error, mode: start.mode }, 'electronic-ID provider unavailable');
      return reply.redirect(failureLocation(start, 'FAILED'));
    }
    try {
      const { flowCookie } = await electronicIdKeys(app.db);
      const flow: Flow = {
        ...start,
        issuer: oidc.issuer,
        state: authorization.state,
        nonce: authorization.nonce,
        codeVerifier: authorization.codeVerifier,
        redirectUri: authorization.redirectUri,
        expiresAt: Date.now() + FLOW_LIFETIME_SECONDS * 1000,
      };
      const sealed = sealFlow(flow, flowCookie);
      if (sealed.length > MAX_COOKIE_LENGTH) throw new Error(`flow cookie of ${sealed.length} characters is too large`);
      reply.setCookie(FLOW_COOKIE, sealed, {
        path: FLOW_COOKIE_PATH,
        httpOnly: true,
        sameSite: 'lax',
        secure: app.config.environment === 'production',
        maxAge: FLOW_LIFETIME_SECONDS,
      });
    } catch (error) {
      request.log.error({ err: error, mode: start.mode }, 'could not set the electronic-ID flow cookie');
      throw new DomainError('EXTERNAL_AUTH_COOKIE_FAILED');
    }
    request.log.info({ requestId: request.id, mode: start.mode }, 'electronic-ID redirect to the provider');
    return reply.header('cache-control', 'no-store').redirect(authorization.url);
  }

  /** Checks the provider's answer against the flow and returns the person it vouches for. */
  async function identify(flow: Flow, query: z.infer<typeof callbackQuery>): Promise<VerifiedIdentity> {
    const oidc = app.config.oidc;
    if (!oidc) throw new ElectronicIdError('NOT_CONFIGURED', 'OIDC_ISSUER is not set');
    if (flow.issuer !== oidc.issuer) throw new ElectronicIdError('FAILED', 'flow started with another provider');
    if (!query.state || !safeEqual(query.state, flow.state)) throw new ElectronicIdError('FAILED', 'state does not match the flow cookie');
    if (query.error) {
      throw new ElectronicIdError(query.error === 'access_denied' ? 'CANCELLED' : 'FAILED', `provider answered ${query.error}: ${query.error_description ?? ''}`);
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

  async function completeLogin(request: FastifyRequest, reply: FastifyReply, flow: Flow, identity: VerifiedIdentity): Promise<string> {
    const userId = await findBoundUser(app.db, await hashPersonalCode(app.db, identity.personalCode));
    if (!userId) throw new ElectronicIdError('USER_NOT_FOUND', 'no user has this personal code bound');
    const user = await findUser(app.db, userId);
    if (!user) throw new ElectronicIdError('USER_NOT_FOUND', 'the bound user no longer exists');
    if (!user.confirmed_at) throw new ElectronicIdError('EMAIL_NOT_CONFIRMED', 'the bound user has not confirmed the e-mail');
    const { token, session } = await createSession(app.db, {
      userId,
      authenticationType: PASS,
      rememberMe: false,
      ip: request.ip,
      userAgent: request.headers['user-agent'] ?? null,
      lifetimeMs: PRE_OCCUPATION_SESSION_MS,
    });
    await recordSignIn(app, userId, request.ip);
    // The only occupation whose organisation allows PASS is entered; otherwise the user chooses.
    const current = await chooseOccupation(app, session);
    setSessionCookie(app, reply, token, current);
    request.log.info({ userId }, 'signed in with the electronic ID');
    return current.occupationId ? (flow.redirect ?? '/') : '/select-occupation';
  }

  /**
   * Binds the code to the user and records it. Database work (the optional `consume`, the binding)
   * comes first in one transaction and the events last, so a refused binding leaves no event.
   */
  async function bind(userId: string, personalCode: string, actor: CommandActor, options: { consume?: (trx: AppDatabase) => Promise<void>; confirmEmail?: boolean } = {}) {
    const hash = await hashPersonalCode(app.db, personalCode);
    const position = await app.db.transaction().execute(async (trx) => {
      await options.consume?.(trx);
      const changed = await bindPersonalCode(trx, userId, hash);
      let last: GlobalPosition | null = null;
      if (changed) last = (await executeCommand(app.store, userDecider, { type: 'BindElectronicId', userId }, actor)).position;
      if (options.confirmEmail) last = (await executeCommand(app.store, userDecider, { type: 'ConfirmEmail', userId, now: new Date() }, actor)).position ?? last;
      return last;
    });
    await waitForReadModels(app, position);
  }

  async function completeBind(request: FastifyRequest, flow: Flow, identity: VerifiedIdentity): Promise<string> {
    const auth = request.optionalAuth;
    if (!auth || !flow.userId || auth.userId !== flow.userId || auth.session.tokenHash.toString('base64url') !== flow.sessionHash) {
      throw new ElectronicIdError('SESSION_CHANGED', 'the callback did not come with the session that started the binding');
    }
    await bind(flow.userId, identity.personalCode, actorOf(request));
    request.log.info({ userId: flow.userId }, 'electronic ID bound');
    return '/account?eidBound=true';
  }

  async function completeConfirm(request: FastifyRequest, flow: Flow, identity: VerifiedIdentity): Promise<string> {
    const purpose = flow.tokenType;
    if (!flow.token || !purpose) throw new ElectronicIdError('INVALID_TOKEN', 'flow carries no token');
    const valid = await findValidToken(app.db, flow.token, purpose);
    if (!valid) throw new ElectronicIdError('INVALID_TOKEN', 'token invalid, used or expired');
    const actor: CommandActor = { correlationId: request.id, userId: valid.userId, occupationId: null, organizationId: null };
    await bind(valid.userId, identity.personalCode, actor, {
      // Consumed in the same transaction as the binding: a refused binding leaves the token usable.
      consume: async (trx) => {
        if ((await consumeToken(trx, flow.token!, purpose)) !== valid.userId) throw new ElectronicIdError('INVALID_TOKEN', 'token was used meanwhile');
      },
      // Following a mailed link proves the address, for a reset as much as for a registration.
      confirmEmail: true,
    });
    request.log.info({ userId: valid.userId, purpose }, 'electronic ID bound with a mailed token');
    return purpose === 'REGISTRATION' ? '/login?registered=true' : '/login?reset=true';
  }

  api.get(
    '/public/auth/pass-login',
    {
      config: { access: 'public' },
      schema: {
        tags,
        summary: 'Sign in with the electronic ID: redirects to the provider',
        description: 'Back at /public/auth/pass-callback: 302 to the redirect path or / (occupation entered), /select-occupation, or /login?eidError=true&eidReason=...',
        querystring: loginQuery,
      },
    },
    async (request, reply) => startFlow(request, reply, { mode: 'login', redirect: safeRedirect(request.query.redirect) }),
  );

  api.get(
    '/api/auth/pass-bind',
    {
      config: { access: 'user' },
      schema: { tags, summary: 'Bind the electronic ID to the signed-in user: redirects to the provider', description: 'Back: 302 /account?eidBound=true or /account?eidError=true&eidReason=...' },
    },
    async (request, reply) => {
      const { userId, session } = request.auth;
      return startFlow(request, reply, { mode: 'bind', userId, sessionHash: session.tokenHash.toString('base64url') });
    },
  );

  api.get(
    '/public/auth/pass-confirm',
    {
      config: { access: 'public' },
      schema: {
        tags,
        summary: 'Registration or password update with the electronic ID instead of a password: redirects to the provider',
        description: 'Back: 302 /login?registered=true (REGISTRATION) or /login?reset=true (RESET); failure: /confirm or /update-password?token=...&type=...&eidError=true&eidReason=...',
        querystring: confirmQuery,
      },
    },
    async (request, reply) => {
      const type = request.query.type === 'REGISTRATION' || request.query.type === 'RESET' ? (request.query.type as TokenPurpose) : undefined;
      const start: FlowStart = { mode: 'confirm', token: request.query.token, tokenType: type ?? 'REGISTRATION' };
      if (!request.query.token || !type || !(await findValidToken(app.db, request.query.token, type))) {
        return reply.redirect(failureLocation(start, 'INVALID_TOKEN'));
      }
      return startFlow(request, reply, start);
    },
  );

  api.get(
    CALLBACK_PATH,
    { config: { access: 'public' }, schema: { tags, summary: "The provider's redirect back (authorization code response)", querystring: callbackQuery } },
    async (request, reply) => {
      reply.clearCookie(FLOW_COOKIE, { path: FLOW_COOKIE_PATH });
      reply.header('cache-control', 'no-store');
      let flow: Flow | null = null;
      try {
        flow = openFlow(request.cookies[FLOW_COOKIE], (await electronicIdKeys(app.db)).flowCookie);
        if (!flow) throw new ElectronicIdError('FAILED', 'flow cookie missing, altered or expired');
        const identity = await identify(flow, request.query);
        switch (flow.mode) {
          case 'login':
            return reply.redirect(await completeLogin(request, reply, flow, identity));
          case 'bind':
            return reply.redirect(await completeBind(request, flow, identity));
          case 'confirm':
            return reply.redirect(await completeConfirm(request, flow, identity));
        }
      } catch (error) {
        const failure = asFailure(error);
        request.log.warn({ requestId: request.id, mode: flow?.mode ?? null, reason: failure.reason, detail: failure.detail }, 'electronic-ID flow failed');
        return reply.redirect(failureLocation(flow, failure.reason));
      }
    },
  );

  api.get(
    '/public/auth/pass-redirect-log',
    { config: { access: 'public' }, schema: { tags, summary: 'Logs that the web client is sending the browser to the electronic-ID provider' } },
    async (request, reply) => {
      request.log.info(
        { requestId: request.id, userId: request.optionalAuth?.userId ?? null, referer: request.headers.referer ?? null, userAgent: request.headers['user-agent'] ?? null },
        'electronic-ID redirect',
      );
      return reply.status(204).send();
    },
  );

  api.put(
    '/api/auth/unbind',
    { config: { access: 'user' }, schema: { tags, summary: "Removes the signed-in user's electronic-ID binding" } },
    async (request, reply) => {
      const { userId } = request.auth;
      const position = await app.db.transaction().execute(async (trx) => {
        await removeElectronicId(trx, userId);
        return (await executeCommand(app.store, userDecider, { type: 'UnbindElectronicId', userId }, actorOf(request))).position;
      });
      await waitForReadModels(app, position);
      request.log.info({ userId }, 'electronic ID unbound');
      return reply.status(204).send();
    },
  );
}
