import { DomainError } from '@eelarve/shared';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { findSession, sessionToken } from '../features/auth/sessions';
import { authoriseRoute, rememberCallerOccupation } from '../features/permissions/authorize';
import { beginTrace, finishTrace, traced } from '../infrastructure/command-trace';
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

/** The session and its occupation's privileges, read fresh on every request in one query. */
async function authenticate(app: FastifyInstance, request: FastifyRequest): Promise<AuthContext | null> {
  const token = sessionToken(app, request);
  if (!token) return null;
  const found = await traced(request.id, 'auth.session', findSession(app.db, token, app.config.sessionIdleTimeoutMs));
  if (!found) return null;
  const { session, privileges, occupation } = found;
  const signedIn = { session, userId: session.userId, occupationId: session.occupationId, organizationId: session.organizationId };
  if (!session.occupationId) return { ...signedIn, privileges: [] };
  // An occupation removed since sign-in leaves the session without one.
  if (!privileges || !occupation) return { ...signedIn, occupationId: null, organizationId: null, privileges: [] };
  return rememberCallerOccupation({ ...signedIn, privileges }, occupation);
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
