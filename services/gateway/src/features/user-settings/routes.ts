import { userDecider } from '@eelarve/domain';
import { DomainError, languageRequestSchema, meSchema, userSettingsPutSchema, userSettingsQuerySchema, userSettingsSchema } from '@eelarve/shared';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { actorOf, runCommand } from '../../plugins/commands';
import { meOf } from '../auth/login-flow';
import { emailChangeRoutes } from './email-change';

const READ_MODELS = ['accounts'] as const;
const tags = ['user-settings'];
/** Settings are screen state (columns, filters, the remembered document), not documents. */
const MAX_SETTINGS_BYTES = 64 * 1024;

/** Absent ids are part of the key too: settings for a document differ from those for none. */
function scopeOf(ids: { documentId?: string; budgetId?: string; subBudgetId?: string }): string {
  return [ids.documentId ?? '', ids.budgetId ?? '', ids.subBudgetId ?? ''].join('|');
}

export async function userSettingsRoutes(app: FastifyInstance): Promise<void> {
  const api = app.withTypeProvider<ZodTypeProvider>();

  // Settings belong to the user in the occupation they act in.
  api.get(
    '/api/user-settings',
    { config: { access: 'occupation' }, schema: { tags, querystring: userSettingsQuerySchema, response: { 200: userSettingsSchema } } },
    async (request) => {
      const auth = request.auth;
      const row = await app.db
        .selectFrom('operational.user_settings')
        .select('settings')
        .where('user_id', '=', auth.userId)
        .where('occupation_id', '=', auth.occupationId!)
        .where('type', '=', request.query.type)
        .where('scope', '=', scopeOf(request.query))
        .executeTakeFirst();
      return { type: request.query.type, settings: (row?.settings as Record<string, unknown> | undefined) ?? {} };
    },
  );

  api.put(
    '/api/user-settings',
    { config: { access: 'occupation' }, schema: { tags, body: userSettingsPutSchema, response: { 200: userSettingsSchema } } },
    async (request) => {
      const auth = request.auth;
      const { type, documentId, budgetId, subBudgetId, settings } = request.body;
      const json = JSON.stringify(settings);
      if (Buffer.byteLength(json) > MAX_SETTINGS_BYTES) {
        throw new DomainError('SCHEMA_VALIDATION_ERROR', 'settings are too large', [{ path: 'body.settings', message: 'validation.maxLength' }]);
      }
      const values = {
        user_id: auth.userId,
        occupation_id: auth.occupationId!,
        type,
        scope: scopeOf(request.body),
        document_id: documentId ?? null,
        budget_id: budgetId ?? null,
        sub_budget_id: subBudgetId ?? null,
        settings: json,
      };
      await app.db
        .insertInto('operational.user_settings')
        .values(values)
        .onConflict((oc) => oc.columns(['user_id', 'occupation_id', 'type', 'scope']).doUpdateSet({ settings: json, updated_at: new Date() }))
        .execute();
      return { type, settings };
    },
  );

  api.put(
    '/api/user-settings/language',
    { config: { access: 'user' }, schema: { tags, body: languageRequestSchema, response: { 200: meSchema } } },
    async (request) => {
      const { session, userId } = request.auth;
      const { language } = request.body;
      await runCommand(app, userDecider, { type: 'SetLanguage', userId, language }, actorOf(request), READ_MODELS);
      return meOf(app, session);
    },
  );

  emailChangeRoutes(app);
}
