import type { OccupationCreated, OccupationDeleted, OrganizationEvent, UserDeleted, UserRegistered } from '@eelarve/domain';
import type { StoredEvent } from '@eelarve/eventstore';
import { type Kysely, sql } from 'kysely';
import { defineProjector } from '../projector';
import type { OrganizationsReadModel } from './tables';

type Db = Kysely<OrganizationsReadModel>;
type Handled = OrganizationEvent | UserRegistered | UserDeleted | OccupationCreated | OccupationDeleted;

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

/** The organisation's number of users is the number of its members (organization_members). */
async function recount(db: Db, organizationIds: readonly string[]): Promise<void> {
  if (organizationIds.length === 0) return;
  await sql`
    update organizations o set nr_of_users = (select count(*) from organization_members m where m.organization_id = o.id)
    where o.id = any(${[...new Set(organizationIds)]}::uuid[])`.execute(db);
}

/** Adds to a user's membership of an organisation (registered there, or one more occupation there). */
async function join(db: Db, organizationId: string, userId: string, how: { registered: boolean; occupations: number }): Promise<void> {
  await db
    .insertInto('organization_members')
    .values({ organization_id: organizationId, user_id: userId, ...how })
    .onConflict((oc) =>
      oc.columns(['organization_id', 'user_id']).doUpdateSet({
        registered: sql`organization_members.registered or excluded.registered`,
        occupations: sql`organization_members.occupations + excluded.occupations`,
      }),
    )
    .execute();
  await recount(db, [organizationId]);
}

/** One occupation fewer; a user neither registered there nor holding another occupation there leaves. */
async function leaveOccupation(db: Db, organizationId: string, userId: string): Promise<void> {
  await db
    .updateTable('organization_members')
    .set({ occupations: sql`greatest(occupations - 1, 0)` })
    .where('organization_id', '=', organizationId)
    .where('user_id', '=', userId)
    .execute();
  await db
    .deleteFrom('organization_members')
    .where('organization_id', '=', organizationId)
    .where('user_id', '=', userId)
    .where('registered', '=', false)
    .where('occupations', '=', 0)
    .execute();
  await recount(db, [organizationId]);
}

async function apply(db: Db, event: Handled): Promise<void> {
  switch (event.type) {
    case 'OrganizationCreated':
      await db
        .insertInto('organizations')
        .values({
          id: event.data.organizationId,
          created_at: event.data.createdAt,
          is_platform: event.data.isPlatform,
          nr_of_users: 0,
          ...settingsColumns(event.data),
        })
        .execute();
      return;
    case 'OrganizationUpdated':
      await db.updateTable('organizations').set(settingsColumns(event.data)).where('id', '=', event.data.organizationId).execute();
      return;
    case 'OrganizationDeleted':
      await db.deleteFrom('organizations').where('id', '=', event.data.organizationId).execute();
      await db.deleteFrom('organization_members').where('organization_id', '=', event.data.organizationId).execute();
      return;
    case 'UserRegistered':
      await join(db, event.data.organizationId, event.data.userId, { registered: true, occupations: 0 });
      return;
    case 'UserDeleted': {
      // A deleted user is nobody's member any more (the users lists no longer show them).
      const left = await db.deleteFrom('organization_members').where('user_id', '=', event.data.userId).returning('organization_id').execute();
      await recount(
        db,
        left.map((row) => row.organization_id),
      );
      return;
    }
    case 'OccupationCreated':
      await join(db, event.data.organizationId, event.data.userId, { registered: false, occupations: 1 });
      return;
    case 'OccupationDeleted':
      await leaveOccupation(db, event.data.organizationId, event.data.userId);
      return;
  }
}

/**
 * The administration area's organisation list, with each organisation's number of users: those
 * its users list shows, registered there or holding an occupation there. Version 3 counts
 * occupation holders too (before, an organisation whose only user was a platform administrator's
 * ADMIN occupation showed 0 users); the new version rebuilds from the log.
 */
export const organizationsProjector = defineProjector<OrganizationsReadModel>({
  name: 'organizations',
  version: 3,
  eventTypes: ['OrganizationCreated', 'OrganizationUpdated', 'OrganizationDeleted', 'UserRegistered', 'UserDeleted', 'OccupationCreated', 'OccupationDeleted'],
  tables: ['organizations', 'organization_members'],
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
    await db.schema
      .createTable('organization_members')
      .addColumn('organization_id', 'uuid', (col) => col.notNull())
      .addColumn('user_id', 'uuid', (col) => col.notNull())
      .addColumn('registered', 'boolean', (col) => col.notNull())
      .addColumn('occupations', 'integer', (col) => col.notNull())
      .addPrimaryKeyConstraint('organization_members_pk', ['organization_id', 'user_id'])
      .execute();
    await db.schema.createIndex('organization_members_user').on('organization_members').column('user_id').execute();
  },
  async handle(events: StoredEvent[], db) {
    for (const event of events) await apply(db, event as unknown as Handled);
  },
});
