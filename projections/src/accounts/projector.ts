import type { OccupationEvent, RoleEvent, UserEvent } from '@eelarve/domain';
import type { StoredEvent } from '@eelarve/eventstore';
import { type Kysely, sql } from 'kysely';
import { defineProjector } from '../projector';
import type { AccountsReadModel } from './tables';

type Db = Kysely<AccountsReadModel>;
type Handled = UserEvent | RoleEvent | OccupationEvent;

async function apply(db: Db, event: Handled): Promise<void> {
  switch (event.type) {
    case 'UserRegistered': {
      const { userId, organizationId, name, email, registeredAt } = event.data;
      await db.insertInto('users').values({ id: userId, organization_id: organizationId, name, email, registered_at: registeredAt, confirmed_at: null, has_password: false }).execute();
      return;
    }
    case 'UserPasswordSet':
      await db.updateTable('users').set({ has_password: true }).where('id', '=', event.data.userId).execute();
      return;
    case 'UserEmailConfirmed':
      await db.updateTable('users').set({ confirmed_at: event.data.confirmedAt }).where('id', '=', event.data.userId).execute();
      return;
    case 'RoleCreated': {
      const { roleId, organizationId, name, description, privilegeIds, type } = event.data;
      await db.insertInto('roles').values({ id: roleId, organization_id: organizationId, name, description, privilege_ids: privilegeIds, type }).execute();
      return;
    }
    case 'OccupationCreated': {
      const { occupationId, organizationId, userId, name, description, type, roleIds } = event.data;
      await db
        .insertInto('occupations')
        .values({ id: occupationId, organization_id: organizationId, user_id: userId, name, description, type, role_ids: roleIds })
        .execute();
      return;
    }
  }
}

/** Users, roles and occupations: who may sign in, and what each occupation may do. */
export const accountsProjector = defineProjector<AccountsReadModel>({
  name: 'accounts',
  version: 1,
  eventTypes: ['UserRegistered', 'UserPasswordSet', 'UserEmailConfirmed', 'RoleCreated', 'OccupationCreated'],
  tables: ['users', 'roles', 'occupations'],
  async migrate(db) {
    await db.schema
      .createTable('users')
      .addColumn('id', 'uuid', (col) => col.primaryKey())
      .addColumn('organization_id', 'uuid', (col) => col.notNull())
      .addColumn('name', 'text', (col) => col.notNull())
      .addColumn('email', 'text', (col) => col.notNull())
      .addColumn('registered_at', 'timestamptz', (col) => col.notNull())
      .addColumn('confirmed_at', 'timestamptz')
      .addColumn('has_password', 'boolean', (col) => col.notNull())
      .execute();
    await db.schema.createIndex('users_email').on('users').expression(sql`lower(email)`).execute();
    await db.schema
      .createTable('roles')
      .addColumn('id', 'uuid', (col) => col.primaryKey())
      .addColumn('organization_id', 'uuid', (col) => col.notNull())
      .addColumn('name', 'text', (col) => col.notNull())
      .addColumn('description', 'text', (col) => col.notNull())
      .addColumn('privilege_ids', sql`text[]`, (col) => col.notNull())
      .addColumn('type', 'text', (col) => col.notNull())
      .execute();
    await db.schema
      .createTable('occupations')
      .addColumn('id', 'uuid', (col) => col.primaryKey())
      .addColumn('organization_id', 'uuid', (col) => col.notNull())
      .addColumn('user_id', 'uuid', (col) => col.notNull())
      .addColumn('name', 'text', (col) => col.notNull())
      .addColumn('description', 'text', (col) => col.notNull())
      .addColumn('type', 'text', (col) => col.notNull())
      .addColumn('role_ids', sql`uuid[]`, (col) => col.notNull())
      .execute();
    await db.schema.createIndex('occupations_user').on('occupations').column('user_id').execute();
  },
  async handle(events: StoredEvent[], db) {
    for (const event of events) await apply(db, event as unknown as Handled);
  },
});
