import type { BudgetDeleted, DocumentDeleted, OrganizationDeleted, StoredSettingEvent } from '@eelarve/domain';
import type { StoredEvent } from '@eelarve/eventstore';
import type { Kysely } from 'kysely';
import { defineProjector } from '../projector';
import type { StoredSettingsReadModel } from './tables';

type Db = Kysely<StoredSettingsReadModel>;
type Handled = StoredSettingEvent | DocumentDeleted | BudgetDeleted | OrganizationDeleted;

const setting = (db: Db, settingId: string) => db.updateTable('stored_settings').where('id', '=', settingId);

async function apply(db: Db, event: Handled): Promise<void> {
  switch (event.type) {
    case 'StoredSettingCreated': {
      const { data } = event;
      await db
        .insertInto('stored_settings')
        .values({
          id: data.settingId,
          organization_id: data.organizationId,
          document_id: data.documentId,
          budget_id: data.budgetId,
          type: data.type,
          user_id: data.userId,
          occupation_id: data.occupationId,
          name: data.name,
          settings: JSON.stringify(data.settings),
          order: data.order,
          created_at: data.createdAt,
        })
        .execute();
      return;
    }
    case 'StoredSettingUpdated':
      await setting(db, event.data.settingId)
        .set({ name: event.data.name, settings: JSON.stringify(event.data.settings) })
        .execute();
      return;
    case 'StoredSettingPromoted':
      await setting(db, event.data.settingId).set({ user_id: null, occupation_id: null, order: event.data.order }).execute();
      return;
    case 'StoredSettingsReordered':
      for (const [order, settingId] of event.data.settingIds.entries()) await setting(db, settingId).set({ order }).execute();
      return;
    case 'StoredSettingDeleted':
      await db.deleteFrom('stored_settings').where('id', '=', event.data.settingId).execute();
      return;
    // A deleted budget's or document's views have nothing left to show.
    case 'BudgetDeleted':
      await db.deleteFrom('stored_settings').where('budget_id', '=', event.data.budgetId).execute();
      return;
    case 'DocumentDeleted':
      await db.deleteFrom('stored_settings').where('document_id', '=', event.data.documentId).execute();
      return;
    case 'OrganizationDeleted':
      await db.deleteFrom('stored_settings').where('organization_id', '=', event.data.organizationId).execute();
      return;
  }
}

/** The report screen's saved views and column sets menus, and the document copy's 'reportViews' step. */
export const storedSettingsProjector = defineProjector<StoredSettingsReadModel>({
  name: 'stored_settings',
  version: 1,
  eventTypes: [
    'StoredSettingCreated',
    'StoredSettingUpdated',
    'StoredSettingPromoted',
    'StoredSettingsReordered',
    'StoredSettingDeleted',
    'BudgetDeleted',
    'DocumentDeleted',
    'OrganizationDeleted',
  ],
  tables: ['stored_settings'],
  async migrate(db) {
    await db.schema
      .createTable('stored_settings')
      .addColumn('id', 'uuid', (col) => col.primaryKey())
      .addColumn('organization_id', 'uuid', (col) => col.notNull())
      .addColumn('document_id', 'uuid', (col) => col.notNull())
      .addColumn('budget_id', 'uuid')
      .addColumn('type', 'text', (col) => col.notNull())
      .addColumn('user_id', 'uuid')
      .addColumn('occupation_id', 'uuid')
      .addColumn('name', 'text', (col) => col.notNull())
      .addColumn('settings', 'jsonb', (col) => col.notNull())
      .addColumn('order', 'integer', (col) => col.notNull())
      .addColumn('created_at', 'timestamptz', (col) => col.notNull())
      .execute();
    // A menu: one document's settings of one type.
    await db.schema.createIndex('stored_settings_menu').on('stored_settings').columns(['document_id', 'type']).execute();
    await db.schema.createIndex('stored_settings_budget').on('stored_settings').column('budget_id').execute();
  },
  async handle(events: StoredEvent[], db) {
    for (const event of events) await apply(db, event as unknown as Handled);
  },
});
