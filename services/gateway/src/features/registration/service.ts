import { userDecider } from '@eelarve/domain';
import { findUserByEmail, findUserById } from '@eelarve/projections/accounts/queries';
import { findOrganization } from '@eelarve/projections/organizations/queries';
import { AUTHENTICATION_TYPES, type AuthenticationType, type confirmPasswordSchema, DomainError } from '@eelarve/shared';
import type { FastifyInstance } from 'fastify';
import type { z } from 'zod';
import type { CommandActor } from '../../infrastructure/commands';
import { readModels } from '../../infrastructure/database';
import { storePasswordHash } from '../auth/credentials';
import { assertPasswordAcceptable, hashPassword } from '../auth/passwords';
import { deleteUserSessions } from '../auth/sessions';
import { userOccupations } from '../auth/sign-in-occupations';
import { clearFailures, takeAllowance, throttleKeys } from '../throttle/throttle';
import { sendPasswordReset, sendRegistrationConfirmation } from './confirmation';
import { consumeToken, findValidToken } from './tokens';

type ConfirmPassword = z.output<typeof confirmPasswordSchema>;

const READ_MODELS = ['accounts'] as const;

/**
 * Mailed links (spec 1, section 5): registration confirmation and password reset. Public: the
 * caller proves who they are with the link's token, so these take the request id, not a caller.
 */
export function registrationService(app: FastifyInstance) {
  const read = () => readModels(app.db);

  /** The interactive authentication types the token user's organisations allow (BASIC is API use, not a way to sign in). */
  async function allowedTypesOf(userId: string): Promise<AuthenticationType[]> {
    const user = await findUserById(read(), userId);
    const occupations = await userOccupations(app.db, userId);
    const found = new Set<AuthenticationType>(occupations.flatMap((occupation) => occupation.allowedAuthenticationTypes));
    const home = user ? await findOrganization(read(), user.organization_id) : undefined;
    for (const type of home?.allowed_authentication_types ?? []) found.add(type as AuthenticationType);
    return AUTHENTICATION_TYPES.filter((type) => type !== 'BASIC' && found.has(type));
  }

  return {
    async verifyToken(token: string) {
      const valid = await findValidToken(app.db, token);
      if (!valid || !(await findUserById(read(), valid.userId))) throw new DomainError('INVALID_OR_EXPIRED_TOKEN');
      return { allowedAuthenticationTypes: await allowedTypesOf(valid.userId) };
    },

    /** Sets the password of a registration or reset link; the link is single use. */
    async confirmPassword(correlationId: string, input: ConfirmPassword): Promise<void> {
      const { type, token, password } = input;
      const valid = await findValidToken(app.db, token, type);
      const user = valid ? await findUserById(read(), valid.userId) : undefined;
      if (!valid || !user) throw new DomainError('INVALID_OR_EXPIRED_TOKEN');
      assertPasswordAcceptable(password, user.email, 'password');
      const passwordHash = await hashPassword(password);
      // Single use: of two concurrent requests with one token, only one gets past this.
      const userId = await consumeToken(app.db, token, type);
      if (!userId) throw new DomainError('INVALID_OR_EXPIRED_TOKEN');
      const actor: CommandActor = { correlationId, userId, occupationId: null, organizationId: null };
      await app.commands.run({ decider: userDecider, command: { type: 'SetPassword', userId }, actor, readModels: READ_MODELS });
      // Following a mailed link proves the address, for a reset as much as for a registration.
      await app.commands.run({ decider: userDecider, command: ({ now }) => ({ type: 'ConfirmEmail' as const, userId, now }), actor, readModels: READ_MODELS });
      await storePasswordHash(app.db, userId, passwordHash);
      // A new password ends every session that may have been opened with the old one, and unlocks sign-in.
      await deleteUserSessions(app.db, userId);
      await clearFailures(app.db, [throttleKeys.login(user.email)]);
    },

    /**
     * Reset and resend answer at once, whether or not the address belongs to anyone; the lookup
     * and the mail happen after the response, so neither the answer nor its timing tells.
     */
    requestPasswordReset(email: string): void {
      app.mail.background('password-reset', async () => {
        const user = await findUserByEmail(read(), email);
        if (!user) return;
        if (!(await takeAllowance(app.db, throttleKeys.mailTo(email)))) return;
        await sendPasswordReset(app, { userId: user.id, email: user.email, name: user.name, organizationId: user.organization_id });
      });
    },

    resendConfirmation(email: string): void {
      app.mail.background('resend-confirmation', async () => {
        const user = await findUserByEmail(read(), email);
        if (!user || user.confirmed_at) return;
        if (!(await takeAllowance(app.db, throttleKeys.mailTo(email)))) return;
        await sendRegistrationConfirmation(app, { userId: user.id, email: user.email, name: user.name, organizationId: user.organization_id });
      });
    },
  };
}
