import { DomainError } from '@eelarve/shared';
import type { FastifyInstance } from 'fastify';
import { attemptSucceeded, beginAttempt, type RetryAfterHeader, throttleKeys } from '../throttle/throttle';
import { passwordMatches } from './credentials';

/**
 * A signed-in user proves they know the password before a change that a borrowed or stolen
 * session must not make alone (new password, new e-mail). Throttled like sign-in; a wrong one
 * answers 422 INVALID_CURRENT_PASSWORD on the `currentPassword` field.
 */
export async function assertCurrentPassword(
  app: FastifyInstance,
  reply: RetryAfterHeader,
  input: { userId: string; ip: string; password: string },
): Promise<void> {
  const keys = { account: throttleKeys.currentPassword(input.userId), ip: throttleKeys.ip(input.ip) };
  await beginAttempt(app.db, reply, keys);
  // The answer names the field without the `body.` prefix, as it always has (the web maps it to the form field).
  if (!(await passwordMatches(app.db, input.userId, input.password))) {
    throw new DomainError('INVALID_CURRENT_PASSWORD', 'the current password is wrong', [
      { path: 'currentPassword', message: 'error.INVALID_CURRENT_PASSWORD' },
    ]);
  }
  await attemptSucceeded(app.db, keys);
}
