import type { OrganizationEvent, UserDeleted, UserRegistered } from '@eelarve/domain';
import type { StoredEvent } from '@eelarve/eventstore';
import { type Kysely, sql } from 'kysely';
import { defineProjector } from '../projector';
import type { OrganizationsReadModel } from './tables';

type Db = Kysely<OrganizationsReadModel>;
type Handled = OrganizationEvent | UserRegistered | UserDeleted;

function settingsColumns(data: Extract<OrganizationEvent, { type: 'OrganizationUpdated' }>['data']) {
  return {
    name: data.name,
    locale_code: data.localeCode,
    locale_settings: JSON.stringify(data.localeSettings),
    enable_resource_statuses: data.enableResourceStatuses,
    allow_resource_status_editing: data.allowResourceStatusEditing,
    allowed_authentication_types: data.allowedAuthenticationTypes,
    api_usage_allowed: data.apiUsageAllowed,
    session_length: data.sessionLength,
    session_length_multiplier: data.sessionLengthMultiplier,
  };
}

async function apply(db: Db, event: Handled): Promise<void> {
  switch (event.type) {
    case 'OrganizationCreated':
      await db
        .insertInto('organizations')
        .values({ id: event.data.organizationId, created_at: event.data.createdAt, is_platform: event.data.isPlatform, nr_of_users: 0, ...settingsColumns(event.data) })
        .execute();
      return;
    case 'OrganizationUpdated':
      await db.updateTable('organizations').set(settingsColumns(event.data)).where('id', '=', event.data.organizationId).execute();
      return;
    case 'OrganizationDeleted':
      await db.deleteFrom('organizations').where('id', '=', event.data.organizationId).execute();
      return;
    case 'UserRegistered':
      await db
        .updateTable('organizations')
        .set({ nr_of_users: sql`nr_of_users + 1` })
        .where('id', '=', event.data.organizationId)
        .execute();
      return;
    case 'UserDeleted':
      await db
        .updateTable('organizations')
        .set({ nr_of_users: sql`greatest(nr_of_users - 1, 0)` })
        .where('id', '=', event.data.organizationId)
        .execute();
      return;
  }
}

/** The administration area's organisation list, with each organisation's number of users. */
export const organizationsProjector = defineProjector<OrganizationsReadModel>({
  name: 'organizations',
  version: 2,
  eventTypes: ['OrganizationCreated', 'OrganizationUpdated', 'OrganizationDeleted', 'UserRegistered', 'UserDeleted'],
  tables: ['organizations'],
  async migrate(db) {
    await db.schema
      .createTable('organizations')
      .addColumn('id', 'uuid', (col) => col.primaryKey())
      .addColumn('name', 'text', (col) => col.notNull())
      .addColumn('created_at', 'timestamptz', (col) => col.notNull())
      .addColumn('locale_code', 'text', (col) => col.notNull())
      .addColumn('locale_settings', 'jsonb', (col) => col.notNull())
      .addColumn('enable_resource_statuses', 'boolean', (col) => col.notNull())
      .addColumn('allow_resource_status_editing', 'boolean', (col) => col.notNull())
      .addColumn('allowed_authentication_types', sql`text[]`, (col) => col.notNull())
      .addColumn('api_usage_allowed', 'boolean', (col) => col.notNull())
      .addColumn('session_length', 'integer', (col) => col.notNull())
      .addColumn('session_length_multiplier', 'bigint', (col) => col.notNull())
      .addColumn('is_platform', 'boolean', (col) => col.notNull())
      .addColumn('nr_of_users', 'integer', (col) => col.notNull())
      .execute();
  },
  async handle(events: StoredEvent[], db) {
    for (const event of events) await apply(db, event as unknown as Handled);
  },
});
