import { languageRequestSchema, meSchema, userSettingsPutSchema, userSettingsQuerySchema, userSettingsSchema } from '@eelarve/shared';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { emailChangeRoutes } from './email-change';
import { userSettingsService } from './service';

const tags = ['user-settings'];

export async function userSettingsRoutes(app: FastifyInstance): Promise<void> {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const settings = userSettingsService(app);

  // Settings belong to the user in the occupation they act in.
  api.get(
    '/api/user-settings',
    { config: { access: 'occupation' }, schema: { tags, querystring: userSettingsQuerySchema, response: { 200: userSettingsSchema } } },
    (request) => settings.get(request.caller, request.query),
  );

  api.put(
    '/api/user-settings',
    { config: { access: 'occupation' }, schema: { tags, body: userSettingsPutSchema, response: { 200: userSettingsSchema } } },
    (request) => settings.put(request.caller, request.body),
  );

  api.put(
    '/api/user-settings/language',
    { config: { access: 'user' }, schema: { tags, body: languageRequestSchema, response: { 200: meSchema } } },
    (request) => settings.setLanguage(request.caller, request.body.language),
  );

  emailChangeRoutes(app);
}
