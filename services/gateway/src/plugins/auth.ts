import { DomainError } from '@eelarve/shared';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { occupationPrivileges } from '@eelarve/projections/accounts/queries';
import { findSession, hashToken, sessionToken } from '../features/auth/sessions';
import { authoriseRoute } from '../features/permissions/authorize';
import { beginTrace, finishTrace, traced } from '../infrastructure/command-trace';
import { readModels } from '../infrastructure/database';
import type { AuthContext, RouteAccess } from '../types';
import { isApiPath } from './errors';
import { DOCS_PREFIX } from './openapi';

const UNSAFE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * Cookies ride along on cross-site requests; a state-changing call must come from our own
 * pages. Browsers send Sec-Fetch-Site and Origin on such calls; scripts send neither.
 */
function assertSameOrigin(request: FastifyRequest, publicUrl: string): void {
  if (!UNSAFE_METHODS.has(request.method)) return;
  if (request.headers['sec-fetch-site'] === 'cross-site') throw new DomainError('CROSS_SITE_REQUEST');
  const origin = request.headers.origin;
  if (!origin) return;
  const allowed = new Set([new URL(publicUrl).origin, `${request.protocol}://${request.host}`]);
  if (!allowed.has(origin)) throw new DomainError('CROSS_SITE_REQUEST');
}

/** Whose session a token (by its hash: no token is kept) was last time: lets the privileges be read beside the session, not after it. */
const lastHolders = new Map<string, { userId: string; occupationId: string }>();
const HOLDERS_KEPT = 10_000;

function rememberHolder(key: string, holder: { userId: string; occupationId: string }): void {
  lastHolders.delete(key);
  lastHolders.set(key, holder);
  if (lastHolders.size > HOLDERS_KEPT) lastHolders.delete(lastHolders.keys().next().value!);
}

/**
 * The session, then the privileges of its occupation, both read fresh on every request. The
 * privileges are asked at once for the occupation the token had last time, beside the session
 * (one round trip instead of two); they are used only when the session names that occupation
 * still, and read again otherwise.
 */
async function authenticate(app: FastifyInstance, request: FastifyRequest): Promise<AuthContext | null> {
  const token = sessionToken(app, request);
  if (!token) return null;
  const privilegesOf = (userId: string, occupationId: string) =>
    traced(request.id, 'auth.privileges', occupationPrivileges(readModels(app.db), userId, occupationId));
  const key = hashToken(token).toString('base64');
  const guess = lastHolders.get(key);
  const guessed = guess ? privilegesOf(guess.userId, guess.occupationId) : undefined;
  // A guess that is not needed must not become an unhandled rejection.
  guessed?.catch(() => {});
  const session = await traced(request.id, 'auth.session', findSession(app.db, token, app.config.sessionIdleTimeoutMs));
  if (!session) return null;
  let privileges: string[] = [];
  if (session.occupationId) {
    const holder = { userId: session.userId, occupationId: session.occupationId };
    const same = guessed && guess?.userId === holder.userId && guess.occupationId === holder.occupationId;
    const held = await (same ? guessed : privilegesOf(holder.userId, holder.occupationId));
    rememberHolder(key, holder);
    // An occupation removed since sign-in leaves the session without one.
    if (!held) return { session, userId: session.userId, occupationId: null, organizationId: null, privileges };
    privileges = held;
  }
  return { session, userId: session.userId, occupationId: session.occupationId, organizationId: session.organizationId, privileges };
}

/**
 * API routes need an occupation unless they say otherwise; the docs and web files are public.
 * Decided on the matched route's pattern, never on the raw URL: the router decodes the path, so
 * `/%61pi/...` reaches the same handler as `/api/...` and must meet the same access. A request
 * that matches no route only reaches the not-found handler.
 */
function defaultAccess(routePattern: string | undefined): RouteAccess {
  if (routePattern === undefined) return 'public';
  const docs = routePattern === DOCS_PREFIX || routePattern.startsWith(`${DOCS_PREFIX}/`);
  return isApiPath(routePattern) && !docs ? 'occupation' : 'public';
}

/** Every route declares its access (default: an occupation); the server checks it on every call. */
export const authPlugin = fp(async (app: FastifyInstance) => {
  app.decorateRequest('optionalAuth', null);
  app.decorateRequest('auth', {
    getter(this: FastifyRequest) {
      if (!this.optionalAuth) throw new DomainError('UNAUTHORIZED');
      return this.optionalAuth;
    },
  });
  // onRequest: refuse before a body is even parsed or validated.
  app.addHook('onRequest', async (request) => {
    beginTrace(request.id);
    // Non-API routes (the web client's files, docs) and the not-found handler are public.
    const access = request.routeOptions.config?.access ?? defaultAccess(request.routeOptions.url);
    assertSameOrigin(request, app.config.publicUrl);
    request.optionalAuth = access === 'public' && !sessionToken(app, request) ? null : await authenticate(app, request);
    authoriseRoute(access, request.optionalAuth);
  });
  // EELARVE_TRACE_COMMANDS=1: a slow command's phases (infrastructure/command-trace.ts).
  app.addHook('onResponse', async (request) => {
    const trace = finishTrace(request.id);
    if (trace) request.log.warn({ trace }, 'slow command');
  });
  // A request the client gave up on gets no onResponse: its trace goes too.
  app.addHook('onRequestAbort', async (request) => {
    finishTrace(request.id);
  });
});
