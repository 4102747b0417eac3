import type { OrganizationDeleted, ResourceStatusEvent } from '@eelarve/domain';
import type { StoredEvent } from '@eelarve/eventstore';
import { type Kysely, sql } from 'kysely';
import { defineProjector } from '../projector';
import type { ResourceStatusesReadModel } from './tables';

type Db = Kysely<ResourceStatusesReadModel>;
type Handled = ResourceStatusEvent | OrganizationDeleted;

const contentColumns = (data: Extract<ResourceStatusEvent, { type: 'ResourceStatusUpdated' }>['data']) => ({
  name: JSON.stringify(data.name),
  description: JSON.stringify(data.description),
  icon: data.icon,
  rules: JSON.stringify(data.rules),
});

const byKey = (data: { organizationId: string; statusId: string }) => (db: Db) =>
  db.updateTable('resource_statuses').where('organization_id', '=', data.organizationId).where('id', '=', data.statusId);

async function apply(db: Db, event: Handled): Promise<void> {
  switch (event.type) {
    case 'ResourceStatusCreated':
      await db
        .insertInto('resource_statuses')
        .values({
          organization_id: event.data.organizationId,
          id: event.data.statusId,
          read_only: false,
          created_at: event.data.createdAt,
          ...contentColumns({ ...event.data, readOnly: false }),
        })
        .execute();
      return;
    case 'ResourceStatusUpdated':
      // A default status gets its row with its organisation's first edit of it.
      await db
        .insertInto('resource_statuses')
        .values({
          organization_id: event.data.organizationId,
          id: event.data.statusId,
          read_only: event.data.readOnly,
          created_at: null,
          ...contentColumns(event.data),
        })
        .onConflict((oc) => oc.columns(['organization_id', 'id']).doUpdateSet(contentColumns(event.data)))
        .execute();
      return;
    case 'ResourceStatusRoleRemoved':
      await byKey(event.data)(db)
        .set({ rules: JSON.stringify(event.data.rules) })
        .execute();
      return;
    case 'ResourceStatusDeleted':
      await db.deleteFrom('resource_statuses').where('organization_id', '=', event.data.organizationId).where('id', '=', event.data.statusId).execute();
      return;
    case 'OrganizationDeleted':
      await db.deleteFrom('resource_statuses').where('organization_id', '=', event.data.organizationId).execute();
      return;
  }
}

/** The resource-status settings screen, `me.resourceStatuses` and the status checks of the forms. */
export const resourceStatusesProjector = defineProjector<ResourceStatusesReadModel>({
  name: 'resource_statuses',
  version: 1,
  eventTypes: ['ResourceStatusCreated', 'ResourceStatusUpdated', 'ResourceStatusRoleRemoved', 'ResourceStatusDeleted', 'OrganizationDeleted'],
  tables: ['resource_statuses'],
  async migrate(db) {
    await db.schema
      .createTable('resource_statuses')
      .addColumn('organization_id', 'uuid', (col) => col.notNull())
      .addColumn('id', 'uuid', (col) => col.notNull())
      .addColumn('read_only', 'boolean', (col) => col.notNull())
      .addColumn('name', 'jsonb', (col) => col.notNull())
      .addColumn('description', 'jsonb', (col) => col.notNull())
      .addColumn('icon', 'text', (col) => col.notNull())
      .addColumn('rules', 'jsonb', (col) => col.notNull())
      .addColumn('created_at', 'timestamptz')
      .addPrimaryKeyConstraint('resource_statuses_pk', ['organization_id', 'id'])
      .execute();
    // Finding the statuses whose rules name a role (a role's deletion).
    await sql`create index resource_statuses_rules on resource_statuses using gin (rules jsonb_path_ops)`.execute(db);
  },
  async handle(events: StoredEvent[], db) {
    for (const event of events) await apply(db, event as unknown as Handled);
  },
});
