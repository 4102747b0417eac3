import {
  activeSessionCountSchema,
  changePasswordSchema,
  loginRequestSchema,
  logoutRequestSchema,
  meSchema,
  mfaCodeRequestSchema,
  mfaSecretQuerySchema,
  mfaSecretSchema,
} from '@eelarve/shared';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { mfaService } from './mfa-service';
import { passwordService } from './password-service';
import { signInService } from './service';
import { sessionReply } from './session-reply';

const occupationChoiceSchema = z.union([
  z.object({ occupationId: z.uuid({ message: 'validation.format' }) }),
  z.object({ user: z.object({ occupationId: z.uuid({ message: 'validation.format' }) }) }),
]);

const activeSessionSchema = z.object({
  createdAt: z.string(),
  lastSeenAt: z.string(),
  ip: z.string().nullable(),
  userAgent: z.string().nullable(),
  current: z.boolean(),
});

const tags = ['auth'];
const signedIn = { access: 'user' as const };

export async function authRoutes(app: FastifyInstance): Promise<void> {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const signIn = signInService(app);
  const mfa = mfaService(app);
  const passwords = passwordService(app);

  api.post('/initial/auth/login', { config: { access: 'public' }, schema: { tags, body: loginRequestSchema, response: { 200: meSchema } } }, (request, reply) =>
    signIn.signIn(sessionReply(app, request, reply), request.body),
  );

  for (const url of ['/api/auth/me', '/initial/auth/me']) {
    api.get(url, { config: signedIn, schema: { tags, response: { 200: meSchema } } }, (request) => signIn.me(request.caller));
  }

  api.get('/api/auth/session-count', { config: signedIn, schema: { tags, response: { 200: activeSessionCountSchema } } }, (request) =>
    signIn.sessionCount(request.caller),
  );

  for (const url of ['/api/auth/switch', '/initial/auth/select-occupation']) {
    api.post(url, { config: signedIn, schema: { tags, body: occupationChoiceSchema, response: { 200: meSchema } } }, (request, reply) =>
      signIn.switchOccupation(
        request.caller,
        sessionReply(app, request, reply),
        'occupationId' in request.body ? request.body.occupationId : request.body.user.occupationId,
      ),
    );
  }

  for (const url of ['/api/auth/logout', '/initial/auth/logout']) {
    api.post(url, { config: signedIn, schema: { tags, body: logoutRequestSchema } }, async (request, reply) => {
      await signIn.signOut(request.caller, sessionReply(app, request, reply), request.body?.logoutAllSessions ?? false);
      return reply.status(204).send();
    });
  }

  api.get('/api/auth/active-sessions', { config: signedIn, schema: { tags, response: { 200: z.array(activeSessionSchema) } } }, (request) =>
    signIn.activeSessions(request.caller),
  );

  // ---- MFA ------------------------------------------------------------------

  for (const url of ['/api/auth/mfa-secret', '/initial/auth/mfa-secret']) {
    api.get(url, { config: signedIn, schema: { tags, querystring: mfaSecretQuerySchema, response: { 200: mfaSecretSchema } } }, (request) =>
      mfa.secret(request.caller, request.query.edit === 'true'),
    );
  }

  for (const url of ['/api/auth/confirm-mfa-code', '/initial/auth/confirm-mfa-code']) {
    api.post(url, { config: signedIn, schema: { tags, body: mfaCodeRequestSchema, response: { 200: meSchema } } }, (request, reply) =>
      mfa.confirmSecret(request.caller, sessionReply(app, request, reply), request.body),
    );
  }

  api.post(
    '/initial/auth/upgrade-session-to-mfa',
    { config: signedIn, schema: { tags, body: mfaCodeRequestSchema, response: { 200: meSchema } } },
    (request, reply) => mfa.upgradeSession(request.caller, sessionReply(app, request, reply), request.body),
  );

  api.post('/api/auth/disable-mfa', { config: signedIn, schema: { tags, response: { 200: meSchema } } }, (request) => mfa.disable(request.caller));

  // ---- password -------------------------------------------------------------

  api.post('/api/auth/change-password', { config: signedIn, schema: { tags, body: changePasswordSchema } }, async (request, reply) => {
    await passwords.change(request.caller, sessionReply(app, request, reply), request.body);
    return reply.status(204).send();
  });
}
