import type { Privilege, Role } from '@eelarve/shared';
import { sql } from 'kysely';
import { type AppDatabase, readModels } from '../../infrastructure/database';

/** Privileges are listed by id; the screens translate the name (`privilege.<ID>`). */
export const privilegeOption = (id: Privilege) => ({ id, name: id });

/** GET api/organization/{id}/roles; `inUse`: attached to an occupation (then it cannot be deleted). */
export async function listRoles(db: AppDatabase, organizationId: string): Promise<Role[]> {
  const rows = await readModels(db)
    .selectFrom('roles')
    .selectAll('roles')
    .select((eb) =>
      eb
        .exists(eb.selectFrom('occupations').select('occupations.id').where(sql<boolean>`roles.id = any(occupations.role_ids)`))
        .as('in_use'),
    )
    .where('roles.organization_id', '=', organizationId)
    .orderBy('roles.name')
    .execute();
  return rows.map((row) => ({
    id: row.id,
    organizationId: row.organization_id,
    name: row.name,
    description: row.description,
    privileges: (row.privilege_ids as Privilege[]).map(privilegeOption),
    type: row.type,
    inUse: Boolean(row.in_use),
  }));
}

export async function findRole(db: AppDatabase, roleId: string) {
  return readModels(db).selectFrom('roles').selectAll().where('id', '=', roleId).executeTakeFirst();
}

export async function roleAttached(db: AppDatabase, roleId: string): Promise<boolean> {
  const row = await readModels(db).selectFrom('occupations').select('id').where(sql<boolean>`${roleId}::uuid = any(role_ids)`).executeTakeFirst();
  return Boolean(row);
}

/** The organisation's admin role (type ADMIN), if it has one. */
export async function adminRoleOf(db: AppDatabase, organizationId: string) {
  return readModels(db).selectFrom('roles').selectAll().where('organization_id', '=', organizationId).where('type', '=', 'ADMIN').executeTakeFirst();
}
