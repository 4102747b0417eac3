import { LOCALE_SETTINGS, LOCALES, localesResponseSchema } from '@eelarve/shared';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';

export async function localeRoutes(app: FastifyInstance): Promise<void> {
  app
    .withTypeProvider<ZodTypeProvider>()
    .get('/api/locales', { config: { access: 'user' }, schema: { tags: ['locales'], response: { 200: localesResponseSchema } } }, async () => ({
      locales: LOCALES.map((locale) => ({ code: locale.code, defaultSettings: { ...locale.defaultSettings } })),
      localeSettings: LOCALE_SETTINGS.map((setting) => ({ name: setting.name, options: [...setting.options] })),
    }));
}
