import { userDecider } from '@eelarve/domain';
import { findUserById } from '@eelarve/projections/accounts/queries';
import { type changePasswordSchema, DomainError } from '@eelarve/shared';
import type { FastifyInstance } from 'fastify';
import type { z } from 'zod';
import { readModels } from '../../infrastructure/database';
import type { Caller } from '../../types';
import { notifyOwner } from '../mail/notify-owner';
import { passwordChangedMail } from '../mail/templates';
import { storePasswordHash } from './credentials';
import { assertCurrentPassword } from './current-password';
import { assertPasswordAcceptable, hashPassword } from './passwords';
import type { SessionReply } from './session-reply';
import { deleteOtherSessions } from './sessions';

type ChangePassword = z.output<typeof changePasswordSchema>;

const READ_MODELS = ['accounts'] as const;

/** A signed-in user's own password. */
export function passwordService(app: FastifyInstance) {
  return {
    async change(caller: Caller, http: SessionReply, input: ChangePassword): Promise<void> {
      const { session, userId } = caller.auth;
      await assertCurrentPassword(app, http, { userId, ip: http.ip, password: input.currentPassword });
      const user = await findUserById(readModels(app.db), userId);
      if (!user) throw new DomainError('USER_NOT_FOUND');
      assertPasswordAcceptable(input.newPassword, user.email, 'newPassword');
      const passwordHash = await hashPassword(input.newPassword);
      await app.commands.run({ decider: userDecider, command: { type: 'SetPassword', userId }, actor: caller.actor, readModels: READ_MODELS });
      await storePasswordHash(app.db, userId, passwordHash);
      // Whoever knew the old password is signed out everywhere but here.
      await deleteOtherSessions(app.db, userId, session.tokenHash);
      await notifyOwner(app, userId, passwordChangedMail);
    },
  };
}
