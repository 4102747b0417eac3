import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { setSessionCookie } from '../auth/login-flow';
import { FLOW_COOKIE, FLOW_COOKIE_PATH, FLOW_LIFETIME_SECONDS } from './flow-cookie';
import { CALLBACK_PATH } from './locations';
import { electronicIdService, type FlowOutcome, type FlowRedirect, type FlowVisit } from './service';

const tags = ['electronic-id'];
const MAX_QUERY_VALUE = 2_048;
const lenient = z.string().max(MAX_QUERY_VALUE).optional().catch(undefined);
const loginQuery = z.object({ redirect: lenient });
const confirmQuery = z.object({ token: lenient, type: lenient });
const callbackQuery = z.object({ code: lenient, state: lenient, error: lenient, error_description: lenient, iss: lenient });

function visitOf(request: FastifyRequest): FlowVisit {
  return {
    requestId: request.id,
    protocol: request.protocol,
    host: request.host,
    ip: request.ip,
    userAgent: request.headers['user-agent'] ?? null,
    log: request.log,
    actor: request.actor,
    auth: request.optionalAuth,
    flowCookie: request.cookies[FLOW_COOKIE],
  };
}

/**
 * Electronic ID (authentication type PASS) through OpenID Connect: whole-page round trips
 * (electronic-id/service.ts). The routes set and clear the cookies and redirect.
 */
export async function electronicIdRoutes(app: FastifyInstance): Promise<void> {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const eid = electronicIdService(app);

  /** To the provider with the sealed flow in a short-lived cookie, or back to the page with a failure flag. */
  function toProvider(reply: FastifyReply, { location, flowCookie }: FlowRedirect) {
    if (!flowCookie) return reply.redirect(location);
    reply.setCookie(FLOW_COOKIE, flowCookie, {
      path: FLOW_COOKIE_PATH,
      httpOnly: true,
      sameSite: 'lax',
      secure: app.config.environment === 'production',
      maxAge: FLOW_LIFETIME_SECONDS,
    });
    return reply.header('cache-control', 'no-store').redirect(location);
  }

  /** The flow is over either way: its cookie goes, a sign-in sets the session cookie, and the browser goes on. */
  function flowEnded(reply: FastifyReply, { location, session }: FlowOutcome) {
    reply.clearCookie(FLOW_COOKIE, { path: FLOW_COOKIE_PATH });
    reply.header('cache-control', 'no-store');
    if (session) setSessionCookie(app, reply, session.token, session.record);
    return reply.redirect(location);
  }

  api.get(
    '/public/auth/pass-login',
    {
      config: { access: 'public' },
      schema: {
        tags,
        summary: 'Sign in with the electronic ID: redirects to the provider',
        description:
          'Back at /public/auth/pass-callback: 302 to the redirect path or / (occupation entered), /select-occupation, or /login?eidError=true&eidReason=...',
        querystring: loginQuery,
      },
    },
    async (request, reply) => toProvider(reply, await eid.login(visitOf(request), request.query.redirect)),
  );

  api.get(
    '/api/auth/pass-bind',
    {
      config: { access: 'user' },
      schema: {
        tags,
        summary: 'Bind the electronic ID to the signed-in user: redirects to the provider',
        description: 'Back: 302 /account?eidBound=true or /account?eidError=true&eidReason=...',
      },
    },
    async (request, reply) => toProvider(reply, await eid.bind(request.caller, visitOf(request))),
  );

  api.get(
    '/public/auth/pass-confirm',
    {
      config: { access: 'public' },
      schema: {
        tags,
        summary: 'Registration or password update with the electronic ID instead of a password: redirects to the provider',
        description:
          'Back: 302 /login?registered=true (REGISTRATION) or /login?reset=true (RESET); failure: /confirm or /update-password?token=...&type=...&eidError=true&eidReason=...',
        querystring: confirmQuery,
      },
    },
    async (request, reply) => toProvider(reply, await eid.confirm(visitOf(request), request.query)),
  );

  api.get(
    CALLBACK_PATH,
    { config: { access: 'public' }, schema: { tags, summary: "The provider's redirect back (authorization code response)", querystring: callbackQuery } },
    async (request, reply) => flowEnded(reply, await eid.callback(visitOf(request), request.query)),
  );

  api.get(
    '/public/auth/pass-redirect-log',
    { config: { access: 'public' }, schema: { tags, summary: 'Logs that the web client is sending the browser to the electronic-ID provider' } },
    async (request, reply) => {
      request.log.info(
        {
          requestId: request.id,
          userId: request.optionalAuth?.userId ?? null,
          referer: request.headers.referer ?? null,
          userAgent: request.headers['user-agent'] ?? null,
        },
        'electronic-ID redirect',
      );
      return reply.status(204).send();
    },
  );

  api.put(
    '/api/auth/unbind',
    { config: { access: 'user' }, schema: { tags, summary: "Removes the signed-in user's electronic-ID binding" } },
    async (request, reply) => {
      await eid.unbind(request.caller, request.log);
      return reply.status(204).send();
    },
  );
}
