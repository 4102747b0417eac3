import { userDecider } from '@eelarve/domain';
import {
  DomainError,
  settingsOfSchema,
  fieldError,
  fieldErrors,
  type Me,
  USER_SETTINGS_BY_TYPE,
  type languageRequestSchema,
  type userSettingsPutSchema,
  type userSettingsQuerySchema,
} from '@eelarve/shared';
import type { FastifyInstance } from 'fastify';
import type { z } from 'zod';
import type { Caller } from '../../types';
import { meOf } from '../auth/me';

type SettingsQuery = z.output<typeof userSettingsQuerySchema>;
type SettingsPut = z.output<typeof userSettingsPutSchema>;
type Language = z.output<typeof languageRequestSchema>['language'];

const READ_MODELS = ['accounts'] as const;
/** Settings are screen state (columns, filters, the remembered document), not documents. */
const MAX_SETTINGS_BYTES = 64 * 1024;

/** Absent ids are part of the key too: settings for a document differ from those for none. */
function scopeOf(ids: { documentId?: string; budgetId?: string; subBudgetId?: string }): string {
  return [ids.documentId ?? '', ids.budgetId ?? '', ids.subBudgetId ?? ''].join('|');
}

/**
 * Each type in its own place (USER_SETTINGS_BY_TYPE): per budget (a sub-budget only within one), per
 * budget or document, or the occupation's own with no ids. The ids are not checked against the read
 * models: the settings are the caller's, read back only by them, and a screen state of a deleted
 * budget harms nobody.
 */
function assertScope(input: SettingsPut): void {
  const scope = USER_SETTINGS_BY_TYPE[input.type].scope;
  if (scope === 'occupation') {
    const given = (['documentId', 'budgetId', 'subBudgetId'] as const).filter((field) => input[field] !== undefined);
    if (given.length > 0)
      throw fieldErrors(
        'SCHEMA_VALIDATION_ERROR',
        given.map((field) => ({ field, message: 'validation.invalid' })),
      );
    return;
  }
  const placed = scope === 'budget' ? Boolean(input.budgetId) : Boolean(input.budgetId ?? input.documentId);
  if (!placed || (input.subBudgetId && !input.budgetId))
    throw fieldError('SCHEMA_VALIDATION_ERROR', 'budgetId', 'validation.required', `${input.type} settings belong to a budget`);
}

/** The occupation settings belong to: the routes declare `occupation` access, so there is one. */
function occupationOf(caller: Caller): string {
  if (!caller.auth.occupationId) throw new DomainError('INSUFFICIENT_PERMISSIONS', 'no occupation selected');
  return caller.auth.occupationId;
}

/** A user's screen settings (per occupation, operational) and their own language (an event of the user). */
export function userSettingsService(app: FastifyInstance) {
  return {
    async get(caller: Caller, query: SettingsQuery) {
      const row = await app.db
        .selectFrom('operational.user_settings')
        .select('settings')
        .where('user_id', '=', caller.auth.userId)
        .where('occupation_id', '=', occupationOf(caller))
        .where('type', '=', query.type)
        .where('scope', '=', scopeOf(query))
        .executeTakeFirst();
      return { type: query.type, settings: (row?.settings as Record<string, unknown> | undefined) ?? {} };
    },

    async put(caller: Caller, input: SettingsPut) {
      const { type, documentId, budgetId, subBudgetId } = input;
      if (Buffer.byteLength(JSON.stringify(input.settings)) > MAX_SETTINGS_BYTES)
        throw fieldError('SCHEMA_VALIDATION_ERROR', 'settings', 'validation.maxLength', 'settings are too large');
      assertScope(input);
      const settings = settingsOfSchema<Record<string, unknown>>(USER_SETTINGS_BY_TYPE[type].settings, input.settings);
      const json = JSON.stringify(settings);
      const values = {
        user_id: caller.auth.userId,
        occupation_id: occupationOf(caller),
        type,
        scope: scopeOf(input),
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

    async setLanguage(caller: Caller, language: Language): Promise<Me> {
      await app.commands.run({
        decider: userDecider,
        command: { type: 'SetLanguage', userId: caller.auth.userId, language },
        actor: caller.actor,
        readModels: READ_MODELS,
      });
      return meOf(app, caller.auth.session);
    },
  };
}
