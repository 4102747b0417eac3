import { confirmPasswordSchema, emailRequestSchema, tokenVerifyRequestSchema, tokenVerifyResponseSchema } from '@eelarve/shared';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { registrationService } from './service';

const tags = ['auth'];
const access = 'public' as const;

export async function registrationRoutes(app: FastifyInstance): Promise<void> {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const registration = registrationService(app);

  api.post(
    '/public/token/verify',
    { config: { access }, schema: { tags, body: tokenVerifyRequestSchema, response: { 200: tokenVerifyResponseSchema } } },
    (request) => registration.verifyToken(request.body.token),
  );

  api.post('/public/auth/confirm-password', { config: { access }, schema: { tags, body: confirmPasswordSchema } }, async (request, reply) => {
    await registration.confirmPassword(request.id, request.body);
    return reply.status(204).send();
  });

  api.post('/public/auth/request-password-reset', { config: { access }, schema: { tags, body: emailRequestSchema } }, async (request, reply) => {
    registration.requestPasswordReset(request.body.email);
    return reply.status(204).send();
  });

  api.post('/public/auth/resend-confirmation', { config: { access }, schema: { tags, body: emailRequestSchema } }, async (request, reply) => {
    registration.resendConfirmation(request.body.email);
    return reply.status(204).send();
  });
}
