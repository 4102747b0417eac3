import { APPROVAL_ROUTE_EVENT_TYPES, type ApprovalRouteEvent, type OrganizationDeleted } from '@eelarve/domain';
import type { StoredEvent } from '@eelarve/eventstore';
import type { Kysely } from 'kysely';
import { defineProjector } from '../projector';
import type { ApprovalRoutesReadModel } from './route-tables';

type Db = Kysely<ApprovalRoutesReadModel>;
type Handled = ApprovalRouteEvent | OrganizationDeleted;

async function apply(db: Db, event: Handled, revision: number): Promise<void> {
  switch (event.type) {
    case 'ApprovalRouteConfigured': {
      const route = JSON.stringify(event.data.route);
      await db
        .insertInto('approval_routes')
        .values({ organization_id: event.data.organizationId, route, revision })
        .onConflict((oc) => oc.column('organization_id').doUpdateSet({ route, revision }).where('approval_routes.revision', '<', revision))
        .execute();
      return;
    }
    // Back to the default route; an organisation's deletion takes its route along.
    case 'ApprovalRouteReset':
    case 'OrganizationDeleted':
      await db.deleteFrom('approval_routes').where('organization_id', '=', event.data.organizationId).execute();
      return;
  }
}

/** Each organisation's configured approval route, read by the route's settings and by every approval step. */
export const approvalRoutesProjector = defineProjector<ApprovalRoutesReadModel>({
  name: 'approval_routes',
  version: 1,
  eventTypes: [...APPROVAL_ROUTE_EVENT_TYPES, 'OrganizationDeleted'],
  tables: ['approval_routes'],
  async migrate(db) {
    await db.schema
      .createTable('approval_routes')
      .addColumn('organization_id', 'uuid', (col) => col.primaryKey())
      .addColumn('route', 'jsonb', (col) => col.notNull())
      .addColumn('revision', 'integer', (col) => col.notNull())
      .execute();
  },
  async handle(events: StoredEvent[], db) {
    for (const event of events) await apply(db, event as unknown as Handled, Number(event.revision));
  },
});
