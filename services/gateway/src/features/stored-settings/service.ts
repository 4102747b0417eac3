import { type StoredSettingActor, type StoredSettingCommand, storedSettingsDecider } from '@eelarve/domain';
import { findBudget } from '@eelarve/projections/budgets/queries';
import { findStoredSetting, type StoredSettingRow, storedSettingsMenu } from '@eelarve/projections/stored-settings/queries';
import {
  DomainError,
  STORED_SETTINGS_SCHEMAS,
  settingsOfSchema,
  type StoredSetting,
  type StoredSettingCreate,
  type StoredSettings,
  type StoredSettingsOrder,
  type StoredSettingType,
  type StoredSettingUpdate,
} from '@eelarve/shared';
import type { FastifyInstance } from 'fastify';
import type { CommandContext } from '../../infrastructure/command-runner';
import { readModels } from '../../infrastructure/database';
import type { AuthContext, Caller } from '../../types';
import { budgetResource } from '../budgets/access';
import { documentResource, inOrganization, type ResourceRef, resourceAccess } from '../permissions/authorize';

/** The report screen's menus read the stored settings read model. */
const READ_MODELS = ['stored_settings'] as const;

export interface StoredSettingsQuery {
  documentId: string;
  budgetId?: string;
  type: StoredSettingType;
}

/** The occupation settings belong to: the routes declare `occupation` access, so there is one. */
function occupationOf(auth: AuthContext): string {
  if (!auth.occupationId) throw new DomainError('INSUFFICIENT_PERMISSIONS', 'no occupation selected');
  return auth.occupationId;
}

const isOwner = (row: StoredSettingRow, auth: AuthContext) => row.user_id === auth.userId && row.occupation_id === auth.occupationId;

export function toStoredSetting(row: StoredSettingRow): StoredSetting {
  return {
    id: row.id,
    name: row.name,
    type: row.type,
    documentId: row.document_id,
    budgetId: row.budget_id,
    organizationId: row.organization_id,
    userId: row.user_id,
    order: row.order,
    settings: row.settings,
  };
}

/**
 * Saved report views and column sets (spec 3, sections 4-7). Auth, then access: the caller reads
 * the budget (or, for the whole document's settings, the document); a personal setting is seen and
 * changed only by its owner in that occupation, a general one seen by every reader of the budget
 * and changed (or a personal one promoted) only with update permission on the document. Statuses
 * refuse what they refuse to readers (a hidden budget's views are hidden); they do not lock views,
 * which change how people read the budget, not the budget.
 */
export function storedSettingsService(app: FastifyInstance) {
  const read = () => readModels(app.db);

  /** The place of a menu, after checking the caller reads it. */
  async function readablePlace(auth: AuthContext, documentId: string, budgetId: string | null | undefined): Promise<ResourceRef> {
    if (!budgetId) return documentResource(app, auth, documentId, 'read');
    // A budget of another document is not found in this one, whatever the caller may read.
    const budget = await findBudget(read(), budgetId);
    if (budget && budget.document_id !== documentId) throw new DomainError('BUDGET_NOT_FOUND', 'the budget is not in the document');
    const readable = await budgetResource(app, auth, budgetId, 'read');
    return { organizationId: readable.organization_id, documentId, budgetId };
  }

  async function actorOn(auth: AuthContext, place: ResourceRef): Promise<StoredSettingActor> {
    const document = await resourceAccess(app, auth, { organizationId: place.organizationId, documentId: place.documentId });
    return { userId: auth.userId, occupationId: occupationOf(auth), mayChangeGeneral: document.update };
  }

  /** A setting the caller may see: their own, or a general one of a budget they read; anything else is not found. */
  async function visibleSetting(auth: AuthContext, settingId: string) {
    const row = await findStoredSetting(read(), settingId);
    if (!row || !inOrganization(auth, row.organization_id) || (row.user_id !== null && !isOwner(row, auth)))
      throw new DomainError('OBJECT_NOT_FOUND', 'no such stored setting');
    const place = await readablePlace(auth, row.document_id, row.budget_id);
    return { row, place };
  }

  const run = (caller: Caller, command: StoredSettingCommand | ((context: CommandContext) => StoredSettingCommand)) =>
    app.commands.run({ decider: storedSettingsDecider, command, actor: caller.actor, readModels: READ_MODELS });

  return {
    async list(caller: Caller, query: StoredSettingsQuery): Promise<StoredSetting[]> {
      await readablePlace(caller.auth, query.documentId, query.budgetId);
      const rows = await storedSettingsMenu(read(), { ...query, userId: caller.auth.userId, occupationId: occupationOf(caller.auth) });
      return rows.map(toStoredSetting);
    },

    async get(caller: Caller, settingId: string): Promise<StoredSetting> {
      return toStoredSetting((await visibleSetting(caller.auth, settingId)).row);
    },

    async create(caller: Caller, input: StoredSettingCreate) {
      const place = await readablePlace(caller.auth, input.documentId, input.budgetId);
      const actor = await actorOn(caller.auth, place);
      const result = await run(caller, ({ now, newId }) => ({
        type: 'CreateStoredSetting',
        documentId: input.documentId,
        settingId: newId(),
        organizationId: place.organizationId,
        place: { documentId: input.documentId, budgetId: input.budgetId ?? null, type: input.type },
        actor,
        name: input.name,
        settings: input.settings,
        now,
      }));
      const made = result.events[0];
      return { id: made?.type === 'StoredSettingCreated' ? made.data.settingId : result.id, position: result.position };
    },

    async update(caller: Caller, input: StoredSettingUpdate) {
      const { row, place } = await visibleSetting(caller.auth, input.settingId);
      if (row.document_id !== input.documentId) throw new DomainError('OBJECT_NOT_FOUND', 'no such stored setting in the document');
      const settings: StoredSettings = settingsOfSchema<StoredSettings>(STORED_SETTINGS_SCHEMAS[row.type], input.settings);
      const actor = await actorOn(caller.auth, place);
      const result = await run(caller, { type: 'UpdateStoredSetting', documentId: row.document_id, settingId: row.id, actor, name: input.name, settings });
      return { id: row.id, position: result.position };
    },

    async remove(caller: Caller, settingId: string) {
      const { row, place } = await visibleSetting(caller.auth, settingId);
      const result = await run(caller, { type: 'DeleteStoredSetting', documentId: row.document_id, settingId, actor: await actorOn(caller.auth, place) });
      return { id: settingId, position: result.position };
    },

    async promote(caller: Caller, settingId: string) {
      const { row, place } = await visibleSetting(caller.auth, settingId);
      const result = await run(caller, { type: 'PromoteStoredSetting', documentId: row.document_id, settingId, actor: await actorOn(caller.auth, place) });
      return { id: settingId, position: result.position };
    },

    /** userId null orders the general list; the caller's own id their personal one (nobody orders another's). */
    async order(caller: Caller, input: StoredSettingsOrder) {
      const place = await readablePlace(caller.auth, input.documentId, input.budgetId);
      if (place.organizationId !== input.organizationId) throw new DomainError('OBJECT_NOT_FOUND', 'the document is not in the organisation');
      if (input.userId !== null && input.userId !== caller.auth.userId) throw new DomainError('INSUFFICIENT_PERMISSIONS', "another user's settings");
      const result = await run(caller, {
        type: 'ReorderStoredSettings',
        documentId: input.documentId,
        actor: await actorOn(caller.auth, place),
        general: input.userId === null,
        budgetId: input.budgetId ?? null,
        settingType: input.type,
        settingIds: input.order,
      });
      return { id: input.documentId, position: result.position };
    },
  };
}
