import { DomainError } from '@eelarve/shared';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { attemptSucceeded, beginAttempt, throttleKeys } from '../throttle/throttle';
import { verifyAgainstNothing, verifyPassword } from './passwords';

/**
 * A signed-in user proves they know the password before a change that a borrowed or stolen
 * session must not make alone (new password, new e-mail). Throttled like sign-in; a wrong one
 * answers 422 INVALID_CURRENT_PASSWORD on the `currentPassword` field.
 */
export async function assertCurrentPassword(app: FastifyInstance, reply: FastifyReply, input: { userId: string; ip: string; password: string }): Promise<void> {
  const keys = { account: throttleKeys.currentPassword(input.userId), ip: throttleKeys.ip(input.ip) };
  await beginAttempt(app.db, reply, keys);
  const credential = await app.db.selectFrom('operational.credentials').select('password_hash').where('user_id', '=', input.userId).executeTakeFirst();
  const valid = credential ? await verifyPassword(input.password, credential.password_hash) : await verifyAgainstNothing(input.password);
  if (!valid) throw new DomainError('INVALID_CURRENT_PASSWORD', 'the current password is wrong', [{ path: 'currentPassword', message: 'error.INVALID_CURRENT_PASSWORD' }]);
  await attemptSucceeded(app.db, keys);
}
