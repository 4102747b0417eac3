import { userDecider } from '@eelarve/domain';
import { AUTHENTICATION_TYPES, type AuthenticationType, confirmPasswordSchema, DomainError, emailRequestSchema, tokenVerifyRequestSchema, tokenVerifyResponseSchema } from '@eelarve/shared';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { CommandActor } from '../../infrastructure/commands';
import { readModels } from '../../infrastructure/database';
import { runCommand } from '../../plugins/commands';
import { findUser, findUserByEmail, userOccupations } from '../auth/account-queries';
import { assertPasswordAcceptable, hashPassword } from '../auth/passwords';
import { deleteUserSessions } from '../auth/sessions';
import { clearFailures, takeAllowance, throttleKeys } from '../throttle/throttle';
import { sendPasswordReset, sendRegistrationConfirmation } from './confirmation';
import { consumeToken, findValidToken } from './tokens';

const READ_MODELS = ['accounts'] as const;
const tags = ['auth'];

/** The interactive authentication types the token user's organisations allow (BASIC is API use, not a way to sign in). */
async function allowedTypesOf(app: FastifyInstance, userId: string): Promise<AuthenticationType[]> {
  const user = await findUser(app.db, userId);
  const occupations = await userOccupations(app.db, userId);
  const found = new Set<AuthenticationType>(occupations.flatMap((occupation) => occupation.allowedAuthenticationTypes));
  if (user) {
    const home = await readModels(app.db).selectFrom('organizations').select('allowed_authentication_types').where('id', '=', user.organization_id).executeTakeFirst();
    for (const type of home?.allowed_authentication_types ?? []) found.add(type as AuthenticationType);
  }
  return AUTHENTICATION_TYPES.filter((type) => type !== 'BASIC' && found.has(type));
}

export async function registrationRoutes(app: FastifyInstance): Promise<void> {
  const api = app.withTypeProvider<ZodTypeProvider>();

  api.post(
    '/public/token/verify',
    { config: { access: 'public' }, schema: { tags, body: tokenVerifyRequestSchema, response: { 200: tokenVerifyResponseSchema } } },
    async (request) => {
      const token = await findValidToken(app.db, request.body.token);
      if (!token || !(await findUser(app.db, token.userId))) throw new DomainError('INVALID_OR_EXPIRED_TOKEN');
      return { allowedAuthenticationTypes: await allowedTypesOf(app, token.userId) };
    },
  );

  api.post('/public/auth/confirm-password', { config: { access: 'public' }, schema: { tags, body: confirmPasswordSchema } }, async (request, reply) => {
    const { type, token, password } = request.body;
    const valid = await findValidToken(app.db, token, type);
    const user = valid ? await findUser(app.db, valid.userId) : undefined;
    if (!valid || !user) throw new DomainError('INVALID_OR_EXPIRED_TOKEN');
    assertPasswordAcceptable(password, user.email, 'password');
    const passwordHash = await hashPassword(password);
    // Single use: of two concurrent requests with one token, only one gets past this.
    const userId = await consumeToken(app.db, token, type);
    if (!userId) throw new DomainError('INVALID_OR_EXPIRED_TOKEN');
    const actor: CommandActor = { correlationId: request.id, userId, occupationId: null, organizationId: null };
    await runCommand(app, userDecider, { type: 'SetPassword', userId }, actor, READ_MODELS);
    // Following a mailed link proves the address, for a reset as much as for a registration.
    await runCommand(app, userDecider, { type: 'ConfirmEmail', userId, now: new Date() }, actor, READ_MODELS);
    await app.db
      .insertInto('operational.credentials')
      .values({ user_id: userId, password_hash: passwordHash })
      .onConflict((oc) => oc.column('user_id').doUpdateSet({ password_hash: passwordHash, updated_at: new Date() }))
      .execute();
    // A new password ends every session that may have been opened with the old one, and unlocks sign-in.
    await deleteUserSessions(app.db, userId);
    await clearFailures(app.db, [throttleKeys.login(user.email)]);
    return reply.status(204).send();
  });

  /**
   * Reset and resend answer 204 at once, whether or not the address belongs to anyone; the
   * lookup and the mail happen after the response, so neither the answer nor its timing tells.
   */
  api.post('/public/auth/request-password-reset', { config: { access: 'public' }, schema: { tags, body: emailRequestSchema } }, async (request, reply) => {
    const email = request.body.email;
    app.mail.background('password-reset', async () => {
      const user = await findUserByEmail(app.db, email);
      if (!user) return;
      if (!(await takeAllowance(app.db, throttleKeys.mailTo(email)))) return;
      await sendPasswordReset(app, { userId: user.id, email: user.email, name: user.name, organizationId: user.organization_id });
    });
    return reply.status(204).send();
  });

  api.post('/public/auth/resend-confirmation', { config: { access: 'public' }, schema: { tags, body: emailRequestSchema } }, async (request, reply) => {
    const email = request.body.email;
    app.mail.background('resend-confirmation', async () => {
      const user = await findUserByEmail(app.db, email);
      if (!user || user.confirmed_at) return;
      if (!(await takeAllowance(app.db, throttleKeys.mailTo(email)))) return;
      await sendRegistrationConfirmation(app, { userId: user.id, email: user.email, name: user.name, organizationId: user.organization_id });
    });
    return reply.status(204).send();
  });
}

