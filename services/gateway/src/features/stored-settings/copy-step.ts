import { type StoredSettingCopy, storedSettingsDecider } from '@eelarve/domain';
import { documentStoredSettings, type StoredSettingRow } from '@eelarve/projections/stored-settings/queries';
import type { StoredSettings } from '@eelarve/shared';
import { readModels } from '../../infrastructure/database';
import { type DocumentCopyContext, registerDocumentCopyStep } from '../documents/copy';
import { copyIdOf } from '../tasks/copy-ids';

/** Every id the earlier steps copied (schemes, sub-budgets, classifiers, items), wherever it stands in the settings. */
function translated(settings: StoredSettings, ids: ReadonlyMap<string, string>): StoredSettings {
  const translate = (value: unknown): unknown => {
    if (typeof value === 'string') return ids.get(value) ?? value;
    if (Array.isArray(value)) return value.map(translate);
    if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([key, entry]) => [key, translate(entry)]));
    return value;
  };
  return translate(settings) as StoredSettings;
}

/**
 * A view as the copy has it: its own id fixed by the task, its owner and order kept. A document copy
 * makes no budgets, so a view of a source budget becomes a view of the whole copy, offered in each
 * of its budgets. Comparison budgets that were not copied stay as they are: comparing the new
 * document with the source's budgets is what a copied view is for.
 */
function copyOf(row: StoredSettingRow, context: DocumentCopyContext): StoredSettingCopy {
  return {
    settingId: copyIdOf(context.taskId, row.id),
    organizationId: context.organizationId,
    documentId: context.targetDocumentId,
    budgetId: row.budget_id === null ? null : (context.ids.get(row.budget_id) ?? null),
    type: row.type,
    userId: row.user_id,
    occupationId: row.occupation_id,
    name: row.name,
    settings: translated(row.settings, context.ids),
    order: row.order,
  };
}

/**
 * Document copy step 'reportViews' (after 'schemes', whose ids it translates): the source's general
 * and personal report views and column sets, as one append to the copy's settings stream. Resumable:
 * the copies' ids are fixed by the task and the decider skips those the copy already holds.
 */
export async function copyReportViews(context: DocumentCopyContext): Promise<void> {
  const rows = await documentStoredSettings(readModels(context.db), context.sourceDocumentId);
  if (rows.length === 0) return;
  await context.commands.run({
    decider: storedSettingsDecider,
    command: ({ now }) => ({ type: 'CopyStoredSettings' as const, documentId: context.targetDocumentId, copies: rows.map((row) => copyOf(row, context)), now }),
    actor: context.actor,
    readModels: ['stored_settings'],
  });
}

// Registered wherever this module is loaded: the gateway (stored-settings routes) and the worker (its handlers).
// The returned function takes it out again (a test of a part that cannot be copied).
export const unregisterReportViewsCopy = registerDocumentCopyStep('reportViews', copyReportViews);
