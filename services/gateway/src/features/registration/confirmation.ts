import type { FastifyInstance } from 'fastify';
import type { AppDatabase } from '../../infrastructure/database';
import { mailLanguage, passwordResetMail, publicLink, registrationMail } from '../mail/templates';
import { issueToken } from './tokens';

export interface ConfirmationRecipient {
  userId: string;
  email: string;
  name: string;
  organizationId: string;
}

/**
 * Issues a registration token (7 days) and mails the link `${publicUrl}/confirm?token=...`.
 * Called when an administrator creates a user and on "resend confirmation". The mail goes
 * through the outbox: this resolves once it is stored, and never fails on the mail server.
 */
export async function sendRegistrationConfirmation(app: FastifyInstance, user: ConfirmationRecipient): Promise<void> {
  const token = await issueToken(app.db, user.userId, 'REGISTRATION');
  const language = await mailLanguage(app.db, { userId: user.userId, organizationId: user.organizationId });
  await app.mail.enqueue(registrationMail(language, { to: user.email, name: user.name, url: publicLink(app.config.publicUrl, 'confirm', { token }) }));
  const sentAt = new Date();
  await app.db
    .insertInto('operational.registration_confirmations')
    .values({ user_id: user.userId, sent_at: sentAt })
    .onConflict((oc) => oc.column('user_id').doUpdateSet({ sent_at: sentAt }))
    .execute();
}

/** Issues a reset token (1 day) and mails the link `${publicUrl}/reset-password?token=...`. */
export async function sendPasswordReset(app: FastifyInstance, user: ConfirmationRecipient): Promise<void> {
  const token = await issueToken(app.db, user.userId, 'RESET');
  const language = await mailLanguage(app.db, { userId: user.userId, organizationId: user.organizationId });
  await app.mail.enqueue(passwordResetMail(language, { to: user.email, name: user.name, url: publicLink(app.config.publicUrl, 'reset-password', { token }) }));
}

/** When the last registration confirmation was sent to each user (users list: confirmationSentAt). */
export async function confirmationSentAt(db: AppDatabase, userIds: readonly string[]): Promise<Map<string, Date>> {
  if (userIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('operational.registration_confirmations')
    .select(['user_id', 'sent_at'])
    .where('user_id', 'in', [...userIds])
    .execute();
  return new Map(rows.map((row) => [row.user_id, row.sent_at]));
}
