import { type OccupationEvent, OCCUPATION_EVENT_TYPES, ROLE_EVENT_TYPES, type RoleEvent, USER_EVENT_TYPES, type UserEvent } from '@eelarve/domain';
import type { StoredEvent } from '@eelarve/eventstore';
import { type Kysely, sql, type Updateable } from 'kysely';
import { defineProjector } from '../projector';
import type { AccountsReadModel, UsersTable } from './tables';

type Db = Kysely<AccountsReadModel>;
type Handled = UserEvent | RoleEvent | OccupationEvent;

/** The columns a user event changes, besides `updated_at`; null for registration and deletion. */
function userChanges(event: UserEvent): Updateable<UsersTable> | null {
  switch (event.type) {
    case 'UserRegistered':
    case 'UserDeleted':
      return null;
    case 'UserPasswordSet':
      return { has_password: true };
    case 'UserEmailConfirmed':
      return { confirmed_at: event.data.confirmedAt };
    case 'UserUpdated':
      return { name: event.data.name, email: event.data.email };
    case 'UserEmailChanged':
      return { email: event.data.email };
    case 'UserMfaEnabled':
      return { mfa_added: true };
    case 'UserMfaDisabled':
      return { mfa_added: false };
    case 'UserElectronicIdBound':
      return { has_personal_code: true };
    case 'UserElectronicIdUnbound':
      return { has_personal_code: false };
    case 'UserAuthMethodsRemoved':
      return { has_password: false, mfa_added: false, has_personal_code: false };
    case 'UserLanguageSet':
      return { language: event.data.language };
  }
}

async function applyUser(db: Db, event: UserEvent, at: string): Promise<void> {
  if (event.type === 'UserRegistered') {
    const { userId, organizationId, name, email, registeredAt } = event.data;
    await db
      .insertInto('users')
      .values({
        id: userId,
        organization_id: organizationId,
        name,
        email,
        registered_at: registeredAt,
        updated_at: registeredAt,
        confirmed_at: null,
        has_password: false,
        mfa_added: false,
        has_personal_code: false,
        language: null,
      })
      .execute();
    return;
  }
  if (event.type === 'UserDeleted') {
    await db.deleteFrom('users').where('id', '=', event.data.userId).execute();
    return;
  }
  await db
    .updateTable('users')
    .set({ ...userChanges(event), updated_at: at })
    .where('id', '=', event.data.userId)
    .execute();
}

async function applyRole(db: Db, event: RoleEvent): Promise<void> {
  switch (event.type) {
    case 'RoleCreated': {
      const { roleId, organizationId, name, description, privilegeIds, type } = event.data;
      await db.insertInto('roles').values({ id: roleId, organization_id: organizationId, name, description, privilege_ids: privilegeIds, type }).execute();
      return;
    }
    case 'RoleUpdated': {
      const { roleId, name, description, privilegeIds } = event.data;
      await db.updateTable('roles').set({ name, description, privilege_ids: privilegeIds }).where('id', '=', roleId).execute();
      return;
    }
    case 'RoleDeleted':
      await db.deleteFrom('roles').where('id', '=', event.data.roleId).execute();
      // The delete rule reads the read models, so a concurrent assignment could slip through; never leave a dangling id.
      await db
        .updateTable('occupations')
        .set({ role_ids: sql`array_remove(role_ids, ${event.data.roleId}::uuid)` })
        .where(sql<boolean>`${event.data.roleId}::uuid = any(role_ids)`)
        .execute();
      return;
  }
}

async function applyOccupation(db: Db, event: OccupationEvent): Promise<void> {
  switch (event.type) {
    case 'OccupationCreated': {
      const { occupationId, organizationId, userId, name, description, type, roleIds } = event.data;
      const row = { organization_id: organizationId, user_id: userId, name, description, type, role_ids: roleIds };
      // An admin occupation that was removed can be given again under the same id.
      await db
        .insertInto('occupations')
        .values({ id: occupationId, ...row })
        .onConflict((oc) => oc.column('id').doUpdateSet(row))
        .execute();
      return;
    }
    case 'OccupationUpdated': {
      const { occupationId, userId, name, description, roleIds } = event.data;
      await db.updateTable('occupations').set({ user_id: userId, name, description, role_ids: roleIds }).where('id', '=', occupationId).execute();
      return;
    }
    case 'OccupationDeleted':
      await db.deleteFrom('occupations').where('id', '=', event.data.occupationId).execute();
      return;
  }
}

const USER_TYPES = new Set<string>(USER_EVENT_TYPES);
const ROLE_TYPES = new Set<string>(ROLE_EVENT_TYPES);

async function apply(db: Db, stored: StoredEvent): Promise<void> {
  const event = stored as unknown as Handled;
  if (USER_TYPES.has(event.type)) return applyUser(db, event as UserEvent, stored.metadata.occurredAt);
  if (ROLE_TYPES.has(event.type)) return applyRole(db, event as RoleEvent);
  return applyOccupation(db, event as OccupationEvent);
}

/** Users, roles and occupations: who may sign in, and what each occupation may do. */
export const accountsProjector = defineProjector<AccountsReadModel>({
  name: 'accounts',
  version: 2,
  eventTypes: [...USER_EVENT_TYPES, ...ROLE_EVENT_TYPES, ...OCCUPATION_EVENT_TYPES],
  tables: ['users', 'roles', 'occupations'],
  async migrate(db) {
    await db.schema
      .createTable('users')
      .addColumn('id', 'uuid', (col) => col.primaryKey())
      .addColumn('organization_id', 'uuid', (col) => col.notNull())
      .addColumn('name', 'text', (col) => col.notNull())
      .addColumn('email', 'text', (col) => col.notNull())
      .addColumn('registered_at', 'timestamptz', (col) => col.notNull())
      .addColumn('updated_at', 'timestamptz', (col) => col.notNull())
      .addColumn('confirmed_at', 'timestamptz')
      .addColumn('has_password', 'boolean', (col) => col.notNull())
      .addColumn('mfa_added', 'boolean', (col) => col.notNull())
      .addColumn('has_personal_code', 'boolean', (col) => col.notNull())
      .addColumn('language', 'text')
      .execute();
    await db.schema.createIndex('users_email').on('users').expression(sql`lower(email)`).execute();
    await db.schema.createIndex('users_organization').on('users').column('organization_id').execute();
    await db.schema
      .createTable('roles')
      .addColumn('id', 'uuid', (col) => col.primaryKey())
      .addColumn('organization_id', 'uuid', (col) => col.notNull())
      .addColumn('name', 'text', (col) => col.notNull())
      .addColumn('description', 'text', (col) => col.notNull())
      .addColumn('privilege_ids', sql`text[]`, (col) => col.notNull())
      .addColumn('type', 'text', (col) => col.notNull())
      .execute();
    await db.schema.createIndex('roles_organization').on('roles').column('organization_id').execute();
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
    await db.schema.createIndex('occupations_organization').on('occupations').column('organization_id').execute();
    await db.schema.createIndex('occupations_roles').on('occupations').using('gin').column('role_ids').execute();
  },
  async handle(events: StoredEvent[], db) {
    for (const event of events) await apply(db, event);
  },
});
