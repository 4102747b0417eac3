import { createHash, randomBytes } from 'node:crypto';
import { normaliseEmail, userDecider } from '@eelarve/domain';
import {
  DomainError,
  emailChangeConfirmResponseSchema,
  emailChangeRequestSchema,
  emailChangeStatusSchema,
  MS_PER_DAY,
  tokenVerifyRequestSchema,
} from '@eelarve/shared';
import { findUserById } from '@eelarve/projections/accounts/queries';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { CommandActor } from '../../infrastructure/commands';
import { type AppDatabase, readModels } from '../../infrastructure/database';
import type { Caller } from '../../types';
import { assertCurrentPassword } from '../auth/current-password';
import { type SessionReply, sessionReply } from '../auth/session-reply';
import { emailChangeConfirmMail, emailChangedMail, emailChangeRequestedMail, mailLanguage, publicLink } from '../mail/templates';
import { emails, withEmail } from '../users/email-reservation';
import { claim, settle } from '../users/reservations';

/**
 * Changing one's own e-mail (spec 1, account settings) in two steps, so neither a borrowed
 * session nor a typo takes the account away from its owner:
 * 1. PUT api/user-settings/email with the current password: the new address is claimed (a
 *    pending claim on its reservation stream, EMAIL_IN_USE if taken), a single-use link goes to
 *    it and the old address is told. Nothing else changes: the user still signs in with the old
 *    address.
 * 2. POST public/email-change/confirm with the link's token (the web page /confirm-email): the
 *    e-mail changes under a fresh claim (withEmail; the request's claim holds the address only
 *    for the reservations' STALE_AFTER_MS, so someone else may have taken it meanwhile:
 *    EMAIL_IN_USE then), the old address is released and told.
 */
const tags = ['user-settings'];
const READ_MODELS = ['accounts'] as const;
export const EMAIL_CHANGE_LIFETIME_MS = MS_PER_DAY;
/** The web page the mailed link opens. */
export const EMAIL_CHANGE_PAGE = 'confirm-email';

const hashToken = (token: string) => createHash('sha256').update(token, 'utf8').digest();

async function pendingChange(db: AppDatabase, userId: string) {
  return db
    .selectFrom('operational.email_changes')
    .select(['new_email', 'claim_id', 'expires_at'])
    .where('user_id', '=', userId)
    .where('expires_at', '>', new Date())
    .executeTakeFirst();
}

/** Records the request (replacing an earlier one of the user) and returns the token for the link. */
async function recordChange(db: AppDatabase, userId: string, newEmail: string, claimId: string): Promise<string> {
  const token = randomBytes(32).toString('base64url');
  const row = {
    new_email: newEmail,
    claim_id: claimId,
    token_hash: hashToken(token),
    requested_at: new Date(),
    expires_at: new Date(Date.now() + EMAIL_CHANGE_LIFETIME_MS),
  };
  await db
    .insertInto('operational.email_changes')
    .values({ user_id: userId, ...row })
    .onConflict((oc) => oc.column('user_id').doUpdateSet(row))
    .execute();
  return token;
}

/** Single use: of two concurrent confirmations with one token only one gets the row. */
async function consumeChange(db: AppDatabase, token: string): Promise<{ userId: string; newEmail: string; claimId: string } | null> {
  const row = await db
    .deleteFrom('operational.email_changes')
    .where('token_hash', '=', hashToken(token))
    .where('expires_at', '>', new Date())
    .returning(['user_id', 'new_email', 'claim_id'])
    .executeTakeFirst();
  return row ? { userId: row.user_id, newEmail: row.new_email, claimId: row.claim_id } : null;
}

/** Ends the request's claim: the address is released unless the user now carries it. */
async function settleRequestClaim(app: FastifyInstance, input: { userId: string; email: string; claimId: string; actor: CommandActor }): Promise<void> {
  await settle(app.store, emails(app), { value: input.email, ownerId: input.userId, claimId: input.claimId, actor: input.actor });
}

export function emailChangeService(app: FastifyInstance) {
  const findUser = (userId: string) => findUserById(readModels(app.db), userId);

  async function requestChange(input: { userId: string; email: string; actor: CommandActor }): Promise<string | null> {
    const user = await findUser(input.userId);
    if (!user) throw new DomainError('USER_NOT_FOUND');
    const earlier = await pendingChange(app.db, input.userId);
    if (normaliseEmail(user.email) === input.email) {
      // Back to the address in use: an earlier request is withdrawn.
      await app.db.deleteFrom('operational.email_changes').where('user_id', '=', input.userId).execute();
      if (earlier) await settleRequestClaim(app, { userId: input.userId, email: earlier.new_email, claimId: earlier.claim_id, actor: input.actor });
      return null;
    }
    const claimed = await claim(app.store, emails(app), { value: input.email, ownerId: input.userId, actor: input.actor });
    const token = await recordChange(app.db, input.userId, input.email, claimed.claimId);
    // The earlier request is replaced: its address goes free (the new claim keeps a repeated one).
    if (earlier) await settleRequestClaim(app, { userId: input.userId, email: earlier.new_email, claimId: earlier.claim_id, actor: input.actor });
    const language = await mailLanguage(app.db, { userId: input.userId, organizationId: user.organization_id });
    const url = publicLink(app.config.publicUrl, EMAIL_CHANGE_PAGE, { token });
    await app.mail.enqueue(emailChangeConfirmMail(language, { to: input.email, name: user.name, url }));
    await app.mail.enqueue(emailChangeRequestedMail(language, { to: user.email, name: user.name, newEmail: input.email }));
    return input.email;
  }

  return {
    pending: async (caller: Caller) => ({ pendingEmail: (await pendingChange(app.db, caller.auth.userId))?.new_email ?? null }),

    /** Step 1: with the current password, the new address is claimed and a link mailed to it. */
    async request(caller: Caller, http: SessionReply, input: { email: string; currentPassword: string }) {
      const { userId } = caller.auth;
      await assertCurrentPassword(app, http, { userId, ip: http.ip, password: input.currentPassword });
      return { pendingEmail: await requestChange({ userId, email: normaliseEmail(input.email), actor: caller.actor }) };
    },

    /** Step 2 (public, the link's token proves the user): the e-mail changes under a fresh claim. */
    async confirm(correlationId: string, token: string) {
      const change = await consumeChange(app.db, token);
      const user = change ? await findUser(change.userId) : undefined;
      if (!change || !user) throw new DomainError('INVALID_OR_EXPIRED_TOKEN');
      const actor: CommandActor = { correlationId, userId: user.id, occupationId: null, organizationId: null };
      const oldEmail = user.email;
      try {
        await withEmail(app, { email: change.newEmail, userId: user.id, actor }, () =>
          app.commands.run({ decider: userDecider, command: { type: 'ChangeEmail', userId: user.id, email: change.newEmail }, actor, readModels: READ_MODELS }),
        );
      } finally {
        await settleRequestClaim(app, { userId: user.id, email: change.newEmail, claimId: change.claimId, actor });
      }
      const language = await mailLanguage(app.db, { userId: user.id, organizationId: user.organization_id });
      await app.mail.enqueue(emailChangedMail(language, { to: oldEmail, name: user.name, newEmail: change.newEmail }));
      return { email: change.newEmail };
    },
  };
}

export function emailChangeRoutes(app: FastifyInstance): void {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const emailChange = emailChangeService(app);

  api.get('/api/user-settings/email', { config: { access: 'user' }, schema: { tags, response: { 200: emailChangeStatusSchema } } }, (request) =>
    emailChange.pending(request.caller),
  );

  api.put(
    '/api/user-settings/email',
    { config: { access: 'user' }, schema: { tags, body: emailChangeRequestSchema, response: { 200: emailChangeStatusSchema } } },
    (request, reply) => emailChange.request(request.caller, sessionReply(app, request, reply), request.body),
  );

  api.post(
    '/public/email-change/confirm',
    { config: { access: 'public' }, schema: { tags, body: tokenVerifyRequestSchema, response: { 200: emailChangeConfirmResponseSchema } } },
    (request) => emailChange.confirm(request.id, request.body.token),
  );
}
