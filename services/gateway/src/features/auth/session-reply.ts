import { DomainError } from '@eelarve/shared';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { RetryAfterHeader } from '../throttle/throttle';
import { clearSessionCookie, setSessionCookie } from './login-flow';
import { type SessionRecord, sessionToken } from './sessions';

/**
 * What the sign-in services need of the HTTP exchange, and nothing more: where the request comes
 * from, the session token it carries, and the session cookie and Retry-After header of the answer.
 * Routes build it; services stay free of Fastify's request and reply.
 */
export interface SessionReply extends RetryAfterHeader {
  ip: string;
  userAgent: string | null;
  /** The session token the request carries (UNAUTHORIZED without one). */
  token(): string;
  setCookie(token: string, session: SessionRecord): void;
  clearCookie(): void;
}

export function sessionReply(app: FastifyInstance, request: FastifyRequest, reply: FastifyReply): SessionReply {
  return {
    ip: request.ip,
    userAgent: request.headers['user-agent'] ?? null,
    token() {
      const token = sessionToken(app, request);
      if (!token) throw new DomainError('UNAUTHORIZED');
      return token;
    },
    setCookie: (token, session) => setSessionCookie(app, reply, token, session),
    clearCookie: () => clearSessionCookie(app, reply),
    header: (name, value) => reply.header(name, value),
  };
}
