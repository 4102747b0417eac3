import { findUserById } from '@eelarve/projections/accounts/queries';
import type { FastifyInstance } from 'fastify';
import { readModels } from '../../infrastructure/database';
import type { MailMessage } from './outbox';
import { type MailLanguage, mailLanguage } from './templates';

export type OwnerMail = (language: MailLanguage, input: { to: string; name: string }) => MailMessage;

/** A mail to the account's own address in the user's language: a change made by someone else does not go unnoticed. */
export async function notifyOwner(app: FastifyInstance, userId: string, template: OwnerMail): Promise<void> {
  const user = await findUserById(readModels(app.db), userId);
  if (!user) return;
  const language = await mailLanguage(app.db, { userId, organizationId: user.organization_id });
  await app.mail.enqueue(template(language, { to: user.email, name: user.name }));
}
